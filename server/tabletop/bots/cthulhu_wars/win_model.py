"""Cthulhu Wars: who is likely to win from here, learned from games between heuristic players (rules ``cthulhu-wars/end``).

A conditional-logit model: each faction gets a score ``z``, a weighted sum of the features below, and its chance
of being the winner is ``exp(z)`` over the sum of every faction's ``exp(z)``. The weights (``COEFFICIENTS``)
were fitted by ``benchmarks/cw_win_model.py`` (maximum likelihood, Newton's method) to positions sampled at the
start of turns in games between four heuristic players, each labelled with who won in the end.

The features of one faction, all public or the faction's own, with Elder Signs counted at the bag's mean for
every faction (so the model reads no hidden value and treats every faction alike):

* spellbooks held or owed, whether that is six, and spellbooks against the round (a spellbook counts more late);
* Doom with six spellbooks (Doom with Elder Signs at their mean; Doom counts only for a faction that can win);
* Elder Signs held, Gates controlled (and against the round), Power in hand;
* Great Old Ones, Cultists and other units on the map;
* the evaluation's requirement progress and exposure terms (``evaluation.strength``).

Doom without six spellbooks is left out on purpose. Fitted with it, the model liked Doom at any count (in games
between heuristic players more Doom goes with winning), and a search judging by that model raced its Doom
towards 30 with few spellbooks, a game nobody can win (two trial games: one ended in round 5 with nobody
eligible, in the other a faction reached 29 Doom holding one spellbook). The hand-made evaluation keeps its own
guard against that (``evaluation.doom_worth``).

The hand-made evaluation (``evaluation.py``) judges what one action changes; this model judges what wins
games. Fitted to 388 decided games of the four core factions on the Earth map (seeds 5000-5389, 15,797 positions),
it predicts the winner far better than the evaluation does: cross-validated by game, log loss 1.151 against 1.343
(uniform guessing 1.386), the winner ranked first 54% of the time against 33% (with plain Doom too: 1.136, 55%).
Other factions and maps use the same weights, which is an extrapolation.
"""

from __future__ import annotations

import math

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.neutrals import registry as neutral_registry
from tabletop.games.cthulhu_wars.state import GameState

from . import knowledge as kn

#: One name per feature, in the order of ``features`` and ``COEFFICIENTS``.
FEATURES = (
    "spellbooks", "six spellbooks", "Doom with six spellbooks", "Elder Signs", "Gates", "Power", "Great Old Ones",
    "Cultists", "other units", "requirement progress", "exposure", "spellbooks x round", "Gates x round",
)
#: Fitted by ``benchmarks/cw_win_model.py`` (see the module docstring).
COEFFICIENTS = (
    -0.4380, -3.3511, 0.2023, 0.2582, 0.4932, 0.0573, 0.1492, -0.0554, -0.0684, -0.0426, -0.0019, 0.7569, -0.0989,
)
#: The round by which the "x round" features are scaled (a typical game's length).
ROUND_SCALE = 6.0


def features(state: GameState, seat: int, progress: float, exposure: float) -> list[float]:
    """The features of ``seat`` (``progress`` and ``exposure``: the evaluation's terms for it)."""
    fs = state.seats[seat]
    fac = kn.faction(state, seat)
    books = kn.books(state, seat)
    six = 1.0 if books >= 6 else 0.0
    doom = kn.public_doom(state, seat)
    goo = cultists = others = 0
    for kind, places in fs.units.items():
        on_map = sum(1 for p in places if board.on_map(p))
        role = fac.unit(kind).role
        if role == "goo" and not neutral_registry.owns(kind):  # an Independent Great Old One is no faction one
            goo += on_map
        elif role == "cultist":
            cultists += on_map
        else:
            others += on_map
    gates = len(board.controlled_gates(state, seat))
    late = state.round / ROUND_SCALE
    return [books, six, doom * six, len(fs.elder_signs), gates, fs.power, goo, cultists, others, progress, exposure,
            books * late, gates * late]


def score(values: list[float], coefficients: tuple[float, ...] = COEFFICIENTS) -> float:
    return sum(c * v for c, v in zip(coefficients, values))


def win_chances(scores: list[float]) -> list[float]:
    """Each faction's chance of winning from its score (the model's softmax)."""
    top = max(scores)
    weights = [math.exp(z - top) for z in scores]
    total = sum(weights)
    return [w / total for w in weights]
