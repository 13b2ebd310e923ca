"""Fleet: moves per second and apply_move latency for 1, 2 and 4 server processes sharing PostgreSQL, against
one process on SQLite, with the same agents; and what committing one move costs on each store.

Everything runs on 127.0.0.1: a throwaway PostgreSQL server started here (durable settings: fsync on,
synchronous_commit on), real `tabletop serve --http` processes, and N games of 4-player Cthulhu Dice with one
agent per seat (as benchmarks/load.py), all in this process. Each agent sends each call to the next server in
turn, as a load balancer that keeps nothing sticky would, so its wait_for_turn is often answered by a server
that learnt of the move from PostgreSQL's NOTIFY.

    .venv/bin/python benchmarks/fleet.py [--games 25] [--seats 4] [--processes 1,2,4] [--commits 1000] [--writers 8]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from mcp import Client

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from postgres_cluster import DURABLE_SETTINGS, Cluster  # noqa: E402

from tabletop.sessions.store import GameRecord, GameStore, MoveRecord, Store, now  # noqa: E402


#: MCP clients per server in the agents' process, shared by the agents.
CLIENTS_PER_SERVER = 20


def start_servers(db: str, count: int, log: Path) -> list[tuple[subprocess.Popen, str]]:
    """``count`` servers on ``db``, appending what they log (warnings, errors) to ``log``."""
    log = log.open("a")
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", db],
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
        for _ in range(count)
    ]
    return [(p, re.search(r"(http://127\.0\.0\.1:\d+/mcp)", p.stdout.readline()).group(1)) for p in procs]


def cpu_seconds(pid: int) -> float:
    ticks = [int(x) for x in Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[11:13]]
    return sum(ticks) / os.sysconf("SC_CLK_TCK")


def postgres_cpu(cluster: Cluster | None) -> float:
    """CPU seconds used so far by the PostgreSQL server's processes (the postmaster's children)."""
    if cluster is None:
        return 0.0
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().split(")")[1].split()
        except OSError:
            continue
        if int(fields[1]) == postmaster:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def agent(clients: list[Client], first: int, game_id: str, token: str, latencies: list[float], errors: list[str]) -> None:
    """Wait for the turn, roll until the stash holds 3, then bank; each call on the next server. A call that fails
    outright (no answer) is counted as an error and ends this agent."""
    try:
        await play_seat(clients, first, game_id, token, latencies, errors)
    except Exception as err:  # noqa: BLE001 - reported with the figures
        leaf = err
        while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:
            leaf = leaf.exceptions[0]
        errors.append(f"{type(leaf).__name__}: {leaf}")


async def play_seat(clients: list[Client], first: int, game_id: str, token: str, latencies: list[float], errors: list[str]) -> None:
    turn = first

    def next_client() -> Client:
        nonlocal turn
        turn += 1
        return clients[turn % len(clients)]

    while True:
        waited = await next_client().call_tool("wait_for_turn", {"game_id": game_id, "token": token, "timeout_seconds": 45})
        if waited.is_error:
            errors.append(waited.content[0].text)
            return
        state = waited.structured_content
        if state["game_over"]:
            return
        if not state["your_turn"]:
            continue
        move, ply = "roll", state["ply"]
        while True:
            started = time.perf_counter()
            result = await next_client().call_tool(
                "apply_move", {"game_id": game_id, "token": token, "move": move, "expected_ply": ply + 1}
            )
            latencies.append(time.perf_counter() - started)
            if result.is_error:
                errors.append(result.content[0].text)
                return
            answer = result.structured_content
            ply = answer["played"][-1]["ply"]
            if not answer["your_turn"]:
                break
            stash = [int(n) for p in answer["played"] for e in p["events"] for n in re.findall(r"Stash (\d+)", e)]
            move = "retreat" if stash and stash[-1] >= 3 else "roll"


async def run_load(db: str, processes: int, games: int, seats: int, log: Path, cluster: Cluster | None = None) -> dict:
    servers = start_servers(db, processes, log)
    urls = [url for _, url in servers]
    try:
        async with AsyncExitStack() as stack:
            admin = await stack.enter_async_context(Client(urls[0]))
            made = [
                (await admin.call_tool("new_game", {"game": "cthulhu-dice", "seats": seats})).structured_content
                for _ in range(games)
            ]
            latencies: list[float] = []
            errors: list[str] = []
            # CLIENTS_PER_SERVER clients per server, shared by the agents (a client sends many calls at once), so
            # that the agents' own process holds as many connections whatever the number of servers
            shared = [[await stack.enter_async_context(Client(url)) for url in urls] for _ in range(CLIENTS_PER_SERVER)]
            seated = [
                (shared[(number * seats + seat["seat"]) % CLIENTS_PER_SERVER], number + seat["seat"], game["game_id"], seat["token"])
                for number, game in enumerate(made)
                for seat in game["seats"]
            ]
            cpu_before = [cpu_seconds(p.pid) for p, _ in servers]
            db_before, agents_before = postgres_cpu(cluster), time.process_time()
            started = time.perf_counter()
            async with anyio.create_task_group() as tg:
                for clients, first, game_id, token in seated:
                    tg.start_soon(agent, clients, first, game_id, token, latencies, errors)
            elapsed = time.perf_counter() - started
            server_cpu = sum(cpu_seconds(p.pid) - before for (p, _), before in zip(servers, cpu_before))
            db_cpu, agents_cpu = postgres_cpu(cluster) - db_before, time.process_time() - agents_before
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait()
    ms = sorted(x * 1000 for x in latencies)
    return {
        "moves": len(ms),
        "seconds": elapsed,
        "rate": len(ms) / elapsed,
        "p50": statistics.median(ms),
        "p99": ms[min(len(ms) - 1, int(0.99 * len(ms)))],
        "server_cpu": server_cpu / elapsed,
        "per_move": [1000 * cpu / len(ms) for cpu in (server_cpu, db_cpu, agents_cpu)],
        "errors": errors,
    }


def commit_cost(store: Store, count: int) -> tuple[float, float, float]:
    """Mean, p50 and p99 (ms) of logging one move, acknowledged after its commit, ``count`` times in a row."""
    game_id = f"bench-{time.monotonic_ns()}"
    store.create_game(GameRecord(game_id, "cthulhu-dice", {}, 1, ["a", "b"], ["x", "y"], now(), True))
    action = {"kind": "roll"}
    events = ["Ann rolls: library; Elder Sign. Stash 2."]
    times = []
    for ply in range(1, count + 1):
        started = time.perf_counter()
        store.append_move(game_id, MoveRecord(ply, ply % 2, action, "roll", events, now()))
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.fmean(times), statistics.median(times), times[int(0.99 * len(times))]


def commit_capacity(store: Store, threads: int, per_thread: int) -> float:
    """Moves per second the store commits when ``threads`` writers, each on its own game, log moves one at a time
    (the most a fleet's writes could reach on this database, before any rules, MCP or HTTP work)."""
    games = [f"capacity-{time.monotonic_ns()}-{n}" for n in range(threads)]
    for game_id in games:
        store.create_game(GameRecord(game_id, "cthulhu-dice", {}, 1, ["a", "b"], ["x", "y"], now(), True))

    def writer(game_id: str) -> None:
        for ply in range(1, per_thread + 1):
            store.append_move(game_id, MoveRecord(ply, ply % 2, {"kind": "roll"}, "roll", ["Stash 1."], now()))

    pool = [threading.Thread(target=writer, args=(g,)) for g in games]
    started = time.perf_counter()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return threads * per_thread / (time.perf_counter() - started)


def catch_up_cost(store: Store, game_id_hint: str | None, count: int = 2000) -> float:
    """Mean (ms) of the check every call makes first: the game's last move number (one indexed query)."""
    game_id = game_id_hint or store.list_games(1)[0][0].id
    started = time.perf_counter()
    for _ in range(count):
        store.last_ply(game_id)
    return (time.perf_counter() - started) * 1000 / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--processes", default="1,2,4", help="fleet sizes to measure on PostgreSQL")
    parser.add_argument("--commits", type=int, default=1000, help="moves logged one by one per store for the commit cost")
    parser.add_argument("--writers", type=int, default=8, help="threads logging moves at once for the commit capacity")
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]

    print(f"machine: {os.cpu_count()} cores; {args.games} games x {args.seats} agents, calls spread over the servers", flush=True)
    with Cluster(DURABLE_SETTINGS) as cluster, tempfile.TemporaryDirectory() as folder:
        from tabletop.sessions.postgres import PostgresStore

        rows = []
        server_log = Path(folder) / "servers.log"
        result = anyio.run(run_load, str(Path(folder) / "load.sqlite3"), 1, args.games, args.seats, server_log)
        rows.append(("SQLite", 1, result))
        print(f"  SQLite x1 done: {result['rate']:.0f} moves/s", flush=True)
        for n in counts:
            result = anyio.run(run_load, cluster.create_database("fleet"), n, args.games, args.seats, server_log, cluster)
            rows.append(("PostgreSQL", n, result))
            print(f"  PostgreSQL x{n} done: {result['rate']:.0f} moves/s", flush=True)

        print()
        print("| store | processes | moves | moves/s | apply_move p50 | apply_move p99 | CPU per move: servers / PostgreSQL / agents | errors |")
        print("|---|---|---|---|---|---|---|---|")
        for store, n, r in rows:
            servers, database, agents = r["per_move"]
            print(
                f"| {store} | {n} | {r['moves']} | {r['rate']:.0f} | {r['p50']:.1f} ms | {r['p99']:.1f} ms | "
                f"{servers:.1f} / {database:.1f} / {agents:.1f} ms | {len(r['errors'])} |"
            )
        for _, _, r in rows:
            for text in r["errors"][:3]:
                print("error:", text[:200])
        if any(r["errors"] for _, _, r in rows):
            print("the servers' log ends with:")
            print(server_log.read_text(errors="replace")[-3000:])

        print()
        print(f"Commit cost per move ({args.commits} moves logged one after another, each acknowledged after its commit):")
        print(f"| store | mean | p50 | p99 | catch-up check (last move number) | moves/s committed by {args.writers} writers at once |")
        print("|---|---|---|---|---|---|")
        stores: list[tuple[str, Store]] = [
            ("SQLite, synchronous=NORMAL (default)", GameStore(Path(folder) / "normal.sqlite3")),
            ("SQLite, synchronous=FULL", GameStore(Path(folder) / "full.sqlite3", synchronous="FULL")),
            ("PostgreSQL, loopback TCP, synchronous_commit=on", PostgresStore(cluster.create_database("commit"))),
        ]
        for name, store in stores:
            mean, p50, p99 = commit_cost(store, args.commits)
            check = catch_up_cost(store, None)
            capacity = commit_capacity(store, args.writers, max(1, args.commits // args.writers))
            print(f"| {name} | {mean:.3f} ms | {p50:.3f} ms | {p99:.3f} ms | {check:.3f} ms | {capacity:.0f} |")
            store.close()


if __name__ == "__main__":
    main()
