"""Standings of a tournament, read from the store: games, wins, shared wins, games nobody won, win rate with
a 95% interval, and a rating with its uncertainty.

Only finished games count (an abandoned game was never finished and is replayed or left out, never counted).
Each finished game's ``outcome`` is the game's own result (``winners``: seats, ``reason``) as the arena recorded
it; a player's seat in it is its place in the slot's ``players`` list.

- A *win* is a game the player won alone; a *draw* a win shared with other seats; *nobody won* a game that
  ended with no winner (every seat lost, or the arena ended it without one).
- The win rate is wins / games, with Wilson's 95% score interval (sound for few games and rates near 0 or 1).
- The rating is openskill's Plackett-Luce model (Weng and Lin's Bayesian approximation), which rates games of any
  number of seats from their finishing order: winners share first place, the others share the next. It is updated
  game by game in slot order, so the same games always give the same ratings. ``ordinal`` = mu - 3 sigma, a
  conservative estimate, orders the table.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from openskill.models import PlackettLuce

from ..sessions.store import Store, TournamentGame

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of the table."""

    player: str
    games: int
    wins: int
    draws: int  # wins shared with other seats
    nobody_won: int  # games that ended with no winner
    losses: int
    win_rate: float
    win_low: float  # Wilson 95% interval of the win rate
    win_high: float
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: what the table is sorted by

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (0..1 both ends when there are no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def finishing_ranks(players: int, winners: list[int]) -> list[int]:
    """Plackett-Luce ranks by seat (1 is best): the winners share first place, the rest the next; no winner: all tie."""
    if not winners:
        return [1] * players
    return [1 if seat in winners else 2 for seat in range(players)]


def standings_of(games: list[TournamentGame]) -> list[Standing]:
    """The table for these schedule slots (only the finished ones count), best first."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    tally: dict[str, dict[str, int]] = {}
    for game in sorted(games, key=lambda g: g.slot):
        for name in game.players:
            ratings.setdefault(name, model.rating(name=name))
            tally.setdefault(name, {"games": 0, "wins": 0, "draws": 0, "nobody_won": 0, "losses": 0})
        if game.status != "finished" or game.outcome is None:
            continue
        winners = sorted(set(game.outcome.get("winners") or []))
        for seat, name in enumerate(game.players):
            row = tally[name]
            row["games"] += 1
            if not winners:
                row["nobody_won"] += 1
            elif seat not in winners:
                row["losses"] += 1
            elif len(winners) == 1:
                row["wins"] += 1
            else:
                row["draws"] += 1
        if len(game.players) > 1:
            rated = model.rate([[ratings[name]] for name in game.players], ranks=finishing_ranks(len(game.players), winners))
            for name, (rating,) in zip(game.players, rated):
                ratings[name] = rating
    table = []
    for name, row in tally.items():
        low, high = wilson(row["wins"], row["games"])
        rating = ratings[name]
        rate = row["wins"] / row["games"] if row["games"] else 0.0
        table.append(Standing(name, row["games"], row["wins"], row["draws"], row["nobody_won"], row["losses"], rate, low, high,
                              rating.mu, rating.sigma, rating.ordinal()))
    return sorted(table, key=lambda s: (-s.ordinal, -s.win_rate, s.player))


def standings(store: Store, tournament_id: str) -> list[Standing]:
    """The standings of tournament ``tournament_id`` as the store has it now, best first (empty if unknown)."""
    return standings_of(store.tournament_games(tournament_id))


__all__ = ["Standing", "standings", "standings_of", "wilson"]
