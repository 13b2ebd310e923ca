"""The rulings in force: every point the sources disagree on, with our default.

Rules: ``game-of-war/rulings`` (each field's reason is written out there).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .openings import OPENINGS

OpeningName = Literal[tuple(OPENINGS)]  # type: ignore[valid-type]


class GameOfWarOptions(BaseModel):
    """Options of A Game of War. Defaults follow Debord's rules as read by the RSG pages."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    chance: Literal["server", "table"] = Field(
        default="server",
        description="Where dice and draws come from: the server, or a real table (a referee enters each result).",
    )
    opening: OpeningName | None = Field(
        default=None,
        description="A named ready-made deployment for both sides; None: each side deploys "
        "freely and in secret, then commits.",
    )
    first_player: Literal["die", "north", "south"] = Field(
        default="die", description="Who moves first: a seeded die (1-3 North, 4-6 South), or fixed."
    )
    enemy_relays_block_lines: bool = Field(
        default=False, description="Whether enemy relays block lines of communication (RSG: they do not)."
    )
    adjacent_relays_reemit: bool = Field(
        default=False,
        description="Whether a relay online only through a neighbour re-emits lines (RSG: no, only "
        "a relay standing on a line does).",
    )
    mountains_block_fire: bool = Field(default=True, description="Mountains block attack and defence lines (Debord).")
    units_block_fire: bool = Field(
        default=False,
        description="Whether a unit of the other side standing between a unit and the target blocks "
        "that unit's attack or support.",
    )
    offline_units_support: bool = Field(
        default=False, description="Whether offline units lend their defence to a neighbour on their line."
    )
    offline_relays_defend: bool = Field(
        default=False, description="Whether an offline relay keeps its defence of 1 (otherwise 0 like any offline unit)."
    )
    terrain_bonus: Literal["target_infantry_cannon", "target_any", "all_infantry_cannon"] = Field(
        default="target_infantry_cannon",
        description="Who gets the pass (+2) and fortress (+4) defence bonus: the target if it is "
        "infantry or a cannon; the target whatever it is; or every online infantry/cannon "
        "counted in the defence.",
    )
    futile_attacks: bool = Field(
        default=False,
        description="Whether an attack whose total does not exceed the defence may be declared "
        "(it has no effect but uses the turn's attack).",
    )
    retreat_distance: Literal["one", "full"] = Field(
        default="one", description="How far a unit forced to retreat may move: one square, or its full move."
    )
    arsenal_capture_ends_moves: bool = Field(
        default=False, description="Whether destroying an arsenal also ends the turn's movement."
    )
    mounted_through_offline: bool = Field(
        default=False,
        description="Whether a two-square mover may pass through a square out of communication "
        "(relays always may).",
    )
    move_through_friendly: bool = Field(
        default=False, description="Whether a two-square mover may pass over a friendly unit."
    )
    max_turns: int | None = Field(
        default=None,
        ge=1,
        description="Optional cap on player turns, after which the game is drawn (not in Debord's rules).",
    )
