"""The optimal Cthulhu Dice bot against simple bots, at engine level.

Two players: 10,000 games against each simple bot, seats alternating. Three players: the best simple
bot is found first (a round robin of three-player games between the simple bots), then the optimal
bot plays 10,000 games against two copies of it, taking each seat in turn. Prints win rates with 95%
confidence intervals (Wilson score; a shared win counts as a fraction). The optimal bot beats an
opponent when the interval's lower end is above an equal share (1/2 with two players, 1/3 with three).

    .venv/bin/python benchmarks/cthulhu_dice_bots.py [--games N] [--skip-two-players] [--skip-three-players]
"""

from __future__ import annotations

import argparse
import itertools
import math
import time

from tabletop.arena.match import play_match
from tabletop.bots import RandomBot
from tabletop.bots.cthulhu_dice import CautiousBot, OptimalBot, ThresholdBot
from tabletop.games.cthulhu_dice import ENGINE


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate (a shared win counts as a fraction)."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def share(outcome, seat: int) -> float:
    return 1 / len(outcome.winners) if seat in outcome.winners else 0.0


def match(bot, others: list, games: int, first_seed: int = 0) -> float:
    """Wins of ``bot`` over ``games`` games against ``others``, taking every seat in turn."""
    players = len(others) + 1
    wins = 0.0
    for game in range(games):
        me = game % players
        bots = list(others)
        bots.insert(me, bot)
        wins += share(play_match(ENGINE, bots, seed=first_seed + game), me)
    return wins


def verdict(wins: float, games: int, fair: float) -> str:
    low, high = wilson(wins, games)
    word = "beats it" if low > fair else "DOES NOT clearly beat it"
    return f"win rate {wins / games:.4f}  95% CI [{low:.4f}, {high:.4f}]  (an equal share is {fair:.4f}) {word}"


def simple_bots() -> list:
    return [CautiousBot(), ThresholdBot(2), ThresholdBot(3), ThresholdBot(4), ThresholdBot(5), ThresholdBot(6)]


def two_players(games: int) -> None:
    optimal = OptimalBot()
    opponents = simple_bots() + [RandomBot(seed=1)]
    print(f"two players: the optimal bot against each opponent, {games} games each (seats alternate)")
    for opponent in opponents:
        started = time.perf_counter()
        wins = match(optimal, [opponent], games)
        print(f"  vs {opponent.name:24s} {verdict(wins, games, 1 / 2)}  ({time.perf_counter() - started:.0f} s)")


def best_simple_bot(games_per_table: int) -> object:
    """The simple bot with the highest win rate over a round robin of three-player games between them."""
    bots = simple_bots()
    wins = {b.name: 0.0 for b in bots}
    played = {b.name: 0 for b in bots}
    seed = 1_000_000
    for table in itertools.permutations(bots, 3):
        for _ in range(games_per_table):
            outcome = play_match(ENGINE, list(table), seed=seed)
            seed += 1
            for seat, bot in enumerate(table):
                wins[bot.name] += share(outcome, seat)
                played[bot.name] += 1
    ranking = sorted(bots, key=lambda b: -wins[b.name] / played[b.name])
    print("  simple bots in a three-player round robin (win rate): "
          + ", ".join(f"{b.name} {wins[b.name] / played[b.name]:.3f}" for b in ranking))
    return ranking[0]


def three_players(games: int, round_robin: int) -> None:
    print(f"three players: the best simple bot, then the optimal bot against two copies of it ({games} games)")
    best = best_simple_bot(round_robin)
    started = time.perf_counter()
    wins = match(OptimalBot(), [best, best], games)
    print(f"  optimal vs 2 x {best.name}: {verdict(wins, games, 1 / 3)}  ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--round-robin", type=int, default=100, help="games per seating in the simple bots' round robin")
    parser.add_argument("--skip-two-players", action="store_true")
    parser.add_argument("--skip-three-players", action="store_true")
    args = parser.parse_args()
    if not args.skip_two_players:
        two_players(args.games)
    if not args.skip_three_players:
        three_players(args.games, args.round_robin)
