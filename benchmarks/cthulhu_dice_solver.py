"""Benchmark the exact Cthulhu Dice solver (server/tabletop/games/cthulhu_dice/solver.py).

Prints, each solve in a fresh process (so its peak memory is its own):

* the standard two-player game (8 Library, 4 Museum, 3 Tomb; goal 13): solve time (wall and CPU),
  peak memory, the first player's win probability, and the largest difference from the shipped table;
* time to the first advice for a non-standard variant, cold (solved on first use through the table
  service, as the MCP tool does) and cached (a new service reading the cache folder);
* the standard three-player game: solve time, peak memory, every seat's win probability, the table's
  size, and the largest difference from the shipped table;
* standard Zombie Dice (6/4/3) against T. Neller's published 0.4648573;
* the advisor's and the odds' speed.

    .venv/bin/python benchmarks/cthulhu_dice_solver.py [--skip-three-players] [--skip-zombie-dice]

The machine is shared: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

from tabletop.games.cthulhu_dice import solver
from tabletop.games.cthulhu_dice.advisor import Advisor, Position, roll_odds
from tabletop.games.cthulhu_dice.model import CTHULHU_DICE, ZOMBIE_DICE, DiceRules, GameRules
from tabletop.games.cthulhu_dice.tables import Tables
from tabletop.games.cthulhu_dice.turn import turn_graph

GAMES = {"cthulhu-dice": CTHULHU_DICE, "zombie-dice": ZOMBIE_DICE}
#: The non-standard variant timed for first advice: the standard bag and goal, must_retreat, shared wins.
VARIANT = GameRules(dice=DiceRules(exhaustion="must_retreat"), tie_rule="shared_win")


def solve_here(name: str, players: int) -> None:
    """Child process: solve one game, print timings, memory and the table (as a file path) as JSON."""
    wall, cpu = time.perf_counter(), time.process_time()
    graph = turn_graph(GAMES[name].dice)
    graph_seconds = time.perf_counter() - wall
    solution = solver.solve(GAMES[name], players)
    result = {
        "graph_seconds": graph_seconds,
        "wall_seconds": time.perf_counter() - wall,
        "cpu_seconds": time.process_time() - cpu,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "turn_solves": solution.turn_solves,
        "contexts": solution.contexts,
        "states": len(graph.states),
        "edges": graph.edges,
    }
    handle, path = tempfile.mkstemp(suffix=".npz")
    os.close(handle)
    result["size"] = solver.save_solution(solution, path)
    result["table"] = path
    print(json.dumps(result))


def solve_in_child(name: str, players: int) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", name, str(players)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def report_solve(name: str, players: int) -> solver.Solution:
    load = os.getloadavg()[0]
    result = solve_in_child(name, players)
    table = solver.read_solution(result["table"])
    os.unlink(result["table"])
    print(f"{name}, {players} players: {table.rules.describe()}, cap {table.rules.cap}")
    print(
        f"  solve {result['wall_seconds']:.1f} s wall, {result['cpu_seconds']:.1f} s CPU (turn graph "
        f"{result['graph_seconds']:.1f} s: {result['states']} dice states, {result['edges']} edges; "
        f"{result['turn_solves']} batched turn solves, {result['contexts']} turn starts), peak memory "
        f"{result['peak_mb']:.0f} MB, table {result['size'] / 1024:.0f} KiB compressed; load average {load:.1f}"
    )
    start = table.value((0, (0,) * players))
    print("  win probability from the start, by seat: " + ", ".join(f"{p:.10f}" for p in start))
    return table


def difference(a: solver.Solution, b: solver.Solution) -> float:
    same = np.array_equal(np.isnan(a.values), np.isnan(b.values))
    return float(np.nanmax(np.abs(a.values - b.values))) if same else float("inf")


def first_advice() -> None:
    """Cold: a table service with an empty cache folder is asked for a variant (solve, write, advise), as the
    MCP tool does on first use. Cached: a new service on the same folder (read, advise)."""
    position = Position.duel(4, 7, True, stash=3, elder_signs=(2, 1, 0), clues=(1, 0, 0), tentacles=(0, 0, 1))
    with tempfile.TemporaryDirectory() as folder:
        for label in ("cold", "cached"):
            load = os.getloadavg()[0]
            started = time.perf_counter()
            tables = Tables(folder)
            job = tables.request(VARIANT, 2)
            job.done.wait()
            if job.error:
                raise RuntimeError(job.error)
            advice = Advisor(job.solution).advise(position)
            seconds = time.perf_counter() - started
            print(
                f"  {label:6s} {seconds:6.2f} s to the first advice ({advice.choice}, win {advice.win_if_continue:.4f} if "
                f"rolling on); load average {load:.1f}"
            )


def time_advisor() -> None:
    for players in (2, 3):
        advisor = Advisor(solver.load_table(players=players))
        scores = [(s, 7) if players == 2 else (s, 7, 3) for s in range(3)]
        started = time.perf_counter()
        for score in scores:
            advisor.advise(Position(score, 0))
        cold = (time.perf_counter() - started) / len(scores)
        warm_position = Position(scores[2], 0, stash=2, tentacles=(1, 0, 0), clues=(0, 1, 0), elder_signs=(1, 0, 1))
        started = time.perf_counter()
        for _ in range(200):
            advisor.advise(warm_position)
        warm = (time.perf_counter() - started) / 200
        print(
            f"advisor, {players} players: {cold * 1000:.0f} ms for the first position of a turn (solves that turn), "
            f"{warm * 1000:.2f} ms after"
        )
    started = time.perf_counter()
    for _ in range(200):
        roll_odds(clues=(1, 1, 0), bag=(6, 2, 3), tentacles=(0, 1, 0), elder_signs=(1, 0, 0))
    print(f"roll odds {(time.perf_counter() - started) / 200 * 1000:.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skip-three-players", action="store_true")
    parser.add_argument("--skip-zombie-dice", action="store_true")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        solve_here(args.child[0], int(args.child[1]))
        return 0
    ours = report_solve("cthulhu-dice", 2)
    print(f"  largest difference from the shipped table: {difference(ours, solver.load_table(players=2)):.1e}")
    print(f"first advice for a non-standard variant (2 players, {VARIANT.describe()}):")
    first_advice()
    ok = True
    if not args.skip_three_players:
        three = report_solve("cthulhu-dice", 3)
        print(f"  largest difference from the shipped table: {difference(three, solver.load_table(players=3)):.1e}")
        print(f"  shipped table: {solver.table_path(3).stat().st_size / 1024:.0f} KiB ({solver.table_path(3).name})")
    if not args.skip_zombie_dice:
        zombie = report_solve("zombie-dice", 2)
        gap = abs(zombie.first_player_win - solver.NELLER_ZOMBIE_DICE_FIRST_PLAYER)
        ok = gap < 1e-6
        print(f"  vs T. Neller's 0.4648573: difference {gap:.1e} -> {'MATCH' if ok else 'MISMATCH'} (tolerance 1e-6)")
    time_advisor()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
