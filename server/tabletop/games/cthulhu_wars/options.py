"""Game options: the factions, the layout and every ruling (rules_text ``cthulhu-wars/rulings``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class CthulhuWarsOptions(BaseModel):
    """What a game is created with. Every ruling has a documented default (see 90-rulings.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    factions: list[str] | None = Field(
        default=None,
        description="Faction ids in seating order, one per seat (3-5). Default: the registered factions, "
        "real ones before stand-ins, in registry order.",
    )
    alternate_layout: bool = Field(default=False, description="With 4 players, use the 'earth_4p_alt' layout.")
    north_atlantic_touches_north_pacific: bool = Field(
        default=True,
        description="On the Western 5-player side (layouts earth_4p and earth_5p) North Atlantic and North Pacific "
        "are adjacent, as on the published map (true), or not, as the seed's area lists read (false). The 3-player "
        "side always has the pair (map decision 9).",
    )
    first_player_without_cthulhu: Literal["random", "seat-order"] = Field(
        default="random",
        description="Round 1 first player when Great Cthulhu is not playing: drawn at random, or seat 0.",
    )
    yha_nthlei_counts_submerged: bool = Field(
        default=False,
        description="Whether a submerged Cthulhu (on the faction card) counts as 'in play' for Y'ha Nthlei.",
    )
    reveal_out_of_turn: bool = Field(
        default=True,
        description="A faction holding Elder Signs may reveal them out of turn: it is asked after every action of "
        "another faction and after each Doom-phase decision of another faction (true, the printed rule: at any "
        "time). False: only on its own turn and in its own Doom-phase decision (fewer questions for agents).",
    )
    devolve_after_every_action: bool = Field(
        default=True,
        description="Offer Devolve after every action of any player (true) or only at the end of Great "
        "Cthulhu's own turns (false).",
    )
    victim_chooses_captured_cultist: bool = Field(
        default=True, description="The victim (true) or the captor (false) chooses which Cultist is captured."
    )
