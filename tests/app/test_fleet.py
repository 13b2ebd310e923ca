"""A fleet: three real `tabletop serve --http` processes on one PostgreSQL database, 127.0.0.1 only.

Agents spread their calls over the three (each call to the next server, as a load balancer that keeps
nothing sticky would send them, or through such a balancer), play whole games to the end; agents racing
for one move on different servers get exactly one winner; a server killed with SIGKILL mid-game loses no
acknowledged move and the others carry on.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tabletop.sessions.manager import GameSessions
from tabletop.sessions.postgres import PostgresStore

pytestmark = pytest.mark.anyio

SERVERS = 3


def start_fleet(db: str, count: int) -> list[tuple[subprocess.Popen, str]]:
    """``count`` servers on one database, started together; each with the URL it printed."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", db],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for _ in range(count)
    ]
    fleet = []
    for proc in procs:
        line = proc.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line)
        assert match, f"server printed {line!r}"
        fleet.append((proc, match.group(1)))
    return fleet


@pytest.fixture
def fleet(postgres_url):
    servers = start_fleet(postgres_url, SERVERS)
    yield servers
    for proc, _ in servers:
        if proc.poll() is None:
            proc.terminate()
        proc.wait()


class RoundRobin:
    """An ordinary HTTP load balancer in miniature: each request goes to the next server in turn, nothing sticky."""

    def __init__(self, urls: list[str]) -> None:
        self.origins = [re.match(r"(http://[^/]+)", u).group(1) for u in urls]
        self.turn = 0
        self.http = httpx2.AsyncClient(timeout=120)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            while (message := await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await self.http.aclose()
            await send({"type": "lifespan.shutdown.complete"})
            return
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        origin = self.origins[self.turn % len(self.origins)]
        self.turn += 1
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in (b"host", b"content-length", b"connection")]
        query = f"?{scope['query_string'].decode()}" if scope["query_string"] else ""
        request = self.http.build_request(scope["method"], f"{origin}{scope['path']}{query}", headers=headers, content=body)
        response = await self.http.send(request, stream=True)
        hop = (b"content-length", b"transfer-encoding", b"connection")
        await send({
            "type": "http.response.start",
            "status": response.status_code,
            "headers": [(k, v) for k, v in response.headers.raw if k.lower() not in hop],
        })  # fmt: skip
        async for chunk in response.aiter_raw():
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        await response.aclose()


async def call_on(url: str, tool: str, args: dict[str, Any], mode: str = "auto") -> Any:
    """One tool call on one server (a new client each time: the next call may go elsewhere)."""
    async with httpx2.AsyncClient(timeout=120) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            return await client.call_tool(tool, args)


class Agent:
    """One seat: waits for its turn and moves, each call on the next server it believes alive.

    A call that fails because its server died is sent again, unchanged, to the next one: ``expected_ply``
    makes a repeated move safe (answered as already played if it had been committed)."""

    def __init__(self, urls: list[str], game_id: str, token: str, seat: int, mode: str = "auto") -> None:
        self.urls, self.game_id, self.token, self.mode = list(urls), game_id, token, mode
        self.turn = seat
        self.pick = random.Random(seat)
        self.acknowledged: list[tuple[int, str]] = []  # (ply, notation) of every move the fleet acknowledged
        self.dead: set[str] = set()

    async def call(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        failure: Exception | None = None
        while alive := [u for u in self.urls if u not in self.dead]:
            url = alive[self.turn % len(alive)]
            self.turn += 1
            try:
                result = await call_on(url, tool, args, self.mode)
            except Exception as err:  # noqa: BLE001 - the server is gone (killed): try the next one
                self.dead.add(url)
                failure = err
                continue
            assert not result.is_error, result.content[0].text
            return result.structured_content
        raise AssertionError(f"no server answered {tool}: {failure!r}")

    async def play(self) -> None:
        while True:
            waited = await self.call("wait_for_turn", {"game_id": self.game_id, "token": self.token, "timeout_seconds": 45})
            if waited["game_over"]:
                return
            if not waited["your_turn"]:
                continue
            legal = [m for group in waited["legal"] for m in group["moves"]]
            move = "retreat" if "retreat" in legal and self.pick.random() < 0.45 else legal[0]
            played = await self.call(
                "apply_move", {"game_id": self.game_id, "token": self.token, "move": move, "expected_ply": waited["ply"] + 1}
            )
            self.acknowledged += [(p["ply"], p["move"]) for p in played["played"]]


async def new_games(url: str, count: int) -> list[dict[str, Any]]:
    return [
        (await call_on(url, "new_game", {"game": "cthulhu-dice", "seats": 2 + n % 3, "options": {"goal": 5}})).structured_content
        for n in range(count)
    ]


def check_logs(postgres_url: str, games: list[dict[str, Any]], agents: list[Agent]) -> None:
    """Every game over; every acknowledged move in the log, once, in place; the log replays to the same game."""
    sessions = GameSessions(PostgresStore(postgres_url))
    try:
        for game in games:
            live = sessions.get(game["game_id"])
            assert live.engine.outcome(live.state) is not None, "the game was played to the end"
            logged = {m.ply: m.notation for m in sessions.store.moves(live.id)}
            assert sorted(logged) == list(range(1, live.ply + 1))
            acknowledged = [a for agent in agents if agent.game_id == live.id for a in agent.acknowledged]
            assert len(acknowledged) == len(set(p for p, _ in acknowledged)) == live.ply, "each move acknowledged once"
            assert all(logged[ply] == notation for ply, notation in acknowledged)
            assert live.engine.view(sessions.replay(live.id), None) == live.engine.view(live.state, None)
    finally:
        sessions.store.close()


async def test_agents_spread_over_three_servers_play_every_game_to_the_end(fleet, postgres_url):
    urls = [url for _, url in fleet]
    balancer = RoundRobin(urls)
    uv = uvicorn.Server(uvicorn.Config(balancer, host="127.0.0.1", port=0, log_level="warning"))
    games = await new_games(urls[0], 6)
    agents = []
    async with anyio.create_task_group() as serving:
        serving.start_soon(uv.serve)
        while not uv.started:
            await anyio.sleep(0.01)
        balanced = f"http://127.0.0.1:{uv.servers[0].sockets[0].getsockname()[1]}/mcp"
        for number, game in enumerate(games):
            through_balancer = number % 2 == 1  # older clients open an MCP session: the fleet must keep none
            for seat in game["seats"]:
                agents.append(
                    Agent([balanced] if through_balancer else urls, game["game_id"], seat["token"], seat["seat"],
                          mode="legacy" if through_balancer else "auto")
                )  # fmt: skip
        with anyio.fail_after(600):
            async with anyio.create_task_group() as tg:
                for agent in agents:
                    tg.start_soon(agent.play)
        uv.should_exit = True
    assert balancer.turn > 100, "the balancer spread many requests"
    answers = [(await call_on(url, "history", {"game_id": games[0]["game_id"]})).structured_content for url in urls]
    assert answers[0] == answers[1] == answers[2], "every server tells the same story"
    check_logs(postgres_url, games, agents)


async def test_racing_for_one_move_on_different_servers_gives_exactly_one_winner(fleet):
    urls = [url for _, url in fleet]
    made = (await call_on(urls[0], "new_game", {"game": "game-of-war", "options": {"opening": "default"}, "seed": 0})).structured_content
    game_id = made["game_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    for round_ in range(6):
        legal = (await call_on(urls[round_ % SERVERS], "get_state", {"game_id": game_id})).structured_content
        seat = legal["to_move"][0]
        options = (await call_on(urls[0], "legal_moves", {"game_id": game_id, "token": tokens[seat], "detail": "full"})).structured_content
        moves = [o["notation"] for g in options["groups"] for o in g["options"]][:6]
        ply = legal["ply"]
        answers: list[Any] = [None] * len(moves)

        async def racer(k: int) -> None:
            args = {"game_id": game_id, "token": tokens[seat], "move": moves[k], "expected_ply": ply + 1}
            answers[k] = await call_on(urls[k % SERVERS], "apply_move", args)

        async with anyio.create_task_group() as tg:
            for k in range(len(moves)):
                tg.start_soon(racer, k)
        won = [k for k, a in enumerate(answers) if not a.is_error]
        assert len(won) == 1, [a.content[0].text[:120] for a in answers]
        assert answers[won[0]].structured_content["already_played"] is False
        assert all("conflict" in a.content[0].text for k, a in enumerate(answers) if k != won[0])
        history = (await call_on(urls[(round_ + 1) % SERVERS], "history", {"game_id": game_id, "after": ply})).structured_content
        assert [m["move"] for m in history["moves"]] == [moves[won[0]]] and history["ply"] == ply + 1


async def test_a_server_killed_mid_game_loses_no_acknowledged_move_and_the_others_carry_on(fleet, postgres_url):
    urls = [url for _, url in fleet]
    games = await new_games(urls[0], 4)
    agents = [Agent(urls, g["game_id"], s["token"], s["seat"]) for g in games for s in g["seats"]]
    victim, victim_url = fleet[1]

    async def kill_mid_game() -> None:
        with anyio.fail_after(300):
            while sum(len(a.acknowledged) for a in agents) < 25:
                await anyio.sleep(0.005)
        os.kill(victim.pid, signal.SIGKILL)

    with anyio.fail_after(600):
        async with anyio.create_task_group() as tg:
            tg.start_soon(kill_mid_game)
            for agent in agents:
                tg.start_soon(agent.play)
    victim.wait()
    assert victim.returncode == -signal.SIGKILL
    assert any(victim_url in a.dead for a in agents), "agents found the killed server gone and moved on"
    check_logs(postgres_url, games, agents)
