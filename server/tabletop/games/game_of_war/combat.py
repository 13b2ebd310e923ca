"""Attack and defence totals, the cavalry charge and the result. Rules: ``game-of-war/combat``.

Every unit acts along the 8 lines through the target, up to its range, gaps allowed. The
attacker adds the attack of each of its online combat units in range; the defender adds the
target's own defence (0 when offline) and the defence of each supporting unit in range.
Cavalry in an unbroken column ending next to the target charge for 7 each instead of 4.
Attack minus defence: 1 drives the target back, 2 or more destroys it.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import FORTRESSES, LINES, MOUNTAINS, PASSES
from .state import State
from .units import (
    ATTACK,
    CANNON,
    CAVALRY,
    CHARGE_ATTACK,
    DEFENCE,
    INFANTRY,
    MAX_CHARGE,
    RANGE,
    RELAY,
    SWIFT_CANNON,
    is_combat,
)

FAILED, RETREAT, CAPTURE = "repelled", "retreat", "capture"
_BONUS_KINDS = frozenset({INFANTRY, CANNON, SWIFT_CANNON})
_STRONGHOLDS = FORTRESSES | PASSES
_REACH = max(MAX_CHARGE, max(RANGE))


class Contribution(NamedTuple):
    square: int
    code: int
    value: int
    role: str  # "charge", "attack", "defence" (the target itself) or "support"


class Combat(NamedTuple):
    target: int
    attacker: int  # side attacking
    attack: int
    defence: int
    contributions: tuple[Contribution, ...]

    @property
    def result(self) -> str:
        return result_of(self.attack, self.defence)


def result_of(attack: int, defence: int) -> str:
    margin = attack - defence
    if margin >= 2:
        return CAPTURE
    return RETREAT if margin == 1 else FAILED


def terrain_bonus(sq: int) -> int:
    """+4 on a fortress, +2 on a pass, else 0."""
    if FORTRESSES >> sq & 1:
        return 4
    return 2 if PASSES >> sq & 1 else 0


def own_defence(state: State, sq: int, code: int) -> int:
    """What the target adds for itself: 0 offline, else its defence plus any terrain bonus."""
    kind = code & 7
    if not state.network.online[code >> 3] >> sq & 1:
        return DEFENCE[kind] if kind >= RELAY and state.options.offline_relays_defend else 0
    rule = state.options.terrain_bonus
    if rule == "target_any" or kind in _BONUS_KINDS:
        return DEFENCE[kind] + terrain_bonus(sq)
    return DEFENCE[kind]


def _support(state: State, sq: int, code: int, online: int) -> int:
    kind = code & 7
    if not (online >> sq & 1 or state.options.offline_units_support):
        return 0
    bonus = terrain_bonus(sq) if state.options.terrain_bonus == "all_infantry_cannon" and kind in _BONUS_KINDS else 0
    return DEFENCE[kind] + bonus


def can_fire(state: State, side: int, sq: int, code: int) -> bool:
    """An online combat unit that has not retreated this turn."""
    return (
        is_combat(code & 7)
        and bool(state.network.online[side] >> sq & 1)
        and not (side == state.side and sq == state.no_attack)
    )


def assess(state: State, target: int) -> Combat:
    """The full combat against the unit on ``target`` by the other side."""
    pieces = state.pieces
    code = pieces[target]
    defender = code >> 3
    attacker = 1 - defender
    opts = state.options
    stop_at_mountains = opts.mountains_block_fire
    units_block = opts.units_block_fire
    charge_allowed = not _STRONGHOLDS >> target & 1
    own_online = state.network.online[defender]
    parts = [Contribution(target, code, own_defence(state, target, code), "defence")]
    for line in LINES[target]:
        charging = charge_allowed
        charged = 0
        attack_open = support_open = True
        for distance, sq in enumerate(line[:_REACH], start=1):
            if stop_at_mountains and MOUNTAINS >> sq & 1:
                break
            other = pieces.get(sq)
            if other is None:
                charging = False
                continue
            kind = other & 7
            if other >> 3 == attacker:
                fires = can_fire(state, attacker, sq, other)
                if charging and kind == CAVALRY and fires and not FORTRESSES >> sq & 1 and charged < MAX_CHARGE:
                    charged += 1
                    parts.append(Contribution(sq, other, CHARGE_ATTACK, "charge"))
                else:
                    charging = False
                    if attack_open and fires and distance <= RANGE[kind]:
                        parts.append(Contribution(sq, other, ATTACK[kind], "attack"))
                support_open = support_open and not units_block
            else:
                charging = False
                if support_open and distance <= RANGE[kind]:
                    value = _support(state, sq, other, own_online)
                    if value:
                        parts.append(Contribution(sq, other, value, "support"))
                attack_open = attack_open and not units_block
    attack = sum(p.value for p in parts if p.role in ("attack", "charge"))
    defence = sum(p.value for p in parts if p.role in ("defence", "support"))
    return Combat(target, attacker, attack, defence, tuple(parts))
