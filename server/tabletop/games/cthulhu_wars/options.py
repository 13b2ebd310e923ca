"""Game options: the factions, the layout and every ruling (rules_text ``cthulhu-wars/rulings``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

#: The option keys of games stored before the expansion factions (their options were dumped with these only).
KEYS_BEFORE_EXPANSIONS = frozenset({
    "factions", "alternate_layout", "north_atlantic_touches_north_pacific", "first_player_without_cthulhu",
    "submerged_units_in_play", "thousand_forms_when_foes_short", "reveal_out_of_turn", "devolve_after_every_action",
    "victim_chooses_captured_cultist",
})  # fmt: skip


class CthulhuWarsOptions(BaseModel):
    """What a game is created with. Every ruling has a documented default (see 90-rulings.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    chance: Literal["server", "table"] = Field(
        default="server",
        description="Where dice and draws come from: the server, or a real table (a referee enters each result).",
    )
    factions: list[str] | None = Field(
        default=None,
        description="Faction ids in seating order, one per seat (any 3-6 different ones of: black-goat, "
        "crawling-chaos, great-cthulhu, yellow-sign, sleeper, windwalker, opener-of-the-way, ancients). Default: the "
        "first of these, in this order.",
    )
    map: str = Field(
        default="earth",
        description="The map: 'earth', or 'dreamlands' (two boards joined by tunnels, with Citadels, the Bhole and the "
        "Zoogs; a provisional reconstruction, since the printed boards' adjacency is not published: see list_games), or "
        "a map from the server's maps folder. The layout follows the player count (6 players: 'earth_6p', the "
        "6-player Earth board as fan programs give it, provisional); a layout may be named instead "
        "(e.g. 'dreamlands_4p_alt').",
    )
    alternate_layout: bool = Field(
        default=False,
        description="With 4 players, the map's other 4-player layout: 'earth_4p_alt', or 'dreamlands_4p_alt' (Surface "
        "3-player side with the Underworld 5-player side instead of the recommended 5-player Surface).",
    )
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
    opener_ten_gates: Literal["three-players", "three-and-four-players", "never"] = Field(
        default="three-players",
        description="Opener of the Way's second Gate requirement asks for 10 Gates on the map instead of 12 in "
        "3-player games (three-players, HRF's adaptation), also in 4-player games, or never (the card's 12).",
    )
    ithaqua_replaces_yog_sothoth: bool = Field(
        default=True,
        description="Yog-Sothoth in a Windwalker-symbol Area counts as the Gate Ithaqua needs; Ithaqua then "
        "replaces him (he is eliminated, as HRF plays it). False: only a normal Gate qualifies.",
    )
    demand_sacrifice_needs_tsathoggua_in_battle: bool = Field(
        default=False,
        description="Demand Sacrifice needs Tsathoggua in the battle (true) or only in play (false, the card).",
    )

    dragon_ascending_out_of_turn: bool = Field(
        default=True,
        description="Opener of the Way may use Dragon Ascending in the out-of-turn window after any faction's action "
        "or Doom-phase decision (true, the card: at any time, while an enemy has more Power), or only in its own "
        "turn (false: fewer questions for agents).",
    )

    start_areas: Literal["symbols", "choose"] = Field(
        default="symbols",
        description="Where factions start: on the start symbols the map prints (symbols; on the provisional Dreamlands "
        "map only Yellow Sign's is known, the others are guesses), or in any Area without a Gate, each faction "
        "choosing in seat order (choose; rulings).",
    )
    bhole_hits_assigned_by: Literal["attacker", "next-player"] = Field(
        default="attacker",
        description="Dreamlands: who assigns the Bhole's Kills and Pains to the units that battle it: their owner, as "
        "with any battle result (attacker), or the next player in play order, acting for the Bhole (next-player).",
    )
    zoog_pain_counts_as_kill: bool = Field(
        default=False,
        description="Dreamlands: a Zoog removed by a Pain counts as a Kill for spellbook requirements that count "
        "Kills (true), or not, as the seed says (false).",
    )
    gate_in_zoog_area: Literal["forbidden", "abandoned"] = Field(
        default="forbidden",
        description="Dreamlands: Build Gate in an Area with Zoogs is not allowed (forbidden: the builder would control "
        "it), or the Gate is built Abandoned (abandoned).",
    )

    ritual_track_six_players: Literal["extended", "five-player"] = Field(
        default="extended",
        description="The Ritual of Annihilation track of a 6-player game, which no official text we found gives: "
        "extended (an unofficial track from a fan program: 5, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 10, then Instant Death, "
        "two spaces more than the 5-player track, as each printed track has two more than the one before) or "
        "five-player (the printed 5-player track: 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, then Instant Death). Ruling "
        "six-player-ritual-track.",
    )

    high_priests: bool = Field(
        default=False,
        description="High Priests (neutral expansion): each faction may Recruit one High Priest, a Cultist costing 3 "
        "Power, and sacrifice it for 2 Power after any action, at Gather Power or in the Doom phase (high-priests).",
    )
    high_priest_oath_in_doom_phase: bool = Field(
        default=True,
        description="High Priests: the Unspeakable Oath may also be sworn in the Doom phase (true: the designer's "
        "post, the wiki and HRF) or only after actions and at Gather Power (false: the printed card). Ruling "
        "high-priest-oath-timing.",
    )
    high_priest_oath_when_submerged: bool = Field(
        default=False,
        description="High Priests: a High Priest Submerged with Cthulhu may be sacrificed (true) or only one on the "
        "map (false). No source says. Ruling high-priest-submerged.",
    )
    high_priest_slumber_gate: Literal["stays-on-card", "leaves-play"] = Field(
        default="stays-on-card",
        description="High Priests: the Sleeper's Gate in Cursed Slumber whose High Priest swore the Oath is Abandoned "
        "(official FAQ); it stays on the Sleeper's card, giving nothing, until Cursed Slumber returns it to the map "
        "still Abandoned (stays-on-card), or it leaves play and the card is free for another Gate (leaves-play). No "
        "source says which. Ruling high-priest-slumber.",
    )
    neutral_ghast: bool = Field(
        default=False,
        description="The Ghast neutral monster card (4 Ghasts, cost 2, Combat 0; Hordeling: Summoning one brings "
        "every Ghast in the pool): a faction may take it in its Doom-phase decision for 2 Doom, all 4 placed free "
        "(neutral-ghast).",
    )
    ghast_hordeling_on_free_summon: bool = Field(
        default=False,
        description="Ghast: a free Summon by another faction's ability (the Ancients' requirements) brings every Ghast "
        "in the pool too (true), or only the one (false: Hordeling follows a paid Summon, as Death from Below's ruling "
        "reads). Ruling ghast-hordeling.",
    )
    ghast_hordeling_ice_age: bool = Field(
        default=True,
        description="Ghast: Ghasts that Hordeling places in an Ice Age Area other than the Summon's pay its extra cost, "
        "once per Area (true, HRF), or not (false). Ruling ghast-hordeling.",
    )
    neutral_gug: bool = Field(
        default=False,
        description="The Gug neutral monster card (2 Gugs, cost 1, Combat 3; Clumsy: never Captures): a faction may "
        "take it in its Doom-phase decision for 2 Doom (neutral-monsters).",
    )
    neutral_shantak: bool = Field(
        default=False,
        description="The Shantak neutral monster card (2 Shantaks, cost 2, Combat 2; Horror Steed: it Moves to any "
        "Area and may carry one of your Cultists along free): taken in the Doom phase for 2 Doom (neutral-shantak).",
    )
    neutral_star_vampire: bool = Field(
        default=False,
        description="The Star Vampire neutral monster card (3 Star Vampires, cost 2, Combat 1; Vampirism: each Pain "
        "its die rolls takes 1 Power, each Kill 1 Doom, from the enemy faction): taken in the Doom phase for 2 Doom "
        "(neutral-star-vampire).",
    )
    neutral_spellbooks: bool = Field(
        default=False,
        description="Neutral spellbooks (Azathoth expansion): a faction meeting a requirement may take a book from a "
        "common pool instead of one of its own; each exists once: Umr at-Tawil (Gates cost 2), The Stars Are Right "
        "(Doom-phase reveals also give Power), The Mao Ceremony (end of Gather Power: a Cultist for 1 Power), "
        "Shriveling (pre-battle: eliminate an enemy Monster or Cultist, its owner gains its cost), Recriminations "
        "(1 Power: swap a spellbook), Undimensioned (2 Power: rearrange your units among your Areas) "
        "(neutral-spellbooks).",
    )
    mao_ceremony_cultists: Literal["in-play", "on-the-map"] = Field(
        default="in-play",
        description="The Mao Ceremony: any of your Cultists in play, Submerged ones on Great Cthulhu's card too "
        "(in-play, the card's 'your Cultists'), or only Cultists on the map (on-the-map, HRF). Ruling "
        "mao-ceremony-cultists.",
    )
    undimensioned_ice_age: bool = Field(
        default=True,
        description="Undimensioned: each destination Area under an enemy's Ice Age costs its extra Power once, when "
        "the first figure arrives (true, HRF), or Undimensioned pays no Ice Age extra (false). No official text says. "
        "Ruling undimensioned-ice-age.",
    )

    igoo_byatis: bool = Field(
        default=False,
        description="Byatis, an Independent Great Old One (Awaken 4 Power at a Gate you control where you have a Great "
        "Old One; Combat 4; Toad of Berkeley: never Moves and is moved by no ability, and gives an Elder Sign in the "
        "Doom phase when no enemy unit is in his Area; spellbook God of Forgetfulness) (igoo-byatis).",
    )
    igoo_abhoth: bool = Field(
        default=False,
        description="Abhoth, an Independent Great Old One (Awaken 4 Power; Combat: the Filth in play; Filth: 1 Power, a "
        "Filth token, a Combat-0 Monster that never Moves, to any Area; spellbook The Brood: in the Doom phase a Gate "
        "in an Area with his Filth gives no Doom but to his controller) (igoo-abhoth).",
    )
    igoo_daoloth: bool = Field(
        default=False,
        description="Daoloth, an Independent Great Old One (Awaken 6 Power; Combat 0; Cosmic Unity: pre-battle, one "
        "enemy Great Old One in the battle rolls no dice; spellbook Interdimensional: a Gate appears where he enters an "
        "Area without one) (igoo-daoloth).",
    )
    igoo_nyogtha: bool = Field(
        default=False,
        description="Nyogtha, an Independent Great Old One (Awaken 6 Power; two figures, Combat 4 each when his side "
        "declared the battle, 1 otherwise; From Below: when one figure Moves, Captures or has a Battle declared in its "
        "Area, the other may do the same free; the card is lost only when both are gone; spellbook Nightmare Web: a "
        "figure back from the pool for 2 Power in an Area with a unit of yours) (igoo-nyogtha).",
    )
    igoo_lost_when_eliminated: bool = Field(
        default=True,
        description="Independent Great Old Ones: one eliminated by any means (Unholy Ground, no retreat) goes back to "
        "the pool with its card and spellbook, like one Killed (true, HRF and our ruling), or only a Kill in battle "
        "loses the card (false: otherwise it goes to its controller's pool, who keeps the card and may Awaken it "
        "again). Ruling igoo-death.",
    )
    filth_pained_retreats: bool = Field(
        default=True,
        description="Abhoth's Filth: a Pained Filth token retreats like any unit (true, HRF) or, since Filth never "
        "Moves, it stays where it is (false). No source says. Ruling filth-pain.",
    )
    ancients_igoo_needs_cathedrals: bool = Field(
        default=False,
        description="A faction with no Great Old One of its own (The Ancients) Awakens a second Independent Great Old "
        "One with the help of a first one it controls, like any faction (false: the general rule, one Independent "
        "Great Old One may help Awaken another), or only with all 4 Cathedrals in play (true, HRF). Ruling "
        "igoo-awaken.",
    )
    byatis_pained_retreats: bool = Field(
        default=True,
        description="Byatis: when Pained he retreats like any unit (true, HRF; the card says he 'can still be Pained'), "
        "or, since he never Moves, he stays where he is (false). Ruling byatis-pain.",
    )

    cathedral_glyph_classes: Literal["one-unmarked", "ocean-apart"] = Field(
        default="one-unmarked",
        description="The Ancients: Areas without a glyph make one Cathedral class, land and Ocean alike (one-unmarked, "
        "the card), or Oceans and glyph-less land are two classes, so a fifth class exists (ocean-apart, HRF). Ruling "
        "ancients-cathedral-classes.",
    )
    ancients_free_summon_gates: Literal["summon-areas", "controlled-gates"] = Field(
        default="summon-areas",
        description="The Ancients' free-Summon requirements: each enemy places at a Gate where it may Summon, They "
        "Break Through included (summon-areas, the official FAQ), or only at a Gate it controls (controlled-gates, "
        "HRF). Ruling ancients-free-summons.",
    )
    ancients_free_summon_cost: Literal["printed", "current"] = Field(
        default="printed",
        description="The Ancients' free-Summon requirements rank an enemy's Monsters by printed cost (printed, HRF) or "
        "by what a Summon would cost it now, e.g. Gnoph-Keh (current). Ruling ancients-free-summons.",
    )
    unholy_ground_without_goo: bool = Field(
        default=False,
        description="The Ancients' Unholy Ground may remove a Cathedral even with no enemy Great Old One in the battle "
        "(true, HRF: the Cathedral is simply gone) or only when one is there (false). Ruling ancients-unholy-ground.",
    )
    unholy_ground_timing: Literal["after-pains", "before-pains"] = Field(
        default="after-pains",
        description="The Ancients' Unholy Ground comes post-battle, after Kills and Pains are given out and before "
        "retreats (after-pains, the card's Post-Battle label), or after Kills and before Pains are given out "
        "(before-pains, HRF: the Pains then fall on the units left). Ruling ancients-unholy-ground.",
    )
    unholy_ground_both_nyogtha: bool = Field(
        default=False,
        description="The Ancients' Unholy Ground on Nyogtha eliminates the figure in the battle only (false: Nyogtha "
        "is two units) or both figures wherever they stand (true, HRF). Ruling unholy-ground-nyogtha.",
    )
    worship_services_abandoned_gates: bool = Field(
        default=False,
        description="The Ancients' Worship Services also pays for a Cathedral at an Abandoned Gate (true; nobody else "
        "gains) or only at Gates an enemy controls, Yog-Sothoth included (false). Ruling ancients-worship-services.",
    )
    worship_services_counts_yog_sothoth: bool = Field(
        default=True,
        description="The Ancients' Worship Services counts Yog-Sothoth as an enemy Gate (true: he is a Gate) or not "
        "(false, HRF). Ruling ancients-worship-services.",
    )

    _stored_before_expansions: bool = PrivateAttr(default=False)

    @model_validator(mode="wrap")
    @classmethod
    def _recognise_old_games(cls, data: Any, handler: Any) -> CthulhuWarsOptions:
        """Options dumped by a game stored before the expansion factions hold exactly the old keys."""
        model = handler(data)
        if isinstance(data, dict) and set(data) == KEYS_BEFORE_EXPANSIONS:
            object.__setattr__(model, "_stored_before_expansions", True)
        return model

    @property
    def stored_before_expansions(self) -> bool:
        """Whether these options come from a game stored before the expansion factions (rulings)."""
        return self._stored_before_expansions
