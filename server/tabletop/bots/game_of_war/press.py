"""A Game of War: what the search adds to the static evaluation so that it presses home an advantage.

The heuristic's evaluation (``evaluation.py``) decides between moves within a turn; looking further, as
the search does, five of its habits let a game stall at the turn cap (seen in seat-swapped matches, mostly
with the search as South):

* **a raid no unit can make.** The quick raid count takes a mounted unit two squares from an empty arsenal
  as a raid, even when the square between is taken or off its lines (``game-of-war/turn``, mounted
  units pass only through online squares); a unit parked there "threatens" for ever. The search counts
  raids with ``evaluation.reachable_raid``.
* **no pull on the last steps.** Arsenal pressure is capped and counts every square within 2 alike, so once
  units stand near an enemy arsenal no step closer scores. ``closing`` pulls our nearest online combat unit
  towards each standing enemy arsenal, a point a square (``game-of-war/end``: the arsenals decide the game).
  Distances here are walks round the mountains and the passes the enemy holds (``walk_layers``): counted in
  king moves through them, an arsenal behind a held chain pulls units against the wall instead of round it.
* **no siege.** Late in a game the enemy's last arsenal is often held by a unit standing on it, out of
  reach of a single attack; the static terms pull only lightly (``advance``) and count a capture only once
  it is sure. ``massing`` pulls every online combat unit of ours to within 2 squares of the nearest enemy
  arsenal, and ``siege`` values our attack against a unit on an enemy arsenal as it nears the margin of a
  capture (``game-of-war/combat``: attack at least defence + 2). Both grow from turn ``RAMP[0]`` to full
  weight at ``RAMP[1]``: early on the static terms do; later the turn cap is what a stand-off loses to.
* **lines that never reach.** A raid needs an arsenal within reach of units that stay online, and only relays
  carry lines forward; a relay's step that brings no unit nearer scores nothing, so armies stood frozen beyond
  their lines for the last two hundred turns. ``supply`` counts the walk from each enemy arsenal to the nearest
  square our lines cover, growing with ``ramp`` like ``massing``.
* **units left cut off.** An offline unit cannot move, attack or defend (``game-of-war/communication``); at
  half its value the evaluation lets raids strand half an army beyond its lines. ``stranded`` takes off a
  further share of every offline combat unit of ours.
"""

from __future__ import annotations

import numpy as np

from tabletop.games.game_of_war.board import PASSABLE, PASSES, SQUARES, bits, dilate
from tabletop.games.game_of_war.combat import assess
from tabletop.games.game_of_war.state import OVER, State

from . import evaluation as ev

#: Points for each square between our nearest online combat unit and each standing enemy arsenal.
CLOSING = 1.0
#: Share of an offline combat unit's value lost beyond the evaluation's half.
STRANDED = 0.3
#: Points for each square an online combat unit of ours stands beyond 2 from the nearest enemy arsenal (full weight).
MASSING = 0.3
#: Points for each point of our attack against a unit on an enemy arsenal, from 6 short of a capture (full weight).
SIEGE = 1.5
#: Points for each square between each standing enemy arsenal and the nearest square our lines cover (full weight).
SUPPLY = 1.0
#: Turns over which ``massing``, ``siege`` and ``supply`` grow from nothing to full weight.
RAMP = (60, 150)
_FAR = 80  # no walk on the board is longer


def walk_layers(source: int, ground: int = PASSABLE) -> tuple[int, ...]:
    """Masks of the squares a unit reaches from ``source`` (a mask) in 0, 1, 2... king moves over ``ground``, until
    no more are reached: the way round the mountains, not through them (``game-of-war/board``)."""
    out = [source]
    while True:
        grown = (dilate(out[-1]) & ground) | source
        if grown == out[-1]:
            return tuple(out)
        out.append(grown)


def open_ground(state: State, side: int) -> int:
    """The squares ``side`` can walk over: every passable one but the passes the enemy holds (a unit cannot move
    through an enemy unit, and a held pass closes the way through its mountain chain)."""
    return PASSABLE & ~(state.units[1 - side] & PASSES)


_LAYERS: dict[tuple[int, int], tuple[int, ...]] = {}  # (square, ground): at most four grounds (two passes)


def reach_distance(sq: int, mask: int, ground: int = PASSABLE) -> int:
    """Walking distance over ``ground`` (king moves round the mountains) from ``sq`` to the nearest square of
    ``mask`` (``_FAR`` + 1 when none can be reached)."""
    layers = _LAYERS.get((sq, ground))
    if layers is None:
        layers = _LAYERS[sq, ground] = walk_layers(1 << sq, ground)
    for k, layer in enumerate(layers):
        if layer & mask:
            return k
    return _FAR + 1


def closing(state: State, side: int) -> float:
    """Minus ``CLOSING`` for every square ``side``'s nearest online combat unit must walk to each enemy arsenal."""
    fighters = state.units[side] & state.network.online[side] & ~state.relays[side]
    if not fighters:
        return 0.0
    ground = open_ground(state, side)
    return -CLOSING * sum(reach_distance(a, fighters, ground) for a in bits(state.arsenals[1 - side]))


_NEAREST: dict[tuple[int, int], tuple[int, ...]] = {}  # (standing arsenals, ground): every square's distance


def nearest_arsenal(arsenals: int, ground: int) -> tuple[int, ...]:
    """Every square's walking distance over ``ground`` to the nearest of ``arsenals`` (``_FAR`` + 1 out of
    reach); cached: a side has two arsenals and the board two passes."""
    table = _NEAREST.get((arsenals, ground))
    if table is None:
        far = [_FAR + 1] * SQUARES
        reached = 0
        for k, layer in enumerate(walk_layers(arsenals, ground)):
            for sq in bits(layer & ~reached):
                far[sq] = k
            reached = layer
        table = _NEAREST[arsenals, ground] = tuple(far)
    return table


def ramp(state: State) -> float:
    """How much ``massing`` and ``siege`` count at this point of the game (0 to 1)."""
    return min(1.0, max(0.0, (state.turn - RAMP[0]) / (RAMP[1] - RAMP[0])))


def massing(state: State, side: int) -> float:
    """Minus ``MASSING`` for every square ``side``'s online combat units stand beyond 2 from the nearest enemy
    arsenal (at full weight)."""
    arsenals = state.arsenals[1 - side]
    fighters = state.units[side] & state.network.online[side] & ~state.relays[side]
    if not arsenals or not fighters:
        return 0.0
    nearest = nearest_arsenal(arsenals, open_ground(state, side))
    return -MASSING * sum(max(nearest[sq] - 2, 0) for sq in bits(fighters))


def supply(state: State, side: int) -> float:
    """Minus ``SUPPLY`` for every square between each enemy arsenal and the nearest square ``side``'s lines cover (at
    full weight): a raid needs lines that reach the arsenal, and only relays carry them forward
    (``game-of-war/communication``)."""
    ground = open_ground(state, side)
    lines = state.network.cover[side] & ground
    return -SUPPLY * sum(reach_distance(a, lines, ground) for a in bits(state.arsenals[1 - side]))


def siege(state: State, side: int) -> float:
    """``SIEGE`` for each point of ``side``'s attack on every enemy unit standing on an enemy arsenal, from 6 short
    of a capture up to it (at full weight)."""
    total = 0.0
    for sq in bits(state.arsenals[1 - side] & state.units[1 - side]):
        combat = assess(state, sq)
        total += SIEGE * min(max(combat.attack - combat.defence + 6, 0), 8)
    return total


def stranded(state: State, side: int) -> float:
    """Minus ``STRANDED`` of the value of each of ``side``'s offline combat units."""
    cut = state.units[side] & ~state.network.online[side] & ~state.relays[side]
    return -STRANDED * sum(ev.UNIT_VALUE[state.pieces[sq] & 7] for sq in bits(cut))


def press(state: State, side: int) -> float:
    """The search's additions for ``side`` (nothing once the game is over: the outcome says it all)."""
    if state.phase == OVER:
        return 0.0
    late = ramp(state)
    pressing = late * (massing(state, side) + siege(state, side) + supply(state, side)) if late else 0.0
    return closing(state, side) + stranded(state, side) + pressing


def search_score_many(states: list[State], side: int) -> np.ndarray:
    """The search's evaluation of each state for ``side``: the static one with reachable raids, plus ``press``."""
    base = ev.score_many(states, side, ev.reachable_raid)
    return base + np.fromiter((press(s, side) for s in states), dtype=float, count=len(states))


def search_evaluate(state: State, side: int) -> float:
    """``search_score_many`` for one state, from the term-by-term evaluation (for explanations and tests)."""
    return ev.evaluate(state, side, ev.reachable_raid).total + press(state, side)


__all__ = ["CLOSING", "MASSING", "RAMP", "SIEGE", "STRANDED", "closing", "massing", "nearest_arsenal", "open_ground",
           "press", "ramp", "reach_distance", "search_evaluate", "search_score_many", "siege", "stranded",
           "supply", "walk_layers"]
