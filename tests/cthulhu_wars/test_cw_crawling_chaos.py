"""Crawling Chaos: Flight, Nyarlathotep, Harbinger, the six requirements and one test per spellbook
(rules_text ``cthulhu-wars/crawling-chaos``)."""

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE, battle
from tabletop.games.cthulhu_wars.factions import FACTIONS, default_factions

from .cw_helpers import GC, ScriptedDice, give_turn, new_game, play, put, seat, texts

CC = "crawling-chaos"
BG = "black-goat"
CRAWLING_CHAOS = FACTIONS[CC]


def game(*books, power=None):
    """A 3-player game (Great Cthulhu, Crawling Chaos, Black Goat) with Crawling Chaos holding ``books``."""
    state = new_game(3, factions=[GC, CC, BG])
    state.seats[seat(state, CC)].spellbooks = list(books)
    if power is not None:
        give_turn(state, CC, power=power)
    return state


def cc(state):
    return state.seats[seat(state, CC)]


def test_units_costs_and_no_stand_in_is_seated():
    assert [(u.name, u.count, u.cost, u.combat, u.role) for u in CRAWLING_CHAOS.units] == [
        ("acolyte", 6, 1, 0, "cultist"), ("nightgaunt", 3, 1, 0, "monster"), ("flying-polyp", 3, 2, 1, "monster"),
        ("hunting-horror", 2, 3, 2, "monster"), ("nyarlathotep", 1, 10, 0, "goo")]  # fmt: skip
    assert len(CRAWLING_CHAOS.requirements) == 6 and len(CRAWLING_CHAOS.spellbooks) == 6
    assert CC in default_factions(5) and not any(f.startswith("stand-in") for f in default_factions(5))
    state = game()
    assert cc(state).units["acolyte"].count("asia") == 6 and state.controller("asia") == seat(state, CC)


def test_flight_moves_every_unit_up_to_two_areas():
    state = game(power=8)
    cc(state).units["acolyte"][5] = "europe"
    targets = {a.target for a in ENGINE.legal_actions(state, seat(state, CC)) if a.kind == "move" and a.source == "europe"}
    assert {"arctic-ocean", "asia", "indian-ocean", "south-america", "africa"} <= targets
    assert not {"europe", "australia", "south-pacific"} & targets
    state, _ = play(state, CC, "move acolyte europe>indian-ocean")
    assert cc(state).units["acolyte"][5] == "indian-ocean" and cc(state).power == 7
    gc_targets = {a.target for a in ENGINE.legal_actions(new_game(3, factions=[GC, CC, BG]), 0) if a.kind == "move"}
    assert "australia" in gc_targets and "asia" not in gc_targets  # Great Cthulhu still moves one area


def test_awaken_nyarlathotep_at_a_controlled_gate_meets_a_requirement():
    state = game(power=10)
    state, _ = play(state, CC, "awaken nyarlathotep asia")
    assert cc(state).units["nyarlathotep"] == ["asia"] and cc(state).power == 0
    assert "awaken-nyarlathotep" in cc(state).requirements and state.pending[0].kind == "spellbook"


def test_nyarlathotep_rolls_both_sides_spellbooks():
    state = game("abduct", "madness", "emissary")
    state.seats[seat(state, GC)].spellbooks = ["devolve", "dreams"]
    put(state, CC, "nyarlathotep", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    probe = {"area": "north-pacific", "attacker": seat(state, GC), "defender": seat(state, CC)}
    assert battle.side_combat(state, seat(state, CC), probe, "north-pacific") == 5


@pytest.mark.parametrize("payments, met", [(["cc-pay-4", "cc-pay-6"], ["pay-four", "pay-six"]), (["cc-pay-10"], ["pay-four", "pay-six"])])
def test_paying_four_and_six_or_ten_at_once_meets_the_payment_requirements(payments, met):
    state = game(power=12)
    for text in payments:
        give_turn(state, CC)
        state, _ = play(state, CC, text)
        state.pending = [p for p in state.pending if p.kind != "spellbook"]
    assert [r for r in cc(state).requirements if r.startswith("pay")] == met
    assert cc(state).power == 2
    give_turn(state, CC, power=10)
    assert not [a for a in ENGINE.legal_actions(state, seat(state, CC)) if a.kind.startswith("cc-pay")]


def test_three_and_four_gates_or_twelve_and_fifteen_power():
    state = game()
    s = seat(state, CC)
    cc(state).power = 12
    assert CRAWLING_CHAOS.met_requirements(state, s) == ["three-gates-or-12-power"]
    cc(state).power = 15
    assert CRAWLING_CHAOS.met_requirements(state, s) == ["three-gates-or-12-power", "four-gates-or-15-power"]
    cc(state).power = 1
    for i, area in enumerate(("europe", "africa", "australia"), start=1):
        cc(state).units["acolyte"][i] = area
        state.gates[area] = (s, "acolyte", i)
    assert CRAWLING_CHAOS.met_requirements(state, s) == ["three-gates-or-12-power", "four-gates-or-15-power"]


def test_capturing_an_enemy_cultist_meets_a_requirement():
    state = game(power=2)
    put(state, CC, "nightgaunt", "south-pacific")
    state, _ = play(state, CC, "capture south-pacific vs great-cthulhu")
    state, _ = play(state, GC, "lose acolyte")
    assert "capture-cultist" in cc(state).requirements and state.pending[0].kind == "spellbook"


def harbinger_battle(awakened, cthulhu_rolls=(1,) * 6):
    """Great Cthulhu attacks Nyarlathotep; Nyarlathotep (2 spellbooks: 2 dice) Pains Cthulhu."""
    state = game("abduct", "thousand-forms")
    gc = seat(state, GC)
    state.seats[gc].flags["awakened"] = awakened
    state.seats[gc].requirements = ["awaken-cthulhu"]  # no spellbook pause for Great Cthulhu
    put(state, GC, "cthulhu", "north-pacific")
    put(state, CC, "nyarlathotep", "north-pacific")
    state.rng = ScriptedDice(list(cthulhu_rolls) + [4, 1])
    state, _ = play(state, GC, "battle north-pacific vs crawling-chaos")
    return state


def test_harbinger_pays_half_the_current_awaken_cost_or_two_elder_signs():
    state = harbinger_battle(awakened=True)
    assert state.pending[0].kind == "cc-harbinger" and ENGINE.to_move(state) == [seat(state, CC)]
    options = [ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat(state, CC))]
    assert options == ["cc-harbinger cthulhu power 2", "cc-harbinger cthulhu elder-signs 2", "done"]
    power = cc(state).power
    after, _ = play(state, CC, "cc-harbinger cthulhu power 2")
    assert cc(after).power == power + 2
    after, _ = play(state, CC, "cc-harbinger cthulhu elder-signs 2")
    assert len(cc(after).elder_signs) == 2
    first_time = harbinger_battle(awakened=False)
    assert "cc-harbinger cthulhu power 5" in [ENGINE.notation(a) for a in ENGINE.legal_actions(first_time, seat(first_time, CC))]


def test_harbinger_works_even_when_nyarlathotep_is_killed():
    state = harbinger_battle(awakened=True, cthulhu_rolls=(6, 1, 1, 1, 1, 1))
    assert cc(state).units["nyarlathotep"] == ["@pool"]
    assert [p.kind for p in state.pending] == ["cc-harbinger"]  # Great Cthulhu's kill-one waits for the battle's end
    state, _ = play(state, CC, "done")
    while state.battle is not None:
        assert state.pending[0].kind != "spellbook"
        s = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, s, ENGINE.legal_actions(state, s)[0])
    assert state.pending[0].kind == "spellbook" and ENGINE.to_move(state) == [seat(state, GC)]


def test_abduct_trades_a_nightgaunt_for_an_enemy_unit_of_its_choice():
    state = game("abduct", power=3)
    put(state, CC, "nightgaunt", "north-pacific")
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    put(state, GC, "shoggoth", "north-pacific")
    state.rng = ScriptedDice([1, 1, 1])
    state, _ = play(state, CC, "battle north-pacific vs great")
    state, _ = play(state, CC, "cc-abduct")
    assert cc(state).units["nightgaunt"].count("north-pacific") == 0 and ENGINE.to_move(state) == [seat(state, GC)]
    state, log = play(state, GC, "lose deep-one")
    assert state.seats[seat(state, GC)].units["deep-one"].count("north-pacific") == 0
    assert any(line.startswith(f"{GC} rolls 2 dice") for line in log) and state.battle is None


def test_invisibility_takes_one_unit_per_polyp_out_of_the_battle_until_it_ends():
    state = game("invisibility", power=3)
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, GC, "starspawn", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    state.rng = ScriptedDice([1, 1])
    state, _ = play(state, CC, "battle north-pacific vs great")
    options = [ENGINE.notation(a) for a in ENGINE.legal_actions(state, seat(state, CC))]
    assert "cc-invisibility flying-polyp crawling-chaos" in options and "cc-invisibility starspawn great-cthulhu" in options
    state, log = play(state, CC, "cc-invisibility starspawn great-cthulhu")  # one Polyp: one use, then the dice
    assert any(line.startswith(f"{GC} rolls 1 die ") for line in log)
    assert state.seats[seat(state, GC)].units["starspawn"][0] == "north-pacific" and state.battle is None


def test_an_invisible_gate_keeper_never_leaves_its_gate():
    state = game("invisibility", power=3)
    gc = seat(state, GC)
    put(state, CC, "flying-polyp", "south-pacific")
    state.seats[gc].units["acolyte"][1:] = ["@pool"] * 5
    state.rng = ScriptedDice([6])  # the Polyp's Kill finds nobody to take it
    state, _ = play(state, CC, "battle south-pacific vs great")
    state, log = play(state, CC, "cc-invisibility acolyte great-cthulhu on-gate")
    assert state.gates["south-pacific"] == (gc, "acolyte", 0) and state.seats[gc].units["acolyte"][0] == "south-pacific"
    assert state.battle is None


def test_invisibility_exempts_a_unit_but_leaves_it_on_the_map_and_its_gate():
    """rules_text crawling-chaos: an exempt unit takes no part in the battle but stays where it is, so Shub-Niggurath's
    Combat (Gates she controls + Cultists on the map) still counts that Cultist and its Gate."""
    state = new_game(3, factions=[GC, CC, "black-goat"])
    cc_seat, bg = seat(state, CC), seat(state, "black-goat")
    state.seats[cc_seat].spellbooks = ["invisibility"]
    give_turn(state, CC, power=3)
    put(state, CC, "flying-polyp", "africa")
    put(state, "black-goat", "shub-niggurath", "africa")
    state.rng = ScriptedDice([1] * 8)
    state, _ = play(state, CC, "battle africa vs black-goat")
    options = {ENGINE.notation(a) for a in ENGINE.legal_actions(state, cc_seat)}
    assert {"cc-invisibility acolyte black-goat", "cc-invisibility acolyte black-goat on-gate"} <= options
    state, log = play(state, CC, "cc-invisibility acolyte black-goat on-gate")
    assert any(line.startswith("black-goat rolls 7 dice") for line in log), log  # 1 Gate + 6 Cultists
    assert state.controller("africa") == bg and state.seats[bg].units["acolyte"].count("africa") == 6

    again = new_game(3, factions=[GC, CC, "black-goat"])
    again.seats[cc_seat].spellbooks = ["invisibility"]
    give_turn(again, CC, power=3)
    put(again, CC, "flying-polyp", "africa")
    put(again, "black-goat", "shub-niggurath", "africa")
    again.rng = ScriptedDice([6] + [1] * 7)  # the Polyp Kills
    again, _ = play(again, CC, "battle africa vs black-goat")
    again, log = play(again, CC, "cc-invisibility acolyte black-goat")
    assert any(line.startswith("black-goat rolls 7 dice") for line in log), log
    assert again.pending[0].kind == "assign"
    # the exempt figure cannot be given the Kill: five Acolytes (one on the Gate) and Shub-Niggurath remain in it
    from tabletop.games.cthulhu_wars.battle import figures_in_battle
    assert len(figures_in_battle(again, again.battle, bg)) == 6


def test_seek_and_destroy_brings_hunting_horrors_into_the_battle():
    state = game("seek-and-destroy", power=3)
    put(state, CC, "hunting-horror", "europe")
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    state.rng = ScriptedDice([1, 1, 1, 1])
    state, _ = play(state, CC, "battle north-pacific vs great")
    state, log = play(state, CC, "cc-seek-and-destroy europe")
    assert cc(state).units["hunting-horror"][0] == "north-pacific"
    assert any(line.startswith(f"{CC} rolls 3 dice") for line in log)


def emissary_battle(with_cthulhu, *, hemmed_in=False):
    """Great Cthulhu's Starspawn (and maybe Cthulhu) roll one Kill at a lone Nyarlathotep holding Emissary."""
    state = game("emissary")
    area = "australia" if hemmed_in else "north-pacific"
    put(state, CC, "nyarlathotep", area)
    put(state, GC, "starspawn", area)
    if hemmed_in:
        put(state, GC, "deep-one", "indian-ocean")  # Great Cthulhu's Acolytes already hold the South Pacific
    if with_cthulhu:
        put(state, GC, "cthulhu", area)
    state.rng = ScriptedDice([6] + [1] * (8 if with_cthulhu else 2) + [1])
    state, log = play(state, GC, f"battle {area} vs crawling")
    return state, log


def test_emissary_turns_a_kill_on_nyarlathotep_into_a_pain_without_an_enemy_great_old_one():
    state, _ = emissary_battle(with_cthulhu=False)
    assert state.pending[0].kind == "retreat" and ENGINE.to_move(state) == [seat(state, CC)]
    state, _ = play(state, CC, "retreat nyarlathotep to asia")
    assert cc(state).units["nyarlathotep"] == ["asia"]
    state, _ = emissary_battle(with_cthulhu=True)
    assert cc(state).units["nyarlathotep"] == ["@pool"]


def test_emissary_nyarlathotep_with_nowhere_to_retreat_stays():
    state, log = emissary_battle(with_cthulhu=False, hemmed_in=True)
    assert cc(state).units["nyarlathotep"] == ["australia"] and state.battle is None
    assert any("nowhere to retreat and stays" in line for line in log)


def test_thousand_forms_agreed_shares_are_lost_else_crawling_chaos_gains_the_roll():
    state = game("thousand-forms", power=1)
    put(state, CC, "nyarlathotep", "asia")
    gc, bg = seat(state, GC), seat(state, BG)
    state.rng = ScriptedDice([3])
    state, _ = play(state, CC, "cc-thousand-forms")
    assert sorted(ENGINE.to_move(state)) == [gc, bg] and cc(state).power == 1
    agreed, _ = play(state, GC, f"offer {GC}=2,{BG}=1")
    agreed, _ = play(agreed, BG, f"offer {GC}=2,{BG}=1")
    assert (agreed.seats[gc].power, agreed.seats[bg].power, cc(agreed).power) == (6, 7, 1)
    differ, _ = play(state, GC, f"offer {GC}=0,{BG}=3")
    differ, _ = play(differ, BG, f"offer {GC}=3,{BG}=0")
    assert (differ.seats[gc].power, differ.seats[bg].power, cc(differ).power) == (8, 8, 4)
    give_turn(differ, CC)
    with pytest.raises(IllegalMove):  # once per Action phase
        play(differ, CC, "cc-thousand-forms")


def test_madness_chooses_retreats_even_in_battles_of_others():
    state = game("madness")
    put(state, GC, "starspawn", "north-pacific")
    put(state, BG, "fungi", "north-pacific")
    state.rng = ScriptedDice([4, 1, 1, 1])
    state, _ = play(state, GC, "battle north-pacific vs goat")
    assert state.pending[0].kind == "retreat" and ENGINE.to_move(state) == [seat(state, CC)]
    state, _ = play(state, CC, "retreat fungi to asia")
    assert state.seats[seat(state, BG)].units["fungi"][0] == "asia"


def test_crawling_chaos_actions_round_trip_through_notation():
    state = game()
    for text in ("cc-pay-4", "cc-pay-10", "cc-abduct", "cc-invisibility deep-one great-cthulhu",
                 "cc-invisibility acolyte great-cthulhu on-gate",
                 "cc-seek-and-destroy europe", "cc-thousand-forms", "cc-harbinger cthulhu elder-signs 2"):  # fmt: skip
        assert ENGINE.notation(ENGINE.parse(text, state, 1)) == text


def test_thousand_forms_when_the_foes_hold_less_than_the_roll_crawling_chaos_gains_it_all():
    """rules_text crawling-chaos (ruling thousand_forms_when_foes_short, default caster-gains-roll, HRF's reading)."""
    state = game("thousand-forms", power=1)
    put(state, CC, "nyarlathotep", "asia")
    gc, bg = seat(state, GC), seat(state, BG)
    state.seats[gc].power, state.seats[bg].power = 1, 2
    state.rng = ScriptedDice([5])
    after, log = play(state, CC, "cc-thousand-forms")
    assert cc(after).power == 1 + 5 and (after.seats[gc].power, after.seats[bg].power) == (1, 2)
    assert not after.pending or after.pending[0].kind != "negotiation"

    other = game("thousand-forms", power=1)
    other.options = other.options.model_copy(update={"thousand_forms_when_foes_short": "foes-lose-all"})
    put(other, CC, "nyarlathotep", "asia")
    other.seats[gc].power, other.seats[bg].power = 1, 2
    other.rng = ScriptedDice([5])
    other, _ = play(other, CC, "cc-thousand-forms")
    assert other.pending[0].kind == "negotiation" and other.pending[0].data["amount"] == 3
    other, _ = play(other, GC, f"offer {GC}=1,{BG}=2")
    other, _ = play(other, BG, f"offer {GC}=1,{BG}=2")
    assert (other.seats[gc].power, other.seats[bg].power, cc(other).power) == (0, 0, 1)


def test_a_unit_made_invisible_cannot_be_the_one_abduct_takes():
    """rules_text crawling-chaos: an exempt unit takes no part in the battle, so abilities that take a unit from the
    battle (Abduct) cannot take it: the enemy chooses among the others."""
    state = game("abduct", "invisibility", power=3)
    put(state, CC, "nightgaunt", "north-pacific")
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    put(state, GC, "shoggoth", "north-pacific")
    put(state, GC, "starspawn", "north-pacific")
    state.rng = ScriptedDice([1] * 12)
    state, _ = play(state, CC, "battle north-pacific vs great")
    state, _ = play(state, CC, "cc-invisibility deep-one great-cthulhu")
    state, _ = play(state, CC, "cc-abduct")
    assert ENGINE.to_move(state) == [seat(state, GC)]
    assert texts(state, GC) == {"lose shoggoth", "lose starspawn"}


def test_an_invisible_gate_keeper_is_not_offered_to_abduct():
    """Same rule for the Cultist on the Gate: made invisible, the enemy may give up another Acolyte there but not
    the one holding the Gate (``lose acolyte from-gate`` is not offered)."""
    state = game("abduct", "invisibility", power=3)
    gc = seat(state, GC)
    assert state.seats[gc].units["acolyte"].count("south-pacific") >= 2 and state.controller("south-pacific") == gc
    put(state, CC, "nightgaunt", "south-pacific")
    put(state, CC, "flying-polyp", "south-pacific")
    put(state, GC, "deep-one", "south-pacific")
    state.rng = ScriptedDice([1] * 12)
    state, _ = play(state, CC, "battle south-pacific vs great")
    state, _ = play(state, CC, "cc-invisibility acolyte great-cthulhu on-gate")
    state, _ = play(state, CC, "cc-abduct")
    assert ENGINE.to_move(state) == [gc]
    assert texts(state, GC) == {"lose acolyte", "lose deep-one"}


def test_abduct_sends_a_nightgaunt_that_is_in_the_battle_not_an_invisible_one():
    """rules_text crawling-chaos: Abduct eliminates one of your Nightgaunts in the battle; one made invisible takes
    no part in it, so the other goes. Invisibility's log names the figure (no Gate here)."""
    state = game("abduct", "invisibility", power=3)
    put(state, CC, "nightgaunt", "north-pacific", 2)
    put(state, CC, "flying-polyp", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    put(state, GC, "shoggoth", "north-pacific")
    state.rng = ScriptedDice([1] * 12)
    state, _ = play(state, CC, "battle north-pacific vs great")
    state, log = play(state, CC, "cc-invisibility nightgaunt crawling-chaos")
    assert f"Invisibility: {CC}'s Nightgaunt takes no part in the battle." in log
    (side, kind, hidden), = state.battle["exempt"]
    assert (side, kind) == (seat(state, CC), "nightgaunt")
    state, _ = play(state, CC, "cc-abduct")
    nightgaunts = cc(state).units["nightgaunt"]
    assert nightgaunts[hidden] == "north-pacific" and nightgaunts.count("north-pacific") == 1
