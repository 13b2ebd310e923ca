"""The Sleeper (rules_text cthulhu-wars/sleeper and its spellbook sections), from the card texts."""

import pytest

from tabletop.games.cthulhu_wars import ENGINE, board
from tabletop.games.cthulhu_wars.battle import side_combat
from tabletop.games.cthulhu_wars.phases import projected_gather
from tabletop.games.cthulhu_wars.state import HELD, POOL

from .cw_helpers import (BG, CC, GC, OW, SL, WW, ScriptedDice, clear, first_answers_until, give_turn, play, put, seat,
                         seated, texts)

HOME = "north-america"  # the Sleeper symbol on the 3-player map


def game(books=(), factions=(GC, BG, SL), **kwargs):
    state = seated(list(factions), **kwargs)
    state.seats[seat(state, SL)].spellbooks = list(books)
    give_turn(state, SL)
    return state


def test_sleeper_starts_on_its_symbol_with_the_units_of_its_card():
    state = game()
    sl = seat(state, SL)
    assert state.controller(HOME) == sl and state.seats[sl].units["acolyte"].count(HOME) == 6
    table = {u.name: (u.count, u.cost, u.role) for u in board.faction_of(state, sl).units}
    assert table == {"acolyte": (6, 1, "cultist"), "wizard": (2, 1, "monster"), "serpent-man": (3, 2, "monster"),
                     "formless-spawn": (4, 3, "monster"), "tsathoggua": (1, 8, "goo")}  # fmt: skip


def test_formless_spawn_each_roll_the_spawn_in_play_plus_one_with_tsathoggua():
    state = game()
    sl = seat(state, SL)
    put(state, SL, "formless-spawn", HOME, 2)
    put(state, SL, "formless-spawn", "south-america")
    probe = {"area": HOME, "attacker": sl, "defender": seat(state, GC)}
    assert side_combat(state, sl, probe, HOME) == 2 * 3
    put(state, SL, "tsathoggua", "arctic-ocean")
    assert side_combat(state, sl, probe, HOME) == 2 * 4


def test_tsathoggua_rolls_the_enemys_power_at_least_two():
    state = game()
    sl, gc = seat(state, SL), seat(state, GC)
    put(state, SL, "tsathoggua", "south-pacific")
    probe = {"area": "south-pacific", "attacker": sl, "defender": gc}
    state.seats[gc].power = 1
    assert side_combat(state, sl, probe, "south-pacific") == 2
    state.seats[gc].power = 7
    assert side_combat(state, sl, probe, "south-pacific") == 7


def test_tsathoggua_awakens_for_8_beside_a_formless_spawn_which_stays():
    state = game()
    state.seats[seat(state, SL)].power = 8
    put(state, SL, "formless-spawn", "south-america")
    assert "awaken tsathoggua south-america" in texts(state, SL)
    state, _ = play(state, SL, "awaken tsathoggua south-america")
    fs = state.seats[seat(state, SL)]
    assert fs.units["tsathoggua"][0] == "south-america" and fs.units["formless-spawn"].count("south-america") == 1
    assert fs.power == 0 and "awaken-tsathoggua" in fs.requirements


def test_lethargy_does_nothing_as_the_action_of_the_turn():
    state = game()
    assert "sl-lethargy" not in texts(state, SL)
    put(state, SL, "tsathoggua", HOME)
    power = state.seats[seat(state, SL)].power
    state, _ = play(state, SL, "sl-lethargy")
    assert state.turn.acted and state.seats[seat(state, SL)].power == power


def test_lethargy_needs_an_enemy_with_power_that_still_takes_turns_not_a_hibernating_one():
    """Lethargy waits while an enemy still has Power; a hibernating Windwalker takes no more turns this Action phase
    (cthulhu-wars/windwalker, Hibernate), so the Power it keeps does not make Lethargy legal."""
    state = game(factions=(GC, WW, SL))
    put(state, SL, "tsathoggua", HOME)
    gc, ww = seat(state, GC), seat(state, WW)
    state.seats[gc].power = 0
    state.seats[ww].power = 6
    assert "sl-lethargy" in texts(state, SL)
    state.seats[ww].flags["hibernating"] = True
    assert board.faction_of(state, ww).sits_out(state, ww)
    assert "sl-lethargy" not in texts(state, SL)
    state.seats[gc].power = 1  # an enemy still taking turns with Power: Lethargy again
    assert "sl-lethargy" in texts(state, SL)


def test_the_three_pay_three_requirements():
    state = game()
    sl, gc, bg = seat(state, SL), seat(state, GC), seat(state, BG)
    state.seats[sl].power = 9
    state.seats[bg].power = 0
    state, _ = play(state, SL, "sl-give-three great-cthulhu")
    assert state.seats[gc].power == 11 and state.pending[0].kind == "spellbook"
    state, _ = play(state, SL, "spellbook burrow")
    give_turn(state, SL)
    state, _ = play(state, SL, "sl-all-gain-one")
    assert state.seats[gc].power == 12 and state.seats[bg].power == 1
    state, _ = play(state, SL, "spellbook energy-nexus")
    give_turn(state, SL)
    state.seats[bg].power = 0
    state, _ = play(state, SL, "sl-all-lose-one")
    assert state.seats[gc].power == 11 and state.seats[bg].power == 0
    assert {"give-three", "all-gain-one", "all-lose-one"} <= set(state.seats[sl].requirements)


def test_six_dice_and_a_ritual_meet_requirements():
    state = game()
    sl = seat(state, SL)
    faction = board.faction_of(state, sl)
    state.seats[sl].flags["rituals"] = 1
    assert faction.met_requirements(state, sl) == ["ritual"]
    put(state, SL, "formless-spawn", "south-pacific", 2)  # 2 x 2 dice
    put(state, SL, "serpent-man", "south-pacific", 2)  # + 2
    state.rng = ScriptedDice([1] * 20)
    give_turn(state, SL, power=5)
    state, _ = play(state, SL, "battle south-pacific vs great-cthulhu")
    assert "six-dice" in state.seats[sl].requirements


def test_death_from_below_places_the_cheapest_monster_in_the_doom_phase():
    state = game()
    sl = seat(state, SL)
    options = board.faction_of(state, sl).death_from_below_options(state, sl)
    assert {ENGINE.notation(o) for o in options} == {f"sl-death-from-below wizard {HOME}"}
    state.seats[sl].units["wizard"] = ["europe", "africa"]
    options = board.faction_of(state, sl).death_from_below_options(state, sl)
    assert {o.unit for o in options} == {"serpent-man"}


def test_death_from_below_is_played_at_the_doom_phase_and_the_monster_rises():
    """rules_text sleeper-death-from-below: in the Doom phase, your cheapest Monster in the pool is placed in an
    Area where you have units."""
    from tabletop.games.cthulhu_wars.phases import start_doom_phase

    state = game(["death-from-below"])
    sl = seat(state, SL)
    state.turn = None
    start_doom_phase(state, [])
    assert any(p.kind == "sl-death-from-below" and p.seat == sl for p in state.pending)
    while state.pending[0].kind != "sl-death-from-below":
        s = ENGINE.to_move(state)[0]
        state, _ = play(state, s, "done")
    state, log = play(state, SL, f"sl-death-from-below wizard {HOME}")
    assert state.seats[sl].units["wizard"].count(HOME) == 1
    assert f"Death from Below: a Wizard of sleeper rises in {HOME}." in log


def test_burrow_gives_one_back_after_a_move_action_that_cost_two():
    state = game(["burrow"])
    sl = seat(state, SL)
    state.seats[sl].power = 5
    state, _ = play(state, SL, "move acolyte north-america>south-america")
    state, _ = play(state, SL, "done")
    assert state.seats[sl].power == 4, "one unit: no Burrow"
    give_turn(state, SL, power=5)
    state, _ = play(state, SL, "move acolyte north-america>south-america")
    state, _ = play(state, SL, "move acolyte north-america>arctic-ocean")
    state, log = play(state, SL, "done")
    assert state.seats[sl].power == 4 and any("Burrow" in line for line in log)


def test_energy_nexus_takes_an_action_in_the_battle_area_before_the_battle():
    state = game(["energy-nexus"])
    sl = seat(state, SL)
    put(state, SL, "wizard", "south-pacific")
    put(state, SL, "serpent-man", "south-pacific")
    state.seats[sl].power = 4
    put(state, GC, "deep-one", "south-pacific")
    give_turn(state, GC, power=5)
    state.rng = ScriptedDice([1] * 20)
    state, _ = play(state, GC, "battle south-pacific vs sleeper")
    assert state.pending[0].kind == "sl-nexus" and ENGINE.to_move(state) == [sl]
    options = texts(state, SL)
    assert "move wizard south-pacific>south-america" in options and "move serpent-man south-pacific>australia" in options
    assert not any(o.startswith("battle") for o in options)
    state, _ = play(state, SL, "move wizard south-pacific>south-america")
    state, _ = play(state, SL, "done")
    assert state.seats[sl].units["wizard"].count("south-america") == 1 and state.seats[sl].power == 3
    assert state.battle is None or state.battle["area"] == "south-pacific"


def test_ancient_sorcery_borrows_flight_until_the_doom_phase_then_the_serpent_man_returns():
    state = game(["ancient-sorcery"], factions=(GC, CC, SL))
    sl = seat(state, SL)
    put(state, SL, "serpent-man", HOME)
    state.seats[sl].power = 3
    state, _ = play(state, SL, "sl-ancient-sorcery north-america vs crawling-chaos")
    assert state.seats[sl].units["serpent-man"][0] == HELD
    give_turn(state, SL, power=2)
    assert "move acolyte north-america>europe" in texts(state, SL), "Flight: two Areas"
    from tabletop.games.cthulhu_wars.phases import start_doom_phase

    start_doom_phase(state, [])
    assert state.pending[0].kind == "sl-sorcery-return"
    assert "done" not in texts(state, SL), "the Serpent Man must come back: the return cannot be declined"
    state, _ = play(state, SL, "sl-sorcery-return asia")
    assert state.seats[sl].units["serpent-man"][0] == "asia" and state.seats[sl].power == 3
    assert not board.faction_of(state, sl).borrows(state, sl, CC)


def test_ancient_sorcery_borrowed_hibernate_and_immortal():
    state = game(["ancient-sorcery"], factions=(GC, WW, SL))
    sl = seat(state, SL)
    state.seats[sl].flags["borrowed"] = [GC, WW]
    state.seats[sl].flags["awakened"] = True
    put(state, SL, "formless-spawn", HOME)
    state.seats[sl].power = 4
    assert "awaken tsathoggua north-america" in texts(state, SL), "Immortal: 4 after the first time"
    assert "ww-hibernate" in texts(state, SL)
    state, _ = play(state, SL, "awaken tsathoggua north-america")
    assert len(state.seats[sl].elder_signs) == 1


def test_capture_monster_takes_an_enemy_monster_the_owner_picks():
    state = game(["capture-monster"])
    sl, gc = seat(state, SL), seat(state, GC)
    put(state, SL, "tsathoggua", "south-pacific")
    put(state, GC, "deep-one", "south-pacific")
    put(state, GC, "shoggoth", "south-pacific")
    state, _ = play(state, SL, "sl-capture-monster south-pacific vs great-cthulhu")
    assert ENGINE.to_move(state) == [gc] and texts(state, GC) == {"lose deep-one", "lose shoggoth"}
    state, _ = play(state, GC, "lose shoggoth")
    assert state.seats[sl].captives == [(gc, "shoggoth", 0)]
    put(state, GC, "cthulhu", "south-pacific")
    give_turn(state, SL)
    assert not any(t.startswith("sl-capture-monster") for t in texts(state, SL)), "an enemy GOO protects"


def demand_game():
    state = game(["demand-sacrifice"])
    put(state, SL, "tsathoggua", "arctic-ocean")
    put(state, SL, "serpent-man", "south-pacific")
    clear(state, GC, "south-pacific")
    put(state, GC, "starspawn", "south-pacific")
    state.rng = ScriptedDice([1] + [6, 6, 1])
    state, _ = play(state, SL, "battle south-pacific vs great-cthulhu")
    state, _ = play(state, SL, "sl-demand-sacrifice")
    assert ENGINE.to_move(state) == [seat(state, GC)]
    return state


def test_demand_sacrifice_the_enemy_gives_an_elder_sign():
    state = demand_game()
    state, _ = play(state, GC, "sl-sacrifice elder-sign")
    assert len(state.seats[seat(state, SL)].elder_signs) == 1


def test_demand_sacrifice_or_its_kills_become_pains():
    state = demand_game()
    state, _ = play(state, GC, "sl-sacrifice kills-to-pains")
    state = first_answers_until(state, lambda s: not s.pending or s.pending[0].kind == "retreat")
    assert state.seats[seat(state, SL)].units["serpent-man"][0] != POOL, "two Kills became Pains"


def test_cursed_slumber_gate_leaves_the_map_and_still_counts_for_power_and_doom():
    state = game(["cursed-slumber"], factions=(GC, SL, OW), starts={OW: "europe"})
    sl = seat(state, SL)
    state.seats[sl].power = 1  # exactly its cost (rules_text sleeper-cursed-slumber: 1 Power)
    assert "sl-cursed-slumber north-america" in texts(state, SL)
    before = projected_gather(state)[sl].gathered
    state, _ = play(state, SL, "sl-cursed-slumber north-america")
    assert HOME not in state.gates and state.seats[sl].units["acolyte"].count(HELD) == 1
    assert projected_gather(state)[sl].gathered == before, "the Gate (+2) and its Cultist (+1) still count"
    assert board.gate_count(state, sl) == 1 and len(board.gate_holders(state)) == 2, "not on the map"
    give_turn(state, SL, power=2)
    assert "sl-slumber-return south-pacific" not in texts(state, SL) and "sl-slumber-return asia" in texts(state, SL)
    state, _ = play(state, SL, "sl-slumber-return asia")
    assert state.controller("asia") == sl and state.seats[sl].units["acolyte"].count(HELD) == 0


@pytest.mark.parametrize("tsathoggua_at", ["south-pacific", "arctic-ocean"])
def test_demand_sacrifice_under_the_in_battle_ruling_needs_tsathoggua_in_that_battle(tsathoggua_at):
    """Ruling demand_sacrifice_needs_tsathoggua_in_battle (rules_text sleeper): Tsathoggua must be in the battle,
    not merely in play, for Demand Sacrifice to be offered."""
    state = game(["demand-sacrifice"], demand_sacrifice_needs_tsathoggua_in_battle=True)
    put(state, SL, "tsathoggua", tsathoggua_at)
    put(state, SL, "serpent-man", "south-pacific")
    clear(state, GC, "south-pacific")
    put(state, GC, "starspawn", "south-pacific")
    state.rng = ScriptedDice([1] * 20)
    state, _ = play(state, SL, "battle south-pacific vs great-cthulhu")
    offered = "sl-demand-sacrifice" in texts(state, SL)
    assert offered == (tsathoggua_at == "south-pacific")
