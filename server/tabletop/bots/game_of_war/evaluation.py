"""How good an A Game of War position is for one side, term by term.

Rules the terms rest on: ``game-of-war/communication`` (online, relays, arsenals),
``game-of-war/combat`` (attack and defence along the 8 lines) and ``game-of-war/end``.

The evaluation is static and fast (tens of microseconds a position in a batch): it adds

* **material**: every unit and arsenal at a fixed value, an offline unit at half (it cannot move,
  attack or defend itself), a side's last relay or arsenal at more;
* **lines of communication**: relays standing on a line (they pass it on), units online;
* **threats**: what the side about to move can take at once: the best unit it can capture by
  summed attack against summed defence on that square, an empty arsenal one of its online combat
  units can walk onto, and, at a discount, what the other side could do on its next turn;
* **advance**: online combat units near the enemy arsenals, and defenders near one's own.

Attack and defence totals use per-square maps built from precomputed lines (mountains block
them, as under the default rulings); the cavalry charge counts 7 for cavalry next to the square,
and for the cavalry lined up behind it in an unbroken column (``column_charges``: a model picked
lone units off with such columns, which a count of the adjacent riders alone did not see coming).
The exact combat (``combat.assess``) decides actual attacks; the maps only score positions.

One implementation (``_terms``), in numpy over a batch of positions with the same number of units:
``score_many`` sums the terms for the planners, ``evaluate`` names them for one position (explanations).
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
from tabletop.games.game_of_war.rules import online_fighters
from tabletop.games.game_of_war.state import NO_SQUARE, OVER, State
from tabletop.games.game_of_war.units import (
    ATTACK,
    CANNON,
    CAVALRY,
    CHARGE_ATTACK,
    DEFENCE,
    INFANTRY,
    MAX_CHARGE,
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
    return _raid(state, attacker, lambda sq, target: MOVE[state.pieces[sq] & 7] == 2)


def reachable_raid(state: State, attacker: int) -> float:
    """``raid_value`` counting only walks the rules allow (``game-of-war/turn``): a unit moving 2 must pass
    through a free square next to both (a friendly one only under that ruling) that is online for it (on its
    lines or next to another online friend, unless the ruling lets mounted units pass offline). The search's
    evaluation uses it: a raid the plain count sees but no unit can make is no reason to stand still."""
    return _raid(state, attacker, lambda sq, target: _walks_through(state, attacker, sq, target))


def _raid(state: State, attacker: int, reaches_from_two: Callable[[int, int], bool]) -> float:
    """The raid value: an empty enemy arsenal next to a ready unit, or two squares from one that
    ``reaches_from_two(square, arsenal)``."""
    arsenals = state.arsenals[1 - attacker]
    targets = arsenals & ~(state.units[0] | state.units[1])
    if not targets:
        return 0.0
    ready = online_fighters(state, attacker)
    for t in bits(targets):
        if NEIGHBOURS[t] & ready or any(reaches_from_two(sq, t) for sq in bits(_RING2[t] & ready)):
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


def evaluate(state: State, side: int, raid: Raid = raid_value) -> Terms:
    """The position for ``side``, term by term; the side to move (``state.side``) is the one whose threats are
    immediate. The same computation as ``score_many`` (a batch of one), kept apart in named terms."""
    terms = Terms()
    if state.phase == OVER:
        if state.winner is not None:
            terms.outcome = WIN - state.turn if state.winner == side else -WIN + state.turn
        return terms
    t = _terms([state], side, raid)
    terms.material, terms.communication = float(t["material"][0]), float(t["communication"][0])
    terms.threats, terms.opportunities = float(t["threats"][0]), float(t["opportunities"][0])
    terms.advance = float(t["advance"][0] - t["enemy_advance"][0])
    terms.chance_square, terms.threat_square = int(t["chance_square"][0]), int(t["threat_square"][0])
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
    """``evaluate(state, side).total`` for every state, computed together (batched in numpy over positions with
    the same number of units). This is what the planners call: a greedy step scores every legal move's position
    in one go."""
    out = np.empty(len(states))
    groups: dict[int, list[int]] = {}
    for i, state in enumerate(states):
        if state.phase == OVER:
            out[i] = evaluate(state, side, raid).total
        else:
            groups.setdefault(len(state.pieces), []).append(i)
    for members in groups.values():
        t = _terms([states[i] for i in members], side, raid)
        out[members] = (t["material"] + t["communication"] + t["threats"] + t["opportunities"] + t["advance"]
                        - t["enemy_advance"])
    return out


def _terms(states: list[State], side: int, raid: Raid) -> dict[str, np.ndarray]:
    """The evaluation's terms for positions in play that all hold the same number of units, one array each
    (``advance`` and ``enemy_advance`` apart; ``chance_square`` and ``threat_square`` the best captures)."""
    enemy = 1 - side
    n = len(states[0].pieces)
    squares = np.array([list(s.pieces) for s in states], dtype=np.int64).reshape(len(states), n)
    packed = np.array([list(s.pieces.values()) for s in states], dtype=np.int64).reshape(len(states), n)
    kinds, sides = packed & 7, packed >> 3
    online = np.array([[(s.network.online[c >> 3] >> sq) & 1 for sq, c in s.pieces.items()] for s in states],
                      dtype=bool).reshape(len(states), n)
    rows = kinds * SQUARES + squares
    # Unit values: the last relay counts more; an offline unit half.
    last_relay = np.array([[bin(s.relays[0]).count("1") == 1, bin(s.relays[1]).count("1") == 1] for s in states])
    values = _VALUES[kinds] + LAST_RELAY_BONUS * (np.take_along_axis(last_relay, sides, axis=1) & (kinds >= 4))
    values = np.where(online, values, values * OFFLINE_FACTOR)
    # Attack and support on every unit's square, from the online units of each side (unit i on unit j); what the
    # other side gains by attacking each unit: the unit if attack >= defence + 2, a tenth of it on a forced
    # retreat (attack = defence + 1), nothing otherwise. An offline unit defends itself with 0.
    acts = online[:, :, None]
    same = sides[:, :, None] == sides[:, None, :]
    attack = np.where(acts & ~same, ATTACK_TABLE[rows[:, :, None], squares[:, None, :]], 0).sum(axis=1)
    for m, s in enumerate(states):
        for target, extra in column_charges(s):
            attack[m, list(s.pieces).index(target)] += extra
    support = np.where(acts & same, SUPPORT_TABLE[rows[:, :, None], squares[:, None, :]], 0).sum(axis=1)
    defence = np.where(online, _OWN_FLAT[rows], 0) + support
    gains = np.where(attack >= defence + 2, values, np.where(attack == defence + 1, values * 0.1, 0.0))
    mine_units, their_units = sides == side, sides == enemy
    # Material (the last arsenal is worth more) and lines of communication.
    arsenal_counts = np.array([[bin(s.arsenals[side]).count("1"), bin(s.arsenals[enemy]).count("1")] for s in states])
    arsenal_worth = arsenal_counts * ARSENAL_VALUE + np.where(arsenal_counts > 0, LAST_ARSENAL_BONUS, 0.0)
    material = ((values * mine_units).sum(axis=1) - (values * their_units).sum(axis=1)
                + arsenal_worth[:, 0] - arsenal_worth[:, 1])
    communication = np.array([
        RELAYING_BONUS * (bin(s.relays[side] & s.network.cover[side]).count("1")
                          - bin(s.relays[enemy] & s.network.cover[enemy]).count("1")) for s in states])
    # Threats and chances: the best capture or raid for each side. Our attack of this turn, if still to come, counts
    # first (less than a sure gain: the maps are approximate), then the enemy's.
    chances, dangers = np.where(their_units, gains, 0.0), np.where(mine_units, gains, 0.0)
    raids = np.array([[raid(s, side), raid(s, enemy)] for s in states])
    mine = np.maximum(chances.max(axis=1, initial=0.0), raids[:, 0])
    theirs = np.maximum(dangers.max(axis=1, initial=0.0), raids[:, 1])
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
    threats = threats - _pressure(to_slots, alive, occupied, fighters, sides, side)
    opportunities = opportunities + _pressure(to_slots, alive, occupied, fighters, sides, enemy)
    return {
        "material": material, "communication": communication, "threats": threats, "opportunities": opportunities,
        "advance": _advance(to_slots, alive, near, fighters, sides, defence, side),
        "enemy_advance": _advance(to_slots, alive, near, fighters, sides, defence, enemy),
        "chance_square": _best_square(chances, squares), "threat_square": _best_square(dangers, squares),
    }


_OPPOSITE = (4, 5, 6, 7, 0, 1, 2, 3)  # the index in ``DIRECTIONS`` of the opposite direction


def column_charges(state: State) -> list[tuple[int, int]]:
    """What the attack maps miss of each cavalry charge column: ``(target square, attack)`` for every online rider
    lined up behind a rider next to an enemy unit, in an unbroken column of at most ``MAX_CHARGE`` (``game-of-war/
    combat``: each charges for 7, where the maps count 4 at distance 2 and nothing beyond). No charge against a
    fortress or a pass, nor from a fortress."""
    out = []
    pieces = state.pieces
    for side in (0, 1):
        riders = [sq for sq in bits(state.units[side] & state.network.online[side] & ~FORTRESSES)
                  if pieces[sq] & 7 == CAVALRY]
        if len(riders) < 2:
            continue
        heads = [sq for sq in riders if NEIGHBOURS[sq] & state.units[1 - side] & ~_STRONGHOLDS]
        rider_mask = sum(1 << sq for sq in riders)
        for head in heads:
            for direction, line in enumerate(LINES[head]):
                if not line or not (state.units[1 - side] & ~_STRONGHOLDS) >> line[0] & 1:
                    continue
                extra = 0
                for distance, sq in enumerate(LINES[head][_OPPOSITE[direction]][:MAX_CHARGE - 1], start=2):
                    if not rider_mask >> sq & 1:
                        break
                    extra += CHARGE_ATTACK - (ATTACK[CAVALRY] if distance <= RANGE[CAVALRY] else 0)
                if extra:
                    out.append((line[0], extra))
    return out


def _best_square(gains: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """The square of the most valuable capture in each position (the first of equals), or ``NO_SQUARE``."""
    if not gains.shape[1]:
        return np.full(len(gains), NO_SQUARE)
    best = gains.argmax(axis=1)
    found = np.take_along_axis(gains, best[:, None], axis=1)[:, 0] > 0
    return np.where(found, np.take_along_axis(squares, best[:, None], axis=1)[:, 0], NO_SQUARE)


def _pressure(to_slots, alive, occupied, fighters, sides, side: int) -> np.ndarray:
    """Danger to ``side``'s arsenals two or three turns ahead, in every position of a batch: enemy online combat
    units 2 to 4 squares away (closer counts more; one that can already walk on is the raid term's), eased by
    ``side``'s own combat units guarding within 2, halved while one stands on it. Capped well below an arsenal's
    value, so that taking an arsenal is always worth more than threatening it."""
    attackers = (fighters & (sides != side))[:, None, :]
    guards = ((to_slots <= 2) & (fighters & (sides == side))[:, None, :]).sum(axis=2)
    pressure = (np.where(attackers, np.clip(5 - to_slots, 0, 3), 0) * 1.5).sum(axis=2)
    pressure = np.maximum(0.0, pressure - 3.0 * guards)
    pressure = np.where(occupied, pressure * 0.5, pressure)
    pressure = np.minimum(pressure, PRESSURE_CAP) * (alive & (_SLOT_SIDES == side)[None, :])
    return pressure.sum(axis=1)


def _advance(to_slots, alive, near, fighters, sides, defence, side: int) -> np.ndarray:
    """Online combat units close to the enemy arsenals and to enemy units (a march that keeps its lines), in every
    position of a batch.

    Each standing enemy arsenal pulls every online combat unit (a destroyed one no longer does, as if reached),
    the nearest enemy unit pulls a little, and every weak enemy unit (offline, or defending with 5 or less) pulls
    our nearest attacker: the hunt. Small weights: this decides between moves the other terms find (nearly) equal.
    """
    mine = fighters & (sides == side)
    theirs = sides != side
    pulls = (alive & (_SLOT_SIDES != side)[None, :])[:, :, None] & mine[:, None, :]
    total = -0.05 * np.where(pulls, to_slots, 0).sum(axis=(1, 2))
    pairs = mine[:, :, None] & theirs[:, None, :]
    masked = np.where(pairs, near, _FAR)
    nearest_enemy = masked.min(axis=2, initial=_FAR)  # per our unit
    total -= 0.02 * np.where(mine & theirs.any(axis=1)[:, None], nearest_enemy, 0).sum(axis=1)
    weak = theirs & (defence <= 5)
    nearest_hunter = masked.min(axis=1, initial=_FAR)  # per enemy unit
    total -= 0.12 * np.where(weak, nearest_hunter, 0).sum(axis=1)
    return np.where(mine.any(axis=1), total, 0.0)
