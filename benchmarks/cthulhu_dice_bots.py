"""The optimal Cthulhu Dice bot against simple bots: 10,000 two-player games each, at engine level.

Seats alternate (the optimal bot plays first in half the games). Prints the optimal bot's win
rate against each opponent with a 95% confidence interval (Wilson score); issue 3 requires it to
beat every one of them.

    .venv/bin/python benchmarks/cthulhu_dice_bots.py [--games N]
"""

from __future__ import annotations

import argparse
import math
import time

from tabletop.arena.match import play_match
from tabletop.bots import RandomBot
from tabletop.bots.cthulhu_dice import CautiousBot, OptimalBot, ThresholdBot
from tabletop.games.cthulhu_dice import ENGINE


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate (a shared win counts half)."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def duel(optimal: OptimalBot, opponent, games: int) -> float:
    """Wins of the optimal bot over ``games`` games, alternating who sits first."""
    wins = 0.0
    for game in range(games):
        bots = [optimal, opponent] if game % 2 == 0 else [opponent, optimal]
        outcome = play_match(ENGINE, bots, seed=game)
        me = game % 2
        if me in outcome.winners:
            wins += 1 / len(outcome.winners)
    return wins


def main(games: int) -> None:
    optimal = OptimalBot()
    opponents = [CautiousBot(), ThresholdBot(2), ThresholdBot(3), ThresholdBot(5), RandomBot(seed=1)]
    print(f"optimal bot vs each opponent, {games} two-player games (seats alternate)")
    beaten = 0
    for opponent in opponents:
        started = time.perf_counter()
        wins = duel(optimal, opponent, games)
        low, high = wilson(wins, games)
        verdict = "beats it" if low > 0.5 else "DOES NOT clearly beat it"
        beaten += low > 0.5
        print(
            f"  vs {opponent.name:24s} win rate {wins / games:.3f}  95% CI [{low:.3f}, {high:.3f}]  "
            f"{verdict}  ({time.perf_counter() - started:.1f} s)"
        )
    print(f"beats {beaten} of {len(opponents)} opponents")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    main(parser.parse_args().games)
