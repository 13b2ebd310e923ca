"""Storage faults are typed errors that lose nothing: a full disk and a database locked by another process
(SQLite); a statement held up too long, a database out of reach, dropped connections and a commit whose answer
was lost (PostgreSQL, its connections cut for real by a TCP proxy).

Both are real SQLite conditions: the database is capped with ``PRAGMA max_page_count`` (SQLite then
fails writes exactly as on a full disk: SQLITE_FULL), and a second connection holds an exclusive lock
for longer than the store's busy timeout.
"""

from __future__ import annotations

import sqlite3

import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.core.errors import GameError
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore, StorageError

pytestmark = pytest.mark.anyio


def fill_until_full(sessions: GameSessions, game_id: str, tokens: list[str]) -> StorageError:
    """Play until the capped database refuses a move; return that refusal."""
    for _ in range(5000):
        live = sessions.get(game_id)
        seat = live.to_move()[0]
        move = "retreat" if live.state.phase == "decide" and live.state.stash >= 1 else "roll"
        try:
            sessions.play(game_id, tokens[seat], move)
        except StorageError as err:
            return err
    raise AssertionError("the database never filled up")


def test_a_full_disk_is_a_storage_error_and_nothing_acknowledged_is_lost(tmp_path):
    db = tmp_path / "full.sqlite3"
    store = GameStore(db)
    sessions = GameSessions(store)
    live, tokens = sessions.create("cthulhu-dice", {"goal": 100}, 2, seed=7)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages + 2}")
    err = fill_until_full(sessions, live.id, tokens)
    assert err.kind == "storage_error" and "full" in str(err) and "nothing was changed" in str(err)
    acknowledged = store.last_ply(live.id)
    again = sessions.get(live.id)
    assert again.ply == acknowledged, "the game in memory is the game in the log"
    assert again.engine.view(again.state, None) == again.engine.view(sessions.replay(live.id), None)
    store._db.execute("PRAGMA max_page_count = 1073741823")  # space again: play goes on
    seat = again.to_move()[0]
    sessions.play(live.id, tokens[seat], "roll" if again.state.phase == "start" else "retreat")
    assert store.last_ply(live.id) == acknowledged + 1


def test_a_database_locked_too_long_is_a_storage_error_and_the_move_can_be_made_again(tmp_path):
    db = tmp_path / "locked.sqlite3"
    sessions = GameSessions(GameStore(db, busy_timeout_ms=50))
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=3)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(GameError) as err:
            sessions.play(live.id, tokens[0], "roll")
        assert err.value.kind == "storage_error" and "locked" in str(err.value)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert sessions.get(live.id).ply == 0
    sessions.play(live.id, tokens[0], "roll")
    assert sessions.store.last_ply(live.id) == 1


async def test_over_mcp_a_storage_failure_is_a_typed_tool_error(tmp_path):
    store = GameStore(tmp_path / "mcp.sqlite3")
    sessions = GameSessions(store)
    async with Client(build_server(sessions)) as client:
        made = (await client.call_tool("new_game", {"game": "cthulhu-dice", "seats": 2, "options": {"goal": 100}})).structured_content
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages + 2}")
        for _ in range(5000):
            state = (await client.call_tool("get_state", {"game_id": game_id, "detail": "full"})).structured_content
            seat = state["to_move"][0]
            move = "retreat" if state["view"]["phase"] == "decide" and state["view"]["stash"] >= 1 else "roll"
            result = await client.call_tool("apply_move", {"game_id": game_id, "token": tokens[seat], "move": move})
            if result.is_error:
                text = result.content[0].text
                assert "storage_error:" in text and "Error executing tool apply_move: storage_error" in text
                break
        else:
            raise AssertionError("the database never filled up")
        after = (await client.call_tool("get_state", {"game_id": game_id})).structured_content
        assert after["ply"] == store.last_ply(game_id) == state["ply"]


# ---- PostgreSQL: the same promises when its connections fail or a statement is held up -------------------


def postgres_sessions(url: str, **options) -> GameSessions:
    from tabletop.sessions.postgres import PostgresStore

    return GameSessions(PostgresStore(url, **options))


def test_postgres_a_statement_held_up_too_long_is_a_storage_error_and_the_move_can_be_made_again(postgres_url):
    import psycopg

    sessions = postgres_sessions(postgres_url, timeout_ms=200)
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=3)
    other = psycopg.connect(postgres_url)
    try:
        other.execute("LOCK TABLE moves IN EXCLUSIVE MODE")  # reads go on, writes wait for this transaction
        with pytest.raises(GameError) as err:
            sessions.play(live.id, tokens[0], "roll")
        assert err.value.kind == "storage_error" and "statement timeout" in str(err.value)
        assert "nothing was changed" in str(err.value)
    finally:
        other.rollback()
        other.close()
    assert sessions.get(live.id).ply == 0
    sessions.play(live.id, tokens[0], "roll")
    assert sessions.store.last_ply(live.id) == 1
    sessions.store.close()


def test_postgres_a_database_out_of_reach_is_a_storage_error_and_play_resumes_when_it_is_back(postgres_url, postgres_cluster):
    from .cutting_proxy import CuttingProxy

    proxy = CuttingProxy(postgres_cluster.port)
    sessions = postgres_sessions(proxy.url(postgres_url), timeout_ms=300)
    live, tokens = sessions.create("cthulhu-dice", {}, 2, seed=5)
    sessions.play(live.id, tokens[0], "roll")
    proxy.down()  # every connection dropped, none let through
    try:
        with pytest.raises(GameError) as err:
            sessions.play(live.id, tokens[live.to_move()[0]], "roll")
        assert err.value.kind == "storage_error", err.value
    finally:
        proxy.up()
    again = sessions.get(live.id)
    assert again.ply == 1, "nothing was changed"
    sessions.play(live.id, tokens[again.to_move()[0]], "roll")
    assert sessions.store.last_ply(live.id) == 2
    sessions.store.close()
    proxy.close()


def test_postgres_broken_connections_are_replaced_without_the_player_noticing(postgres_url, postgres_cluster):
    from .cutting_proxy import CuttingProxy

    proxy = CuttingProxy(postgres_cluster.port)
    sessions = postgres_sessions(proxy.url(postgres_url))
    live, tokens = sessions.create("cthulhu-dice", {"goal": 100}, 2, seed=6)
    for _ in range(3):
        sessions.play(live.id, tokens[live.to_move()[0]], "roll")
        proxy.down()  # the server "restarted": every pooled connection is now dead
        proxy.up()
    assert sessions.store.last_ply(live.id) == 3
    assert proxy.cuts == 0 and len(sessions.store.moves(live.id)) == 3
    sessions.store.close()
    proxy.close()


def test_postgres_a_move_whose_commit_answer_was_lost_is_found_committed_and_logged_once(postgres_url, postgres_cluster):
    from .cutting_proxy import CuttingProxy

    proxy = CuttingProxy(postgres_cluster.port)
    sessions = postgres_sessions(proxy.url(postgres_url))
    live, tokens = sessions.create("cthulhu-dice", {"goal": 100}, 2, seed=8)

    proxy.cut_after(b"INSERT INTO moves")  # the server commits the move; its answer never arrives
    first = sessions.play(live.id, tokens[0], "roll")
    assert proxy.cut_done.is_set() and proxy.cuts == 1
    assert first.ply == 1 and sessions.store.last_ply(live.id) == 1, "acknowledged once it was found committed"

    proxy.cut_before(b"INSERT INTO moves")  # the move never reaches the server
    seat = live.to_move()[0]
    second = sessions.play(live.id, tokens[seat], "roll")
    assert proxy.cuts == 2 and second.ply == 2
    logged = sessions.store.moves(live.id)
    assert [m.ply for m in logged] == [1, 2], "each move logged exactly once"
    assert [m.events for m in logged] == [first.events, second.events]
    fresh = postgres_sessions(postgres_url)
    assert fresh.get(live.id).engine.view(fresh.get(live.id).state, None) == live.engine.view(live.state, None)
    sessions.store.close()
    fresh.store.close()
    proxy.close()


async def test_over_mcp_a_postgres_storage_failure_is_a_typed_tool_error(postgres_url):
    import psycopg

    sessions = postgres_sessions(postgres_url, timeout_ms=200)
    async with Client(build_server(sessions)) as client:
        made = (await client.call_tool("new_game", {"game": "cthulhu-dice", "seats": 2})).structured_content
        game_id, token = made["game_id"], made["seats"][0]["token"]
        other = psycopg.connect(postgres_url)
        try:
            other.execute("LOCK TABLE moves IN EXCLUSIVE MODE")
            result = await client.call_tool("apply_move", {"game_id": game_id, "token": token, "move": "roll"})
        finally:
            other.rollback()
            other.close()
        assert result.is_error and "storage_error:" in result.content[0].text
        after = (await client.call_tool("get_state", {"game_id": game_id})).structured_content
        assert after["ply"] == 0
        played = await client.call_tool("apply_move", {"game_id": game_id, "token": token, "move": "roll"})
        assert not played.is_error and sessions.store.last_ply(game_id) == 1
    sessions.store.close()
