"""Great Cthulhu: Immortal, Devour, the six requirements and one test per spellbook
(rules_text ``cthulhu-wars/great-cthulhu``)."""

from tabletop.games.cthulhu_wars import ENGINE, phases
from tabletop.games.cthulhu_wars.factions import FACTIONS

from .cw_helpers import CC, GC, ScriptedDice, give_turn, new_game, play, put, seat

GREAT_CTHULHU = FACTIONS[GC]


def with_spellbooks(*books, players=3):
    state = new_game(players)
    state.seats[seat(state, GC)].spellbooks = list(books)
    return state


def test_units_and_costs():
    assert [(u.name, u.count, u.cost, u.combat) for u in GREAT_CTHULHU.units] == [
        ("acolyte", 6, 1, 0), ("deep-one", 4, 1, 1), ("shoggoth", 2, 2, 2), ("starspawn", 2, 3, 3), ("cthulhu", 1, 10, 6)]
    assert len(GREAT_CTHULHU.requirements) == 6 and len(GREAT_CTHULHU.spellbooks) == 6


def test_devour_makes_the_enemy_eliminate_one_of_its_units_and_counts_as_a_kill():
    state = new_game(3)
    gc, cc = seat(state, GC), seat(state, CC)
    put(state, GC, "cthulhu", "north-pacific")
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, CC, "nightgaunt", "north-pacific")
    state.rng = ScriptedDice([1] * 6 + [1])
    state, _ = play(state, GC, "battle north-pacific vs crawling")
    assert state.pending[0].kind == "pre-battle" and ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "devour")
    assert ENGINE.to_move(state) == [cc] and state.pending[0].kind == "lose"
    state, _ = play(state, CC, "lose nightgaunt")
    assert state.seats[cc].units["nightgaunt"].count("north-pacific") == 0
    assert "kill-one" in state.seats[gc].requirements


def test_absorb_eliminates_own_units_for_three_dice_each():
    state = with_spellbooks("absorb")
    gc = seat(state, GC)
    put(state, GC, "shoggoth", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    put(state, CC, "flying-polyp", "north-pacific")
    state.rng = ScriptedDice([1] * 5 + [1])
    state, _ = play(state, GC, "battle north-pacific vs crawling")
    state, log = play(state, GC, "absorb deep-one")  # nothing left to absorb: the dice roll at once
    assert state.seats[gc].units["deep-one"].count("north-pacific") == 0
    assert any(line.startswith(f"{GC} rolls 5 dice") for line in log)  # Shoggoth 2 + 3


def test_regenerate_a_starspawn_survives_a_kill_and_a_pain_but_not_two_kills():
    for rolls, survives in (([6, 4, 1], True), ([6, 6, 1], False)):
        state = with_spellbooks("regenerate")
        gc = seat(state, GC)
        put(state, GC, "starspawn", "north-pacific")
        put(state, CC, "hunting-horror", "north-pacific")
        put(state, CC, "flying-polyp", "north-pacific")
        state.rng = ScriptedDice([1, 1, 1] + rolls)
        state, log = play(state, GC, "battle north-pacific vs crawling")
        alive = state.seats[gc].units["starspawn"][0] != "@pool"
        assert alive == survives, log


def test_dreams_swaps_an_enemy_acolyte_for_yours():
    state = with_spellbooks("dreams")
    gc, cc = seat(state, GC), seat(state, CC)
    state.seats[gc].units["acolyte"][5] = "@pool"
    state, _ = play(state, GC, "dreams asia vs crawling")
    assert state.seats[gc].power == 6 and ENGINE.to_move(state) == [cc]
    state, _ = play(state, CC, "lose acolyte")
    assert state.seats[cc].units["acolyte"].count("asia") == 5
    assert state.seats[gc].units["acolyte"].count("asia") == 1


def test_submerge_takes_cthulhu_and_any_chosen_subset_of_the_units_with_him():
    """rules_text great-cthulhu: Submerge moves Cthulhu onto the card with any of your units in his area that you
    choose, one figure at a time (`submerge`, `submerge-with <unit>`..., `done`)."""
    state = with_spellbooks("submerge")
    gc = seat(state, GC)
    put(state, GC, "cthulhu", "south-pacific")
    put(state, GC, "deep-one", "south-pacific", 2)
    put(state, GC, "starspawn", "south-pacific")
    state, _ = play(state, GC, "submerge")
    assert state.seats[gc].units["cthulhu"][0] == "@card" and state.seats[gc].power == 7
    assert state.pending[0].kind == "submerge-with" and ENGINE.to_move(state) == [gc]
    assert {ENGINE.notation(a) for a in ENGINE.legal_actions(state, gc)} == {
        "submerge-with acolyte", "submerge-with deep-one", "submerge-with starspawn", "done"}
    state, _ = play(state, GC, "submerge-with deep-one")
    state, _ = play(state, GC, "submerge-with acolyte")
    state, _ = play(state, GC, "submerge-with acolyte")
    state, _ = play(state, GC, "done")
    units = state.seats[gc].units
    assert units["deep-one"].count("@card") == 1 and units["deep-one"].count("south-pacific") == 1
    assert units["acolyte"].count("@card") == 2 and units["acolyte"].count("south-pacific") == 4
    assert units["starspawn"] == ["south-pacific", "@pool"]
    assert state.controller("south-pacific") == gc, "the Acolytes taken were those off the Gate"
    assert state.seats[gc].power == 7, "the units that follow cost nothing more"
    give_turn(state, GC, power=1)
    state, _ = play(state, GC, "emerge europe")
    assert state.seats[gc].units["cthulhu"][0] == "europe" and state.seats[gc].units["acolyte"].count("europe") == 2
    assert state.seats[gc].units["deep-one"].count("europe") == 1 and state.seats[gc].power == 1


def test_submerge_alone_and_all_of_them():
    state = with_spellbooks("submerge")
    gc = seat(state, GC)
    put(state, GC, "cthulhu", "south-pacific")
    alone, _ = play(state, GC, "submerge")
    alone, _ = play(alone, GC, "done")
    assert alone.seats[gc].units["acolyte"].count("south-pacific") == 6 and alone.controller("south-pacific") == gc
    everyone = state
    everyone, _ = play(everyone, GC, "submerge")
    for _ in range(6):
        everyone, _ = play(everyone, GC, "submerge-with acolyte")
    assert everyone.seats[gc].units["acolyte"].count("@card") == 6 and everyone.gates["south-pacific"] is None
    assert everyone.pending == [] or everyone.pending[0].kind != "submerge-with", "nothing left to take"


def test_yha_nthlei_adds_power_per_enemy_controlled_ocean_gate():
    state = with_spellbooks("yha-nthlei")
    gc, cc = seat(state, GC), seat(state, CC)
    put(state, GC, "cthulhu", "south-pacific")
    state.seats[cc].units["acolyte"][5] = "north-atlantic"
    state.gates["north-atlantic"] = (cc, "acolyte", 5)
    extras = GREAT_CTHULHU.gather_extras(state, gc)
    assert [(e.count, e.power_each) for e in extras] == [(1, 1)]
    assert extras[0].source == "Y'ha Nthlei: enemy-controlled ocean Gates", "the Gather Power line names the spellbook"
    state.seats[gc].units["cthulhu"][0] = "@pool"
    assert GREAT_CTHULHU.gather_extras(state, gc) == []


def test_devolve_is_offered_after_any_players_action():
    """Devolve is an out-of-turn window answer (rules_text out-of-turn), after Great Cthulhu's actions and others'."""
    state = with_spellbooks("devolve")
    gc, cc = seat(state, GC), seat(state, CC)
    state, _ = play(state, GC, "summon shoggoth south-pacific")
    assert state.pending[0].kind == "window" and ENGINE.to_move(state) == [gc]
    assert {ENGINE.notation(a) for a in ENGINE.legal_actions(state, gc)} == {"devolve south-pacific", "done"}
    state, _ = play(state, GC, "done")  # no Devolve now
    state, _ = play(state, GC, "done")  # end of the turn
    assert ENGINE.to_move(state) == [cc]
    state, _ = play(state, CC, "pass")
    assert state.pending[0].kind == "window" and ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "devolve south-pacific")
    state, _ = play(state, GC, "devolve south-pacific")  # one Acolyte at a time, as often as you like
    assert state.seats[gc].units["deep-one"].count("south-pacific") == 2
    assert state.seats[gc].units["acolyte"].count("south-pacific") == 4
    state, _ = play(state, GC, "done")
    assert not state.pending and ENGINE.to_move(state) != [cc]


def test_devolve_only_after_great_cthulhus_own_actions_under_the_other_ruling():
    state = new_game(3, devolve_after_every_action=False)
    gc, cc = seat(state, GC), seat(state, CC)
    state.seats[gc].spellbooks = ["devolve"]
    state, _ = play(state, GC, "pass")
    assert state.pending[0].kind == "window" and ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "done")
    state, _ = play(state, CC, "pass")
    assert not state.pending or state.pending[0].kind != "window"


def test_ocean_gates_requirement():
    state = new_game(3)
    gc = seat(state, GC)
    assert not GREAT_CTHULHU.ocean_gates_met(state, gc)
    for area in ("north-pacific", "indian-ocean", "south-atlantic"):
        state.gates[area] = None
    assert GREAT_CTHULHU.ocean_gates_met(state, gc)  # four Gates in oceans, whoever controls them


def test_five_spellbooks_requirement_is_met_in_a_doom_phase_and_gives_an_elder_sign():
    state = new_game(3)
    gc = seat(state, GC)
    fs = state.seats[gc]
    fs.spellbooks = ["devolve", "absorb", "regenerate", "dreams", "submerge"]
    fs.requirements = ["first-doom-phase", "kill-one", "kill-two", "awaken-cthulhu", "ocean-gates"]
    assert GREAT_CTHULHU.met_requirements(state, gc) == []
    state.phase, state.doom_phases = "doom", 3
    state.turn = None
    phases.award_spellbooks(state, [])
    assert fs.requirements[-1] == "five-spellbooks" and len(fs.elder_signs) == 1
    assert [a.name for a in ENGINE.legal_actions(state, gc)] == ["yha-nthlei"]


def test_three_kills_in_one_battle_earn_both_kill_requirements():
    state = new_game(3)
    gc = seat(state, GC)
    put(state, GC, "starspawn", "asia", 2)
    state.rng = ScriptedDice([6, 6, 6, 1, 1, 1])
    state, _ = play(state, GC, "battle asia vs crawling")
    state, _ = play(state, CC, "assign kill acolyte,acolyte,acolyte")
    assert {"kill-one", "kill-two"} <= set(state.seats[gc].requirements)


def submerged_game(**options):
    """Cthulhu and two Acolytes Submerged on the card; Great Cthulhu holds Y'ha Nthlei; an enemy ocean Gate."""
    state = new_game(3, **options)
    gc, cc = seat(state, GC), seat(state, CC)
    fs = state.seats[gc]
    fs.spellbooks = ["submerge", "yha-nthlei"]
    fs.units["cthulhu"][0] = "@card"
    fs.units["acolyte"][4:] = ["@card", "@card"]
    state.seats[cc].units["acolyte"][5] = "north-atlantic"
    state.gates["north-atlantic"] = (cc, "acolyte", 5)
    return state, gc


def test_submerged_units_count_as_in_play_for_power_rituals_and_yha_nthlei():
    """Ruling submerged_units_in_play (default true): Submerged Cultists give Power, a Submerged Cthulhu gives a
    Ritual its Elder Sign and keeps Y'ha Nthlei working."""
    state, gc = submerged_game()
    sources = phases.power_sources(state, gc, None)
    assert sources.cultists == 6
    assert [(e.count, e.power_each) for e in sources.extra] == [(1, 1)]
    state.phase, state.turn, state.seats[gc].power = "doom", None, 10
    phases.perform_ritual(state, gc, [])
    assert len(state.seats[gc].elder_signs) == 1

    old, gc = submerged_game(submerged_units_in_play=False)
    sources = phases.power_sources(old, gc, None)
    assert sources.cultists == 4 and sources.extra == []
    old.phase, old.turn, old.seats[gc].power = "doom", None, 10
    phases.perform_ritual(old, gc, [])
    assert old.seats[gc].elder_signs == []


def test_submerge_and_assignment_moves_read_as_notation_and_as_objects():
    state = with_spellbooks("submerge")
    gc = seat(state, GC)
    put(state, GC, "cthulhu", "south-pacific")
    state, _ = play(state, GC, "submerge")
    as_text = ENGINE.parse("submerge-with acolyte", state, gc)
    as_object = ENGINE.read_move({"kind": "submerge-with", "unit": "acolyte"}, state, gc)
    assert as_text == as_object and as_text in ENGINE.legal_actions(state, gc)
    assert ENGINE.notation(as_object) == "submerge-with acolyte"
    assign = ENGINE.read_move({"kind": "assign", "result": "kill", "units": ["deep-one", "acolyte@gate"]}, state, gc)
    assert ENGINE.notation(assign) == "assign kill acolyte@gate,deep-one"
    assert ENGINE.parse("assign kill deep-one,acolyte@gate", state, gc) == assign
