"""Load: many agents over streamable HTTP on 127.0.0.1, each playing its own seat with wait_for_turn.

A real `tabletop serve --http` process; N games of 4-player Cthulhu Dice, one MCP client per seat (4N
agents at once), each waiting for its turn and answering it with apply_move. Printed: errors, moves,
apply_move latency p50/p90/p99 as the agents see it, and moves per second.

    .venv/bin/python benchmarks/load.py [--games 50] [--seats 4]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client


def start_server(db: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", proc.stdout.readline()).group(1)
    return proc, url


async def agent(url: str, game_id: str, token: str, latencies: list[float], errors: list[str]) -> None:
    """Wait for the turn, then roll until the stash holds 3 (reading it from the answers), then bank."""
    async with Client(url) as client:
        while True:
            waited = await client.call_tool("wait_for_turn", {"game_id": game_id, "token": token, "timeout_seconds": 45})
            if waited.is_error:
                errors.append(waited.content[0].text)
                return
            state = waited.structured_content
            if state["game_over"]:
                return
            if not state["your_turn"]:
                continue
            move = "roll"
            while True:
                started = time.perf_counter()
                result = await client.call_tool("apply_move", {"game_id": game_id, "token": token, "move": move})
                latencies.append(time.perf_counter() - started)
                if result.is_error:
                    errors.append(result.content[0].text)
                    return
                answer = result.structured_content
                if not answer["your_turn"]:
                    break
                stash = [int(n) for p in answer["played"] for e in p["events"] for n in re.findall(r"Stash (\d+)", e)]
                move = "retreat" if stash and stash[-1] >= 3 else "roll"


async def main(games: int, seats: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        proc, url = start_server(Path(folder) / "load.sqlite3")
        try:
            async with Client(url) as admin:
                made = [
                    (await admin.call_tool("new_game", {"game": "cthulhu-dice", "seats": seats})).structured_content
                    for _ in range(games)
                ]
            latencies: list[float] = []
            errors: list[str] = []
            started, client_cpu = time.perf_counter(), time.process_time()
            async with anyio.create_task_group() as tg:
                for game in made:
                    for seat in game["seats"]:
                        tg.start_soon(agent, url, game["game_id"], seat["token"], latencies, errors)
            elapsed, client_cpu = time.perf_counter() - started, time.process_time() - client_cpu
            ticks = [int(x) for x in Path(f"/proc/{proc.pid}/stat").read_text().split(")")[1].split()[11:13]]
            server_cpu = sum(ticks) / os.sysconf("SC_CLK_TCK")
        finally:
            proc.terminate()
            proc.wait()
    ms = sorted(x * 1000 for x in latencies)

    def pct(q: float) -> float:
        return ms[min(len(ms) - 1, int(q * len(ms)))]

    print(f"{games} games x {seats} agents over HTTP: {len(ms)} moves in {elapsed:.1f} s ({len(ms) / elapsed:.0f} moves/s), {len(errors)} errors")
    print(
        f"CPU over {elapsed:.1f} s of play: server {server_cpu:.1f} s ({server_cpu / elapsed:.0%} of a core), "
        f"the agents' own process {client_cpu:.1f} s ({client_cpu / elapsed:.0%})"
    )
    print(f"apply_move latency: p50 {statistics.median(ms):.0f} ms, p90 {pct(0.9):.0f} ms, p99 {pct(0.99):.0f} ms, max {ms[-1]:.0f} ms")
    for text in errors[:5]:
        print("error:", text[:200])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    anyio.run(main, args.games, args.seats)
