"""The replay of a finished game refereed at a real table: every position, entries and all, is rebuilt from the log
through the game's own chance source (a table's entries are not moves of the engine)."""

from __future__ import annotations

import random

from tabletop.render import to_svg
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore
from tabletop.watch.public import Replays


def test_a_finished_table_game_replays_move_by_move(tmp_path):
    sessions = GameSessions(GameStore(tmp_path / "games.sqlite3"))
    live, tokens = sessions.create("cthulhu-dice", {"chance": "table"}, ["Ann", "Bob"], seed=3)
    referee, pick = tokens[-1], random.Random(3)
    entries = 0
    for _ in range(2000):
        live = sessions.get(live.id)
        if live.engine.outcome(live.state) is not None:
            break
        if live.pending is not None:
            sessions.play(live.id, referee, "enter " + " ".join(live.pending.request.example()))
            entries += 1
            continue
        seat = live.to_move()[0]
        moves = [m.notation for g in live.legal_moves(seat).groups for m in g.moves]
        sessions.play(live.id, tokens[seat], "retreat" if "retreat" in moves and pick.random() < 0.4 else moves[0])
    assert live.engine.outcome(live.state) is not None and entries > 0
    replays = Replays(sessions)
    frames = [replays.frame(live, ply) for ply in range(live.ply + 1)]
    assert [f["ply"] for f in frames] == list(range(live.ply + 1))
    assert frames[-1]["svg"] == replays.frame(live, live.ply)["svg"]
    assert any(f["move"] and f["move"]["who"] == "referee" for f in frames), "the entries are the referee's"
    final = live.engine.draw(live.state, None, frozenset(), live.record.seat_names)
    assert frames[-1]["svg"] == to_svg(final), "the replay ends on the game's own final position"
