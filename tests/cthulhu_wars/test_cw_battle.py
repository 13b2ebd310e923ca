"""Battle with fixed dice, and the odds helper (rules_text ``cthulhu-wars/battle``)."""

from fractions import Fraction

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.battle import battle_odds, dice_distribution

from .cw_helpers import CC, GC, ScriptedDice, give_turn, new_game, play, put, seat


def skirmish(rolls):
    """GC's Starspawn attacks CC's two Acolytes and a Flying Polyp in the North Pacific."""
    state = new_game(3)
    put(state, GC, "starspawn", "north-pacific")
    put(state, CC, "flying-polyp", "north-pacific")
    state.seats[seat(state, CC)].units["acolyte"][4:] = ["north-pacific"] * 2
    state.rng = ScriptedDice(rolls)
    return state


def test_six_kills_four_and_five_pain_and_the_owner_assigns_kills_before_pains():
    state = skirmish([6, 5, 1, 4])  # GC: Kill, Pain, miss; CC: Pain
    gc, cc = seat(state, GC), seat(state, CC)
    state, log = play(state, GC, "battle north-pacific vs crawling")
    assert state.seats[gc].power == 7
    assert state.pending[0].kind == "assign" and ENGINE.to_move(state) == [cc]
    assert {ENGINE.notation(a) for a in ENGINE.legal_actions(state, cc)} == {
        "assign kill acolyte", "assign kill flying-polyp"}
    state, log = play(state, CC, "assign kill flying-polyp")
    # the Pain then falls on a surviving Acolyte (automatic); GC's Starspawn is Pained too
    assert state.seats[cc].units["flying-polyp"].count("north-pacific") == 0
    assert state.pending[0].kind == "retreat" and ENGINE.to_move(state) == [gc]  # attacker retreats first
    assert "asia" not in {a.target for a in ENGINE.legal_actions(state, gc)}  # CC units are in Asia
    state, log = play(state, GC, "retreat starspawn to south-pacific")
    assert f"{GC}'s Pained Starspawn retreats from north-pacific to south-pacific." in log
    assert ENGINE.to_move(state) == [cc]
    targets = {a.target for a in ENGINE.legal_actions(state, cc)}
    assert "south-pacific" not in targets and "asia" in targets
    state, _ = play(state, CC, "retreat acolyte to asia")
    assert state.battle is None
    assert state.pending[0].kind == "spellbook"  # GC killed a unit: 'kill-one', checked once the battle is over
    state, _ = play(state, GC, "spellbook regenerate")
    assert state.seats[cc].units["acolyte"].count("north-pacific") == 1
    assert state.seats[gc].units["starspawn"][0] == "south-pacific"


def test_a_pained_unit_with_nowhere_to_go_is_eliminated():
    state = skirmish([1, 1, 1, 5])
    gc = seat(state, GC)
    around = list(state.layout.area("north-pacific").adjacent)
    state.seats[seat(state, CC)].units["nightgaunt"] = around[:3]
    state.seats[seat(state, CC)].units["acolyte"][: len(around) - 3] = around[3:]
    state.seats[seat(state, CC)].requirements = ["units-in-4-areas", "units-in-6-areas"]  # no spellbook pause
    state, log = play(state, GC, "battle north-pacific vs crawling")
    assert state.seats[gc].units["starspawn"][0] == "@pool"
    assert any("nowhere to retreat" in line for line in log)


def test_a_lone_cultist_cannot_battle_and_only_two_factions_fight():
    state = new_game(3)
    state.seats[seat(state, GC)].units["acolyte"][5] = "asia"
    with pytest.raises(IllegalMove):
        play(state, GC, "battle asia vs crawling")


def test_dice_distribution_is_exact():
    one = dice_distribution(1)
    assert one == {(0, 0): Fraction(1, 2), (0, 1): Fraction(1, 3), (1, 0): Fraction(1, 6)}
    assert sum(dice_distribution(6).values()) == 1
    assert dice_distribution(2)[(1, 1)] == 2 * Fraction(1, 6) * Fraction(1, 3)


def test_battle_odds_expected_results():
    odds = battle_odds(6, 1, attacker_units=1, defender_units=3)
    assert odds.attacker.expected_kills == pytest.approx(1.0)
    assert odds.attacker.expected_pains == pytest.approx(2.0)
    assert odds.defender.chance_of_a_kill == pytest.approx(1 / 6)
    assert odds.defender.expected_enemy_units_eliminated == pytest.approx(1 / 6)
    assert 0 < odds.attacker.expected_enemy_units_hit <= 3


def test_a_faction_can_claim_another_sides_assignment(monkeypatch):
    """The chooses_for hook (for abilities like Vengeance) readdresses the decision."""
    from tabletop.games.cthulhu_wars.factions import FACTIONS

    monkeypatch.setattr(type(FACTIONS[GC]), "chooses_for", lambda self, state, s, battle, owner, step: owner != s)
    state = skirmish([6, 5, 1, 4])
    state, _ = play(state, GC, "battle north-pacific vs crawling")
    assert state.pending[0].kind == "assign" and ENGINE.to_move(state) == [seat(state, GC)]
    state, _ = play(state, GC, "assign kill acolyte")
    assert state.seats[seat(state, CC)].units["flying-polyp"][0] == "north-pacific"


def regenerate_battle(rolls):
    """Crawling Chaos attacks two Starspawn with Regenerate in the North Pacific."""
    state = new_game(3)
    gc = seat(state, GC)
    state.seats[gc].spellbooks = ["regenerate"]
    state.seats[seat(state, CC)].spellbooks = ["abduct", "madness", "emissary"]
    put(state, GC, "starspawn", "north-pacific", 2)
    put(state, CC, "nyarlathotep", "north-pacific")  # 3 + 1 spellbooks: Nyarlathotep rolls 4 dice
    give_turn(state, CC, power=3)
    state.rng = ScriptedDice(rolls)
    state, _ = play(state, CC, "battle north-pacific vs great")
    return state, gc


def test_two_kills_can_be_put_on_one_regenerating_starspawn():
    """rules_text battle: several results may go on one figure that can take them; two Kills kill a Starspawn with
    Regenerate, one on each only Pains both."""
    state, gc = regenerate_battle([6, 6, 1, 1] + [1] * 6)
    assert ENGINE.to_move(state) == [gc]
    options = {ENGINE.notation(a) for a in ENGINE.legal_actions(state, gc)}
    assert options == {"assign kill starspawn*2", "assign kill starspawn,starspawn"}
    one, _ = play(state, GC, "assign kill starspawn*2")
    places = one.seats[gc].units["starspawn"]
    assert sorted(places) == ["@pool", "north-pacific"], "one Starspawn died, the other is untouched"
    spread, _ = play(state, GC, "assign kill starspawn,starspawn")
    assert spread.seats[gc].units["starspawn"].count("@pool") == 0


def test_a_pain_can_go_on_the_starspawn_that_already_took_a_kill():
    state, gc = regenerate_battle([6, 4, 1, 1] + [1] * 6)  # the one Kill needs no choice: one kind of figure
    options = {ENGINE.notation(a) for a in ENGINE.legal_actions(state, gc)}
    assert options == {"assign pain starspawn", "assign pain starspawn+1"}
    state, _ = play(state, GC, "assign pain starspawn+1")
    assert len(state.battle["pained"][gc]) == 1, "only the Starspawn hit twice is Pained"


def test_assignment_notation_reads_figures_in_any_order_and_as_objects():
    state, gc = regenerate_battle([6, 6, 1, 1] + [1] * 6)
    written = ENGINE.parse("assign kill starspawn, starspawn".replace(", ", ","), state, gc)
    assert written == ENGINE.read_move({"kind": "assign", "result": "kill", "units": ["starspawn", "starspawn"]}, state, gc)
    assert ENGINE.parse("assign kill starspawn*2", state, gc) in ENGINE.legal_actions(state, gc)
    from tabletop.games.cthulhu_wars.actions import Assign
    assert Assign(result="pain", units=("starspawn*1", "acolyte@gate+0")).units == ("acolyte@gate", "starspawn")


def test_the_log_names_every_figure_that_takes_a_result():
    state, gc = regenerate_battle([6, 6, 1, 1] + [1] * 6)
    _, log = play(state, GC, "assign kill starspawn,starspawn")
    faction = state.seats[gc].faction
    assert f"{faction} takes 2 Kills: Starspawn Pained, Starspawn Pained." in log
