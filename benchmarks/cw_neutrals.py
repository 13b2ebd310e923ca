"""Cthulhu Wars bots with every piece of neutral material on (issue 38): how often they take neutral Monster cards
and Awaken Independent Great Old Ones, and how often they win.

Run: .venv/bin/python benchmarks/cw_neutrals.py MATCH [--games N] [--first S] [--jobs J]

  random       the heuristic at seat (game mod 4) against 3 random bots (as ``bots.py cw-heuristic``)
  heuristics   4 heuristic seats (counts only: every seat is under test)

Every game uses the default four factions rotated by one every fourth game, High Priests, the four neutral Monster
cards, the neutral spellbooks and the four Independent Great Old Ones. Each game is printed as it ends (the seats
under test's share of the win, the round it ended in, and their card buys, Independent Great Old One Awakenings and
other neutral actions); at the end the totals and the win share with its 95% interval. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from bots import played, wilson  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "server"))

NEUTRALS = dict(high_priests=True, neutral_ghast=True, neutral_gug=True, neutral_shantak=True,
                neutral_star_vampire=True, neutral_spellbooks=True, igoo_byatis=True, igoo_abhoth=True,
                igoo_daoloth=True, igoo_nyogtha=True)
NOTED = ("oath", "filth", "forgetfulness", "cosmic-unity")


def game(args: tuple) -> tuple[float, bool, int, collections.Counter]:
    from tabletop.bots.base import RandomBot
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.games.cthulhu_wars import ENGINE
    from tabletop.games.cthulhu_wars.factions import default_factions
    from tabletop.games.cthulhu_wars.neutrals.igoos import CARDS
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

    match, seed = args
    mine = {seed % 4} if match == "random" else {0, 1, 2, 3}
    bots = [CwHeuristicBot(seed * 10 + s) if s in mine else RandomBot(seed * 10 + s) for s in range(4)]
    factions = default_factions(4)
    shift = (seed // 4) % 4
    state = ENGINE.new_game(CthulhuWarsOptions(factions=factions[shift:] + factions[:shift], **NEUTRALS), 4, seed)
    counts: collections.Counter = collections.Counter()
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        action = bots[seat].choose(ENGINE, state, seat)
        if seat in mine:
            if action.kind == "buy-card":
                counts[f"card {action.unit}"] += 1
            elif action.kind == "awaken" and action.unit in CARDS:
                counts[f"awaken {action.unit}"] += 1
            elif action.kind in NOTED:
                counts[action.kind] += 1
        state, _ = ENGINE.apply(state, seat, action)
    winners = ENGINE.outcome(state).winners
    share = sum(1 for w in winners if w in mine) / len(winners) if winners else 0.0
    return share, bool(winners), state.round, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("match", choices=["random", "heuristics"])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    tasks = [(args.match, seed) for seed in range(args.first, args.first + args.games)]
    total, decided, counts = 0.0, 0, collections.Counter()
    for (_, seed), (share, done, rounds, found) in zip(tasks, played(game, tasks, args.jobs)):
        total, decided = total + share, decided + done
        counts.update(found)
        print(f"  game {seed}: share {share:.2f}, round {rounds}, {dict(sorted(found.items()))}", flush=True)
    n = len(tasks)
    cards = sum(v for k, v in counts.items() if k.startswith("card "))
    awakened = sum(v for k, v in counts.items() if k.startswith("awaken "))
    low, high = wilson(total, decided) if decided else (0.0, 0.0)
    print(f"== {args.match}: {n} games (seeds {args.first}-{args.first + n - 1}) in {time.perf_counter() - start:.0f} s")
    print(f"   seats under test won {total:g} of {decided} decided games" +
          (f" ({total / decided:.1%}, {low:.1%}-{high:.1%})" if decided else ""))
    print(f"   per game: {cards / n:.2f} cards taken, {awakened / n:.2f} Independent Great Old Ones Awakened; "
          f"totals {dict(sorted(counts.items()))}")


if __name__ == "__main__":
    main()
