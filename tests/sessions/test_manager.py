"""Sessions: seats and tokens, the move log, restarts, races between writers, waiting for a turn.

Every test of the store's behaviour runs twice, on SQLite and on PostgreSQL (the ``stores`` fixture);
tests of SQLite's own settings and file format run on SQLite alone.
"""

from __future__ import annotations

import json
import sqlite3
import threading

import anyio
import pytest

from tabletop.core.errors import BadOptions, GameError, GameOver, IllegalMove, MalformedMove, NotYourTurn
from tabletop.games.cthulhu_dice import ENGINE
from tabletop.sessions.manager import BadToken, GameSessions, MoveConflict, UnknownGame
from tabletop.sessions.store import GameStore


@pytest.fixture
def db(stores):
    """The test's database, SQLite or PostgreSQL; ``sessions_on(db)`` is one server process on it."""
    return stores


@pytest.fixture
def sqlite_db(tmp_path):
    return tmp_path / "games.sqlite3"


def sessions_on(db, **options) -> GameSessions:
    return db.sessions(**options)


def play_until_over(sessions: GameSessions, game_id: str, tokens: list[str], limit: int = 100_000) -> None:
    for _ in range(limit):
        live = sessions.get(game_id)
        to_move = live.to_move()
        if not to_move:
            return
        seat = to_move[0]
        move = "roll" if live.state.phase == "start" or live.state.stash < 3 else "retreat"
        sessions.play(game_id, tokens[seat], move)
    raise AssertionError("game did not end")


def test_a_restarted_server_restores_every_game_exactly(db):
    first = sessions_on(db)
    a, tokens_a = first.create("cthulhu-dice", {}, ["Ann", "Bob"], seed=11)
    b, tokens_b = first.create("cthulhu-dice", {"goal": 6}, 3, seed=12)
    for _ in range(5):
        first.play(a.id, tokens_a[a.to_move()[0]], "roll" if a.state.phase == "start" else "retreat")
    first.play(b.id, tokens_b[0], "roll")
    first.store.close()

    second = sessions_on(db)  # as if the server restarted
    for live in (a, b):
        again = second.get(live.id)
        assert again.ply == live.ply
        assert ENGINE.view(again.state, None) == ENGINE.view(live.state, None)
        assert again.state.rng == live.state.rng, "the same next dice"
        assert again.record.seat_names == live.record.seat_names
    # and the next roll is the same in both worlds
    seat = a.to_move()[0]
    expected, _ = ENGINE.apply(a.state, seat, ENGINE.parse("roll", a.state, seat))
    got = second.play(a.id, tokens_a[seat], "roll").state_after
    assert ENGINE.view(got, None) == ENGINE.view(expected, None)


def test_replaying_the_log_reproduces_the_state(db):
    sessions = sessions_on(db)
    live, tokens = sessions.create("cthulhu-dice", {}, 4, seed=5)
    play_until_over(sessions, live.id, tokens)
    assert ENGINE.outcome(live.state) is not None
    assert ENGINE.view(sessions.replay(live.id), None) == ENGINE.view(live.state, None)


def test_tokens_are_required_and_stored_only_as_hashes(db):
    sessions = sessions_on(db)
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=1)
    with pytest.raises(BadToken):
        sessions.play(live.id, None, "roll")
    with pytest.raises(BadToken):
        sessions.play(live.id, "not-a-token", "roll")
    with pytest.raises(NotYourTurn):
        sessions.play(live.id, tokens[1], "roll")
    raw = db.everything_stored()
    assert live.id.encode() in raw, "the check reads what is stored"
    assert all(t.encode() not in raw for t in tokens)
    assert live.ply == 0


def test_every_refusal_leaves_the_game_unchanged(db):
    sessions = sessions_on(db)
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=3)
    before = (live.ply, ENGINE.view(live.state, None), live.state.rng.draws)
    for token, move, error in [
        (tokens[0], "retreat", IllegalMove),
        (tokens[0], "dance", MalformedMove),
        (tokens[0], {"kind": "jump"}, MalformedMove),
        (tokens[1], "roll", NotYourTurn),
    ]:
        with pytest.raises(error):
            sessions.play(live.id, token, move)
        assert (live.ply, ENGINE.view(live.state, None), live.state.rng.draws) == before
    assert sessions.store.last_ply(live.id) == 0
    with pytest.raises(UnknownGame):
        sessions.get("cthulhu-dice-00000000")
    with pytest.raises(BadOptions):
        sessions.create("chess", {}, 2)
    with pytest.raises(BadOptions):
        sessions.create("cthulhu-dice", {"goal": 0}, 2)
    with pytest.raises(BadOptions):
        sessions.create("cthulhu-dice", {}, 9)


def test_a_finished_game_refuses_moves(db):
    sessions = sessions_on(db)
    live, tokens = sessions.create("cthulhu-dice", {"goal": 3}, 2, seed=9)
    play_until_over(sessions, live.id, tokens)
    with pytest.raises(GameOver):
        sessions.play(live.id, tokens[0], "roll")


def test_a_dry_run_plays_nothing(db):
    sessions = sessions_on(db)
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=3)
    preview = sessions.play(live.id, tokens[0], "roll", dry_run=True)
    assert preview.dry_run and preview.events == [] and preview.chance is not None, "a roll's result is never previewed"
    assert live.ply == 0 and live.state.rng.draws == 0 and sessions.store.last_ply(live.id) == 0
    sessions.play(live.id, tokens[0], "roll")
    if live.to_move() == [0]:
        preview = sessions.play(live.id, tokens[0], "retreat", dry_run=True)
        real = sessions.play(live.id, tokens[0], "retreat")
        assert preview.chance is None and real.events == preview.events, "a move without chance is shown exactly"


class CountingLock:
    """A lock that counts how often a thread found it held by another (a real collision)."""

    def __init__(self) -> None:
        self.inner = threading.Lock()
        self.contended = 0

    def __enter__(self):
        if not self.inner.acquire(blocking=False):
            self.contended += 1
            self.inner.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.inner.release()


def test_racing_threads_never_interleave_writes(db):
    """Four threads send the same seat's move for the same ply at once, round after round: exactly
    one is played; the three others are told it was already played (their retry, by ``expected``);
    the game's lock really was contended; the log is one unbroken sequence."""
    sessions = sessions_on(db)
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=21)
    lock = live.lock = CountingLock()
    errors: list[BaseException] = []
    rounds = 0
    while rounds < 30 or (lock.contended == 0 and rounds < 300):
        if not live.to_move():
            break
        seat, ply = live.to_move()[0], live.ply
        move = "roll" if live.state.phase == "start" or live.state.stash < 2 else "retreat"
        start = threading.Barrier(4)
        outcomes: list[str] = []

        def send() -> None:
            try:
                start.wait()
                played = sessions.play(live.id, tokens[seat], move, expected=ply + 1)
                outcomes.append("already" if played.already else "played")
            except BaseException as err:  # any refusal here is a bug: all four sent the same move
                errors.append(err)

        threads = [threading.Thread(target=send) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        assert sorted(outcomes) == ["already", "already", "already", "played"], (rounds, outcomes)
        assert live.ply == ply + 1, "exactly one move for this ply"
        rounds += 1
    assert lock.contended > 0, "the threads never met at the game's lock"
    plies = [m.ply for m in sessions.store.moves(live.id)]
    assert plies == list(range(1, live.ply + 1)) and live.ply == rounds, "one unbroken sequence of moves"
    assert ENGINE.view(sessions.replay(live.id), None) == ENGINE.view(live.state, None)


def test_two_server_processes_sharing_a_database_see_each_others_moves(db):
    here, there = sessions_on(db), sessions_on(db)
    live, tokens = here.create("cthulhu-dice", {}, 2, seed=4)
    here.play(live.id, tokens[0], "roll")
    remote = there.get(live.id)
    assert remote.ply == 1 and ENGINE.view(remote.state, None) == ENGINE.view(live.state, None)
    there.play(live.id, tokens[0], "retreat")
    assert here.get(live.id).ply == 2
    assert ENGINE.view(here.get(live.id).state, None) == ENGINE.view(remote.state, None)


def let_in_before_next_append(store, interloper) -> None:
    """Make ``store`` let another writer in just before its next append (a deterministic race)."""
    append = store.append_moves

    def racing(game_id, moves):
        store.append_moves = append
        interloper()
        append(game_id, moves)

    store.append_moves = racing


def test_a_writer_that_lost_a_race_with_another_process_is_refused_and_catches_up(db):
    here = sessions_on(db)
    there = sessions_on(db)
    live, tokens = here.create("cthulhu-dice", {}, 2, seed=4)
    let_in_before_next_append(here.store, lambda: there.play(live.id, tokens[0], "roll"))
    with pytest.raises(MoveConflict):
        here.play(live.id, tokens[0], "roll")
    assert [m.ply for m in here.store.moves(live.id)] == [1]
    assert live.ply == 1
    assert ENGINE.view(live.state, None) == ENGINE.view(there.get(live.id).state, None)


def test_the_move_log_is_append_only(db):
    sessions = sessions_on(db)
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=4)
    sessions.play(live.id, tokens[0], "roll")
    with pytest.raises(db.refusal, match="append-only"):
        db.execute("UPDATE moves SET notation = 'retreat'")
    with pytest.raises(db.refusal, match="append-only"):
        db.execute("DELETE FROM moves")
    if db.postgres:
        with pytest.raises(db.refusal, match="append-only"):
            db.execute("TRUNCATE moves")
    assert [(m.ply, m.notation) for m in sessions.store.moves(live.id)] == [(1, "roll")]


async def test_wait_for_turn_wakes_when_the_other_seat_moves(db):
    sessions = sessions_on(db)
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=8)
    results = []

    async def waiter():
        results.append(await sessions.wait_for_turn(live.id, tokens[1], timeout=10))

    async with anyio.create_task_group() as tg:
        tg.start_soon(waiter)
        await anyio.sleep(0.05)
        assert not results
        sessions.play(live.id, tokens[0], "roll")
        if live.to_move() == [0]:
            sessions.play(live.id, tokens[0], "retreat")
    assert results[0].your_turn and not results[0].timed_out
    status = await sessions.wait_for_turn(live.id, tokens[0], timeout=0.05)
    assert status.timed_out and not status.your_turn


pytestmark = pytest.mark.anyio


def test_synchronous_mode_is_normal_by_default_and_full_on_request(sqlite_db):
    db = sqlite_db
    assert GameStore(db)._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert GameStore(db, synchronous="FULL")._db.execute("PRAGMA synchronous").fetchone()[0] == 2
    assert GameStore(db)._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_wait_for_turn_notices_a_move_made_by_another_process(db):
    here, there = sessions_on(db), sessions_on(db)
    live, tokens = here.create("cthulhu-dice", {}, 2, seed=8)
    results = []

    async def waiter():
        results.append(await here.wait_for_turn(live.id, tokens[1], timeout=10))

    async with anyio.create_task_group() as tg:
        tg.start_soon(waiter)
        await anyio.sleep(0.05)
        there.play(live.id, tokens[0], "roll")  # the other process: no in-memory wake-up reaches `here`
        if there.get(live.id).to_move() == [0]:
            there.play(live.id, tokens[0], "retreat")
    assert results[0].your_turn and results[0].game.ply == there.get(live.id).ply


def test_games_dropped_from_memory_reload_exactly_from_the_log(db):
    sessions = sessions_on(db, max_live=2)
    games = [sessions.create("cthulhu-dice", {}, 2, seed=s) for s in range(4)]
    after = [sessions.play(live.id, tokens[0], "roll").state_after for live, tokens in games]
    assert len(sessions._live) == 2, "only the two most recently used games stay in memory"
    assert games[0][0].id not in sessions._live
    again = sessions.get(games[0][0].id)  # reloaded from its seed and log
    assert again.ply == 1
    assert ENGINE.view(again.state, None) == ENGINE.view(after[0], None) and again.state.rng == after[0].rng
    sessions.play(again.id, games[0][1][0], "retreat" if again.state.phase == "decide" else "roll")
    assert sessions.store.last_ply(again.id) == 2


def test_a_database_from_before_secret_seeds_is_migrated_once_and_its_games_marked_known(sqlite_db):
    from tabletop.sessions.store import MIGRATIONS, SCHEMA

    db = sqlite_db
    old = sqlite3.connect(db)
    old.executescript(SCHEMA)
    old.execute(
        "INSERT INTO games VALUES ('cthulhu-dice-0ld', 'cthulhu-dice', '{}', 5, '[\"a\", \"b\"]', '[\"x\", \"y\"]', '2026-01-01')"
    )
    old.commit()
    old.close()
    sessions = GameSessions(GameStore(db))
    assert sessions.store.load_game("cthulhu-dice-0ld").seed_chosen, "its creator was shown the seed"
    live, _ = sessions.create("cthulhu-dice", {}, 2)
    chosen, _ = sessions.create("cthulhu-dice", {}, 2, seed=3)
    assert (live.record.seed_chosen, chosen.record.seed_chosen) == (False, True)
    again = GameStore(db)  # a second open applies nothing twice
    assert again.load_game(live.id).seed_chosen is False
    assert again._db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_a_stored_game_whose_rules_changed_is_refused_clearly_and_left_unchanged(db):
    sessions = sessions_on(db)
    live, tokens = sessions.create("cthulhu-wars", {}, 3, seed=2)
    old_options = {**live.record.options, "yha_nthlei_counts_submerged": False}  # an option that no longer exists
    db.execute("UPDATE games SET options = ? WHERE id = ?", (json.dumps(old_options), live.id))
    fresh = sessions_on(db)
    with pytest.raises(GameError) as err:
        fresh.get(live.id)
    assert err.value.kind == "unreadable_game" and "cannot be replayed" in str(err.value)
    assert fresh.store.load_game(live.id).options == old_options


def test_a_new_game_whose_random_id_is_taken_gets_another(db, monkeypatch):
    import tabletop.sessions.manager as manager

    sessions = sessions_on(db)
    first, _ = sessions.create("cthulhu-dice", {}, 2, seed=1)
    drawn = iter([first.id.rsplit("-", 1)[1], first.id.rsplit("-", 1)[1], "0badcafe"])
    real = manager.secrets.token_hex
    monkeypatch.setattr(manager.secrets, "token_hex", lambda n: next(drawn) if n == 4 else real(n))  # game ids only
    second, tokens = sessions.create("cthulhu-dice", {}, 2, seed=2)
    assert second.id == "cthulhu-dice-0badcafe"
    assert sessions_on(db).get(first.id).record == first.record, "the first game is untouched"
    assert sessions_on(db).get(second.id).record.seed == 2
    sessions.play(second.id, tokens[0], "roll")
