"""Game options: the factions, the layout and every ruling (rules_text ``cthulhu-wars/rulings``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class CthulhuWarsOptions(BaseModel):
    """What a game is created with. Every ruling has a documented default (see 90-rulings.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

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
    submerged_units_in_play: bool = Field(
        default=True,
        description="Units Submerged on Great Cthulhu's card count as in play (true): their Cultists give Power at "
        "Gather Power, a submerged Cthulhu gives a Ritual its Elder Sign and keeps Y'ha Nthlei working. False: only "
        "units on the map count.",
    )
    thousand_forms_when_foes_short: Literal["caster-gains-roll", "foes-lose-all"] = Field(
        default="caster-gains-roll",
        description="Thousand Forms when the foes together hold less Power than the roll: Crawling Chaos gains the "
        "full roll at once (caster-gains-roll, HRF's reading), or the foes share the loss of all they have "
        "(foes-lose-all; Crawling Chaos gains the roll only if they disagree).",
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
