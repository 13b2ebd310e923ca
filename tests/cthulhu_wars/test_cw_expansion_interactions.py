"""Interactions between the expansion factions and the rest that the FAQ and the fact sheets settle, set-up
choices of the factions, and games stored before the expansion factions existed."""

import pytest

from tabletop.core.errors import BadOptions
from tabletop.games.cthulhu_wars import ENGINE, board
from tabletop.games.cthulhu_wars.engine import CthulhuWars
from tabletop.games.cthulhu_wars.options import KEYS_BEFORE_EXPANSIONS, CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import HELD

from .cw_helpers import BG, CC, GC, OW, SL, WW, give_turn, play, put, seat, seated, texts


def test_ithaqua_replaces_yog_sothoth_standing_at_a_pole_by_default():
    state = seated([GC, WW, OW], starts={WW: "arctic-ocean", OW: "europe"})
    ww, ow = seat(state, WW), seat(state, OW)
    put(state, OW, "yog-sothoth", "antarctica")
    state.seats[ww].flags["awakened-rhan-tegoth"] = True
    give_turn(state, WW, power=6)
    assert "awaken ithaqua antarctica" in texts(state, WW)
    state, _ = play(state, WW, "awaken ithaqua antarctica")
    assert state.seats[ow].units["yog-sothoth"][0] == "@pool" and board.controlled_gates(state, ow) == ["europe"]
    strict = seated([GC, WW, OW], starts={WW: "arctic-ocean", OW: "europe"}, ithaqua_replaces_yog_sothoth=False)
    put(strict, OW, "yog-sothoth", "antarctica")
    strict.seats[seat(strict, WW)].flags["awakened-rhan-tegoth"] = True
    give_turn(strict, WW, power=6)
    assert "awaken ithaqua antarctica" not in texts(strict, WW)


def test_yog_sothoth_counts_as_a_gate_for_the_other_factions_gate_tests():
    state = seated([GC, WW, OW], starts={WW: "arctic-ocean", OW: "europe"})
    ww = seat(state, WW)
    put(state, OW, "yog-sothoth", "antarctica")
    assert "opposite-gate" in board.faction_of(state, ww).met_requirements(state, ww)
    del state.gates["south-pacific"]
    state.seats[seat(state, OW)].units["yog-sothoth"][0] = "south-pacific"
    give_turn(state, GC, power=10)
    assert "awaken cthulhu south-pacific" in texts(state, GC), "Yog-Sothoth is the Gate Cthulhu needs"


def test_cursed_slumber_units_are_in_no_area_and_the_gate_is_not_on_the_map():
    state = seated([SL, OW, CC], starts={OW: "europe"})
    sl = seat(state, SL)
    state.seats[sl].spellbooks = ["cursed-slumber"]
    give_turn(state, SL)
    state, _ = play(state, SL, "sl-cursed-slumber north-america")
    assert len(board.gate_holders(state)) == 2, "Opener's Gate count leaves it out"
    assert state.seats[sl].units["acolyte"].count(HELD) == 1 and state.seats[sl].units["acolyte"].count("north-america") == 5
    assert board.gate_count(state, sl) == 1 and board.cultists_in_play(state, sl) == 6


def test_ice_age_taxes_the_destination_of_the_beyond_one():
    state = seated([GC, WW, OW], starts={WW: "arctic-ocean", OW: "europe"})
    state.seats[seat(state, WW)].spellbooks = ["ice-age"]
    state.seats[seat(state, WW)].flags["ice-age"] = "asia"
    put(state, OW, "abomination", "europe")
    give_turn(state, OW, power=1)
    options = texts(state, OW)
    assert "ow-beyond-one abomination europe>africa" in options and "ow-beyond-one abomination europe>asia" not in options
    give_turn(state, OW, power=2)
    state, _ = play(state, OW, "ow-beyond-one abomination europe>asia")
    assert state.seats[seat(state, OW)].power == 0


def test_demand_sacrifice_kills_to_pains_holds_after_channel_power():
    state = seated([SL, OW, GC], starts={OW: "europe"})
    sl, ow = seat(state, SL), seat(state, OW)
    state.seats[sl].spellbooks = ["demand-sacrifice"]
    state.seats[ow].spellbooks = ["channel-power"]
    put(state, SL, "tsathoggua", "arctic-ocean")
    put(state, SL, "serpent-man", "europe")
    put(state, OW, "spawn", "europe")
    from .cw_helpers import ScriptedDice

    state.rng = ScriptedDice([1] + [1, 1, 1] + [6, 6, 6])
    give_turn(state, SL, power=3)
    state.seats[ow].power = 3
    state, _ = play(state, SL, "battle europe vs opener")
    state, _ = play(state, SL, "sl-demand-sacrifice")
    state, _ = play(state, OW, "sl-sacrifice kills-to-pains")
    state, _ = play(state, OW, "ow-channel-power")
    assert state.battle["rolls"][ow] == [6, 6, 6]
    assert state.seats[sl].units["serpent-man"][0] != "@pool", "the Kills became Pains"


@pytest.mark.parametrize("factions", [[GC, CC, BG, "stand-in-sleeper", "yellow-sign"], ["nobody", GC, BG]])
def test_unknown_or_removed_factions_are_refused_with_the_list_of_faction_ids(factions):
    with pytest.raises(BadOptions) as err:
        ENGINE.new_game(CthulhuWarsOptions(factions=factions), len(factions), 1)
    assert "opener-of-the-way" in err.value.message and "windwalker" in err.value.message and err.value.legal


def test_a_five_player_game_stored_before_the_expansions_fails_to_load_with_a_clear_error():
    old = {k: v for k, v in CthulhuWarsOptions().model_dump(mode="json").items() if k in KEYS_BEFORE_EXPANSIONS}
    options = ENGINE.read_options(old)
    with pytest.raises(BadOptions, match="stand-in-sleeper"):
        ENGINE.new_game(options, 5, 1)
    assert ENGINE.new_game(options, 4, 1).seats[3].faction == "yellow-sign", "3- and 4-player games still load"
    assert not ENGINE.read_options(CthulhuWarsOptions().model_dump(mode="json")).stored_before_expansions


def test_list_games_names_every_faction_with_a_line_each():
    for faction in (GC, CC, BG, "yellow-sign", SL, WW, OW):
        assert faction in CthulhuWars.summary
    assert "Hibernate" in CthulhuWars.summary


def test_the_picture_gives_every_faction_a_colour_and_names_every_unit_in_full():
    from tabletop.games.cthulhu_wars.factions import FACTIONS
    from tabletop.games.cthulhu_wars.picture import COLOURS, draw_map
    from tabletop.render import Text

    assert set(COLOURS) == set(FACTIONS) and len(set(COLOURS.values())) == len(COLOURS)
    state = seated([GC, WW, SL, OW, BG], starts={WW: "antarctica", OW: "europe"})
    for faction, kind, area in ((OW, "yog-sothoth", "europe"), (WW, "gnoph-keh", "antarctica"), (SL, "wizard", "europe")):
        put(state, faction, kind, area)
    words = {shape.text for shape in draw_map(state).shapes if isinstance(shape, Text)}
    assert {"Yog-Sothoth", "Gnoph-Keh", "Wizard", "6 Acolytes"} <= words


def test_describe_and_the_picture_show_the_ice_age_marker_and_the_cursed_slumber_gate():
    from tabletop.render import to_svg

    state = seated([GC, WW, SL], starts={WW: "antarctica"})
    ww, sl = seat(state, WW), seat(state, SL)
    state.seats[ww].spellbooks = ["ice-age"]
    state.seats[ww].flags["ice-age"] = "europe"
    state.seats[sl].spellbooks = ["cursed-slumber"]
    give_turn(state, SL)
    state, _ = play(state, SL, "sl-cursed-slumber north-america")
    text = ENGINE.describe(state, None)
    assert "europe: Ice Age" in text and "Cursed Slumber" in text and "north-america: Gate" not in text
    svg = to_svg(ENGINE.draw(state, None, frozenset()))
    assert "Ice Age" in svg and "Cursed Slumber" in svg


def test_every_faction_and_spellbook_of_the_expansions_has_a_rules_section_that_refusals_cite():
    from tabletop.games.cthulhu_wars.factions import FACTIONS
    from tabletop.rulebook import find_section

    prefixes = {WW: "windwalker", SL: "sleeper", OW: "opener"}
    for name, prefix in prefixes.items():
        faction = FACTIONS[name]
        assert find_section("cthulhu-wars", faction.rules_section) is not None
        for book in faction.spellbooks:
            assert find_section("cthulhu-wars", f"{prefix}-{book.name}") is not None, book.name
        for section in faction.rules_by_kind.values():
            assert find_section("cthulhu-wars", section) is not None, section
    state = seated([GC, WW, OW], starts={WW: "arctic-ocean", OW: "europe"})
    give_turn(state, OW)
    with pytest.raises(Exception) as err:
        play(state, OW, "ow-dread-curse south-pacific")
    assert err.value.rule == "cthulhu-wars/opener-dread-curse"
