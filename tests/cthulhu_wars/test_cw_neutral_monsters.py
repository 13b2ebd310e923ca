"""Neutral monster cards, each a game option (rules_text ``cthulhu-wars/neutral-monsters`` and a section per card):
taking a card in the Doom phase, placing its free figures, Summoning them, and each card's ability at its timing."""

import random

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE, board, phases
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import POOL, Pending

from .test_cw_random_games import check_gate_accounting
from .cw_helpers import (
    BG, CC, GC, SL, WW, YS, ScriptedDice, bots_answer_legally, give_turn, new_game, play, put, seat, seated, texts,
)

EVERY_CARD = {
    "neutral_ghast": True, "neutral_gug": True, "neutral_shantak": True, "neutral_star_vampire": True,
}


def nm_game(players=3, **options):
    for name, on in EVERY_CARD.items():
        options.setdefault(name, on)
    return new_game(players, **options)


def doom_decision(state, faction, doom=4, power=10):
    """``faction``'s Doom-phase decision, with ``doom`` Doom and ``power`` Power."""
    s = seat(state, faction)
    state.phase, state.turn = "doom", None
    state.doom_phases += 1
    state.seats[s].doom, state.seats[s].power = doom, power
    state.doom_queue = [s]
    phases.next_ritual(state, [])
    assert ENGINE.to_move(state) == [s] and state.pending[0].kind == "ritual"
    return state


def holding(state, faction, unit):
    """``faction`` holds the card of ``unit`` (its figures in its pool)."""
    count = {"ghast": 4, "gug": 2, "shantak": 2, "star-vampire": 3}[unit]
    state.seats[seat(state, faction)].units[unit] = [POOL] * count


# ---- taking a card ---------------------------------------------------------------------------------------------
def test_without_its_option_a_card_is_not_in_the_game_and_its_moves_are_refused_citing_the_option():
    state = new_game(3)
    state = doom_decision(state, GC, power=10)
    assert not any(t.startswith("buy-card") for t in texts(state, GC))
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "buy-card gug")
    assert "not in this game (game option neutral_gug)" in str(err.value)
    assert ENGINE.rule_for(ENGINE.parse("buy-card gug", state, 0)) == "cthulhu-wars/neutral-monsters"


def test_a_card_costs_two_doom_and_needs_two():
    state = doom_decision(nm_game(), GC, doom=1, power=10)
    assert "buy-card gug" not in texts(state, GC)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "buy-card gug")
    assert "2 Doom" in str(err.value)
    state = doom_decision(nm_game(), GC, doom=2)
    state, _ = play(state, GC, "buy-card gug")
    gc = seat(state, GC)
    assert state.seats[gc].doom == 0 and "gug" in state.seats[gc].units


def test_a_seat_with_two_doom_and_no_power_is_asked_in_the_doom_phase():
    state = nm_game()
    gc = seat(state, GC)
    state.seats[gc].doom, state.seats[gc].power = 2, 0
    assert phases.has_doom_choice(state, gc)
    state.seats[gc].doom = 1
    assert not phases.has_doom_choice(state, gc)


def test_the_free_figure_goes_to_the_only_controlled_gate_and_the_ritual_is_still_offered():
    state = doom_decision(nm_game(), GC, doom=4, power=10)
    gc = seat(state, GC)
    state, log = play(state, GC, "buy-card gug")
    assert state.seats[gc].units["gug"] == ["south-pacific", POOL]
    assert state.pending[0].kind == "ritual" and "ritual" in texts(state, GC)
    assert not any(t.startswith("buy-card") for t in texts(state, GC)), "one card per Doom phase"


def test_with_several_gates_the_holder_chooses_where_the_free_figure_goes():
    state = nm_game()
    gc = seat(state, GC)
    state.seats[gc].units["acolyte"][5] = "north-pacific"
    state.gates["north-pacific"] = (gc, "acolyte", 5)
    state = doom_decision(state, GC, doom=4, power=10)
    state, _ = play(state, GC, "buy-card gug")
    assert state.pending[0].kind == "nm-place" and texts(state, GC) == {
        "place-monster gug north-pacific", "place-monster gug south-pacific"}
    state, _ = play(state, GC, "place-monster gug north-pacific")
    assert state.seats[gc].units["gug"] == ["north-pacific", POOL]
    assert state.pending[0].kind == "ritual"


def test_without_a_controlled_gate_nothing_is_placed():
    state = nm_game()
    gc = seat(state, GC)
    state.gates["south-pacific"] = None
    state = doom_decision(state, GC, doom=4, power=10)
    state, log = play(state, GC, "buy-card gug")
    assert state.seats[gc].units["gug"] == [POOL, POOL]
    assert any("no Gug is placed" in line for line in log)


def test_a_card_someone_holds_is_not_offered_to_anyone_else():
    state = nm_game()
    holding(state, CC, "gug")
    state = doom_decision(state, GC)
    assert "buy-card gug" not in texts(state, GC)
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "buy-card gug")
    assert "already holds" in str(err.value)


def test_cards_are_taken_only_in_the_doom_phase():
    state = nm_game()
    gc = seat(state, GC)
    state.seats[gc].doom = 5
    give_turn(state, GC, power=5)
    with pytest.raises(IllegalMove):
        play(state, GC, "buy-card gug")


# ---- Summoning them ----------------------------------------------------------------------------------------------
def test_only_the_holder_summons_them_at_its_gate_for_the_printed_cost():
    state = nm_game()
    holding(state, GC, "gug")
    give_turn(state, GC, power=1)
    assert "summon gug south-pacific" in texts(state, GC)
    give_turn(state, CC, power=5)
    with pytest.raises(IllegalMove) as err:
        play(state, CC, "summon gug asia")
    assert "do not hold the Gug card" in str(err.value)
    assert err.value.rule == "cthulhu-wars/neutral-gug"
    give_turn(state, GC, power=1)
    state, _ = play(state, GC, "summon gug south-pacific")
    assert state.seats[seat(state, GC)].power == 0


@pytest.mark.parametrize("unit,cost", [("ghast", 2), ("gug", 1), ("shantak", 2), ("star-vampire", 2)])
def test_each_monster_is_summoned_for_its_printed_cost_and_not_for_less(unit, cost):
    state = nm_game()
    holding(state, GC, unit)
    give_turn(state, GC, power=cost)
    assert f"summon {unit} south-pacific" in texts(state, GC)
    give_turn(state, GC, power=cost - 1)
    assert f"summon {unit} south-pacific" not in texts(state, GC)
    faction = board.faction_of(state, seat(state, GC))
    printed = faction.unit(unit)
    assert (printed.cost, printed.count, printed.role) == (cost, {"ghast": 4, "gug": 2, "shantak": 2,
                                                                  "star-vampire": 3}[unit], "monster")


def test_the_thousand_young_does_not_make_a_neutral_monster_cheaper():
    state = nm_game()
    bg = seat(state, BG)
    holding(state, BG, "gug")
    state.seats[bg].spellbooks = ["thousand-young"]
    put(state, BG, "shub-niggurath", "africa")
    faction = board.faction_of(state, bg)
    assert faction.summon_cost(state, bg, "ghoul") == 0, "its own Monsters are cheaper"
    assert faction.summon_cost(state, bg, "gug") == 1


def test_death_from_below_may_place_a_gug_as_one_of_the_cheapest_monsters():
    state = nm_game(factions=[GC, CC, SL])
    sl = seat(state, SL)
    holding(state, SL, "gug")
    offered = {a.unit for a in board.faction_of(state, sl).death_from_below_options(state, sl)}
    assert offered == {"gug", "wizard"}, "both cost 1"


def test_fertility_cult_summons_a_neutral_monster_as_an_unlimited_action():
    state = nm_game()
    holding(state, BG, "gug")
    give_turn(state, BG, power=3)
    state, _ = play(state, BG, "summon gug africa")
    assert not state.turn.acted and state.seats[seat(state, BG)].power == 2, "the turn's action is still to take"


def test_desecration_may_place_a_neutral_monster_costing_two_or_less():
    from tabletop.games.cthulhu_wars.factions.yellow_sign import Desecrate

    state = nm_game(factions=[GC, YS, BG])
    ys = seat(state, YS)
    for unit in ("gug", "ghast"):
        holding(state, YS, unit)
    put(state, YS, "king-in-yellow", "europe")
    give_turn(state, YS, power=8)
    legal = ENGINE.legal_actions(state, ys)
    assert Desecrate(unit="gug") in legal and Desecrate(unit="ghast") in legal


# ---- Gug: Clumsy ------------------------------------------------------------------------------------------------
def test_a_gug_alone_cannot_capture_a_cultist():
    state = nm_game()
    holding(state, GC, "gug")
    put(state, GC, "gug", "asia")
    give_turn(state, GC, power=3)
    assert f"capture asia vs {CC}" not in texts(state, GC)


def test_a_gug_with_a_monster_that_can_capture_lets_it_capture():
    state = nm_game()
    holding(state, GC, "gug")
    put(state, GC, "gug", "asia")
    put(state, GC, "deep-one", "asia")
    give_turn(state, GC, power=3)
    assert f"capture asia vs {CC}" in texts(state, GC)


def test_a_gug_still_protects_its_holders_cultists():
    state = nm_game()
    holding(state, CC, "gug")
    put(state, CC, "gug", "asia")
    put(state, GC, "deep-one", "asia")
    give_turn(state, GC, power=3)
    assert f"capture asia vs {CC}" not in texts(state, GC)


def test_a_gug_fights_with_combat_three_and_is_a_monster_for_abilities_that_take_monsters():
    state = nm_game()
    gc = seat(state, GC)
    holding(state, GC, "gug")
    faction = board.faction_of(state, gc)
    assert faction.unit_combat(state, gc, "gug", {}, 2) == 6
    assert "gug" in faction.monsters()


# ---- Ghast: Hordeling ---------------------------------------------------------------------------------------------
def two_gates(state, faction, area):
    """A second Gate for ``faction`` in ``area``, held by one of its Acolytes."""
    s = seat(state, faction)
    state.seats[s].units["acolyte"][5] = area
    state.gates[area] = (s, "acolyte", 5)


def test_taking_the_ghast_card_places_all_four_ghasts_split_as_the_holder_chooses():
    state = nm_game()
    gc = seat(state, GC)
    two_gates(state, GC, "north-pacific")
    state = doom_decision(state, GC)
    state, _ = play(state, GC, "buy-card ghast")
    for area in ("north-pacific", "south-pacific", "south-pacific", "north-pacific"):
        assert state.pending[0].kind == "nm-place"
        state, _ = play(state, GC, f"place-monster ghast {area}")
    assert sorted(state.seats[gc].units["ghast"]) == ["north-pacific"] * 2 + ["south-pacific"] * 2
    assert state.pending[0].kind == "ritual"


def test_summoning_one_ghast_for_two_power_brings_every_ghast_left_in_the_pool():
    state = nm_game()
    gc = seat(state, GC)
    holding(state, GC, "ghast")
    state.seats[gc].units["ghast"][0] = "asia"
    give_turn(state, GC, power=2)
    assert "summon ghast south-pacific" in texts(state, GC)
    state, log = play(state, GC, "summon ghast south-pacific")
    assert state.seats[gc].units["ghast"].count("south-pacific") == 3
    assert state.seats[gc].power == 0
    assert any("Hordeling" in line for line in log)


def test_one_power_is_not_enough_to_summon_a_ghast():
    state = nm_game()
    holding(state, GC, "ghast")
    give_turn(state, GC, power=1)
    assert "summon ghast south-pacific" not in texts(state, GC)


def test_hordeling_asks_where_each_further_ghast_goes_among_the_summon_gates():
    state = nm_game()
    gc = seat(state, GC)
    holding(state, GC, "ghast")
    two_gates(state, GC, "north-pacific")
    give_turn(state, GC, power=2)
    state, _ = play(state, GC, "summon ghast south-pacific")
    assert texts(state, GC) == {"place-monster ghast north-pacific", "place-monster ghast south-pacific"}
    for area in ("north-pacific", "north-pacific", "south-pacific"):
        state, _ = play(state, GC, f"place-monster ghast {area}")
    assert sorted(state.seats[gc].units["ghast"]) == ["north-pacific"] * 2 + ["south-pacific"] * 2


def test_hordeling_pays_an_ice_age_extra_cost_once_for_each_new_area():
    state = seated([GC, CC, WW], neutral_ghast=True)
    gc, ww = seat(state, GC), seat(state, WW)
    holding(state, GC, "ghast")
    two_gates(state, GC, "north-pacific")
    state.seats[ww].spellbooks = ["ice-age"]
    state.seats[ww].flags["ice-age"] = "north-pacific"
    give_turn(state, GC, power=3)
    state, _ = play(state, GC, "summon ghast south-pacific")
    state, log = play(state, GC, "place-monster ghast north-pacific")
    assert state.seats[gc].power == 0 and any("Ice Age" in line for line in log)
    state, _ = play(state, GC, "place-monster ghast north-pacific")
    state, _ = play(state, GC, "place-monster ghast south-pacific")
    assert state.seats[gc].power == 0, "the extra cost was paid once"


def test_an_ice_age_area_the_holder_cannot_pay_for_is_not_offered():
    state = seated([GC, CC, WW], neutral_ghast=True)
    gc, ww = seat(state, GC), seat(state, WW)
    holding(state, GC, "ghast")
    two_gates(state, GC, "north-pacific")
    state.seats[ww].spellbooks = ["ice-age"]
    state.seats[ww].flags["ice-age"] = "north-pacific"
    give_turn(state, GC, power=2)
    state, _ = play(state, GC, "summon ghast south-pacific")
    assert state.seats[gc].units["ghast"].count("south-pacific") == 4, "no choice left: all go to the paid Area"


def test_without_the_ice_age_ruling_hordeling_pays_no_extra_cost():
    state = seated([GC, CC, WW], neutral_ghast=True, ghast_hordeling_ice_age=False)
    gc, ww = seat(state, GC), seat(state, WW)
    holding(state, GC, "ghast")
    two_gates(state, GC, "north-pacific")
    state.seats[ww].spellbooks = ["ice-age"]
    state.seats[ww].flags["ice-age"] = "north-pacific"
    give_turn(state, GC, power=2)
    state, _ = play(state, GC, "summon ghast south-pacific")
    state, log = play(state, GC, "place-monster ghast north-pacific")
    assert state.seats[gc].power == 0 and not any("Ice Age" in line for line in log)


@pytest.mark.parametrize("brings_all", [False, True])
def test_a_free_summon_outside_the_holders_action_brings_the_other_ghasts_only_with_its_ruling(brings_all):
    state = nm_game(ghast_hordeling_on_free_summon=brings_all)
    gc = seat(state, GC)
    holding(state, GC, "ghast")
    give_turn(state, CC, power=3)  # another faction's turn: an enemy's gift of a free Summon
    state.seats[gc].units["ghast"][0] = "south-pacific"
    log = []
    board.faction_of(state, gc).after_summon(state, gc, "ghast", "south-pacific", log)
    assert state.seats[gc].units["ghast"].count("south-pacific") == (4 if brings_all else 1)


def test_death_from_below_brings_only_one_ghast():
    state = nm_game(factions=[GC, CC, SL])
    sl = seat(state, SL)
    holding(state, SL, "ghast")
    fs = state.seats[sl]
    for kind in ("wizard", "serpent-man"):  # on the map: the Ghast (2) is the cheapest Monster left in the pool
        fs.units[kind] = ["europe"] * len(fs.units[kind])
    offered = board.faction_of(state, sl).death_from_below_options(state, sl)
    assert offered and {a.unit for a in offered} == {"ghast"}
    state.pending.insert(0, Pending(sl, "sl-death-from-below"))
    state.turn = None
    state, _ = ENGINE.apply(state, sl, offered[0])
    assert sum(board.on_map(p) for p in state.seats[sl].units["ghast"]) == 1


def test_a_ghast_rolls_no_die():
    state = nm_game()
    gc = seat(state, GC)
    holding(state, GC, "ghast")
    assert board.faction_of(state, gc).unit_combat(state, gc, "ghast", {}, 4) == 0


# ---- Star Vampire: Vampirism ------------------------------------------------------------------------------------
def vampire_battle(dice, enemy_power=8, enemy_doom=3, vampires=2, acolytes=6):
    """Great Cthulhu attacks Crawling Chaos's ``acolytes`` Acolytes in asia with ``vampires`` Star Vampires and a
    Deep One."""
    state = nm_game()
    gc, cc = seat(state, GC), seat(state, CC)
    for i in range(acolytes, 6):
        state.seats[cc].units["acolyte"][i] = POOL
    holding(state, GC, "star-vampire")
    put(state, GC, "star-vampire", "asia", vampires)
    put(state, GC, "deep-one", "asia")
    state.seats[cc].power, state.seats[cc].doom = enemy_power, enemy_doom
    state.seats[gc].doom = 0
    give_turn(state, GC, power=1)
    state.rng = ScriptedDice(dice + [1] * 10)
    state, log = play(state, GC, f"battle asia vs {CC}")
    return state, log, gc, cc


def test_each_pain_of_a_star_vampire_takes_a_power_and_each_kill_a_doom():
    state, log, gc, cc = vampire_battle([6, 4, 5])  # the Star Vampires' dice are the first two
    assert (state.seats[gc].power, state.seats[gc].doom) == (1, 1)
    assert (state.seats[cc].power, state.seats[cc].doom) == (7, 2)
    assert any(line.startswith("Vampirism") for line in log)


def test_the_other_units_dice_drain_nothing():
    state, log, gc, cc = vampire_battle([1, 2, 6])
    assert (state.seats[gc].power, state.seats[gc].doom) == (0, 0)
    assert (state.seats[cc].power, state.seats[cc].doom) == (8, 3)
    assert not any(line.startswith("Vampirism") for line in log)


def test_nothing_is_taken_from_an_enemy_that_has_none():
    state, _, gc, cc = vampire_battle([6, 5, 1], enemy_power=0, enemy_doom=0)
    assert (state.seats[gc].power, state.seats[gc].doom) == (0, 0)
    assert (state.seats[cc].power, state.seats[cc].doom) == (0, 0)


def test_the_drain_happens_even_with_more_results_than_enemy_units():
    state, _, gc, cc = vampire_battle([6, 6, 1], enemy_doom=5, acolytes=1)
    assert state.seats[gc].doom == 2 and state.seats[cc].doom == 3


# ---- Shantak: Horror Steed ---------------------------------------------------------------------------------------
def test_a_shantak_moves_to_any_area_for_one_power():
    state = nm_game()
    gc = seat(state, GC)
    holding(state, GC, "shantak")
    put(state, GC, "shantak", "south-pacific")
    give_turn(state, GC, power=1)
    targets = {t.split(">")[1] for t in texts(state, GC) if t.startswith("move shantak")}
    assert targets == {a.id for a in state.layout.areas} - {"south-pacific"}
    state, _ = play(state, GC, "move shantak south-pacific>europe")
    assert state.seats[gc].units["shantak"][0] == "europe" and state.seats[gc].power == 0


def test_a_shantak_may_carry_one_cultist_from_where_it_started_for_free():
    state = nm_game()
    gc = seat(state, GC)
    holding(state, GC, "shantak")
    put(state, GC, "shantak", "south-pacific")
    give_turn(state, GC, power=1)
    state, _ = play(state, GC, "move shantak south-pacific>europe")
    assert state.pending[0].kind == "nm-carry" and texts(state, GC) == {"carry acolyte south-pacific>europe", "done"}
    state, log = play(state, GC, "carry acolyte south-pacific>europe")
    assert state.seats[gc].units["acolyte"].count("europe") == 1 and state.seats[gc].power == 0
    assert state.gates["south-pacific"][0] == gc, "the one on the Gate stays"
    assert any("Horror Steed" in line for line in log)
    assert texts(state, GC) == {"done"}, "the Move action is over but for done: no Power left"


def test_the_carry_may_be_declined_and_a_cultist_that_moved_cannot_ride():
    state = nm_game()
    gc = seat(state, GC)
    holding(state, GC, "shantak")
    put(state, GC, "shantak", "north-pacific")
    state.seats[gc].units["acolyte"][5] = "north-pacific"
    give_turn(state, GC, power=3)
    state, _ = play(state, GC, "move acolyte north-pacific>south-pacific")
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    state, _ = play(state, GC, "move shantak north-pacific>europe")
    assert not (state.pending and state.pending[0].kind == "nm-carry"), "only Acolytes that already moved are there"
    state = nm_game()
    holding(state, GC, "shantak")
    put(state, GC, "shantak", "south-pacific")
    give_turn(state, GC, power=2)
    state, _ = play(state, GC, "move shantak south-pacific>europe")
    state, _ = play(state, GC, "done")
    assert not state.pending and state.seats[seat(state, GC)].units["acolyte"].count("europe") == 0
    assert state.turn.moving, "the Move action goes on"


def test_a_carry_is_refused_citing_the_shantaks_section():
    state = nm_game()
    assert ENGINE.rule_for(ENGINE.parse("carry acolyte asia>europe", state, 0)) == "cthulhu-wars/neutral-shantak"


def test_battle_odds_tell_the_expected_drain():
    from tabletop.games.cthulhu_wars.battle import battle_preview

    state = nm_game()
    gc, cc = seat(state, GC), seat(state, CC)
    holding(state, GC, "star-vampire")
    put(state, GC, "star-vampire", "asia", 3)
    state.seats[cc].doom = 5
    note = battle_preview(state, gc, "asia", cc).defender_note
    assert "3 Star Vampire dice" in note and "1.00 Power, 0.50 Doom" in note
    assert battle_preview(state, cc, "asia", gc).defender_note == note, "whoever attacks"


# ---- what everyone sees -----------------------------------------------------------------------------------------
def test_the_position_and_the_picture_show_the_cards_held_and_their_figures():
    from tabletop.render import Text

    state = nm_game()
    holding(state, GC, "star-vampire")
    put(state, GC, "star-vampire", "asia", 2)
    assert "great-cthulhu holds the Star Vampire card (neutral monster; 1 in its pool)." in ENGINE.describe(state, None)
    shown = {t.text for t in ENGINE.draw(state, None, frozenset()).shapes if isinstance(t, Text)}
    assert "2 Star Vampires" in shown and "great-cthulhu holds the Star Vampire card" in shown


# ---- random games with every card ----------------------------------------------------------------------------
def conserved(state):
    for s, fs in enumerate(state.seats):
        faction = board.faction_of(state, s)
        assert {k: len(v) for k, v in fs.units.items()} == {u.name: u.count for u in faction.units}
        assert fs.power >= 0 and fs.doom >= 0
    for unit in ("ghast", "gug", "shantak", "star-vampire"):
        assert sum(unit in fs.units for fs in state.seats) <= 1, "each card exists once"


@pytest.mark.parametrize("players,game_map", [(3, "earth"), (4, "dreamlands"), (5, "earth"), (5, "dreamlands"),
                                              (6, "earth")])
def test_random_games_with_every_neutral_option_never_raise(players, game_map):
    """Figures conserved per type (each card's figures with its holder alone), Power and Doom never negative, Gates
    counted as in the seven factions' soak (test_cw_random_games), every notation read back."""
    for seed in range(2):
        rnd = random.Random(seed)
        options = CthulhuWarsOptions(high_priests=True, map=game_map, **EVERY_CARD)
        state = ENGINE.new_game(options, players, seed)
        for _ in range(20000):
            if ENGINE.outcome(state) is not None:
                break
            s = rnd.choice(ENGINE.to_move(state))
            action = rnd.choice(ENGINE.legal_actions(state, s))
            assert ENGINE.parse(ENGINE.notation(action), state, s) == action
            state, _ = ENGINE.apply(state, s, action)
            conserved(state)
            check_gate_accounting(state)
        assert ENGINE.outcome(state) is not None


# ---- the bots answer every new decision legally --------------------------------------------------------------
NEUTRAL_KINDS = {"oath", "buy-card", "place-monster", "carry"}


def test_the_bots_answer_every_neutral_decision_legally():
    """High Priests and every card on, 3-6 players, Earth and the Dreamlands: wherever a neutral answer is among the
    legal moves (the Oath, taking a card, placing, a Shantak's rider), the heuristic and search bots answer legally."""
    asked = bots_answer_legally({"high_priests": True, **EVERY_CARD}, lambda a: a.kind in NEUTRAL_KINDS)
    assert {"oath", "buy-card"} <= set(asked), asked
