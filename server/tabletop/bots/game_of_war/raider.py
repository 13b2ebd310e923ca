"""A Game of War: a scripted raider, the opponent a careful model plays (rules ``game-of-war/turn``).

The bots were first measured only against each other, which cannot show a weakness they share. This
bot plays the plan a model used to beat the search bot without losing a unit:

* **A cavalry raid on the weaker arsenal, with a relay behind.** The target is the enemy arsenal with
  the fewest enemy combat units within ``GUARD_RADIUS`` (the nearer one to our cavalry on a tie),
  kept until it falls. ``RAIDERS`` cavalry are pulled towards it along walks round the mountains
  (``press.walk_layers``), the nearest first; our swift relay (else our relay) follows the lead rider,
  ``RELAY_GAP`` squares behind it, so that the riders stay online as they go
  (``game-of-war/communication``). A rider that can walk onto the empty arsenal does
  (``game-of-war/turn``: it destroys it).
* **Charge columns against lone units.** The rest of the army holds its ground and is pulled towards
  enemy units that stand weak (the static evaluation's hunt and its captures, ``evaluation.py``).
* **Careful.** It attacks only to destroy (attack at least defence + 2, ``game-of-war/combat``): a
  retreat result gives the enemy a free move and costs nothing for it.

Each turn is planned greedily (``heuristic.TurnPlanner``) with the static evaluation (``evaluation.py``), an eye on
raids coming at its own arsenals (``press.raid_race``: a careful player sees them) and the raid's pulls. Moves within
``NOISE`` of the best are chosen between at random from its seed: it is deterministic from its seed, and another seed
plays another game (without it, sixteen seeds of the search's North games against it, the search playing its greedy
turn, were two games over their first sixty turns). It never reads the other side's hidden deployment (it deploys
the default opening).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletop.games.game_of_war.board import NEIGHBOURS, bits, square_name
from tabletop.games.game_of_war.combat import CAPTURE
from tabletop.games.game_of_war.rules import ATTACK, END, attack_options, legal_plays, play
from tabletop.games.game_of_war.state import OVER, SETUP, State
from tabletop.games.game_of_war.units import CAVALRY, RELAY, SWIFT_RELAY

from ..base import Budget, Suggestion
from . import evaluation as ev
from .heuristic import TurnPlanner, WarHeuristicBot, explain, position_key, setup_suggestion
from .press import open_ground, raid_race, reach_distance

#: Cavalry sent on the raid.
RAIDERS = 2
#: Enemy combat units within this walk of an arsenal count as its guards.
GUARD_RADIUS = 4
#: Points for each square between a raider and the target arsenal (the lead rider counts double).
PULL = 3.0
#: The relay keeps this many squares behind the lead rider; points for each square it lags further.
RELAY_GAP = 2
FOLLOW = 1.5
#: Its eye on raids at its own arsenals (``press.raid_race``): four turns ahead, less than the search's.
CAREFUL = {1: 12.0, 2: 9.0, 3: 5.0, 4: 2.5}
#: Points lost for a raider standing offline (it cannot move on: ``game-of-war/communication``).
CUT_OFF = 8.0
#: The random tie-break added to each move's value (at most half of it either way): near-ties only.
NOISE = 0.05


class WarRaiderBot(WarHeuristicBot):
    """The raid plan above: the heuristic bot's turns, planned with the raid's evaluation and careful attacks."""

    def __init__(self, seed: int = 0, name: str = "raider") -> None:
        super().__init__(seed, noise=NOISE, name=name)
        self.target: int | None = None
        self._side = 0
        self.planner = CarefulPlanner(self.rng, NOISE, evaluator=self.score_many)

    def suggest(self, engine: Any, state: State, seat: int, budget: Budget | None = None) -> Suggestion:
        if state.phase == SETUP:
            return setup_suggestion(state, seat)
        plays = self.turn_plan(state, seat)
        lead = f"Raiding the arsenal on {_name(self.target)} with cavalry and a relay behind; attacking only to destroy."
        return explain(state, seat, plays, lead=lead)

    def turn_plan(self, state: State, seat: int) -> list[tuple]:
        if position_key(state) not in self._plans:  # a new plan: the target first, kept while it stands
            self._side = seat
            self.target = choose_target(state, seat, self.target)
        return super().turn_plan(state, seat)

    def score_many(self, states: list[State], side: int) -> np.ndarray:
        """The static evaluation (raids counted where a unit can walk on), a careful player's eye on raids coming at
        its own arsenals (``press.raid_race``), and the raid's pulls."""
        base = ev.score_many(states, side, ev.reachable_raid)
        if side != self._side or self.target is None:
            return base
        extra = (raid_race(s, side, CAREFUL) + raid_pull(s, side, self.target) for s in states)
        return base + np.fromiter(extra, dtype=float, count=len(states))


class CarefulPlanner(TurnPlanner):
    """The greedy turn planner, closing its turns only with an attack that destroys its target (or ``end``)."""

    def finish(self, state: State, side: int) -> tuple[tuple, State]:
        legal = legal_plays(state)
        options = [(ATTACK, c.target) for c in attack_options(state) if c.result == CAPTURE]
        if (END,) in legal:
            options.append((END,))
        if not options:
            return super().finish(state, side)
        afters = [play(state, p)[0] for p in options]
        values = self.score_all(afters, side)
        best = max(range(len(options)), key=lambda i: values[i])
        return options[best], afters[best]


def choose_target(state: State, side: int, current: int | None) -> int | None:
    """The enemy arsenal to raid: the current one while it stands, else the one fewest enemy combat units guard
    (within ``GUARD_RADIUS``), the nearer to our cavalry on a tie."""
    standing = state.arsenals[1 - side]
    if current is not None and standing >> current & 1:
        return current
    if not standing:
        return None
    guards = state.units[1 - side] & ~state.relays[1 - side]
    cavalry = _cavalry(state, side)
    ground = open_ground(state, side)

    def weight(a: int) -> tuple[int, int]:
        guarded = sum(1 for g in bits(guards) if reach_distance(g, 1 << a) <= GUARD_RADIUS)
        return guarded, reach_distance(a, cavalry, ground) if cavalry else 0

    return min(bits(standing), key=weight)


def _cavalry(state: State, side: int) -> int:
    return sum(1 << sq for sq, code in state.side_pieces(side) if code & 7 == CAVALRY)


def raid_pull(state: State, side: int, target: int) -> float:
    """The raid's pulls on ``state`` for ``side``: riders towards ``target``, the relay behind the lead rider, and a
    loss for each rider cut off."""
    if state.phase == OVER or not state.arsenals[1 - side] >> target & 1:
        return 0.0
    ground = open_ground(state, side) | (1 << target)
    riders = sorted((reach_distance(sq, 1 << target, ground), sq) for sq in bits(_cavalry(state, side)))[:RAIDERS]
    if not riders:
        return 0.0
    online = state.network.online[side]
    total = -PULL * (riders[0][0] + sum(d for d, _ in riders))
    total -= CUT_OFF * sum(1 for _, sq in riders if not online >> sq & 1)
    relays = [sq for sq, code in state.side_pieces(side) if code & 7 in (RELAY, SWIFT_RELAY)]
    if relays:
        lead = riders[0][1]
        follower = min(relays, key=lambda sq: (state.pieces[sq] & 7 != SWIFT_RELAY, reach_distance(sq, 1 << lead)))
        lag = reach_distance(follower, 1 << lead | NEIGHBOURS[lead], ground)
        total -= FOLLOW * max(lag - RELAY_GAP, 0)
    return total


def _name(sq: int | None) -> str:
    return "none" if sq is None else square_name(sq)


__all__ = ["CarefulPlanner", "WarRaiderBot", "choose_target", "raid_pull"]
