"""PostgreSQL's own behaviour: hearing other processes' moves (one listening connection per process, surviving
a dropped connection), the schema created and migrated once however many processes start together, and what a
person is shown of a database URL."""

from __future__ import annotations

import threading

import anyio
import psycopg
import pytest

from tabletop.sessions.manager import GameSessions
from tabletop.sessions.postgres import POSTGRES_SCHEMA, PostgresStore, redacted
from tabletop.sessions.store import MIGRATIONS, StorageError

pytestmark = pytest.mark.anyio

#: Waiters here wait "for ever": one that returns was woken, not timed out and re-reading at its deadline.
FOREVER = 3600
#: Guards against a test hanging on a waiter nothing wakes (never a measure of speed).
HANG = 120


def sessions_on(url: str) -> GameSessions:
    return GameSessions(PostgresStore(url))


async def until(condition, what: str) -> None:
    """Wait for ``condition()`` (a guard against hanging, not a measure of speed)."""
    with anyio.fail_after(60):
        while not condition():
            await anyio.sleep(0.01)


def bring_seat_one_to_move(sessions: GameSessions, game_id: str, token: str) -> None:
    sessions.play(game_id, token, "roll")
    if sessions.get(game_id).to_move() == [0]:
        sessions.play(game_id, token, "retreat")


async def test_one_listening_connection_per_process_wakes_every_waiter(postgres_url):
    here, there = sessions_on(postgres_url), sessions_on(postgres_url)
    games = [there.create("cthulhu-dice", {}, 2, seed=s) for s in range(8)]
    results: dict[str, object] = {}

    async def waiter(game_id: str, token: str) -> None:
        results[game_id] = await here.wait_for_turn(game_id, token, timeout=FOREVER)

    with anyio.fail_after(HANG):
        async with anyio.create_task_group() as tg:
            for live, tokens in games:
                tg.start_soon(waiter, live.id, tokens[1])
            await until(lambda: here.waiting_games() == 8, "every waiter waiting")
            await until(lambda: here.store.listener.listening.is_set() and there.store.listener.listening.is_set(), "listening")
            with psycopg.connect(postgres_url, autocommit=True) as raw:
                listening = {
                    pid
                    for (pid,) in raw.execute(
                        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %%'"
                    )
                }
            assert listening == {here.store.listener.backend_pid, there.store.listener.backend_pid}, "one per process"
            for live, tokens in games:
                bring_seat_one_to_move(there, live.id, tokens[0])  # another process: only a notification reaches `here`
    assert all(status.your_turn and not status.timed_out for status in results.values()) and len(results) == 8
    here.store.close()
    there.store.close()


async def test_a_waiter_does_not_poll_the_database(postgres_url):
    here, there = sessions_on(postgres_url), sessions_on(postgres_url)
    assert here.poll is None
    live, tokens = there.create("cthulhu-dice", {}, 2, seed=3)
    reads = []
    last_ply = here.store.last_ply
    here.store.last_ply = lambda game_id: reads.append(game_id) or last_ply(game_id)
    results = []

    async def waiter() -> None:
        results.append(await here.wait_for_turn(live.id, tokens[1], timeout=FOREVER))

    with anyio.fail_after(HANG):
        async with anyio.create_task_group() as tg:
            tg.start_soon(waiter)
            await until(lambda: here.waiting_games() == 1 and reads, "waiting")
            await anyio.sleep(2)  # a 0.5 s poll would have read the log four more times by now
            quiet = len(reads)
            bring_seat_one_to_move(there, live.id, tokens[0])
    assert quiet <= 2, f"the waiter read the log {quiet} times while nothing happened"
    assert results[0].your_turn and results[0].game.ply == there.get(live.id).ply
    here.store.close()
    there.store.close()


async def test_the_listener_reconnects_and_waiters_catch_up_on_moves_made_while_it_was_away(postgres_url):
    here, there = sessions_on(postgres_url), sessions_on(postgres_url)
    listener = here.store.listener
    await until(listener.listening.is_set, "listening")
    gate = threading.Event()
    connect = here.store.connect

    def held_at_the_gate(**options):  # only the listener passes keepalive options
        if "keepalives" in options:
            gate.wait()
        return connect(**options)

    here.store.connect = held_at_the_gate
    live, tokens = there.create("cthulhu-dice", {}, 2, seed=12)
    results = []

    async def waiter() -> None:
        results.append(await here.wait_for_turn(live.id, tokens[1], timeout=FOREVER))

    try:
        with anyio.fail_after(HANG):
            async with anyio.create_task_group() as tg:
                tg.start_soon(waiter)
                await until(lambda: here.asleep(live.id) == 1, "waiting")  # its first read done, so it cannot see the move
                with psycopg.connect(postgres_url, autocommit=True) as raw:
                    raw.execute("SELECT pg_terminate_backend(%s)", (listener.backend_pid,))
                await until(lambda: not listener.listening.is_set(), "the connection dropped")
                bring_seat_one_to_move(there, live.id, tokens[0])  # its notification reaches nobody in `here`
                await anyio.sleep(0.5)
                assert not results, "nothing could have told the waiter yet"
                gate.set()  # the listener reconnects, and the waiters re-read the log
    finally:
        gate.set()
    assert results[0].your_turn and not results[0].timed_out
    assert listener.connections == 2
    here.store.close()
    there.store.close()


def test_processes_starting_together_create_and_migrate_the_schema_once(postgres_url):
    stores, errors = [], []

    def start() -> None:
        try:
            stores.append(PostgresStore(postgres_url))
        except Exception as err:  # noqa: BLE001 - collected for the assertion
            errors.append(err)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(stores) == 6
    assert {s.schema_version() for s in stores} == {len(MIGRATIONS)}
    for store in stores:
        store.close()


def test_a_database_from_before_secret_seeds_is_migrated_once_and_its_games_marked_known(postgres_url):
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute(POSTGRES_SCHEMA)  # version 0, as the first release left it
        raw.execute(
            "INSERT INTO games VALUES ('cthulhu-dice-0ld', 'cthulhu-dice', '{}', 5, '[\"a\", \"b\"]', '[\"x\", \"y\"]', '2026-01-01')"
        )
    sessions = sessions_on(postgres_url)
    assert sessions.store.load_game("cthulhu-dice-0ld").seed_chosen, "its creator was shown the seed"
    live, _ = sessions.create("cthulhu-dice", {}, 2)
    chosen, _ = sessions.create("cthulhu-dice", {}, 2, seed=3)
    assert (live.record.seed_chosen, chosen.record.seed_chosen) == (False, True)
    again = PostgresStore(postgres_url)
    assert again.load_game(live.id).seed_chosen is False
    assert again.schema_version() == len(MIGRATIONS)
    sessions.store.close()
    again.close()


def test_a_database_set_up_by_a_newer_version_or_by_someone_else_is_refused(postgres_url):
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("UPDATE tabletop_schema SET version = 99")
    with pytest.raises(StorageError, match="newer version of tabletop"):
        PostgresStore(postgres_url)
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("DROP TABLE tabletop_schema")
    with pytest.raises(StorageError, match="did not make"):
        PostgresStore(postgres_url)


def test_a_database_that_cannot_be_reached_is_a_storage_error_saying_why(postgres_cluster):
    with pytest.raises(StorageError) as err:
        PostgresStore(postgres_cluster.url("no_such_database"))
    assert "no_such_database" in str(err.value) and "does not exist" in str(err.value)


def test_urls_are_shown_without_their_password():
    assert redacted("postgresql://ann:s3cret@db.example:5432/games") == "postgresql://ann:***@db.example:5432/games"
    assert redacted("postgresql://ann@db/games?password=s3cret&sslmode=require") == (
        "postgresql://ann@db/games?password=***&sslmode=require"
    )
    assert redacted("postgresql:///games?host=/run/postgresql") == "postgresql:///games?host=/run/postgresql"
    assert redacted("postgres://ann@db:5432/games") == "postgres://ann@db:5432/games"
