"""A Game of War: what the search adds to the static evaluation so that it presses home an advantage.

The heuristic's evaluation (``evaluation.py``) decides between moves within a turn; looking further, as
the search does, these habits of it let a game stall at the turn cap (seen in seat-swapped matches, mostly
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
* **a raid seen too late.** The static threats count a raid only once an enemy unit can walk on this turn; a
  cavalry raid four or six squares off, with a relay behind it carrying the lines, was watched until it could, and
  by then no unit of ours was near enough to stand on the arsenal (a model took an arsenal so). ``raid_race``
  counts, for each arsenal of ours with nobody on it, the turns the quickest enemy combat unit needs to walk onto it
  against the turns our quickest combat unit needs to stand on it first, and takes off points for every turn we are
  late, the more the nearer the raid (``RACE``, up to seven turns ahead).
* **a stalled raid left standing.** ``raid_race`` stops counting at three turns late, so once a raid is lost by
  its count no defender's step scores. A rider ahead of its lines cannot go on, though (it moves on only from a
  square online for it): a model's rider stood two squares from an arsenal for forty turns while the nearest
  defenders, six columns off, never stirred, and took it when its lines came up. ``stalled_raids`` gives those
  late defenders a pull, a turn at a time, for a near raid whose way the raider's lines do not cover yet.
* **a unit fed forward alone.** The opponent model plans its turn a move at a time, so it never lines cavalry up
  for a charge that needs two or three moves together, and the play-out never saw a lone unit fall to one; a model
  picked units off so, one a turn. ``charge_exposure`` counts, for each of our units, the enemy's attack on it now
  with a charge (``game-of-war/combat``: 7 each, up to four in a column) by the enemy cavalry that could ride up
  into a column against it; the most valuable unit of ours that this would destroy costs ``EXPOSED`` of its value
  (one attack a turn: the enemy takes one).
* **units left cut off.** An offline unit cannot move, attack or defend (``game-of-war/communication``); at
  half its value the evaluation lets raids strand half an army beyond its lines. ``stranded`` takes off a
  further share of every offline combat unit of ours.
"""

from __future__ import annotations

import numpy as np

from tabletop.games.game_of_war.board import FORTRESSES, PASSABLE, PASSES, SQUARES, bits, dilate
from tabletop.games.game_of_war.combat import assess
from tabletop.games.game_of_war.rules import online_fighters
from tabletop.games.game_of_war.state import OVER, State
from tabletop.games.game_of_war.units import CAVALRY, CHARGE_ATTACK, MAX_CHARGE, MOVE

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
#: Points for each turn our quickest defender would reach an arsenal too late, by how many turns the raid is away
#: (seven turns: a cavalry fourteen squares off; the default opening leaves each side's far arsenal about six turns
#: from the enemy's riders and seven from its own nearest unit, so a guard has to set off at once).
RACE = {1: 12.0, 2: 10.0, 3: 8.0, 4: 6.0, 5: 4.0, 6: 3.0, 7: 2.0}
#: Points for each turn past ``RACE``'s three that our quickest defender is late to an arsenal whose raid is stalled
#: (``stalled_raids``), up to ``STALLED_TURNS`` more, for a raid at most ``STALLED_NEAR`` turns away.
STALLED, STALLED_TURNS, STALLED_NEAR = 4.0, 6, 2
#: How near an arsenal (king moves) a stalled raider must be the only enemy combat unit (``lone_raider``).
LONE = 4
#: Share of the value of our most valuable unit an enemy charge could destroy next turn.
EXPOSED = 0.6
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
    fighters = online_fighters(state, side)
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
    fighters = online_fighters(state, side)
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


def turns_to_reach(state: State, side: int, arsenal: int, units: int) -> int:
    """The fewest turns any of ``side``'s ``units`` needs to walk onto ``arsenal`` (moves of 1 or 2 squares round
    the mountains and the passes the other side holds, ``game-of-war/turn``); ``_FAR`` when none can."""
    table = nearest_arsenal(1 << arsenal, open_ground(state, side) | 1 << arsenal)
    best = _FAR
    for sq in bits(units):
        steps = table[sq]
        if steps <= _FAR:
            best = min(best, -(-steps // MOVE[state.pieces[sq] & 7]))
    return best


def raid_race(state: State, side: int, race: dict[int, float] = RACE) -> float:
    """Minus ``race[n]`` for every turn ``side``'s quickest combat unit would stand on one of its empty arsenals after
    the quickest enemy combat unit could walk onto it in ``n`` turns (``game-of-war/turn``: a unit on an arsenal keeps
    the enemy off it; ``game-of-war/end``: the arsenals decide the game), at most three turns late. Raids further
    off than ``race`` names do not count; enemy units offline now are left out (they cannot move until their lines
    reach them)."""
    return race_cost(races(state, side, max(race)), race)


def race_cost(found: list[tuple[int, int, int]], race: dict[int, float]) -> float:
    """``raid_race`` from the ``races`` already counted (those further off than ``race`` names left out)."""
    return -sum(race[them] * min(late, 3) for _, them, late in found if them in race and late > 0)


def races(state: State, side: int, horizon: int) -> list[tuple[int, int, int]]:
    """For each empty arsenal of ``side`` that the quickest enemy combat unit online now could walk onto within
    ``horizon`` turns: the arsenal, those turns, and how many turns ``side``'s quickest online combat unit would stand
    on it too late (0 or less: in time)."""
    enemy = 1 - side
    raiders = online_fighters(state, enemy)
    open_arsenals = state.arsenals[side] & ~state.units[side]
    if not raiders or not open_arsenals:
        return []
    defenders = online_fighters(state, side)
    # At the start of our turn we move first; in the middle of it the units still to move might go, or might not:
    # counted as if the turn ended here, so that a defender is sent first.
    ours_first = 1 if state.side == side and state.moves_made == 0 and not state.attack_used else 0
    found = []
    for arsenal in bits(open_arsenals):
        them = turns_to_reach(state, enemy, arsenal, raiders)
        if them > horizon:
            continue
        us = turns_to_reach(state, side, arsenal, defenders) if defenders else _FAR
        found.append((arsenal, them, us - (them - 1 + ours_first)))
    return found


def stalled_raids(state: State, side: int, found: list[tuple[int, int, int]] | None = None) -> float:
    """Minus ``STALLED`` for every turn past three that ``side``'s quickest defender is late to an empty arsenal of its
    own whose raid is stalled, up to ``STALLED_TURNS`` turns. ``raid_race`` counts at most three turns late: past that
    no step of a defender scores, which is right for a raid that will strike before any defender can come. But a raider
    often waits: a unit moves on only from a square online for it (``game-of-war/turn``: a mounted unit passes only
    through online squares, and an offline unit cannot move), so a rider ahead of its lines stands two squares from
    the arsenal for as long as its lines take to follow (a model's raid stood so for forty turns while no defender
    stirred). A raid is stalled when it is at most ``STALLED_NEAR`` turns away by the plain walk, its rider is alone
    near the arsenal (``lone_raider``), and no enemy unit can reach the arsenal that quickly over the squares online
    for it now (its lines, or next to another online unit of its side); a raid further off has time for its lines to
    follow. Raids that are not stalled are left to ``raid_race`` alone: an army coming on with its lines strikes
    before a defender this late can come, and a step back to a lost cause only weakens the front. ``found``: the
    ``races`` already counted to at least ``STALLED_NEAR`` turns (``press`` counts them once for both terms)."""
    enemy = 1 - side
    raiders = online_fighters(state, enemy)
    return -sum(STALLED * (min(late, 3 + STALLED_TURNS) - 3)
                for arsenal, them, late in (races(state, side, STALLED_NEAR) if found is None else found)
                if them <= STALLED_NEAR and late > 3 and lone_raider(raiders, arsenal)
                and not reaches_online(state, enemy, arsenal, raiders, them))


def lone_raider(raiders: int, arsenal: int) -> bool:
    """Whether a single one of ``raiders`` stands within ``LONE`` squares of ``arsenal`` (king moves, mountains not
    counted): a rider sent ahead alone, not an army coming on with its lines."""
    return sum(1 for sq in bits(raiders) if ev.distance(sq, arsenal) <= LONE) == 1


def reaches_online(state: State, side: int, arsenal: int, units: int, turns: int) -> bool:
    """Whether any of ``side``'s ``units`` can reach ``arsenal`` within ``turns`` turns stepping only on squares online
    for it now (on its lines, or next to another online unit of its side; ``game-of-war/turn``), the arsenal last.
    A count for raids, not a proof: the squares its own moves would bring online are not counted."""
    online = state.network.online[side]
    ground = open_ground(state, side)
    crow = nearest_arsenal(1 << arsenal, ground | 1 << arsenal)
    for sq in bits(units):
        steps = MOVE[state.pieces[sq] & 7] * turns
        if crow[sq] > steps:
            continue
        walkable = ((state.network.cover[side] | dilate(online & ~(1 << sq))) & ground) | 1 << arsenal
        reached = 1 << sq
        for _ in range(steps):
            reached |= dilate(reached) & walkable
            if reached >> arsenal & 1:
                return True
    return False


def charge_exposure(state: State, side: int) -> float:
    """Minus ``EXPOSED`` of the value of ``side``'s most valuable unit that the enemy could destroy next turn by
    charging it (``game-of-war/combat``: 7 for each cavalry in an unbroken column ending next to it, up to four; an
    attack at least defence + 2 destroys; no charge against a fortress or a pass), with its other attackers as they
    stand. A column's k-th rider stands k squares off, so an enemy cavalry ``k + 2`` squares off (king moves: a move
    of 2) can be its k-th: a generous count, which asks only whether the riders are near enough, not whether their
    way is free."""
    enemy = 1 - side
    riders = [sq for sq in bits(state.units[enemy] & state.network.online[enemy] & ~FORTRESSES)
              if state.pieces[sq] & 7 == CAVALRY]
    if not riders:
        return 0.0
    worst = 0.0
    for sq in bits(state.units[side] & ~PASSES & ~FORTRESSES):
        value = ev.UNIT_VALUE[state.pieces[sq] & 7]
        if value <= worst:
            continue
        column = 0
        for place, far in enumerate(sorted(ev.distance(r, sq) for r in riders)):
            if place == MAX_CHARGE or far > place + 3:
                break
            column += 1
        if not column:
            continue
        combat = assess(state, sq)
        mounted = sum(c.value for c in combat.contributions
                      if c.role in ("charge", "attack") and c.code & 7 == CAVALRY)
        if combat.attack - mounted + max(mounted, CHARGE_ATTACK * column) >= combat.defence + 2:
            worst = value
    return -EXPOSED * worst


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
    found = races(state, side, max(RACE))  # read by both raid terms
    return (closing(state, side) + stranded(state, side) + race_cost(found, RACE) + stalled_raids(state, side, found)
            + charge_exposure(state, side) + pressing)


def search_score_many(states: list[State], side: int) -> np.ndarray:
    """The search's evaluation of each state for ``side``: the static one with reachable raids, plus ``press``."""
    base = ev.score_many(states, side, ev.reachable_raid)
    return base + np.fromiter((press(s, side) for s in states), dtype=float, count=len(states))


def search_evaluate(state: State, side: int) -> float:
    """``search_score_many`` for one state, from the term-by-term evaluation (for explanations and tests)."""
    return ev.evaluate(state, side, ev.reachable_raid).total + press(state, side)


__all__ = ["CLOSING", "EXPOSED", "MASSING", "RACE", "RAMP", "SIEGE", "STRANDED", "charge_exposure", "closing",
           "massing", "nearest_arsenal", "open_ground", "press", "race_cost", "raid_race", "races", "ramp",
           "reach_distance", "search_evaluate", "search_score_many", "siege", "stalled_raids", "stranded", "supply",
           "turns_to_reach", "walk_layers"]
