"""A database that goes away under a running server: nothing is acknowledged that would not last.

SQLite: the file deleted, moved or replaced while the store is open is found before (and after) every write and
answered with storage_error, said once in the server's log; after a restart every acknowledged move is there.
PostgreSQL: the moves table dropped under a running store is a storage_error too."""

from __future__ import annotations

import logging
import os
import shutil

import pytest
from mcp import Client

from app.helpers import call, refused
from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.postgres import PostgresStore
from tabletop.sessions.store import GameStore


@pytest.mark.anyio
@pytest.mark.parametrize("how", ["deleted", "moved", "replaced"])
async def test_a_sqlite_file_gone_under_a_running_server_is_a_storage_error_and_nothing_acknowledged_is_lost(tmp_path, how, caplog):
    path = tmp_path / "games.sqlite3"
    store = GameStore(path)
    server = build_server(GameSessions(store))
    async with Client(server) as client:
        made = await call(client, "new_game", game="cthulhu-dice", players=["Ann", "Bob"])
        game_id, token = made["game_id"], made["seats"][0]["token"]
        await call(client, "apply_move", game_id=game_id, token=token, move="roll")
        if how == "deleted":
            os.remove(path)
        elif how == "moved":
            os.rename(path, tmp_path / "elsewhere.sqlite3")
        else:
            shutil.copy(path, tmp_path / "copy.sqlite3")
            os.replace(tmp_path / "copy.sqlite3", path)
        with caplog.at_level(logging.ERROR, logger="tabletop.storage"):
            text = await refused(client, "apply_move", game_id=game_id, token=token, move="roll")
            assert "storage_error" in text and "deleted, moved or replaced" in text
            assert "storage_error" in await refused(client, "new_game", game="cthulhu-dice", players=["Cy", "Di"])
        said = [r for r in caplog.records if "deleted, moved or replaced" in r.getMessage()]
        assert len(said) == 1, "the server says what happened, once"
    store.close()
    if how == "moved":
        os.rename(tmp_path / "elsewhere.sqlite3", path)
    if path.exists():  # the restart finds every move it acknowledged (one roll), and none it refused
        again = GameStore(path)
        assert [m.notation for m in again.moves(game_id)] == ["roll"]
        assert len(again.list_games(10)) == 1
        again.close()


def test_a_dropped_moves_table_under_a_running_postgresql_store_is_a_storage_error(postgres_url):
    store = PostgresStore(postgres_url)
    try:
        sessions = GameSessions(store)
        live, tokens = sessions.create("cthulhu-dice", None, ["Ann", "Bob"])
        sessions.play(live.id, tokens[0], "roll")
        with store._pool.connection() as conn:  # another program drops the table
            conn.execute("DROP TABLE moves CASCADE")
        with pytest.raises(Exception) as refused_error:
            sessions.play(live.id, tokens[0], "roll")
        assert getattr(refused_error.value, "kind", None) == "storage_error", refused_error.value
    finally:
        store.close()
