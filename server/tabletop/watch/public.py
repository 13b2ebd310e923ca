"""What a spectator may see of a game: every page and event of the watching site is built here, and only here.

Everything comes from the engines' public side, the view of seat ``None``: the picture is ``Engine.draw``
for no seat, the position in words ``Engine.describe`` for no seat, and the log keeps only the moves
``Engine.move_visible`` lets no seat read (a hidden deployment's placements stay out until both sides have
committed, and while the set-up is secret the moves shown are numbered among themselves, so that nobody
learns how many secret placements were made). The seed is shown only once the game is over.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..core.game import Engine
from ..render import to_svg
from ..sessions.live import LiveGame, chance_source
from ..sessions.manager import GameSessions
from ..sessions.store import MoveRecord
from ..sessions.table import as_seen_by

#: The most log lines one page or event carries (the latest ones); a long Cthulhu Wars game has many hundreds.
MAX_LOG = 400
#: Finished games whose positions are kept in memory for replays (each: one state per move).
REPLAY_CACHE = 4


def seat_labels(live: LiveGame) -> list[str]:
    """Each seat as the site names it: the player's name with what it plays, as the tools' texts do."""
    return [live.seat_label(seat) for seat in range(len(live.record.seat_names))]


def log_line(number: int, labels: list[str], move: MoveRecord, live: LiveGame) -> dict[str, Any]:
    """One line of the log; in a table game, the referee's entries and undos are the referee's
    ("referee: entered 3, 5 for Ann's move"), not the seat's whose move they answer."""
    act = live.referee_act(move)
    if act:
        return {"n": number, "who": "referee", "move": act, "events": list(move.events)}
    return {"n": number, "who": labels[move.seat], "move": move.notation, "events": list(move.events)}


def public_log(sessions: GameSessions, live: LiveGame, state: Any, ply: int) -> list[dict[str, Any]]:
    """The moves a spectator may read in ``state`` (the position after ``ply`` moves), in words."""
    engine, labels = live.engine, seat_labels(live)
    logged = sessions.store.moves(live.id, 0, ply)
    over = engine.outcome(state) is not None
    shown = [as_seen_by(m, None, over) for m in logged if engine.move_visible(state, m.seat, None)]
    if engine.secret_phase(state):
        return [log_line(n, labels, m, live) for n, m in enumerate(shown, start=1)]
    return [log_line(m.ply, labels, m, live) for m in shown]


def picture(engine: Engine, state: Any, names: list[str]) -> str | None:
    scene = engine.draw(state, None, frozenset(), names)
    return None if scene is None else to_svg(scene)


def game_view(sessions: GameSessions, live: LiveGame) -> dict[str, Any]:
    """The whole spectator page of a game as JSON-ready data (the same for the first page and every event)."""
    state, ply = live.state, live.ply  # one consistent position: another thread may play meanwhile
    engine, record = live.engine, live.record
    labels = seat_labels(live)
    outcome = engine.outcome(state)
    log = public_log(sessions, live, state, ply)
    return {
        "id": live.id,
        "game": engine.name,
        "title": engine.title,
        "players": labels,
        "to_move": [] if outcome else [labels[s] for s in engine.to_move(state)],
        "moves": len(log) if engine.secret_phase(state) else ply,
        "secret_setup": engine.secret_phase(state),
        "log": log[-MAX_LOG:],
        "log_cut": max(0, len(log) - MAX_LOG),
        "over": outcome is not None,
        "result": outcome.reason if outcome else None,
        "winners": [labels[s] for s in outcome.winners] if outcome else [],
        "seed": record.seed if outcome else None,
        "position": engine.describe(state, None),
        "svg": picture(engine, state, record.seat_names),
        "created_at": record.created_at,
    }


class Replays:
    """Positions of finished games, move by move, for the replay control (rebuilt from seed and log)."""

    def __init__(self, sessions: GameSessions, keep: int = REPLAY_CACHE) -> None:
        self.sessions = sessions
        self.keep = keep
        self._states: OrderedDict[str, list[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def frame(self, live: LiveGame, ply: int) -> dict[str, Any]:
        """The position after ``ply`` moves of a finished game: its picture and the move that led to it."""
        states = self._positions(live)
        ply = max(0, min(ply, len(states) - 1))
        state = states[ply]
        move = self.sessions.store.moves(live.id, ply - 1, 1) if ply else []
        labels = seat_labels(live)
        return {
            "ply": ply,
            "last": len(states) - 1,
            "move": log_line(ply, labels, move[0], live) if move else None,
            "svg": picture(live.engine, state, live.record.seat_names),
        }

    def _positions(self, live: LiveGame) -> list[Any]:
        with self._lock:
            states = self._states.get(live.id)
            if states is not None:
                self._states.move_to_end(live.id)
                return states
        replaying = LiveGame(live.record, live.engine, live.options, None, chance=chance_source(live.options))
        replaying.state = replaying.fresh_state()
        states = [replaying.state]
        for move in self.sessions.store.moves(live.id):  # through the game's chance source: a table's entries too
            replaying.chance.replay(replaying, move)
            states.append(replaying.state)
        with self._lock:
            self._states[live.id] = states
            while len(self._states) > self.keep:
                self._states.popitem(last=False)
        return states
