"""Bot seats under load: one `tabletop serve --http` process, games with bots the server plays and agents over MCP.

Two phases in one run, against the same server process:
1. without bots: ``--games`` four-player Cthulhu Wars games whose four seats are all held by scripted agents (one
   measured agent per game, the other three seats played by the same script), ``--baseline-decisions`` decisions of
   the measured agent each;
2. with bots: ``--games`` four-player games, each with three ``bot:heuristic`` seats and one scripted agent, played
   to the end.

A scripted agent waits for its turn (``wait_for_turn``), reads the position (``get_state``) and plays a random
legal move (``apply_move``). Printed: games finished, errors, bot decisions and decisions per second, the agents'
``apply_move`` and ``get_state`` p50/p99 in each phase, the server's CPU (its process and its bot processes) per
bot decision, and each bot decision's wall time from the move that made its seat awaited to its own move (read from
the log's times). Targets (issue 31): 0 errors; every game finishes; p99 with bots <= 2x the p99 without; no bot
decision over its budget (2 s by default) + 1 s.

    .venv/bin/python benchmarks/bot_seats.py [--games 20] [--baseline-decisions 60]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

BUDGET = 2.0  # the default thinking time of a bot seat (seats/spec.py)
CLOCK = os.sysconf("SC_CLK_TCK")


def start_server(db: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", proc.stdout.readline()).group(1)
    return proc, url


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its living children (the bot processes)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if entry.name == str(pid) or fields[1] == str(pid):
            total += (int(fields[11]) + int(fields[12])) / CLOCK
    return total


class Agent:
    """One MCP client playing the seats it holds at random; it times its own apply_move and get_state calls."""

    def __init__(self, url: str, seed: int) -> None:
        self.url, self.rng = url, random.Random(seed)
        self.times: dict[str, list[float]] = {"apply_move": [], "get_state": []}
        self.errors = 0

    async def call(self, client: Client, tool: str, **args: Any) -> dict[str, Any]:
        started = time.perf_counter()
        result = await client.call_tool("apply_move" if tool == "apply_other" else tool, args)
        if tool in self.times:
            self.times[tool].append(time.perf_counter() - started)
        if result.is_error:
            self.errors += 1
            raise RuntimeError(f"{tool}: {result.content[0].text}")
        return result.structured_content

    async def play(self, client: Client, game_id: str, tokens: dict[int, str], decisions: int | None) -> bool:
        """Play the seats of ``tokens`` (seat -> token) until the game ends (True) or ``decisions`` of the measured
        seat (the first) were made. Only the measured seat's get_state and apply_move are timed."""
        measured, made = min(tokens), 0
        while decisions is None or made < decisions:
            wait = 0 if len(tokens) > 1 else 5  # holding every seat, some seat of ours is always awaited
            turn = await self.call(client, "wait_for_turn", game_id=game_id, token=tokens[measured], timeout_seconds=wait)
            if turn["game_over"]:
                return True
            ours = [s for s in turn["to_move"] if s in tokens]
            if not ours:
                continue
            seat = ours[0]
            tool = "get_state" if seat == measured else "legal_moves"
            state = await self.call(client, tool, game_id=game_id, token=tokens[seat])
            groups = state["legal"] if seat == measured else state["groups"]
            moves = [m for group in groups or [] for m in group["moves"]]
            if moves:
                await self.call(client, "apply_move" if seat == measured else "apply_other", game_id=game_id,
                                token=tokens[seat], move=self.rng.choice(moves))
                made += seat == measured
        return False


async def one_game(url: str, players: list[str], seed: int, decisions: int | None, agents: list[Agent],
                   games: list[str]) -> None:
    agent = Agent(url, seed)
    agents.append(agent)
    async with httpx2.AsyncClient(timeout=120) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            made = await agent.call(client, "new_game", game="cthulhu-wars", players=players, seed=seed)
            games.append(made["game_id"])
            tokens = {s["seat"]: s["token"] for s in made["seats"] if s["token"]}
            try:
                await agent.play(client, made["game_id"], tokens, decisions)
            except RuntimeError as err:
                print(f"  game {made['game_id']}: {err}", file=sys.stderr)


async def phase(url: str, count: int, players: list[str], decisions: int | None, first_seed: int):
    agents: list[Agent] = []
    games: list[str] = []
    async with anyio.create_task_group() as group:
        for k in range(count):
            group.start_soon(one_game, url, players, first_seed + k, decisions, agents, games)
    return agents, games


def quantiles(agents: list[Agent], tool: str) -> tuple[float, float, int]:
    times = sorted(t for a in agents for t in a.times[tool])
    if not times:
        return 0.0, 0.0, 0
    return statistics.median(times), times[min(len(times) - 1, int(0.99 * len(times)))], len(times)


async def bot_decision_times(url: str, game_ids: list[str], bot_seats: set[int]) -> tuple[list[float], int]:
    """Each bot move's wall time after the move before it (the log's times), and how many games ended."""
    times, ended = [], 0
    async with httpx2.AsyncClient(timeout=120) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            for game_id in game_ids:
                after, previous = 0, None
                while True:
                    page = (await client.call_tool("history", {"game_id": game_id, "after": after, "limit": 200})).structured_content
                    for move in page["moves"]:
                        at = datetime.fromisoformat(move["played_at"]).timestamp()
                        if previous is not None and move["seat"] in bot_seats:
                            times.append(at - previous)
                        previous = at
                    if page["next_cursor"] is None:
                        break
                    after = page["next_cursor"]
                state = (await client.call_tool("get_state", {"game_id": game_id})).structured_content
                ended += state["outcome"] is not None
    return times, ended


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--baseline-decisions", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        proc, url = start_server(Path(folder) / "games.sqlite3")
        try:
            started = time.perf_counter()
            base, _ = await phase(url, args.games, ["Agent", "P2", "P3", "P4"], args.baseline_decisions, 1000)
            print(f"without bots: {args.games} games, {time.perf_counter() - started:.1f} s")
            cpu_before, started = cpu_seconds(proc.pid), time.perf_counter()
            with_bots, game_ids = await phase(url, args.games, ["Agent", "bot:heuristic", "bot:heuristic", "bot:heuristic"],
                                              None, 2000)
            wall, cpu = time.perf_counter() - started, cpu_seconds(proc.pid) - cpu_before
            decisions, finished = await bot_decision_times(url, game_ids, {1, 2, 3})
            async with httpx2.AsyncClient(timeout=60) as http:
                async with Client(streamable_http_client(url, http_client=http)) as client:
                    pong = (await client.call_tool("ping", {})).structured_content
        finally:
            proc.terminate()
            proc.wait(30)
    errors = sum(a.errors for a in base + with_bots)
    print(f"with bots: {args.games} games, {finished} finished, {wall:.1f} s; errors {errors}")
    print(f"bot decisions: {pong['bot_decisions']} played, {pong['bot_wasted']} wasted, "
          f"{pong['bot_decisions'] / wall:.1f} a second; server CPU (with its bot processes) "
          f"{1000 * cpu / max(1, pong['bot_decisions']):.1f} ms a decision")
    decisions.sort()
    if decisions:
        print(f"bot decision wall time (awaited -> played): median {1000 * statistics.median(decisions):.0f} ms, "
              f"p99 {1000 * decisions[int(0.99 * (len(decisions) - 1))]:.0f} ms, max {1000 * decisions[-1]:.0f} ms; "
              f"over budget + 1 s ({BUDGET + 1:.0f} s): {sum(t > BUDGET + 1 for t in decisions)}")
    for tool in ("apply_move", "get_state"):
        (b50, b99, bn), (w50, w99, wn) = quantiles(base, tool), quantiles(with_bots, tool)
        print(f"{tool}: without bots p50 {1000 * b50:.1f} ms p99 {1000 * b99:.1f} ms ({bn} calls); with bots p50 "
              f"{1000 * w50:.1f} ms p99 {1000 * w99:.1f} ms ({wn} calls); p99 ratio {w99 / b99 if b99 else 0:.2f}")


if __name__ == "__main__":
    anyio.run(main)
