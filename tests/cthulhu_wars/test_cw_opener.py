"""Opener of the Way (rules_text cthulhu-wars/opener-of-the-way and its spellbook sections), from the card texts."""

import pytest

from tabletop.games.cthulhu_wars import ENGINE, board
from tabletop.games.cthulhu_wars.battle import side_combat
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.phases import perform_ritual, projected_gather
from tabletop.games.cthulhu_wars.state import POOL

from .cw_helpers import BG, GC, OW, SL, WW, ScriptedDice, clear, give_turn, play, put, seat, seated, texts

START = "australia"


def game(books=(), factions=(GC, BG, OW), **kwargs):
    state = seated(list(factions), starts={OW: START, WW: "arctic-ocean"}, **kwargs)
    state.seats[seat(state, OW)].spellbooks = list(books)
    give_turn(state, OW)
    return state


def test_opener_chooses_any_area_without_a_gate_last():
    state = ENGINE.new_game(CthulhuWarsOptions(factions=[GC, BG, OW]), 3, 1)
    ow = seat(state, OW)
    assert state.pending[0].kind == "start-area" and ENGINE.to_move(state) == [ow]
    options = texts(state, OW)
    assert "start south-pacific" not in options and "start africa" not in options and "start europe" in options
    state, _ = play(state, OW, "start europe")
    assert state.controller("europe") == ow and state.pending[0].kind == "direction"


def test_windwalker_picks_a_pole_before_opener():
    state = ENGINE.new_game(CthulhuWarsOptions(factions=[WW, SL, OW]), 3, 1)
    order = [state.seats[p.seat].faction for p in state.pending]
    assert order == [WW, OW, state.seats[state.first_player].faction]
    assert texts(state, WW) == {"start arctic-ocean", "start antarctica"}
    state, _ = play(state, WW, "start antarctica")
    assert "start antarctica" not in texts(state, OW) and "start north-america" not in texts(state, OW)


def test_units_and_yog_sothoths_combat():
    state = game()
    ow = seat(state, OW)
    table = {u.name: (u.count, u.cost, u.combat) for u in board.faction_of(state, ow).units}
    assert table == {"acolyte": (6, 1, 0), "mutant": (4, 2, 1), "abomination": (3, 3, 2), "spawn": (2, 4, 3),
                     "yog-sothoth": (1, 6, 0)}  # fmt: skip
    put(state, OW, "yog-sothoth", "south-pacific")
    probe = {"area": "south-pacific", "attacker": ow, "defender": seat(state, GC)}
    assert side_combat(state, ow, probe, "south-pacific") == 0
    put(state, GC, "cthulhu", "north-pacific")
    put(state, BG, "shub-niggurath", "africa")
    assert side_combat(state, ow, probe, "south-pacific") == 4


def test_yog_sothoth_replaces_a_spawn():
    state = game()
    ow = seat(state, OW)
    put(state, OW, "spawn", "europe")
    state.seats[ow].power = 6
    state, _ = play(state, OW, "awaken yog-sothoth europe")
    assert state.seats[ow].units["yog-sothoth"][0] == "europe" and state.seats[ow].units["spawn"] == [POOL, POOL]
    assert "awaken-yog-sothoth" in state.seats[ow].requirements


def test_yog_sothoth_is_a_gate_for_power_doom_summoning_and_shares_an_area_with_a_gate():
    state = game()
    ow = seat(state, OW)
    power = projected_gather(state)[ow].gathered
    put(state, OW, "yog-sothoth", "africa")  # Black Goat's Gate is there too
    assert board.controlled_gates(state, ow) == [START, "africa"]
    assert projected_gather(state)[ow].gathered == power + 2
    assert "summon mutant africa" in texts(state, OW), "Opener summons at Yog-Sothoth"
    assert state.controller("africa") == seat(state, BG), "the normal Gate there keeps its controller"
    doom = state.seats[ow].doom
    perform_ritual(state, ow, [])
    assert state.seats[ow].doom == doom + 2
    assert len(board.gate_holders(state)) == 4 and board.has_gate(state, "africa")


def test_the_beyond_one_moves_a_gate_with_its_controller():
    state = game()
    ow, bg = seat(state, OW), seat(state, BG)
    put(state, OW, "abomination", "africa")
    state, _ = play(state, OW, "ow-beyond-one abomination africa>europe")
    assert "africa" not in state.gates and state.controller("europe") == bg
    holder = state.gates["europe"]
    assert state.seats[bg].units[holder[1]][holder[2]] == "europe"
    assert state.seats[ow].units["abomination"][0] == "europe"


def test_the_beyond_one_needs_no_enemy_goo_and_a_carrier_of_cost_three():
    state = game()
    put(state, OW, "mutant", "africa")
    assert not any(t.startswith("ow-beyond-one") for t in texts(state, OW))
    put(state, OW, "spawn", "africa")
    assert "ow-beyond-one spawn africa>europe" in texts(state, OW)
    assert "ow-beyond-one spawn africa>south-pacific" not in texts(state, OW), "not onto a Gate"
    put(state, BG, "shub-niggurath", "africa")
    assert not any(t.startswith("ow-beyond-one") for t in texts(state, OW))


def test_they_break_through_summons_at_enemy_and_abandoned_gates():
    state = game()
    assert "summon mutant africa" not in texts(state, OW)
    state = game(["they-break-through"])
    state.gates["south-pacific"] = None
    assert {"summon mutant africa", "summon mutant south-pacific"} <= texts(state, OW)


def test_the_million_favored_ones_promotes_survivors():
    state = game(["million-favored-ones"])
    ow = seat(state, OW)
    clear(state, GC, "south-pacific")
    put(state, GC, "deep-one", "south-pacific")
    put(state, OW, "mutant", "south-pacific")
    put(state, OW, "spawn", "south-pacific")
    state.seats[ow].units["mutant"][1:] = ["europe", "europe", "europe"]  # no Mutant left in the pool
    state.rng = ScriptedDice([1] * 10)
    state.seats[ow].power = 3
    state, _ = play(state, OW, "battle south-pacific vs great-cthulhu")
    assert texts(state, OW) == {"ow-promote mutant south-pacific", "done"}, "a Spawn needs Mutants in the pool"
    state, _ = play(state, OW, "ow-promote mutant south-pacific")
    units = state.seats[ow].units
    assert units["abomination"].count("south-pacific") == 1 and units["mutant"].count("south-pacific") == 0
    assert texts(state, OW) == {"ow-promote spawn south-pacific", "done"}, "a freed Mutant: the Spawn may now split"
    state, _ = play(state, OW, "ow-promote spawn south-pacific")
    assert units is not state.seats[ow].units and state.seats[ow].units["mutant"].count("south-pacific") == 1


def test_channel_power_rerolls_the_misses_for_one_power_again_and_again():
    state = game(["channel-power"])
    ow = seat(state, OW)
    clear(state, GC, "south-pacific")
    put(state, GC, "deep-one", "south-pacific", 3)
    put(state, OW, "spawn", "south-pacific")
    state.seats[ow].power = 5
    state.rng = ScriptedDice([1, 2, 6] + [1, 1, 1] + [1, 4] + [6, 6])
    state, _ = play(state, OW, "battle south-pacific vs great-cthulhu")
    assert texts(state, OW) == {"ow-channel-power", "done"}
    state, _ = play(state, OW, "ow-channel-power")
    assert state.battle["rolls"][ow] == [1, 4, 6] and state.seats[ow].power == 3
    state, _ = play(state, OW, "ow-channel-power")
    assert state.battle["rolls"][ow] == [6, 4, 6]
    assert state.rng.at == 9, "only the one miss was rolled again, not the 4 (a Pain)"
    assert state.seats[seat(state, GC)].units["deep-one"].count("south-pacific") <= 1


def test_dread_curse_rolls_per_abomination_and_spawn_and_opener_moves_the_pained():
    state = game(["dread-curse"])
    ow, gc = seat(state, OW), seat(state, GC)
    put(state, OW, "abomination", "europe")
    put(state, OW, "spawn", "asia")
    put(state, GC, "cthulhu", "south-pacific")
    state.seats[ow].power = 2
    state.rng = ScriptedDice([6, 5])
    state, _ = play(state, OW, "ow-dread-curse south-pacific")
    assert ENGINE.to_move(state) == [gc] and "ow-curse-take kill cthulhu" in texts(state, GC), "Great Old Ones can die"
    state, _ = play(state, GC, "ow-curse-take kill acolyte")
    state, _ = play(state, GC, "ow-curse-take pain acolyte")
    assert ENGINE.to_move(state) == [ow] and "ow-curse-move to antarctica" in texts(state, OW)
    state, _ = play(state, OW, "ow-curse-move to antarctica")
    assert state.seats[gc].units["acolyte"].count("south-pacific") == 4
    assert state.seats[gc].units["acolyte"].count("antarctica") == 1


def test_dread_curse_results_are_split_between_factions_by_the_opener():
    state = game(["dread-curse"])
    ow = seat(state, OW)
    put(state, OW, "abomination", "europe")
    put(state, BG, "ghoul", "south-pacific")
    state.seats[ow].power = 2
    state.rng = ScriptedDice([6])
    state, _ = play(state, OW, "ow-dread-curse south-pacific")
    assert texts(state, OW) == {"ow-curse-split black-goat:1/0", "ow-curse-split great-cthulhu:1/0"}
    state, _ = play(state, OW, "ow-curse-split black-goat:1/0")
    state, _ = play(state, BG, "ow-curse-take kill ghoul")
    assert state.seats[seat(state, BG)].units["ghoul"][0] == POOL


def test_dragon_ascending_once_out_of_turn_even_at_zero_power():
    state = game(["dragon-ascending"])
    ow, gc = seat(state, OW), seat(state, GC)
    state.seats[ow].power = 0
    state.seats[gc].power = 9
    give_turn(state, GC)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert state.pending[0].kind == "window" and "ow-dragon-ascending great-cthulhu" in texts(state, OW)
    state, _ = play(state, OW, "ow-dragon-ascending great-cthulhu")
    assert state.seats[ow].power == 8
    assert not any(t.startswith("ow-dragon-ascending") for t in texts(state, OW) if state.pending)


def test_dragon_descending_doubles_the_doom_for_gates_once():
    state = game(["dragon-descending"])
    ow = seat(state, OW)
    put(state, OW, "yog-sothoth", "europe")
    state.phase, state.turn = "doom", None
    state.seats[ow].power = 10
    from tabletop.games.cthulhu_wars.state import Pending

    state.pending = [Pending(ow, "ritual")]
    assert "ow-dragon-descending" in texts(state, OW)
    state, _ = play(state, OW, "ow-dragon-descending")
    assert state.seats[ow].doom == 4 and state.seats[ow].power == 5
    state.pending = [Pending(ow, "ritual")]  # a later Doom phase: once per game (rules_text opener-dragon-descending)
    state.seats[ow].power = 20
    assert "ow-dragon-descending" not in texts(state, OW) and any(t.startswith("ritual") for t in texts(state, OW))


def test_requirements_enemy_gates_goo_meets_goo_and_losing_a_unit():
    state = game()
    ow = seat(state, OW)
    faction = board.faction_of(state, ow)
    put(state, OW, "mutant", "africa")
    put(state, OW, "mutant", "south-pacific")
    put(state, OW, "yog-sothoth", "europe")
    put(state, GC, "cthulhu", "europe")
    assert set(faction.met_requirements(state, ow)) == {"enemy-gates", "goo-meets-goo"}
    clear(state, GC, "south-pacific")
    put(state, GC, "starspawn", "south-pacific")
    state.rng = ScriptedDice([1, 1, 1] + [1])
    give_turn(state, GC, power=2)
    state, _ = play(state, GC, "battle south-pacific vs opener")  # misses: nothing lost
    assert "lose-a-unit" not in state.seats[ow].requirements
    state.rng = ScriptedDice([6, 1, 1] + [1])
    give_turn(state, GC, power=2)
    state.seats[ow].units["mutant"][1] = "south-pacific"
    state, _ = play(state, GC, "battle south-pacific vs opener")
    assert "lose-a-unit" in state.seats[ow].requirements


@pytest.mark.parametrize("players, rule, needed", [(3, "three-players", 10), (3, "never", 12), (4, "three-players", 12),
                                                    (4, "three-and-four-players", 10)])
def test_the_second_gate_requirement_and_its_three_player_variant(players, rule, needed):
    factions = [GC, BG, OW, SL][:players]
    state = game(factions=factions, opener_ten_gates=rule)
    opener = board.faction_of(state, seat(state, OW))
    assert opener.gates_needed(state, "twelve-gates") == needed
    free = iter(a.id for a in state.layout.areas if a.id not in state.gates)
    while len(board.gate_holders(state)) < needed - 1:
        state.gates[next(free)] = None  # abandoned Gates count too: Gates on the map
    assert "twelve-gates" not in opener.met_requirements(state, seat(state, OW))
    state.gates[next(free)] = None
    assert "twelve-gates" in opener.met_requirements(state, seat(state, OW))


@pytest.mark.parametrize("other_acolytes", [1, 0])
def test_a_promoted_acolyte_that_held_a_gate_hands_it_to_another_acolyte_or_abandons_it(other_acolytes):
    """rules_text opener-million-favored-ones: "A promoted Acolyte that held a Gate hands it to another Acolyte of
    yours there, if any; otherwise the Gate is Abandoned"."""
    state = game(["million-favored-ones"])
    ow = seat(state, OW)
    clear(state, GC, "south-pacific")
    clear(state, OW, START)
    put(state, GC, "deep-one", "south-pacific")
    acolytes = state.seats[ow].units["acolyte"]
    holder = acolytes.index(POOL)
    put(state, OW, "acolyte", "south-pacific", 1 + other_acolytes)
    put(state, OW, "mutant", "south-pacific")  # Combat to battle with
    state.gates["south-pacific"] = (ow, "acolyte", holder)
    state.rng = ScriptedDice([1] * 10)
    state.seats[ow].power = 3
    state, _ = play(state, OW, "battle south-pacific vs great-cthulhu")
    state, _ = play(state, OW, "ow-promote acolyte south-pacific")
    acolytes = state.seats[ow].units["acolyte"]
    assert acolytes[holder] == POOL and state.seats[ow].units["mutant"].count("south-pacific") == 2
    if other_acolytes:
        heir = acolytes.index("south-pacific")
        assert state.gates["south-pacific"] == (ow, "acolyte", heir) and state.controller("south-pacific") == ow
    else:
        assert state.controller("south-pacific") is None


def test_dread_curse_falls_only_on_enemies_in_the_area_and_each_pained_unit_is_moved():
    """rules_text opener-dread-curse: the results go to the enemy units in the Area (never Opener's own, never a
    faction with nothing there), and Opener moves each Pained unit in turn."""
    state = game(["dread-curse"])
    ow, gc = seat(state, OW), seat(state, GC)
    put(state, OW, "abomination", "europe")
    put(state, OW, "spawn", "asia")
    put(state, OW, "mutant", "south-pacific")  # Opener's own unit in the Area: not a victim
    state.seats[ow].power = 2
    state.rng = ScriptedDice([5, 5])
    state, _ = play(state, OW, "ow-dread-curse south-pacific")
    assert ENGINE.to_move(state) == [gc] and state.pending[0].kind == "ow-curse-take", "no split: one victim"
    state, _ = play(state, GC, "ow-curse-take pain acolyte")
    state, _ = play(state, GC, "ow-curse-take pain acolyte")
    state, _ = play(state, OW, "ow-curse-move to antarctica")
    assert ENGINE.to_move(state) == [ow] and state.pending[0].kind == "ow-curse-move", "then the second Pained unit"
    state, _ = play(state, OW, "ow-curse-move to antarctica")
    assert state.seats[gc].units["acolyte"].count("antarctica") == 2


def test_channel_power_is_not_offered_when_the_attacker_has_no_room_for_more_kills():
    """rules_text opener-channel-power: rerolling misses is offered while they could still add a Kill; defending,
    Opener's Kills already eliminate the attacker's only unit, so nothing is offered."""
    state = game(["channel-power"])
    ow, gc = seat(state, OW), seat(state, GC)
    clear(state, GC, "south-pacific")
    clear(state, OW, START)
    put(state, GC, "deep-one", "south-pacific")
    put(state, OW, "spawn", "south-pacific")
    state.seats[ow].power = 5
    state.rng = ScriptedDice([1] + [6, 1, 1] + [1] * 10)  # the Deep One misses; the Spawn kills it
    give_turn(state, GC, power=5)
    state, _ = play(state, GC, "battle south-pacific vs opener-of-the-way")
    assert not any(p.kind == "ow-channel-power" for p in state.pending)
    assert state.seats[gc].units["deep-one"].count("south-pacific") == 0
