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

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tabletop.games.game_of_war.board import (
    ARSENAL_SQUARES,
    FORTRESSES,
    PASSABLE,
    LINES,
    MOUNTAINS,
    NEIGHBOURS,
    PASSES,
    SQUARES,
    WIDTH,
    bits,
    dilate,
)
from tabletop.games.game_of_war.state import NO_SQUARE, OVER, State
from tabletop.games.game_of_war.units import (
    ATTACK,
    CANNON,
    CAVALRY,
    CHARGE_ATTACK,
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
PRESSURE_CAP = 12.0

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


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """ATTACK_TABLE[kind, sq]: what a unit of ``kind`` online on ``sq`` adds to the attack on every square (its
    charge included); SUPPORT_TABLE the same for defence; OWN_DEFENCE[kind, sq] what it defends itself with
    online; DISTANCE[a, b] king-move distances."""
    attack = np.zeros((6, SQUARES, SQUARES), dtype=np.int16)
    support = np.zeros((6, SQUARES, SQUARES), dtype=np.int16)  # made float32 below: products use BLAS
    own = np.zeros((6, SQUARES), dtype=np.int16)
    for kind in range(6):
        for sq in range(SQUARES):
            reach = list(REACH[RANGE[kind]][sq])
            attack[kind, sq, reach] = ATTACK[kind]
            support[kind, sq, reach] = DEFENCE[kind]
            if kind == CAVALRY and not FORTRESSES >> sq & 1:
                near = list(bits(NEIGHBOURS[sq] & ~_STRONGHOLDS))
                attack[kind, sq, near] += CHARGE_ATTACK - ATTACK[kind]
            bonus = 0
            if kind in _BONUS_KINDS:
                bonus = 4 if FORTRESSES >> sq & 1 else 2 if PASSES >> sq & 1 else 0
            own[kind, sq] = DEFENCE[kind] + bonus
    xs, ys = np.array(_X), np.array(_Y)
    dist = np.maximum(np.abs(xs[:, None] - xs[None, :]), np.abs(ys[:, None] - ys[None, :])).astype(np.int16)
    flat = (6 * SQUARES, SQUARES)
    return attack.reshape(flat).astype(np.float32), support.reshape(flat).astype(np.float32), own, dist


ATTACK_TABLE, SUPPORT_TABLE, OWN_DEFENCE, DISTANCE = _tables()
_VALUES = np.array(UNIT_VALUE)
_MOVES = np.array(MOVE)
_OWN_FLAT = OWN_DEFENCE.reshape(-1)
#: Squares at distance exactly 2 from each square.
_RING2 = tuple(sum(1 << int(t) for t in np.nonzero(DISTANCE[sq] == 2)[0]) for sq in range(SQUARES))


def raid_value(state: State, attacker: int) -> float:
    """Value of the best empty enemy arsenal an online combat unit of ``attacker`` is within a move of
    (the last arsenal ends the game)."""
    arsenals = state.arsenals[1 - attacker]
    targets = arsenals & ~(state.units[0] | state.units[1])
    if not targets:
        return 0.0
    ready = state.units[attacker] & state.network.online[attacker] & ~state.relays[attacker]
    for t in bits(targets):
        if NEIGHBOURS[t] & ready or any(MOVE[state.pieces[sq] & 7] == 2 for sq in bits(_RING2[t] & ready)):
            return ARSENAL_VALUE if bin(arsenals).count("1") > 1 else WIN / 10
    return 0.0


def reachable_raid(state: State, attacker: int) -> float:
    """``raid_value`` counting only walks the rules allow (``game-of-war/movement``): a unit moving 2 must pass
    through a free square next to both (a friendly one only under that ruling) that is online for it (on its
    lines or next to another online friend, unless the ruling lets mounted units pass offline). The search's
    evaluation uses it: a raid the plain count sees but no unit can make is no reason to stand still."""
    arsenals = state.arsenals[1 - attacker]
    targets = arsenals & ~(state.units[0] | state.units[1])
    if not targets:
        return 0.0
    ready = state.units[attacker] & state.network.online[attacker] & ~state.relays[attacker]
    for t in bits(targets):
        if NEIGHBOURS[t] & ready or any(_walks_through(state, attacker, sq, t) for sq in bits(_RING2[t] & ready)):
            return ARSENAL_VALUE if bin(arsenals).count("1") > 1 else WIN / 10
    return 0.0


def _walks_through(state: State, side: int, sq: int, target: int) -> bool:
    """Whether ``side``'s unit on ``sq``, two squares from ``target``, can reach it in one move of 2."""
    if MOVE[state.pieces[sq] & 7] != 2:
        return False
    opts = state.options
    free = PASSABLE & ~(state.units[0] | state.units[1]) & ~state.arsenals[1 - side]
    if opts.move_through_friendly:
        free |= state.units[side]
    through = NEIGHBOURS[sq] & NEIGHBOURS[target] & free
    if not opts.mounted_through_offline:
        through &= state.network.cover[side] | dilate(state.network.online[side] & ~(1 << sq))
    return bool(through)


#: How a raid on an arsenal is counted: ``raid_value`` (the heuristic's quick count) or ``reachable_raid``.
Raid = Callable[[State, int], float]


@dataclass
class Terms:
    """The evaluation of a position for one side, term by term (positive: good for that side)."""

    material: float = 0.0
    communication: float = 0.0
    threats: float = 0.0
    opportunities: float = 0.0
    advance: float = 0.0
    outcome: float = 0.0
    threat_square: int = NO_SQUARE  # our unit the enemy could capture (the most valuable)
    chance_square: int = NO_SQUARE  # the enemy unit we could capture

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


class Position:
    """The arrays the evaluation works on: every unit's square, kind, side and online flag, and both sides'
    attack and support totals on every square (``attack[side, sq]``)."""

    __slots__ = ("squares", "kinds", "sides", "online", "attack", "support", "values", "gains", "defence",
                 "near", "fighters", "arsenal_squares", "arsenal_sides", "to_arsenals")

    def __init__(self, state: State) -> None:
        online = state.network.online
        codes = state.pieces
        n = len(codes)
        squares = np.fromiter(codes.keys(), dtype=np.int64, count=n)
        packed = np.fromiter(codes.values(), dtype=np.int64, count=n)
        self.squares = squares
        self.kinds = kinds = packed & 7
        self.sides = sides = packed >> 3
        both = (online[0], online[1])
        self.online = on = np.array([(both[c >> 3] >> sq) & 1 for sq, c in codes.items()], dtype=bool)
        rows = kinds * SQUARES + squares
        weights = np.zeros((2, n), dtype=np.float32)
        weights[sides[on], np.nonzero(on)[0]] = 1
        self.attack = weights @ ATTACK_TABLE[rows]
        self.support = weights @ SUPPORT_TABLE[rows]
        values = _VALUES[kinds]
        for side in (0, 1):
            if bin(state.relays[side]).count("1") == 1:
                values = np.where((sides == side) & (kinds >= 4), values + LAST_RELAY_BONUS, values)
        self.values = np.where(on, values, values * OFFLINE_FACTOR)
        # What the other side gains by attacking each unit: the unit if attack >= defence + 2, a tenth of it on a
        # forced retreat (attack = defence + 1), nothing otherwise. An offline unit defends itself with 0.
        a = self.attack[1 - sides, squares]
        d = np.where(on, _OWN_FLAT[rows], 0) + self.support[sides, squares]
        self.gains = np.where(a >= d + 2, self.values, np.where(a == d + 1, self.values * 0.1, 0.0))
        self.defence = d
        self.near = DISTANCE[squares[:, None], squares[None, :]]  # unit-to-unit distances
        self.fighters = on & (kinds < 4)  # online combat units
        arsenal_squares = [list(bits(state.arsenals[0])), list(bits(state.arsenals[1]))]
        self.arsenal_squares = arsenal_squares[0] + arsenal_squares[1]
        self.arsenal_sides = np.array([0] * len(arsenal_squares[0]) + [1] * len(arsenal_squares[1]))
        self.to_arsenals = DISTANCE[self.arsenal_squares][:, squares] if self.arsenal_squares else np.zeros((0, n))

    def best_capture(self, attacker: int) -> tuple[float, int]:
        """The most valuable unit ``attacker`` could take now (by summed attack and defence) and its square."""
        gains = np.where(self.sides == 1 - attacker, self.gains, 0.0)
        if not len(gains):
            return 0.0, NO_SQUARE
        i = int(gains.argmax())
        return (float(gains[i]), int(self.squares[i])) if gains[i] > 0 else (0.0, NO_SQUARE)

    def advance(self, state: State, side: int) -> float:
        """Online combat units close to the enemy arsenals and to enemy units (a march that keeps its lines).

        Each standing enemy arsenal pulls every online combat unit (a destroyed one no longer does, as if
        reached), the nearest enemy unit pulls a little, and every weak enemy unit (offline, or defending
        with 5 or less) pulls our nearest attacker: the hunt. Small weights: this decides between moves the
        other terms find (nearly) equal.
        """
        mine = (self.sides == side) & self.fighters
        if not mine.any():
            return 0.0
        total = -0.05 * float(self.to_arsenals[self.arsenal_sides != side][:, mine].sum())
        theirs = self.sides != side
        if theirs.any():
            near = self.near[mine][:, theirs]
            total -= 0.02 * float(near.min(axis=1).sum())
            weak = self.defence[theirs] <= 5
            if weak.any():
                total -= 0.12 * float(near[:, weak].min(axis=0).sum())
        return total

    def arsenal_pressure(self, state: State, side: int) -> float:
        """Danger to ``side``'s arsenals two or three turns ahead: enemy online combat units 2 to 4 squares away
        (closer counts more; one that can already walk on is the raid term's), eased by ``side``'s own combat
        units guarding within 2 or standing on it. Capped well below an arsenal's value, so that taking an
        arsenal is always worth more than threatening it."""
        rows = self.to_arsenals[self.arsenal_sides == side]
        if not len(rows):
            return 0.0
        attackers = rows[:, (self.sides != side) & self.fighters]
        pressure = (np.clip(5 - attackers, 0, 3) * 1.5).sum(axis=1)
        guards = (rows[:, (self.sides == side) & self.fighters] <= 2).sum(axis=1)
        pressure = np.maximum(0.0, pressure - 3.0 * guards)
        mine = [a for a, s in zip(self.arsenal_squares, self.arsenal_sides) if s == side]
        occupied = np.array([state.units[side] >> a & 1 for a in mine], dtype=bool)
        pressure = np.where(occupied, pressure * 0.5, pressure)
        return float(np.minimum(pressure, PRESSURE_CAP).sum())

    def material(self, state: State, side: int) -> float:
        total = float(self.values[self.sides == side].sum())
        arsenals = bin(state.arsenals[side]).count("1")
        return total + arsenals * ARSENAL_VALUE + (LAST_ARSENAL_BONUS if arsenals else 0)  # the last is worth more


def evaluate(state: State, side: int, raid: Raid = raid_value) -> Terms:
    """The position for ``side``; the side to move (``state.side``) is the one whose threats are immediate."""
    terms = Terms()
    if state.phase == OVER:
        if state.winner is not None:
            terms.outcome = WIN - state.turn if state.winner == side else -WIN + state.turn
        return terms
    pos = Position(state)
    enemy = 1 - side
    terms.material = pos.material(state, side) - pos.material(state, enemy)
    for s, sign in ((side, 1.0), (enemy, -1.0)):
        relaying = state.relays[s] & state.network.cover[s]
        terms.communication += sign * RELAYING_BONUS * bin(relaying).count("1")
    mine, terms.chance_square = pos.best_capture(side)
    theirs, terms.threat_square = pos.best_capture(enemy)
    mine = max(mine, raid(state, side))
    theirs = max(theirs, raid(state, enemy))
    if state.side == side and not state.attack_used:
        # Our attack of this turn comes first (less than a sure gain: the maps are approximate), then the enemy's.
        terms.opportunities = 0.7 * mine
        terms.threats = -0.8 * theirs
    elif state.side == side:
        terms.opportunities = 0.35 * mine
        terms.threats = -0.9 * theirs
    else:
        terms.threats = -0.9 * theirs
        terms.opportunities = 0.35 * mine
    terms.threats -= pos.arsenal_pressure(state, side)
    terms.opportunities += pos.arsenal_pressure(state, enemy)
    terms.advance = pos.advance(state, side) - pos.advance(state, enemy)
    return terms


def score(state: State, side: int) -> float:
    return evaluate(state, side).total


# ---- many positions at once ---------------------------------------------------------------------
#: Every arsenal square and its side, in a fixed order (a destroyed arsenal is masked out position by position).
_ARSENAL_SLOTS = [(sq, side) for side in (0, 1) for sq in bits(ARSENAL_SQUARES[side])]
_SLOT_SQUARES = np.array([sq for sq, _ in _ARSENAL_SLOTS])
_SLOT_SIDES = np.array([side for _, side in _ARSENAL_SLOTS])
_FAR = 1_000


def score_many(states: list[State], side: int, raid: Raid = raid_value) -> np.ndarray:
    """``score(state, side)`` for every state, computed together (the same terms as ``evaluate``, batched in
    numpy over positions with the same number of units). This is what the planners call: a greedy step
    scores every legal move's position in one go."""
    out = np.empty(len(states))
    groups: dict[int, list[int]] = {}
    for i, state in enumerate(states):
        if state.phase == OVER:
            out[i] = evaluate(state, side, raid).total
        else:
            groups.setdefault(len(state.pieces), []).append(i)
    for n, members in groups.items():
        out[members] = _score_group([states[i] for i in members], side, raid) if n else [
            evaluate(states[i], side, raid).total for i in members]
    return out


def _score_group(states: list[State], side: int, raid: Raid = raid_value) -> np.ndarray:
    """The batched evaluation of positions in play that all hold the same number of units."""
    enemy = 1 - side
    squares = np.array([list(s.pieces) for s in states], dtype=np.int64)  # (M, n)
    packed = np.array([list(s.pieces.values()) for s in states], dtype=np.int64)
    kinds, sides = packed & 7, packed >> 3
    online = np.array([[(s.network.online[c >> 3] >> sq) & 1 for sq, c in s.pieces.items()] for s in states],
                      dtype=bool)
    rows = kinds * SQUARES + squares
    # Unit values: the last relay counts more; an offline unit half.
    last_relay = np.array([[bin(s.relays[0]).count("1") == 1, bin(s.relays[1]).count("1") == 1] for s in states])
    values = _VALUES[kinds] + LAST_RELAY_BONUS * (np.take_along_axis(last_relay, sides, axis=1) & (kinds >= 4))
    values = np.where(online, values, values * OFFLINE_FACTOR)
    # Attack and support on every unit's square, from the online units of each side (unit i on unit j).
    acts = online[:, :, None]
    same = sides[:, :, None] == sides[:, None, :]
    attack = np.where(acts & ~same, ATTACK_TABLE[rows[:, :, None], squares[:, None, :]], 0).sum(axis=1)
    support = np.where(acts & same, SUPPORT_TABLE[rows[:, :, None], squares[:, None, :]], 0).sum(axis=1)
    defence = np.where(online, _OWN_FLAT[rows], 0) + support
    gains = np.where(attack >= defence + 2, values, np.where(attack == defence + 1, values * 0.1, 0.0))
    mine_units, their_units = sides == side, sides == enemy
    # Material and lines of communication.
    arsenal_counts = np.array([[bin(s.arsenals[side]).count("1"), bin(s.arsenals[enemy]).count("1")] for s in states])
    arsenal_worth = arsenal_counts * ARSENAL_VALUE + np.where(arsenal_counts > 0, LAST_ARSENAL_BONUS, 0.0)
    material = ((values * mine_units).sum(axis=1) - (values * their_units).sum(axis=1)
                + arsenal_worth[:, 0] - arsenal_worth[:, 1])
    communication = np.array([
        RELAYING_BONUS * (bin(s.relays[side] & s.network.cover[side]).count("1")
                          - bin(s.relays[enemy] & s.network.cover[enemy]).count("1")) for s in states])
    # Threats and chances: the best capture or raid for each side.
    raids = np.array([[raid(s, side), raid(s, enemy)] for s in states])
    mine = np.maximum(np.where(their_units, gains, 0.0).max(axis=1), raids[:, 0])
    theirs = np.maximum(np.where(mine_units, gains, 0.0).max(axis=1), raids[:, 1])
    to_move = np.array([s.side == side for s in states])
    fresh = np.array([not s.attack_used for s in states])
    opportunities = np.where(to_move & fresh, 0.7, 0.35) * mine
    threats = -np.where(to_move & fresh, 0.8, 0.9) * theirs
    # Arsenal pressure and advance.
    fighters = online & (kinds < 4)
    to_slots = DISTANCE[_SLOT_SQUARES[None, :, None], squares[:, None, :]]  # (M, arsenals, n)
    alive = np.array([[s.arsenals[a_side] >> sq & 1 for sq, a_side in _ARSENAL_SLOTS] for s in states], dtype=bool)
    occupied = np.array([[s.units[a_side] >> sq & 1 for sq, a_side in _ARSENAL_SLOTS] for s in states], dtype=bool)
    near = DISTANCE[squares[:, :, None], squares[:, None, :]]  # (M, n, n)
    pressure = {}
    advance = {}
    for s in (side, enemy):
        pressure[s] = _pressure(to_slots, alive, occupied, fighters, sides, s)
        advance[s] = _advance(to_slots, alive, near, fighters, sides, defence, s)
    threats = threats - pressure[side]
    opportunities = opportunities + pressure[enemy]
    return material + communication + threats + opportunities + advance[side] - advance[enemy]


def _pressure(to_slots, alive, occupied, fighters, sides, side: int) -> np.ndarray:
    """``Position.arsenal_pressure`` for every position of a batch."""
    attackers = (fighters & (sides != side))[:, None, :]
    guards = ((to_slots <= 2) & (fighters & (sides == side))[:, None, :]).sum(axis=2)
    pressure = (np.where(attackers, np.clip(5 - to_slots, 0, 3), 0) * 1.5).sum(axis=2)
    pressure = np.maximum(0.0, pressure - 3.0 * guards)
    pressure = np.where(occupied, pressure * 0.5, pressure)
    pressure = np.minimum(pressure, PRESSURE_CAP) * (alive & (_SLOT_SIDES == side)[None, :])
    return pressure.sum(axis=1)


def _advance(to_slots, alive, near, fighters, sides, defence, side: int) -> np.ndarray:
    """``Position.advance`` for every position of a batch."""
    mine = fighters & (sides == side)
    theirs = sides != side
    pulls = (alive & (_SLOT_SIDES != side)[None, :])[:, :, None] & mine[:, None, :]
    total = -0.05 * np.where(pulls, to_slots, 0).sum(axis=(1, 2))
    pairs = mine[:, :, None] & theirs[:, None, :]
    masked = np.where(pairs, near, _FAR)
    nearest_enemy = masked.min(axis=2)  # per our unit
    total -= 0.02 * np.where(mine & theirs.any(axis=1)[:, None], nearest_enemy, 0).sum(axis=1)
    weak = theirs & (defence <= 5)
    nearest_hunter = masked.min(axis=1)  # per enemy unit
    total -= 0.12 * np.where(weak, nearest_hunter, 0).sum(axis=1)
    return np.where(mine.any(axis=1), total, 0.0)
