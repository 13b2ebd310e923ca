"""``tabletop arena`` end to end, as real processes: the arena command starts its own ``tabletop serve --http`` on
127.0.0.1, bots play as MCP clients over HTTP, external programs play as ``cmd:`` players, a killed arena resumes."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.arena.spec import SpecError, build, rotation, schedule
from tabletop.arena.standings import standings
from tabletop.sessions.store import GameStore
from tabletop.sessions.tokens import seat_of

HERE = Path(__file__).parent


def arena(tmp_path: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "tabletop", "arena", *args, "--db", str(tmp_path / "games.sqlite3"),
               "--report", str(tmp_path / "reports"), "--quiet"]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=tmp_path)


def only_tournament(tmp_path: Path):
    store = GameStore(tmp_path / "games.sqlite3")
    (record,) = store.list_tournaments()
    return store, record


@pytest.mark.parametrize(
    "game, players, games, strong",
    [
        ("cthulhu-dice", ["bot:optimal", "bot:random"], 16, "bot:optimal"),
        ("game-of-war", ["bot:heuristic", "bot:random"], 2, "bot:heuristic"),
        ("cthulhu-wars", ["bot:heuristic", "bot:random", "bot:random"], 6, "bot:heuristic"),
    ],
)
def test_a_bots_only_tournament_plays_every_game_over_mcp_and_rates_the_stronger_bot_first(tmp_path, game, players, games, strong):
    done = arena(tmp_path, game, *players, "--games", str(games), "--parallel", "3")
    assert done.returncode == 0, done.stderr
    store, record = only_tournament(tmp_path)
    assert record.finished_at is not None and record.game == game
    slots = store.tournament_games(record.id)
    assert len(slots) == games and all(g.status == "finished" and g.outcome["ended_by"] == "game" for g in slots)
    for g in slots:
        stored = store.load_game(g.game_id)
        assert not stored.seed_chosen, "the arena never chose (so never knew) a game's seed"
        assert stored.seat_names == g.players
        assert g.outcome["stats"][str(g.players.index(strong))]["fallbacks"] == 0, "the strong bot always chose its own move"
    seats_of = {p: sorted(g.players.index(p) for g in slots) for p in {q for g in slots for q in g.players}}
    assert len({tuple(s) for s in seats_of.values()}) == 1, "every player sat in every seat equally often"
    table = standings(store, record.id)
    assert table[0].player == strong and table[0].wins > table[1].wins
    report = json.loads((tmp_path / "reports" / f"{record.id}.json").read_text())
    assert report["standings"][0]["player"] == strong and len(report["games"]) == games
    assert all(g["replay"] == f"tabletop replay {g['game_id']}" for g in report["games"])
    markdown = (tmp_path / "reports" / f"{record.id}.md").read_text()
    assert "## Standings" in markdown and strong in markdown
    replay = subprocess.run([sys.executable, "-m", "tabletop", "replay", slots[0].game_id, "--db", str(tmp_path / "games.sqlite3")],
                            capture_output=True, text=True, timeout=300)
    assert replay.returncode == 0, replay.stderr
    lines = replay.stdout.splitlines()
    assert lines[-1].startswith("Result: ") and len(lines) == 2 + len(store.moves(slots[0].game_id))
    store.close()


def test_a_killed_arena_resumes_without_replaying_or_counting_any_finished_game_twice(tmp_path):
    args = ["cthulhu-dice", "bot:optimal", "bot:random", "--games", "12", "--parallel", "2"]
    command = [sys.executable, "-m", "tabletop", "arena", *args, "--db", str(tmp_path / "games.sqlite3"),
               "--report", str(tmp_path / "reports"), "--quiet"]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    db = tmp_path / "games.sqlite3"
    deadline = time.monotonic() + 600
    finished: dict[int, tuple] = {}
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if not db.exists():
            continue
        try:
            with sqlite3.connect(db) as raw:
                rows = raw.execute("SELECT slot, game_id, status, outcome FROM tournament_games").fetchall()
        except sqlite3.OperationalError:  # the tables are not there yet
            continue
        if sum(r[2] == "finished" for r in rows) >= 3 and any(r[2] == "running" for r in rows):
            first.send_signal(signal.SIGKILL)
            first.wait()
            break
    else:
        pytest.fail("the first run never had 3 games finished and one running")
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT slot, game_id, status, outcome FROM tournament_games").fetchall()
    finished = {slot: (gid, outcome) for slot, gid, status, outcome in rows if status == "finished"}
    running = {slot: gid for slot, gid, status, _ in rows if status == "running"}
    assert finished and running and len(finished) < 12

    again = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    store, record = only_tournament(tmp_path)
    slots = {g.slot: g for g in store.tournament_games(record.id)}
    assert len(slots) == 12 and all(g.status == "finished" for g in slots.values()) and record.finished_at
    for slot, (gid, outcome) in finished.items():
        assert slots[slot].game_id == gid and slots[slot].outcome == json.loads(outcome), "a finished game is never replayed"
    for slot, gid in running.items():
        assert slots[slot].game_id != gid and slots[slot].outcome["abandoned_games"] == [gid], "a running game is replayed"
    assert sum(row.games for row in standings(store, record.id)) == 2 * 12, "each game counted once for each of its two players"
    listed = {r.id for r, _ in store.list_games(limit=100)}
    recorded = {g.game_id for g in slots.values()} | set(running.values())
    assert recorded <= listed
    # a game the killed arena had created but not yet recorded as running is left unplayed and never counted
    assert len(listed - recorded) <= 2 - len(running), "at most one game per parallel place was lost, none replayed twice"
    store.close()


def test_cmd_players_get_only_their_own_seat_and_cannot_act_for_another(tmp_path):
    agent = f"cmd:{sys.executable} {HERE / 'dice_agent.py'} {tmp_path}/record-{{game_id}}-{{seat}}.json"
    done = arena(tmp_path, "cthulhu-dice", agent, agent, "--games", "2", "--parallel", "1")
    assert done.returncode == 0, done.stderr
    store, record = only_tournament(tmp_path)
    slots = store.tournament_games(record.id)
    assert all(g.status == "finished" for g in slots), [g.outcome for g in slots]
    out_of_turn = []
    for g in slots:
        hashes = store.load_game(g.game_id).token_hashes
        for seat in (0, 1):
            given = json.loads((tmp_path / f"record-{g.game_id}-{seat}.json").read_text())
            env = given["env"]
            assert env["TABLETOP_GAME_ID"] == g.game_id and env["TABLETOP_SEAT"] == str(seat)
            assert seat_of(env["TABLETOP_SEAT_TOKEN"], hashes) == seat
            handed = [v for v in [*env.values(), *given["argv"]] if seat_of(v, hashes) is not None]
            assert handed == [env["TABLETOP_SEAT_TOKEN"]], "its own seat's token is the only one it was given"
            assert given["other_token"] != "accepted" and "token" in given["other_token"].lower()
            out_of_turn += given["out_of_turn"]
    assert out_of_turn and all(t != "accepted" and "not" in t.lower() for t in out_of_turn), out_of_turn
    store.close()


def test_seatings_are_balanced_and_bad_tournaments_are_refused_with_a_reason():
    for seats in (2, 3, 4, 5):
        block = rotation(seats, seats)
        for player in range(seats):
            places = [order.index(player) for order in block]
            assert len({places.count(seat) for seat in range(seats)}) == 1, "each seat equally often"
        if seats >= 3:
            follows = {(a, b): 0 for a in range(seats) for b in range(seats) if a != b}
            for order in block:
                for i in range(seats):
                    follows[(order[i], order[(i + 1) % seats])] += 1
            assert len(set(follows.values())) == 1, "each player follows each other equally often"
    spec = build({"game": "cthulhu-wars", "players": ["bot:heuristic", "bot:random", "bot:random", "bot:random"], "seats": 3, "games": 24})
    assert len(schedule(spec)) == 24 and all(len(set(p)) == 3 for p in schedule(spec))
    with pytest.raises(SpecError, match="multiple of 2"):
        build({"game": "cthulhu-dice", "players": ["bot:optimal", "bot:random"], "games": 3})
    with pytest.raises(SpecError, match="no bot"):
        build({"game": "cthulhu-dice", "players": ["bot:genius", "bot:random"]})
    with pytest.raises(SpecError, match="unknown game"):
        build({"game": "chess", "players": ["bot:random", "bot:random"]})
    with pytest.raises(SpecError, match="on_limit"):
        build({"game": "cthulhu-dice", "players": ["bot:random", "bot:random"], "limits": {"on_limit": "shrug"}})


def test_a_tournament_file_and_a_bad_command_line_say_what_is_wrong(tmp_path):
    (tmp_path / "cup.toml").write_text(
        'name = "file cup"\ngame = "cthulhu-dice"\ngames = 2\nparallel = 2\n'
        '[[players]]\nspec = "bot:optimal"\n[[players]]\nname = "baseline"\nspec = "bot:random"\n'
    )
    done = arena(tmp_path, "--file", str(tmp_path / "cup.toml"))
    assert done.returncode == 0, done.stderr
    store, record = only_tournament(tmp_path)
    assert record.name == "file cup" and {p for g in store.tournament_games(record.id) for p in g.players} == {"bot:optimal", "baseline"}
    store.close()
    bad = arena(tmp_path, "cthulhu-dice", "bot:optimal", "bot:nobody")
    assert bad.returncode == 2 and "no bot 'nobody'" in bad.stderr and "Traceback" not in bad.stderr


def test_the_readme_tournament_file_is_valid():
    import re
    import tomllib

    readme = (HERE.parent.parent / "README.md").read_text(encoding="utf-8")
    spec = build(tomllib.loads(re.search(r"```toml\n(.*?)```", readme, re.S).group(1)))
    assert spec.games == 40 and [p.kind for p in spec.players] == ["bot", "openai"] and spec.limits.on_limit == "random"
