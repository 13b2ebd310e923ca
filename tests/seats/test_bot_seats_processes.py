"""Bot seats in real `tabletop serve --http` processes on real stores: a SIGKILL mid-game and a restart (SQLite and
PostgreSQL), and a fleet of two servers on PostgreSQL where the one driving a game's bots is killed."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tabletop.sessions.manager import GameSessions

pytestmark = pytest.mark.anyio


def start_server(db: str) -> tuple[subprocess.Popen, str]:
    """A server process on ``db``; the URL it printed."""
    proc = subprocess.Popen([sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", db],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    match = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", proc.stdout.readline())
    assert match, "the server printed its URL"
    return proc, match.group(1)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def call(url: str, tool: str, **args: Any) -> dict[str, Any]:
    async with httpx2.AsyncClient(timeout=120) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            result = await client.call_tool(tool, args)
    assert not result.is_error, result.content[0].text
    return result.structured_content


async def moves_of(url: str, game_id: str) -> list[tuple[int, int, str]]:
    """Every logged move as (number, seat, notation)."""
    out, after = [], 0
    while True:
        page = await call(url, "history", game_id=game_id, after=after, limit=200)
        out += [(m["ply"], m["seat"], m["move"]) for m in page["moves"]]
        if page["next_cursor"] is None:
            return out
        after = page["next_cursor"]


async def until(url: str, game_id: str, ready) -> dict[str, Any]:
    with anyio.fail_after(300):  # a guard against a hang, not a measure of speed
        while not ready(state := await call(url, "get_state", game_id=game_id)):
            await anyio.sleep(0.3)
    return state


def same_as_replay(store, game_id: str, logged: list[tuple[int, int, str]]) -> None:
    """The log is a game the engine replays move by move, numbered 1..n without a gap: nothing doubled or lost."""
    sessions = GameSessions(store)
    live = sessions.get(game_id)
    assert [n for n, _, _ in logged] == list(range(1, live.ply + 1))
    assert live.engine.view(sessions.replay(game_id), None) == live.engine.view(live.state, None)


async def test_killed_mid_game_the_bots_resume_after_a_restart_losing_and_doubling_nothing(stores):
    first, url = start_server(stores.target)
    try:
        made = await call(url, "new_game", game="cthulhu-wars", players=["bot:heuristic", "bot:random", "bot:heuristic"],
                          seed=21)
        game_id = made["game_id"]
        state = await until(url, game_id, lambda s: s["ply"] >= 30)
        first.send_signal(signal.SIGKILL)
        first.wait()
    finally:
        stop(first)
    second, url = start_server(stores.target)
    try:
        before = await moves_of(url, game_id)
        assert len(before) >= state["ply"], "every move the killed server acknowledged is kept"
        state = await until(url, game_id, lambda s: s["outcome"] is not None)
        after = await moves_of(url, game_id)
        assert after[: len(before)] == before and len(after) > len(before)
        same_as_replay(stores.open(), game_id, after)
        pong = await call(url, "ping")
        assert pong["bot_decisions"] > 0
    finally:
        stop(second)


async def test_a_fleet_of_two_drives_each_game_once_and_takes_over_from_a_killed_server(postgres_url):
    from tabletop.sessions.postgres import PostgresStore

    store = PostgresStore(postgres_url)
    servers = [start_server(postgres_url) for _ in range(2)]
    try:
        made = [await call(servers[k % 2][1], "new_game", game="cthulhu-wars", seed=30 + k,
                           players=["bot:heuristic", "bot:heuristic", "bot:random"]) for k in range(2)]
        ids = [m["game_id"] for m in made]
        await until(servers[0][1], ids[0], lambda s: s["ply"] >= 20)
        held = store._run("read", lambda c: c.execute("SELECT holder FROM bot_games WHERE game_id = %s", (ids[0],)).fetchone())[0]
        pids = {proc.pid: (proc, url) for proc, url in servers}
        victim = next((pid for pid in pids if held and f":{pid}:" in held), servers[0][0].pid)
        pids[victim][0].send_signal(signal.SIGKILL)
        pids[victim][0].wait()
        survivor = next(url for pid, (_, url) in pids.items() if pid != victim)
        for game_id in ids:
            await until(survivor, game_id, lambda s: s["outcome"] is not None)
            same_as_replay(store, game_id, await moves_of(survivor, game_id))
        pong = await call(survivor, "ping")
        assert pong["bot_decisions"] > 0
        assert pong["bot_wasted"] <= 2, "two servers hardly ever think out the same decision"
    finally:
        for proc, _ in servers:
            stop(proc)
        store.close()
