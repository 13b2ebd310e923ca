"""Black Goat: Fertility Cult, Shub-Niggurath, Avatar, the six requirements and one test per spellbook
(rules_text ``cthulhu-wars/black-goat``)."""

import pytest

from tabletop.games.cthulhu_wars import ENGINE, phases
from tabletop.games.cthulhu_wars.factions import FACTIONS, default_factions
from tabletop.games.cthulhu_wars.state import POOL

from .cw_helpers import CC, GC, ScriptedDice, give_turn, play, put, seat
from .cw_helpers import new_game as any_game

BG = "black-goat"
BLACK_GOAT = FACTIONS[BG]


def new_game(*books, power=None):
    """3 players (Great Cthulhu, Black Goat in Africa, stand-in Crawling Chaos in Asia); Black Goat's turn."""
    state = any_game(3, factions=[GC, BG, CC])
    state.seats[seat(state, BG)].spellbooks = list(books)
    give_turn(state, BG, power)
    return state


def texts(state, faction):
    return [ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat(state, faction))]


def test_units_costs_and_default_seat():
    assert [(u.name, u.count, u.cost, u.combat, u.role) for u in BLACK_GOAT.units] == [
        ("acolyte", 6, 1, 0, "cultist"), ("ghoul", 2, 1, 0, "monster"), ("fungi", 4, 2, 1, "monster"),
        ("dark-young", 3, 3, 2, "monster"), ("shub-niggurath", 1, 8, 0, "goo")]
    assert len(BLACK_GOAT.requirements) == 6 and len(BLACK_GOAT.spellbooks) == 6
    assert {b.timing for b in BLACK_GOAT.spellbooks} == {"ongoing", "battle", "post-battle", "action", "doom"}
    state = any_game(3, factions=[GC, BG, CC])
    assert state.seats[seat(state, BG)].units["acolyte"].count("africa") == 6 and state.controller("africa") == seat(state, BG)
    assert BG in default_factions(5) and not any(f.startswith("stand-in") for f in default_factions(5))


def test_fertility_cult_summons_do_not_use_up_the_action():
    state = new_game()
    bg = seat(state, BG)
    state.seats[bg].units["acolyte"][5] = "@pool"
    state, _ = play(state, BG, "summon ghoul africa")
    assert not state.turn.acted and ENGINE.to_move(state) == [bg] and state.seats[bg].power == 7
    state, _ = play(state, BG, "recruit africa")  # the turn's one action
    assert state.turn.acted and "summon fungi africa" in texts(state, BG)
    state, _ = play(state, BG, "summon fungi africa")
    assert state.seats[bg].power == 4 and ENGINE.to_move(state) == [bg]
    state, _ = play(state, BG, "done")
    assert ENGINE.to_move(state) != [bg]


def test_awaken_shub_costs_eight_and_two_cultists_of_your_choice():
    state = new_game(power=10)
    bg = seat(state, BG)
    state.seats[bg].units["acolyte"][5] = "europe"
    assert "awaken shub-niggurath africa" in texts(state, BG)
    state, log = play(state, BG, "awaken shub-niggurath africa")
    assert state.seats[bg].power == 2 and state.seats[bg].units["shub-niggurath"][0] == "africa"
    assert "Shub-Niggurath demands two Cultists." in log, "the log says why Black Goat must now choose"
    options = texts(state, BG)
    assert "done" not in options and "bg-eliminate acolyte europe" in options and "bg-eliminate acolyte africa from-gate" in options
    state, log = play(state, BG, "bg-eliminate acolyte europe")
    assert f"{BG} eliminates its own Acolyte in europe." in log
    assert state.seats[bg].requirements == [], "requirements are checked once the action is complete"
    state, _ = play(state, BG, "bg-eliminate acolyte africa")
    assert state.seats[bg].units["acolyte"].count("@pool") == 2 and state.controller("africa") == bg
    assert "awaken-shub" in state.seats[bg].requirements and state.pending[0].kind == "spellbook"
    state, _ = play(state, BG, "spellbook frenzy")


def test_shub_needs_a_controlled_gate_and_two_cultists():
    state = new_game(power=10)
    bg = seat(state, BG)
    state.seats[bg].units["acolyte"][1:] = ["@pool"] * 5
    assert BLACK_GOAT.awaken_options(state, bg) == []
    state.seats[bg].units["acolyte"][1] = "africa"
    assert BLACK_GOAT.awaken_options(state, bg) == [("shub-niggurath", "africa", 8)]
    state.gates["africa"] = None
    assert BLACK_GOAT.awaken_options(state, bg) == []


def test_shub_combat_is_gates_plus_cultists_plus_dark_young_with_the_red_sign():
    state = new_game()
    bg = seat(state, BG)
    put(state, BG, "shub-niggurath", "africa")
    put(state, BG, "dark-young", "europe", 2)
    assert BLACK_GOAT.unit_combat(state, bg, "shub-niggurath", {}, 1) == 1 + 6
    state.seats[bg].spellbooks = ["red-sign"]
    assert BLACK_GOAT.unit_combat(state, bg, "shub-niggurath", {}, 1) == 1 + 6 + 2


def test_frenzy_gives_cultists_combat_one_so_acolytes_can_battle():
    state = new_game()
    assert "battle asia vs" not in " ".join(texts(state, BG))
    state.seats[seat(state, BG)].units["acolyte"][5] = "asia"
    assert not any(t.startswith("battle asia") for t in texts(state, BG))
    state.seats[seat(state, BG)].spellbooks = ["frenzy"]
    state.rng = ScriptedDice([1] * 7)
    state, log = play(state, BG, f"battle asia vs {CC}")
    assert any(line.startswith(f"{BG} rolls 1 die") for line in log)


def test_avatar_swaps_shub_with_a_unit_the_owner_chooses():
    state = new_game()
    bg, cc = seat(state, BG), seat(state, CC)
    put(state, BG, "shub-niggurath", "africa")
    put(state, CC, "nightgaunt", "asia")
    state, _ = play(state, BG, f"avatar {CC} to asia")
    assert state.seats[bg].power == 7 and state.seats[bg].units["shub-niggurath"][0] == "asia"
    assert ENGINE.to_move(state) == [cc] and "done" not in texts(state, CC)
    state, _ = play(state, CC, "avatar-swap nightgaunt asia>africa")
    assert state.seats[cc].units["nightgaunt"].count("africa") == 1
    assert state.seats[cc].units["acolyte"].count("asia") == 6


def test_avatar_with_one_possible_unit_needs_no_choice():
    state = new_game()
    bg = seat(state, BG)
    put(state, BG, "shub-niggurath", "africa")
    put(state, BG, "fungi", "europe")
    state, _ = play(state, BG, f"avatar {BG} to europe")
    assert state.seats[bg].units["shub-niggurath"][0] == "europe" and state.seats[bg].units["fungi"][0] == "africa"


def test_thousand_young_makes_monsters_one_cheaper_while_shub_is_on_the_map():
    state = new_game("thousand-young")
    bg = seat(state, BG)
    assert BLACK_GOAT.summon_cost(state, bg, "dark-young") == 3
    put(state, BG, "shub-niggurath", "africa")
    assert [BLACK_GOAT.summon_cost(state, bg, k) for k in ("ghoul", "fungi", "dark-young")] == [0, 1, 2]
    state, _ = play(state, BG, "summon dark-young africa")
    assert state.seats[bg].power == 6


def test_red_sign_dark_young_build_control_gates_and_gather_power():
    state = new_game("red-sign")
    bg = seat(state, BG)
    put(state, BG, "dark-young", "europe")
    assert "gate europe" in texts(state, BG)
    state, _ = play(state, BG, "gate europe")
    assert state.gates["europe"] == (bg, "dark-young", 0)
    extras = BLACK_GOAT.gather_extras(state, bg)
    assert [(e.count, e.power_each) for e in extras] == [(1, 1)]
    state.seats[bg].spellbooks = []
    assert BLACK_GOAT.gather_extras(state, bg) == [] and not BLACK_GOAT.can_control_gates(state, bg, "dark-young")


def test_necrophagy_in_a_battle_black_goat_is_not_in():
    state = any_game(3, factions=[GC, BG, CC])
    gc, bg, cc = seat(state, GC), seat(state, BG), seat(state, CC)
    state.seats[bg].spellbooks = ["necrophagy"]
    put(state, GC, "shoggoth", "north-pacific")
    put(state, CC, "nightgaunt", "north-pacific", 2)
    put(state, BG, "ghoul", "africa")
    state.rng = ScriptedDice([1, 1])  # both miss; CC's nightgaunts roll nothing
    state, _ = play(state, GC, f"battle north-pacific vs {CC}")
    assert ENGINE.to_move(state) == [bg] and "necrophagy africa" in texts(state, BG)
    state, _ = play(state, BG, "necrophagy africa")
    assert state.seats[bg].units["ghoul"].count("north-pacific") == 1
    state, _ = play(state, GC, "retreat shoggoth to north-america")
    state, _ = play(state, CC, "retreat nightgaunt to asia")
    assert state.battle is None  # each side took its Pain and retreated
    # while the battle ran the Ghoul shared areas with every enemy, but not once it was over: nothing earned
    assert "share-areas" not in state.seats[bg].requirements and not state.pending
    assert state.seats[gc].units["shoggoth"][0] != "north-pacific"
    assert state.seats[cc].units["nightgaunt"].count("north-pacific") == 1


def test_necrophagy_ghoul_cannot_take_the_pain_it_brings():
    state = any_game(3, factions=[GC, BG, CC])
    gc, bg = seat(state, GC), seat(state, BG)
    state.seats[bg].spellbooks = ["necrophagy"]
    put(state, GC, "deep-one", "africa")
    put(state, BG, "ghoul", "europe")
    state.rng = ScriptedDice([1, 1, 1, 1, 1, 1, 1])
    state, _ = play(state, GC, f"battle africa vs {BG}")
    state, _ = play(state, BG, "necrophagy europe")
    assert "assign pain ghoul" not in texts(state, BG)
    state, _ = play(state, BG, "assign pain acolyte")  # not the one on the Gate
    state, _ = play(state, GC, "retreat deep-one to asia")
    state, _ = play(state, BG, "retreat acolyte to south-atlantic")
    assert state.seats[bg].units["ghoul"].count("africa") == 1
    assert state.seats[bg].units["acolyte"].count("africa") == 5  # the Pain fell on an Acolyte, who retreated
    assert state.seats[gc].units["deep-one"][0] != "africa"


def test_ghroth_agreed_shares_are_eliminated_by_their_owners():
    state = new_game("ghroth")
    bg, gc, cc = seat(state, BG), seat(state, GC), seat(state, CC)
    put(state, BG, "fungi", "europe")
    put(state, BG, "fungi", "asia")
    state.rng = ScriptedDice([2])
    state, _ = play(state, BG, "ghroth")
    assert state.seats[bg].power == 6 and sorted(ENGINE.to_move(state)) == sorted([gc, cc])
    state, _ = play(state, GC, f"offer {GC}=1,{CC}=1")
    state, _ = play(state, CC, f"offer {GC}=1,{CC}=1")
    assert ENGINE.to_move(state) == [gc] and "done" not in texts(state, GC)
    state, _ = play(state, GC, "bg-eliminate acolyte south-pacific")
    state, _ = play(state, CC, "bg-eliminate acolyte asia")
    assert state.seats[gc].units["acolyte"].count("@pool") == 1 and state.seats[cc].units["acolyte"].count("@pool") == 1


def test_ghroth_without_agreement_black_goat_chooses():
    state = new_game("ghroth")
    gc, cc = seat(state, GC), seat(state, CC)
    put(state, BG, "fungi", "europe")
    state.rng = ScriptedDice([1])
    state, _ = play(state, BG, "ghroth")
    state, _ = play(state, GC, f"offer {GC}=0,{CC}=1")
    state, _ = play(state, CC, f"offer {GC}=1,{CC}=0")
    assert ENGINE.to_move(state) == [seat(state, BG)] and "done" not in texts(state, BG)
    state, _ = play(state, BG, f"ghroth-pick acolyte south-pacific vs {GC} from-gate")
    assert state.seats[gc].units["acolyte"].count("@pool") == 1 and state.gates["south-pacific"] is None
    assert state.seats[cc].units["acolyte"].count("asia") == 6


def test_ghroth_roll_above_the_fungi_areas_places_an_acolyte_from_any_pool():
    state = new_game("ghroth")
    gc = seat(state, GC)
    state.seats[gc].units["acolyte"][5] = "@pool"
    state.rng = ScriptedDice([3])
    state, _ = play(state, BG, "ghroth")
    assert state.pending[0].kind == "ghroth-place"
    state, _ = play(state, BG, f"ghroth-place {GC} to europe")
    assert state.seats[gc].units["acolyte"].count("europe") == 1


def test_blood_sacrifice_in_the_doom_phase_trades_a_cultist_for_an_elder_sign():
    state = new_game("blood-sacrifice")
    bg = seat(state, BG)
    state.turn = None
    phases.start_doom_phase(state, [])
    assert state.pending == []  # Shub-Niggurath is not on the map
    put(state, BG, "shub-niggurath", "africa")
    phases.start_doom_phase(state, [])
    assert state.pending[0].kind == "blood-sacrifice" and "done" in texts(state, BG)
    state, _ = play(state, BG, "blood-sacrifice acolyte africa")
    assert len(state.seats[bg].elder_signs) == 1 and state.seats[bg].units["acolyte"].count("africa") == 5


def test_units_in_four_six_and_eight_areas():
    state = new_game()
    bg = seat(state, BG)
    for i, area in enumerate(("europe", "asia", "north-atlantic")):
        state.seats[bg].units["acolyte"][i] = area
    assert BLACK_GOAT.met_requirements(state, bg) == ["units-in-4-areas"]
    for kind, area in (("fungi", "indian-ocean"), ("fungi", "south-atlantic"), ("fungi", "antarctica"), ("fungi", "australia")):
        put(state, BG, kind, area)
    assert BLACK_GOAT.met_requirements(state, bg) == ["units-in-4-areas", "units-in-6-areas", "units-in-8-areas"]


def test_sharing_areas_with_every_enemy_gives_a_power_per_enemy():
    state = new_game(power=3)
    bg = seat(state, BG)
    state.seats[bg].units["acolyte"][4:] = ["asia", "@pool"]
    state, _ = play(state, BG, "recruit asia")
    assert "share-areas" not in state.seats[bg].requirements
    give_turn(state, BG, power=3)
    state, _ = play(state, BG, "move acolyte asia>indian-ocean")
    put(state, GC, "deep-one", "indian-ocean")
    state, _ = play(state, BG, "done")
    assert "share-areas" in state.seats[bg].requirements and state.seats[bg].power == 2 + 2


def test_sacrificing_two_cultists_as_the_action_meets_a_requirement():
    state = new_game()
    bg = seat(state, BG)
    state, _ = play(state, BG, "bg-sacrifice")
    assert state.turn.acted and "done" not in texts(state, BG)
    state, _ = play(state, BG, "bg-eliminate acolyte africa")
    state, _ = play(state, BG, "bg-eliminate acolyte africa")
    assert "sacrifice-two" in state.seats[bg].requirements
    state, _ = play(state, BG, "spellbook ghroth")
    assert state.seats[bg].units["acolyte"].count("africa") == 4 and "bg-sacrifice" not in texts(state, BG)


@pytest.mark.parametrize("text", [
    "avatar great-cthulhu to asia", "avatar-swap nightgaunt asia>africa", "ghroth", "bg-sacrifice",
    "ghroth-pick acolyte south-pacific vs great-cthulhu from-gate", "ghroth-place black-goat to europe",
    "bg-eliminate acolyte africa", "blood-sacrifice acolyte africa from-gate", "necrophagy europe",
])  # fmt: skip
def test_black_goat_notation_round_trips(text):
    state = new_game()
    action = ENGINE.parse(text, state, seat(state, BG))
    assert ENGINE.notation(action) == text


def test_requirements_are_checked_when_the_move_action_is_complete_not_after_each_unit():
    """rules_text factions: a requirement is met by the position an action leaves, not one it passes through.
    Black Goat in 3 areas moves an Acolyte out to a fourth area and then its Ghoul after it: 3 areas at the end."""
    state = new_game()
    bg = seat(state, BG)
    put(state, BG, "ghoul", "europe")
    put(state, BG, "fungi", "asia")
    state, _ = play(state, BG, "move acolyte africa>north-atlantic")  # for a moment: Africa, Europe, Asia, N. Atlantic
    assert not state.pending and state.seats[bg].requirements == []
    state, _ = play(state, BG, "move ghoul europe>north-atlantic")
    state, _ = play(state, BG, "done")
    assert state.seats[bg].requirements == [] and not any(p.kind == "spellbook" for p in state.pending)


def test_a_requirement_met_on_another_factions_turn_is_earned_when_that_action_completes():
    """rules_text black-goat: 'share-areas' can be met on an enemy's turn; the spellbook is taken then, out of
    turn, once the enemy's action is complete (not in the middle of its Move)."""
    state = new_game()
    gc, bg = seat(state, GC), seat(state, BG)
    put(state, BG, "fungi", "indian-ocean")
    put(state, BG, "ghoul", "asia")  # already shares an area with Crawling Chaos
    give_turn(state, GC, power=8)
    state, _ = play(state, GC, "move acolyte south-pacific>indian-ocean")
    assert state.turn.moving and not state.pending and "share-areas" not in state.seats[bg].requirements
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    state, _ = play(state, GC, "done")
    assert "share-areas" in state.seats[bg].requirements and state.seats[bg].power == 8 + 2
    assert state.pending[0].kind == "spellbook" and ENGINE.to_move(state) == [bg]
    state, _ = play(state, BG, "spellbook frenzy")
    assert ENGINE.to_move(state) == [gc] and state.turn.seat == gc, "then Great Cthulhu's turn goes on"


def test_blood_sacrifice_from_the_gate_gives_up_the_cultist_controlling_it():
    """Cultists are told apart only by whether one controls the Gate (rules_text cthulhu-wars/gates): 'from-gate'
    sacrifices exactly that one, and without it another Acolyte goes."""
    for from_gate in (True, False):
        state = new_game("blood-sacrifice")
        bg = seat(state, BG)
        state.turn = None
        put(state, BG, "shub-niggurath", "africa")
        phases.start_doom_phase(state, [])
        holder = state.gates["africa"]
        assert holder is not None and holder[0] == bg
        state, _ = play(state, BG, "blood-sacrifice acolyte africa" + (" from-gate" if from_gate else ""))
        given_up = state.seats[bg].units[holder[1]][holder[2]] == POOL
        assert given_up == from_gate
