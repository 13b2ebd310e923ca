"""How good an A Game of War position is for one side, term by term.

Rules the terms rest on: ``game-of-war/communication`` (online, relays, arsenals),
``game-of-war/combat`` (attack and defence along the 8 lines) and ``game-of-war/end``.

The evaluation is static and fast (a few hundred microseconds): it adds

* **material**: every unit and arsenal at a fixed value, an offline unit at half (it cannot move,
  attack or defend itself), a side's last relay or arsenal at more;
* **lines of communication**: relays standing on a line (they pass it on), units online;
* **threats**: what the side about to move can take at once: the best unit it can capture by
  summed attack against summed defence on that square, an empty arsenal one of its online combat
  units can walk onto, and, at a discount, what the other side could do on its next turn;
* **advance**: online combat units near the enemy arsenals, and defenders near one's own.

Attack and defence totals use per-square maps built from precomputed lines (mountains block
them, as under the default rulings); the cavalry charge counts 7 for cavalry next to the square.
The exact combat (``combat.assess``) decides actual attacks; the maps only score positions.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.games.game_of_war.board import (
    FORTRESSES,
    LINES,
    MOUNTAINS,
    NEIGHBOURS,
    PASSES,
    SQUARES,
    WIDTH,
    bits,
)
from tabletop.games.game_of_war.state import NO_SQUARE, OVER, State
from tabletop.games.game_of_war.units import (
    ATTACK,
    CANNON,
    CAVALRY,
    DEFENCE,
    INFANTRY,
    MOVE,
    RANGE,
    SWIFT_CANNON,
)

#: Value of each unit kind (infantry, cavalry, cannon, swift cannon, relay, swift relay) and an arsenal.
UNIT_VALUE = (10.0, 12.0, 14.0, 16.0, 14.0, 15.0)
ARSENAL_VALUE = 45.0
LAST_ARSENAL_BONUS = 40.0
LAST_RELAY_BONUS = 12.0
OFFLINE_FACTOR = 0.5
RELAYING_BONUS = 2.0
WIN = 10_000.0

_STRONGHOLDS = FORTRESSES | PASSES
_BONUS_KINDS = (INFANTRY, CANNON, SWIFT_CANNON)


def _reach(sq: int, distance: int) -> tuple[int, ...]:
    """Squares on the 8 lines from ``sq`` within ``distance``, stopping before a mountain."""
    out = []
    for line in LINES[sq]:
        for s in line[:distance]:
            if MOUNTAINS >> s & 1:
                break
            out.append(s)
    return tuple(out)


#: REACH[r][sq]: squares a unit on sq acts on at range r (0..3).
REACH = tuple(tuple(_reach(sq, r) for sq in range(SQUARES)) for r in range(4))
_X = tuple(sq % WIDTH for sq in range(SQUARES))
_Y = tuple(sq // WIDTH for sq in range(SQUARES))


def distance(a: int, b: int) -> int:
    """King-move distance between two squares (mountains ignored)."""
    return max(abs(_X[a] - _X[b]), abs(_Y[a] - _Y[b]))


@dataclass
class Maps:
    """Per-square attack and support totals of both sides (index: side)."""

    attack: tuple[list[int], list[int]]
    support: tuple[list[int], list[int]]


def build_maps(state: State) -> Maps:
    attack = ([0] * SQUARES, [0] * SQUARES)
    support = ([0] * SQUARES, [0] * SQUARES)
    online = state.network.online
    for sq, code in state.pieces.items():
        side, kind = code >> 3, code & 7
        if not online[side] >> sq & 1:
            continue
        rng = RANGE[kind]
        if rng == 0:
            continue
        sup = support[side]
        value = DEFENCE[kind]
        for s in REACH[rng][sq]:
            sup[s] += value
        atk = attack[side]
        value = ATTACK[kind]
        for s in REACH[rng][sq]:
            atk[s] += value
        if kind == CAVALRY and not FORTRESSES >> sq & 1:
            for s in bits(NEIGHBOURS[sq] & ~_STRONGHOLDS):
                atk[s] += 3  # a charge: 7 instead of 4 next to the target
    return Maps(attack, support)


def own_defence(state: State, sq: int, code: int) -> int:
    kind = code & 7
    if not state.network.online[code >> 3] >> sq & 1:
        return 0
    bonus = 0
    if kind in _BONUS_KINDS:
        bonus = 4 if FORTRESSES >> sq & 1 else 2 if PASSES >> sq & 1 else 0
    return DEFENCE[kind] + bonus


def unit_value(state: State, sq: int, code: int) -> float:
    side, kind = code >> 3, code & 7
    value = UNIT_VALUE[kind]
    if kind >= 4 and bin(state.relays[side]).count("1") == 1:
        value += LAST_RELAY_BONUS
    return value


@dataclass
class Terms:
    """The evaluation of a position for one side, term by term (positive: good for that side)."""

    material: float = 0.0
    communication: float = 0.0
    threats: float = 0.0
    opportunities: float = 0.0
    advance: float = 0.0
    outcome: float = 0.0

    @property
    def total(self) -> float:
        return self.material + self.communication + self.threats + self.opportunities + self.advance + self.outcome

    def named(self) -> dict[str, float]:
        return {
            "material (units and arsenals, offline units at half)": round(self.material, 1),
            "lines of communication (relays passing lines on)": round(self.communication, 1),
            "threats against us (best capture or arsenal raid open to the enemy)": round(self.threats, 1),
            "our chances (captures and raids open to us)": round(self.opportunities, 1),
            "advance towards the enemy arsenals": round(self.advance, 1),
        }


def side_material(state: State, side: int) -> float:
    online = state.network.online[side]
    total = 0.0
    for sq in bits(state.units[side]):
        code = state.pieces[sq]
        value = unit_value(state, sq, code)
        total += value if online >> sq & 1 else value * OFFLINE_FACTOR
    arsenals = bin(state.arsenals[side]).count("1")
    total += arsenals * ARSENAL_VALUE + (LAST_ARSENAL_BONUS if arsenals == 1 else 0)
    if arsenals == 2:
        total += LAST_ARSENAL_BONUS  # losing one makes the other the last
    return total


def best_capture(state: State, maps: Maps, attacker: int, exclude: int = NO_SQUARE) -> tuple[float, int]:
    """The most valuable enemy unit ``attacker`` could capture now by the maps, and its square (-1 if none).

    A forced retreat counts a little (a tenth of the unit); an offline target has no defence at all.
    """
    defender = 1 - attacker
    atk = maps.attack[attacker]
    sup = maps.support[defender]
    best, where = 0.0, NO_SQUARE
    for sq in bits(state.units[defender]):
        a = atk[sq]
        if a == 0:
            continue
        code = state.pieces[sq]
        d = own_defence(state, sq, code) + sup[sq]
        if a >= d + 2:
            value = unit_value(state, sq, code)
            if not state.network.online[defender] >> sq & 1:
                value *= OFFLINE_FACTOR
            # a capture can also cut lines: count relays fully
        elif a == d + 1:
            value = unit_value(state, sq, code) * 0.1
        else:
            continue
        if value > best and sq != exclude:
            best, where = value, sq
    return best, where


def raid_value(state: State, attacker: int) -> float:
    """Value of the best empty enemy arsenal an online combat unit of ``attacker`` stands within a move of."""
    defender = 1 - attacker
    arsenals = state.arsenals[defender]
    if not arsenals:
        return 0.0
    online = state.network.online[attacker]
    occupied = state.units[0] | state.units[1]
    best = 0.0
    for target in bits(arsenals & ~occupied):
        for sq in bits(state.units[attacker] & online & ~state.relays[attacker]):
            kind = state.pieces[sq] & 7
            if distance(sq, target) <= MOVE[kind]:
                best = ARSENAL_VALUE if bin(arsenals).count("1") > 1 else WIN / 10
                break
    return best


def nearest_enemy_arsenal(state: State, sq: int, side: int) -> int:
    arsenals = state.arsenals[1 - side]
    return min((distance(sq, a) for a in bits(arsenals)), default=0)


def evaluate(state: State, side: int, maps: Maps | None = None) -> Terms:
    """The position for ``side``; the side to move (``state.side``) is the one whose threats are immediate."""
    terms = Terms()
    if state.phase == OVER:
        if state.winner is None:
            return terms
        terms.outcome = WIN - state.turn if state.winner == side else -WIN + state.turn
        return terms
    maps = maps or build_maps(state)
    enemy = 1 - side
    terms.material = side_material(state, side) - side_material(state, enemy)
    for s, sign in ((side, 1.0), (enemy, -1.0)):
        relaying = state.relays[s] & state.network.cover[s]
        terms.communication += sign * RELAYING_BONUS * bin(relaying).count("1")
    mover = state.side
    attack_open = not state.attack_used
    if mover == side and attack_open:
        # Our attack of this turn comes first, then the enemy's turn.
        mine, target = best_capture(state, maps, side)
        theirs, _ = best_capture(state, maps, enemy, exclude=target)
        terms.opportunities = 0.7 * max(mine, raid_value(state, side))
        terms.threats = -0.8 * max(theirs, raid_value(state, enemy))
    else:
        theirs, target = best_capture(state, maps, enemy)
        mine, _ = best_capture(state, maps, side, exclude=target)
        terms.threats = -0.9 * max(theirs, raid_value(state, enemy))
        terms.opportunities = 0.35 * max(mine, raid_value(state, side))
    terms.advance = advance(state, side) - advance(state, enemy)
    return terms


def advance(state: State, side: int) -> float:
    """Online combat units close to the enemy arsenals and to enemy units (a march that keeps its lines).

    A small pull at any distance: it decides only between moves the other terms find equal.
    """
    total = 0.0
    online = state.network.online[side]
    targets = list(bits(state.arsenals[1 - side]))
    enemies = list(bits(state.units[1 - side]))
    for sq in bits(state.units[side] & online & ~state.relays[side]):
        x, y = _X[sq], _Y[sq]
        # Each standing enemy arsenal pulls; a destroyed one no longer does (as if reached).
        for t in targets:
            total -= 0.05 * max(abs(x - _X[t]), abs(y - _Y[t]))
        if enemies:
            d = min(max(abs(x - _X[t]), abs(y - _Y[t])) for t in enemies)
            total -= 0.04 * d
    return total


def score(state: State, side: int) -> float:
    return evaluate(state, side).total
