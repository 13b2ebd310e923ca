from __future__ import annotations

import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore


@pytest.fixture
def server(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    yield build_server(GameSessions(store))
    store.close()


# "auto": the SDK's in-process path, protocol 2026-07-28; "legacy": JSON-RPC streams with the initialize handshake
@pytest.fixture(params=["auto", "legacy"])
async def client(request, server):
    async with Client(server, mode=request.param) as c:
        yield c
