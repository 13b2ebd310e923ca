"""Benchmark the exact two-player Cthulhu Dice solver (server/tabletop/games/cthulhu_dice/solver.py).

Prints, for our bag (8 Library, 4 Museum, 3 Tomb) and for standard Zombie Dice (6/4/3): solve time,
peak memory (ru_maxrss of a fresh process per solve) and the first player's win probability under
optimal play; checks Zombie Dice against T. Neller's published 0.4648573 (to 1e-6); compares our
solve with the shipped table; times the advisor and the odds.

    .venv/bin/python benchmarks/cthulhu_dice_solver.py [--skip-zombie-dice]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np

from tabletop.games.cthulhu_dice import solver

GAMES = {"cthulhu-dice": solver.CTHULHU_DICE, "zombie-dice": solver.ZOMBIE_DICE}


def solve_here(name: str) -> None:
    """Child process: solve one game, print timings, memory and the table as JSON."""
    started = time.perf_counter()
    solver.turn_graph(GAMES[name].dice)
    graph_seconds = time.perf_counter() - started
    solution = solver.solve(GAMES[name])
    total_seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "graph_seconds": graph_seconds,
                "total_seconds": total_seconds,
                "peak_mb": peak_mb,
                "turn_solves": solution.turn_solves,
                "states": len(solver.turn_graph(GAMES[name].dice).states),
                "table": solver.table_to_json(solution),
            }
        )
    )


def solve_in_child(name: str) -> dict:
    """Run ``solve_here`` in a fresh interpreter so its peak memory is its own."""
    done = subprocess.run([sys.executable, __file__, "--child", name], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def report_solve(name: str) -> solver.Solution:
    result = solve_in_child(name)
    table = solver.table_from_json(result["table"])
    rules = table.rules
    print(
        f"{name}: bag {rules.dice.counts}, bag running short: {rules.dice.exhaustion}, goal {rules.goal}, "
        f"cap {rules.cap}, ties: {rules.tie_rule}"
    )
    print(
        f"  solve {result['total_seconds']:.1f} s (of which turn graph {result['graph_seconds']:.1f} s, "
        f"{result['states']} dice states; {result['turn_solves']} batched turn solves), "
        f"peak memory {result['peak_mb']:.0f} MB"
    )
    print(f"  first player's win probability under optimal play: {table.first_player_win:.10f}")
    return table


def time_advisor() -> None:
    advisor = solver.Advisor(solver.load_table())
    cold_positions = [solver.Position(s, 7, True) for s in range(3)]
    started = time.perf_counter()
    for position in cold_positions:
        advisor.advise(position)
    cold = (time.perf_counter() - started) / len(cold_positions)
    warm_position = solver.Position(2, 7, True, stash=2, tentacles=(1, 0, 0), clues=(0, 1, 0), elder_signs=(1, 0, 1))
    started = time.perf_counter()
    for _ in range(200):
        advisor.advise(warm_position)
    warm = (time.perf_counter() - started) / 200
    started = time.perf_counter()
    for _ in range(200):
        solver.roll_odds(clues=(1, 1, 0), bag=(6, 2, 3), tentacles=(0, 1, 0), elder_signs=(1, 0, 0))
    odds = (time.perf_counter() - started) / 200
    print(
        f"advisor: {cold * 1000:.0f} ms for the first position of a score pair (solves that turn), "
        f"{warm * 1000:.2f} ms after; roll odds {odds * 1000:.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skip-zombie-dice", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        solve_here(args.child)
        return 0
    ours = report_solve("cthulhu-dice")
    shipped = solver.load_table()
    difference = max(
        np.nanmax(np.abs(ours.first_to_move - shipped.first_to_move)),
        np.nanmax(np.abs(ours.second_to_move - shipped.second_to_move)),
    )
    print(f"  largest difference from the shipped table: {difference:.1e}")
    ok = True
    if not args.skip_zombie_dice:
        zombie = report_solve("zombie-dice")
        gap = abs(zombie.first_player_win - solver.NELLER_ZOMBIE_DICE_FIRST_PLAYER)
        ok = gap < 1e-6
        print(
            f"  vs T. Neller's 0.4648573: difference {gap:.1e} -> {'MATCH' if ok else 'MISMATCH'} (tolerance 1e-6)"
        )
    time_advisor()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
