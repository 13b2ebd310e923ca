"""Referee's tools: the state of both networks, and a combat explained unit by unit.

Rules: ``game-of-war/communication`` and ``game-of-war/combat``. Both are pure functions of
a state, meant to be shown to players (they reveal nothing hidden once play has begun).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from tabletop.core.errors import IllegalMove

from .board import SIDE_NAMES, names, parse_square, square_name
from .combat import assess
from .rules import attack_options
from .state import SETUP, State
from .units import STATS


class SideNetwork(BaseModel):
    side: str
    online: list[str] = Field(description="Squares of this side's online units.")
    offline: list[str] = Field(description="Squares of this side's offline units (they cannot move, attack or defend).")
    relaying: list[str] = Field(description="Relays standing on a line, which send lines of their own.")
    covered: list[str] = Field(description="Every square this side's lines reach (arsenals and relays included).")


class NetworkStatus(BaseModel):
    sides: list[SideNetwork]


class Contributor(BaseModel):
    square: str
    side: str
    unit: str
    role: Literal["charge", "attack", "defence", "support"] = Field(
        description="charge: cavalry charging for 7; attack: fire within range; defence: the target "
        "itself (0 if offline, terrain bonus included); support: a friend in range."
    )
    value: int


class CombatPreview(BaseModel):
    target: str
    target_unit: str
    attacker: str
    attack: int
    defence: int
    result: Literal["capture", "retreat", "repelled"]
    contributors: list[Contributor]
    declarable_now: bool = Field(description="Whether the side to move may declare this attack right now.")


def network_status(state: State) -> NetworkStatus:
    """Online and offline units, relaying relays and covered squares, for both sides.

    During set-up the deployments are secret, so nothing is reported.
    """
    if state.phase == SETUP:
        return NetworkStatus(sides=[])
    sides = []
    for side in (0, 1):
        online = state.network.online[side]
        cover = state.network.cover[side]
        relays = state.relays[side] & (online if state.options.adjacent_relays_reemit else cover)
        sides.append(
            SideNetwork(
                side=SIDE_NAMES[side],
                online=names(state.units[side] & online),
                offline=names(state.units[side] & ~online),
                relaying=names(relays),
                covered=names(cover),
            )
        )
    return NetworkStatus(sides=sides)


def combat_preview(state: State, square: str | int) -> CombatPreview:
    """Every unit adding to the attack on ``square`` and to its defence, and the result."""
    sq = parse_square(square) if isinstance(square, str) else square
    if state.phase == SETUP or sq is None or sq not in state.pieces:
        raise IllegalMove(f"There is no unit to attack on {square}", rule="game-of-war/combat")
    combat = assess(state, sq)
    code = state.pieces[sq]
    contributors = [
        Contributor(
            square=square_name(p.square),
            side=SIDE_NAMES[p.code >> 3],
            unit=STATS[p.code & 7].name,
            role=p.role,
            value=p.value,
        )
        for p in combat.contributions
    ]
    declarable = combat.attacker == state.side and any(c.target == sq for c in attack_options(state))
    return CombatPreview(
        target=square_name(sq),
        target_unit=STATS[code & 7].name,
        attacker=SIDE_NAMES[combat.attacker],
        attack=combat.attack,
        defence=combat.defence,
        result=combat.result,
        contributors=contributors,
        declarable_now=declarable,
    )


__all__ = ["CombatPreview", "NetworkStatus", "combat_preview", "network_status"]
