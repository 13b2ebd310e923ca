"""The server over real transports: stdio as a subprocess, streamable HTTP on 127.0.0.1 with and
without a bearer token, and a real server process killed with SIGKILL and restarted."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import anyio
import httpx2
import pytest
import uvicorn
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tabletop.app.http import http_app

from .helpers import call, refused

pytestmark = pytest.mark.anyio


async def test_stdio_subprocess(tmp_path):
    db = tmp_path / "stdio.sqlite3"
    params = StdioServerParameters(command=sys.executable, args=["-m", "tabletop", "serve", "--db", str(db)])
    async with Client(params) as client:
        assert (await call(client, "ping"))["ok"]
        game = await call(client, "new_game", game="cthulhu-dice", seats=2, seed=7)
        token = game["seats"][0]["token"]
        played = await call(client, "apply_move", game_id=game["game_id"], token=token, move="roll", detail="full")
        assert played["played"][0]["ply"] == 1
        assert "unknown_game" in await refused(client, "apply_move", game_id="x", token="y", move="z")
    # a second server process on the same file sees the game
    async with Client(params) as client:
        state = await call(client, "get_state", game_id=game["game_id"], detail="full")
        assert state["ply"] == 1 and state["view"] == played["view"]


@pytest.fixture
async def http_server(server):
    """The real ASGI app (with a token) on 127.0.0.1, an OS-chosen port."""
    uv = uvicorn.Server(uvicorn.Config(http_app(server, "127.0.0.1", "s3cret"), host="127.0.0.1", port=0, log_level="warning"))
    async with anyio.create_task_group() as tg:
        tg.start_soon(uv.serve)
        while not uv.started:
            await anyio.sleep(0.01)
        port = uv.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}/mcp"
        uv.should_exit = True


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_streamable_http_with_the_right_token(http_server, mode):
    headers = {"Authorization": "Bearer s3cret"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with Client(streamable_http_client(http_server, http_client=http), mode=mode) as client:
            game = await call(client, "new_game", game="cthulhu-dice", players=["A", "B"], seed=1)
            played = await call(
                client, "apply_move", game_id=game["game_id"], token=game["seats"][0]["token"], move="roll"
            )
            assert played["played"][0]["ply"] == 1


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret"}])
async def test_streamable_http_refuses_a_missing_or_wrong_token(http_server, headers):
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        raw = await http.post(http_server, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert raw.status_code == 401
        assert raw.headers["www-authenticate"].startswith("Bearer")
        with pytest.raises(Exception) as err:
            async with Client(streamable_http_client(http_server, http_client=http)) as client:
                await client.call_tool("ping", {})
        assert not isinstance(err.value, AssertionError)


def start_http_server(db, *extra: str) -> tuple[subprocess.Popen, str]:
    """`tabletop serve --http --port 0` as a real process; returns it and the URL it printed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(db), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = proc.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line)
    assert match, f"server printed {line!r}"
    return proc, match.group(1)


async def test_a_server_killed_with_sigkill_loses_no_acknowledged_move(stores):
    db = stores.target  # a SQLite file, then a PostgreSQL database
    proc, url = start_http_server(db)
    try:
        async with Client(url) as client:
            game = await call(client, "new_game", game="cthulhu-dice", seats=2, seed=2024)
            tokens = [s["token"] for s in game["seats"]]
            last = None
            for _ in range(25):
                state = await call(client, "get_state", game_id=game["game_id"], detail="full")
                if state["outcome"]:
                    break
                seat = state["to_move"][0]
                move = "retreat" if state["view"]["phase"] == "decide" and state["view"]["stash"] >= 2 else "roll"
                last = await call(client, "apply_move", game_id=game["game_id"], token=tokens[seat], move=move, detail="full")
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL

    # the database alone, read back in this process, holds every acknowledged move
    local = stores.sessions()
    live = local.get(game["game_id"])
    assert live.ply == last["played"][-1]["ply"] == 25
    assert live.engine.view(live.state, None) == last["view"]
    seat = live.to_move()[0]
    expected, _ = live.engine.apply(live.state, seat, live.engine.parse("roll", live.state, seat))

    proc, url = start_http_server(db)
    try:
        async with Client(url) as client:
            state = await call(client, "get_state", game_id=game["game_id"], detail="full")
            assert state["ply"] == 25 and state["view"] == last["view"]
            nxt = await call(client, "apply_move", game_id=game["game_id"], token=tokens[seat], move="roll", detail="full")
            assert nxt["view"] == live.engine.view(expected, None), "the restarted server rolls the same next dice"
    finally:
        proc.terminate()
        proc.wait()


async def test_http_token_from_the_environment(tmp_path):
    env_proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(tmp_path / "e.sqlite3")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "TABLETOP_TOKEN": "from-env"},
    )
    try:
        url = re.search(r"(http://\S+/mcp)", env_proc.stdout.readline()).group(1)
        async with httpx2.AsyncClient(timeout=30) as http:
            assert (await http.post(url, json={})).status_code == 401
        async with httpx2.AsyncClient(headers={"Authorization": "Bearer from-env"}, timeout=30) as http:
            async with Client(streamable_http_client(url, http_client=http)) as client:
                assert (await call(client, "ping"))["ok"]
    finally:
        env_proc.terminate()
        env_proc.wait()


@pytest.mark.parametrize("order", [("Bearer s3cret", "Bearer wrong"), ("Bearer wrong", "Bearer s3cret")])
async def test_two_authorization_headers_are_refused_whichever_comes_first(http_server, order):
    async with httpx2.AsyncClient(timeout=30) as http:
        raw = await http.post(
            http_server,
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            headers=[("Authorization", order[0]), ("Authorization", order[1]), ("Accept", "application/json, text/event-stream")],
        )
    assert raw.status_code == 401 and "more than one Authorization header" in raw.text
