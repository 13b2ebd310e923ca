"""The Yellow Sign: units, Feast, Desecrate, Vengeance, the six requirements and one test per
spellbook (rules_text ``cthulhu-wars/yellow-sign``)."""

from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.battle import side_combat
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.factions.yellow_sign import (
    Desecrate, GiveDoom, ScreamingDead, Shriek, ShriekMore, Unnamed, Zingaya,
)  # fmt: skip

from .cw_helpers import BG, GC, ScriptedDice, give_turn, new_game, play, put, seat

YS = "yellow-sign"
YELLOW_SIGN = FACTIONS[YS]
LINE_UP = [GC, YS, BG]


def ys_game(*books, power=8):
    """A 3-player game (Great Cthulhu, Yellow Sign, Black Goat) on the Yellow Sign's turn."""
    state = new_game(3, factions=LINE_UP)
    state.seats[seat(state, YS)].spellbooks = list(books)
    give_turn(state, YS, power=power)
    return state


def test_units_and_costs():
    assert [(u.name, u.count, u.cost, u.combat, u.role) for u in YELLOW_SIGN.units] == [
        ("acolyte", 6, 1, 0, "cultist"), ("undead", 6, 1, 1, "monster"), ("byakhee", 4, 2, 1, "monster"),
        ("king-in-yellow", 1, 4, 0, "goo"), ("hastur", 1, 10, 0, "goo")]
    assert len(YELLOW_SIGN.requirements) == 6 and len(YELLOW_SIGN.spellbooks) == 6
    state = new_game(3, factions=LINE_UP)
    assert state.seats[seat(state, YS)].units["acolyte"].count("europe") == 6


def test_undead_roll_one_less_byakhee_one_more_and_hastur_the_ritual_cost():
    state = ys_game()
    ys = seat(state, YS)
    put(state, YS, "undead", "asia", 3)
    assert side_combat(state, ys, None, "asia") == 2
    put(state, YS, "byakhee", "asia", 2)
    assert side_combat(state, ys, None, "asia") == 2 + 3
    put(state, YS, "hastur", "asia")
    state.ritual_step = 2
    assert side_combat(state, ys, None, "asia") == 2 + 3 + 7
    put(state, YS, "undead", "arctic-ocean")
    assert side_combat(state, ys, None, "arctic-ocean") == 0


def test_undead_and_byakhee_roll_their_group_dice_in_a_battle():
    state = ys_game()
    put(state, YS, "undead", "asia", 3)
    put(state, YS, "byakhee", "asia")
    put(state, GC, "deep-one", "asia")
    state.rng = ScriptedDice([1] * 4 + [1])
    state, log = play(state, YS, "battle asia vs great-cthulhu")
    assert f"{YS} rolls 4 dice [1, 1, 1, 1]: 0 Kill, 0 Pain." in log  # Undead 3-1, Byakhee 1+1


def test_awaken_the_king_in_an_area_without_a_gate_meets_a_requirement():
    state = ys_game()
    ys = seat(state, YS)
    assert YELLOW_SIGN.awaken_options(state, ys) == []  # only Europe, which has a Gate
    put(state, YS, "undead", "asia")
    assert YELLOW_SIGN.awaken_options(state, ys) == [("king-in-yellow", "asia", 4)]
    state, _ = play(state, YS, "awaken king-in-yellow asia")
    assert state.seats[ys].units["king-in-yellow"] == ["asia"] and state.seats[ys].power == 4
    assert "awaken-king" in state.seats[ys].requirements and state.pending[0].kind == "spellbook"


def test_awaken_hastur_needs_the_king_at_a_gate_you_control_and_gives_an_elder_sign():
    state = ys_game(power=10)
    ys = seat(state, YS)
    assert YELLOW_SIGN.awaken_options(state, ys) == []
    put(state, YS, "king-in-yellow", "europe")
    assert YELLOW_SIGN.awaken_options(state, ys) == [("hastur", "europe", 10)]
    state, _ = play(state, YS, "awaken hastur europe")
    fs = state.seats[ys]
    assert fs.units["hastur"] == ["europe"] and fs.power == 0
    assert "awaken-hastur" in fs.requirements and len(fs.elder_signs) == 1


def test_desecrate_success_places_a_token_and_a_unit_and_meets_the_glyph_requirement():
    state = ys_game()
    ys = seat(state, YS)
    put(state, YS, "king-in-yellow", "europe")
    state.rng = ScriptedDice([6])  # 7 units there: 6 fails
    assert Desecrate(unit="byakhee") in ENGINE.legal_actions(state, ys)
    state.rng = ScriptedDice([5])
    state, _ = play(state, YS, "ys-desecrate undead")
    fs = state.seats[ys]
    assert fs.flags["desecrated"] == ["europe"] and fs.power == 6
    assert fs.units["undead"].count("europe") == 1
    assert "desecrate-claw" in fs.requirements
    give_turn(state, YS, power=8)
    assert not any(a.kind == "ys-desecrate" for a in ENGINE.legal_actions(state, ys))  # one token per area


def test_desecrate_failure_still_places_the_unit():
    state = ys_game()
    ys = seat(state, YS)
    put(state, YS, "king-in-yellow", "north-america")
    state.seats[ys].units["acolyte"][5] = "@pool"
    state.rng = ScriptedDice([2])  # only the King there
    state, _ = play(state, YS, "ys-desecrate acolyte")
    fs = state.seats[ys]
    assert fs.flags.get("desecrated", []) == [] and fs.units["acolyte"].count("north-america") == 1 and fs.power == 6
    assert "desecrate-snake" not in fs.requirements


def test_desecrating_arrow_and_snake_areas_meets_their_requirements():
    for area, requirement in (("africa", "desecrate-arrow"), ("north-america", "desecrate-snake")):
        state = ys_game()
        ys = seat(state, YS)
        put(state, YS, "king-in-yellow", area)
        state.rng = ScriptedDice([1])
        state, _ = play(state, YS, "ys-desecrate byakhee")
        assert requirement in state.seats[ys].requirements


def test_feast_pays_for_desecrated_areas_holding_your_units():
    state = ys_game()
    ys = seat(state, YS)
    state.seats[ys].flags["desecrated"] = ["europe", "asia"]
    assert [(e.count, e.power_each) for e in YELLOW_SIGN.gather_extras(state, ys)] == [(1, 1)]


def test_give_three_doom_is_the_first_requirement():
    state = ys_game()
    ys, gc = seat(state, YS), seat(state, GC)
    state, _ = play(state, YS, "ys-give-doom great-cthulhu")
    assert state.seats[gc].doom == 3 and "give-doom" in state.seats[ys].requirements
    give_turn(state, YS)
    assert not any(isinstance(a, GiveDoom) for a in ENGINE.legal_actions(state, ys))


def test_vengeance_lets_the_yellow_sign_assign_the_enemys_results():
    state = ys_game()
    ys, gc = seat(state, YS), seat(state, GC)
    put(state, YS, "hastur", "north-atlantic")
    put(state, GC, "deep-one", "north-atlantic")
    put(state, GC, "shoggoth", "north-atlantic")
    state.rng = ScriptedDice([6, 4, 1, 1, 1] + [1, 1, 1])  # Hastur rolls 5 (ritual cost); GC rolls 3
    state, _ = play(state, YS, "battle north-atlantic vs great-cthulhu")
    assert state.pending[0].kind == "assign" and state.pending[0].data["owner"] == gc
    assert ENGINE.to_move(state) == [ys]
    state, _ = play(state, YS, "assign kill shoggoth")
    assert state.seats[gc].units["shoggoth"].count("north-atlantic") == 0
    assert state.seats[gc].units["deep-one"].count("north-atlantic") == 1


def test_passion_gives_power_when_an_enemy_takes_your_cultists():
    state = ys_game("passion")
    ys = seat(state, YS)
    put(state, GC, "deep-one", "europe")
    give_turn(state, GC, power=5)
    power = state.seats[ys].power
    state, _ = play(state, GC, "capture europe vs yellow-sign")
    state, _ = play(state, YS, "lose acolyte")
    assert state.seats[ys].units["acolyte"].count("europe") == 5
    assert state.seats[ys].power == power + 1


def test_zingaya_swaps_an_enemy_acolyte_for_an_undead():
    state = ys_game("zingaya")
    ys, gc = seat(state, YS), seat(state, GC)
    put(state, YS, "undead", "south-pacific")
    state, _ = play(state, YS, "ys-zingaya south-pacific vs great-cthulhu")
    assert ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "lose acolyte")
    assert state.seats[gc].units["acolyte"].count("south-pacific") == 5
    assert state.seats[ys].units["undead"].count("south-pacific") == 2 and state.seats[ys].power == 7


def test_shriek_of_the_byakhee_flies_any_byakhee_to_one_area():
    state = ys_game("shriek")
    ys = seat(state, YS)
    put(state, YS, "byakhee", "europe", 2)
    put(state, YS, "byakhee", "south-pacific")
    state, _ = play(state, YS, "ys-shriek europe>antarctica")
    assert state.pending[0].kind == "ys-shriek-more" and state.seats[ys].power == 7
    assert set(ENGINE.legal_actions(state, ys)) >= {ShriekMore(source="europe"), ShriekMore(source="south-pacific")}
    state, _ = play(state, YS, "ys-shriek-more south-pacific")
    state, _ = play(state, YS, "done")
    assert state.seats[ys].units["byakhee"].count("antarctica") == 2
    assert state.seats[ys].units["byakhee"].count("europe") == 1 and not state.pending


def test_screaming_dead_moves_king_and_undead_then_allows_a_different_paid_action():
    state = ys_game("screaming-dead", "unnamed")
    ys = seat(state, YS)
    put(state, YS, "king-in-yellow", "europe")
    put(state, YS, "undead", "europe", 2)
    put(state, YS, "hastur", "africa")
    state, _ = play(state, YS, "ys-screaming-dead 2 asia")
    fs = state.seats[ys]
    assert fs.units["king-in-yellow"] == ["asia"] and fs.units["undead"].count("asia") == 2 and fs.power == 7
    assert state.pending[0].kind == "ys-second-action"
    options = ENGINE.legal_actions(state, ys)
    assert not any(isinstance(a, (ScreamingDead, Unnamed)) for a in options)
    state, _ = play(state, YS, "summon undead europe")
    assert state.seats[ys].power == 6 and state.seats[ys].units["undead"].count("europe") == 1
    state, _ = play(state, YS, "done")  # no more unlimited actions
    assert ENGINE.to_move(state) == [seat(state, BG)]


def test_no_second_action_once_power_runs_out():
    state = ys_game("screaming-dead", power=1)
    ys = seat(state, YS)
    put(state, YS, "king-in-yellow", "europe")
    state, _ = play(state, YS, "ys-screaming-dead 0 asia")
    assert [a.kind for a in ENGINE.legal_actions(state, ys)] == ["done"]


def test_he_who_is_not_to_be_named_moves_hastur_to_a_cultist_and_the_second_action_may_be_declined():
    state = ys_game("unnamed", "screaming-dead")
    ys = seat(state, YS)
    put(state, YS, "hastur", "europe")
    put(state, YS, "king-in-yellow", "europe")
    assert Unnamed(area="asia") not in ENGINE.legal_actions(state, ys)  # no Cultist there
    state, log = play(state, YS, "ys-unnamed south-pacific")
    assert state.seats[ys].units["hastur"] == ["south-pacific"] and state.seats[ys].power == 7
    assert "He Who Is Not to Be Named: Hastur appears in south-pacific." in log
    assert not any(isinstance(a, ScreamingDead) for a in ENGINE.legal_actions(state, ys))
    state, _ = play(state, YS, "done")  # declines the second action
    state, _ = play(state, YS, "done")  # and ends the turn
    assert ENGINE.to_move(state) == [seat(state, BG)] and state.seats[ys].power == 7


def test_third_eye_makes_desecration_cheaper_and_a_success_gives_an_elder_sign():
    state = ys_game("third-eye")
    ys = seat(state, YS)
    put(state, YS, "king-in-yellow", "europe")
    put(state, YS, "hastur", "europe")
    state.rng = ScriptedDice([1])
    state, _ = play(state, YS, "ys-desecrate undead")
    assert state.seats[ys].power == 7 and len(state.seats[ys].elder_signs) == 1


def test_yellow_sign_actions_round_trip_through_notation():
    state = ys_game()
    for action in (
        GiveDoom(faction=GC), Desecrate(), Desecrate(unit="byakhee"), Zingaya(area="asia", enemy=GC),
        Shriek(source="europe", target="north-atlantic"), ShriekMore(source="asia"),
        ScreamingDead(undead=0, area="asia"), ScreamingDead(undead=3, area="north-atlantic"), Unnamed(area="europe"),
    ):  # fmt: skip
        assert ENGINE.parse(ENGINE.notation(action), state, 0) == action


def test_the_move_list_shows_the_third_eye_desecration_cost_that_is_charged():
    """The Third Eye (Hastur on the map): Desecrate costs 1; the legal-move list says so and 1 is charged."""
    state = ys_game("third-eye")
    ys = seat(state, YS)
    put(state, YS, "king-in-yellow", "europe")
    put(state, YS, "hastur", "europe")
    moves = ENGINE.legal_moves(state, ys, focus="ys-desecrate")
    summaries = [m.summary for g in moves.groups for m in g.moves]
    assert summaries and all(s.endswith("(costs 1 Power)") for s in summaries), summaries
    state.rng = ScriptedDice([6, 1])
    state, _ = play(state, YS, "ys-desecrate undead")
    assert state.seats[ys].power == 7
    without = ys_game()
    put(without, YS, "king-in-yellow", "europe")
    moves = ENGINE.legal_moves(without, seat(without, YS), focus="ys-desecrate")
    assert all(m.summary.endswith("(costs 2 Power)") for g in moves.groups for m in g.moves)


def test_vengeance_can_kill_the_acolyte_on_a_gate():
    """rules_text battle: results go to individual figures chosen by whoever assigns them (here the Yellow Sign,
    by Vengeance), the Gate's controller included."""
    state = ys_game()
    ys, gc = seat(state, YS), seat(state, GC)
    put(state, YS, "hastur", "south-pacific")
    state.rng = ScriptedDice([6, 1, 1, 1, 1])  # Hastur rolls 5 dice: one Kill; Great Cthulhu's Acolytes roll none
    state, _ = play(state, YS, "battle south-pacific vs great-cthulhu")
    assert ENGINE.to_move(state) == [ys] and state.pending[0].data["owner"] == gc
    assert {ENGINE.notation(a) for a in ENGINE.legal_actions(state, ys)} == {
        "assign kill acolyte", "assign kill acolyte@gate"}
    state, _ = play(state, YS, "assign kill acolyte@gate")
    assert state.gates["south-pacific"] is None and state.seats[gc].units["acolyte"].count("south-pacific") == 5
