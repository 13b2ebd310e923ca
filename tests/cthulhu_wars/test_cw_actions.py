"""The common actions (rules_text ``cthulhu-wars/actions``)."""

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE, board

from .cw_helpers import BG, CC, GC, give_turn, new_game, play, put, seat


def test_move_costs_one_per_unit_and_continues_until_done():
    state = new_game(3)
    gc = seat(state, GC)
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    assert state.seats[gc].power == 7 and state.turn.moving and ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "move acolyte south pacific > indian ocean")
    with pytest.raises(IllegalMove):  # a moved unit may not move again in the same action
        play(state, GC, "move acolyte north-pacific>asia")
    state, _ = play(state, GC, "done")
    assert state.seats[gc].power == 6
    assert state.seats[gc].units["acolyte"].count("south-pacific") == 4
    assert state.controller("south-pacific") == gc  # the Gate's own Acolyte stayed
    assert ENGINE.to_move(state) == [gc], "unlimited actions (Abandon Gate) may follow the action"
    state, _ = play(state, GC, "done")
    assert ENGINE.to_move(state) == [seat(state, CC)]


def test_move_only_to_adjacent_areas():
    state = new_game(3)
    with pytest.raises(IllegalMove):
        play(state, GC, "move acolyte south-pacific>europe")


def test_recruit_needs_a_unit_there_and_a_cultist_in_the_pool():
    state = new_game(3)
    gc = seat(state, GC)
    state.seats[gc].units["acolyte"][5] = "@pool"
    state, _ = play(state, GC, "recruit south-pacific")
    assert state.seats[gc].power == 7 and state.seats[gc].units["acolyte"].count("south-pacific") == 6
    give_turn(state, GC)
    state.seats[gc].units["acolyte"][5] = "@pool"
    with pytest.raises(IllegalMove):
        play(state, GC, "recruit europe")


def test_build_gate_costs_three_and_the_builder_controls_it_even_beside_enemies():
    state = new_game(3)
    gc = seat(state, GC)
    put(state, CC, "hunting-horror", "north-pacific")
    state.seats[gc].units["acolyte"][5] = "north-pacific"
    state, _ = play(state, GC, "gate north-pacific")
    assert state.seats[gc].power == 5 and state.controller("north-pacific") == gc
    give_turn(state, GC)
    with pytest.raises(IllegalMove):  # one Gate per area
        play(state, GC, "gate north-pacific")


def test_summon_at_a_controlled_gate_for_the_monster_cost():
    state = new_game(3)
    state, _ = play(state, GC, "summon starspawn south-pacific")
    gc = seat(state, GC)
    assert state.seats[gc].power == 5 and state.seats[gc].units["starspawn"][0] == "south-pacific"


def test_awaken_cthulhu_costs_ten_then_four_and_gives_an_elder_sign():
    state = new_game(3)
    gc = seat(state, GC)
    state.seats[gc].power = 10
    state, _ = play(state, GC, "awaken cthulhu south-pacific")
    assert state.seats[gc].power == 0 and len(state.seats[gc].elder_signs) == 1
    assert "awaken-cthulhu" in state.seats[gc].requirements
    state.seats[gc].units["cthulhu"][0] = "@pool"
    give_turn(state, GC, power=4)
    state.pending = []
    state, _ = play(state, GC, "awaken cthulhu south-pacific")
    assert state.seats[gc].units["cthulhu"][0] == "south-pacific"


def test_capture_needs_a_monster_and_no_enemy_monster_and_the_victim_chooses():
    state = new_game(3)
    cc, gc = seat(state, CC), seat(state, GC)
    put(state, GC, "deep-one", "asia")
    state, _ = play(state, GC, "capture asia vs crawling")
    assert ENGINE.to_move(state) == [cc] and state.pending[0].kind == "lose"
    state, log = play(state, CC, "lose acolyte")
    assert state.seats[gc].captives and state.seats[cc].units["acolyte"].count("asia") == 5
    assert f"{GC} captures {CC}'s Acolyte in asia." in log
    assert state.controller("asia") == cc  # the victim kept its Gate's Acolyte
    give_turn(state, GC)
    put(state, CC, "flying-polyp", "asia")
    with pytest.raises(IllegalMove):
        play(state, GC, "capture asia vs crawling")


def test_control_and_abandon_gate_are_unlimited_actions():
    state = new_game(3)
    gc = seat(state, GC)
    state, _ = play(state, GC, "abandon south-pacific")
    assert state.controller("south-pacific") is None and ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "control south-pacific")
    assert state.controller("south-pacific") == gc and ENGINE.to_move(state) == [gc]


def test_moving_the_controlling_cultist_abandons_the_gate():
    state = new_game(3)
    gc = seat(state, GC)
    state.seats[gc].units["acolyte"][1:] = ["@pool"] * 5
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    assert state.gates["south-pacific"] is None


def test_pass_gives_up_all_power():
    state = new_game(3)
    state, _ = play(state, GC, "pass")
    assert state.seats[seat(state, GC)].power == 0 and ENGINE.to_move(state) == [seat(state, CC)]


def test_reveal_adds_elder_signs_to_doom():
    state = new_game(3)
    gc = seat(state, GC)
    state.seats[gc].elder_signs = [2, 3]
    state, _ = play(state, GC, "reveal")
    assert state.seats[gc].doom == 5 and state.seats[gc].elder_signs == []


def test_view_hides_other_factions_elder_signs():
    state = new_game(3)
    gc, cc = seat(state, GC), seat(state, CC)
    state.seats[gc].elder_signs = [3]
    assert ENGINE.view(state, gc)["factions"][gc]["elder_signs"] == [3]
    assert ENGINE.view(state, cc)["factions"][gc]["elder_signs"] == 1
    assert ENGINE.view(state, None)["factions"][gc]["elder_signs"] == 1
    assert "[3]" not in ENGINE.describe(state, cc)


def test_legal_moves_are_grouped_and_focus_narrows_by_type_or_area():
    state = new_game(3)
    gc = seat(state, GC)
    moves = ENGINE.legal_moves(state, gc)
    titles = [g.title for g in moves.groups]
    assert "Move (1 Power per unit)" in titles and "Summon Monster" in titles
    summons = ENGINE.legal_moves(state, gc, focus="summon")
    assert [g.title for g in summons.groups] == ["Summon Monster"]
    assert "costs 3 Power" in summons.groups[0].moves[-1].summary
    near = ENGINE.legal_moves(state, gc, focus="north pacific")
    assert all("north-pacific" in m.notation for g in near.groups for m in g.moves)
    assert ENGINE.legal_moves(state, seat(state, BG)).groups == []


def test_view_is_json_ready_and_gather_projection_and_battle_preview_work():
    import json

    from tabletop.games.cthulhu_wars.battle import battle_preview
    from tabletop.games.cthulhu_wars.phases import projected_gather

    state = new_game(3)
    json.dumps(ENGINE.view(state, 0))
    assert [r.total for r in projected_gather(state)] == [8, 8, 8]
    put(state, GC, "starspawn", "asia")
    odds = battle_preview(state, seat(state, GC), "asia", seat(state, CC))
    assert odds.attacker.dice == 3 and odds.defender.dice == 0


def test_unlimited_actions_may_follow_the_action_until_the_seat_says_done():
    """rules_text turn: unlimited actions come before and after the turn's one action. A Cultist moved onto an
    Abandoned Gate may Control it in the same turn; Elder Signs may be revealed after the action too."""
    state = new_game(3)
    gc = seat(state, GC)
    state.gates["north-pacific"] = None  # an Abandoned Gate next door
    state.seats[gc].elder_signs = [2]
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    state, _ = play(state, GC, "done")
    assert ENGINE.to_move(state) == [gc] and state.turn.acted
    follow = {ENGINE.notation(a) for a in ENGINE.legal_actions(state, gc)}
    assert {"control north-pacific", "reveal", "done"} <= follow
    assert not any(t.startswith(("move", "summon", "recruit", "pass")) for t in follow), "the one action is used"
    state, _ = play(state, GC, "control north-pacific")
    assert state.controller("north-pacific") == gc and ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "reveal")
    assert state.seats[gc].doom == 2 and state.seats[gc].power == 7
    state, _ = play(state, GC, "done")
    assert ENGINE.to_move(state) == [seat(state, CC)]


def test_after_the_action_a_seat_at_zero_power_takes_no_unlimited_action():
    state = new_game(3)
    gc = seat(state, GC)
    give_turn(state, GC, power=1)
    state.gates["north-pacific"] = None
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    assert ENGINE.to_move(state) == [seat(state, CC)], "no Power left: the turn ends by itself"


def test_with_all_six_spellbooks_battle_is_unlimited_once_per_area():
    """rules_text battle: with all six spellbooks Battle no longer uses up the turn's action; still one battle
    per area per turn."""
    from .cw_helpers import ScriptedDice

    state = new_game(3)
    gc, cc = seat(state, GC), seat(state, CC)
    state.seats[gc].spellbooks = ["devolve", "absorb", "regenerate", "dreams", "submerge", "yha-nthlei"]
    state.seats[gc].requirements = [r.name for r in board.faction_of(state, gc).requirements]
    put(state, GC, "starspawn", "asia")
    put(state, GC, "starspawn", "africa")
    put(state, GC, "deep-one", "south-pacific", 4)  # none left to Devolve
    state.rng = ScriptedDice([1] * 20)  # every die misses
    state, _ = play(state, GC, "battle asia vs crawling")
    assert state.battle is None and ENGINE.to_move(state) == [gc] and not state.turn.acted
    legal = {ENGINE.notation(a) for a in ENGINE.legal_actions(state, gc)}
    assert "battle asia vs " + CC not in legal, "one battle per area per turn"
    assert "battle africa vs " + BG in legal and "summon shoggoth south-pacific" in legal
    state, _ = play(state, GC, "battle africa vs goat")
    state, _ = play(state, GC, "summon shoggoth south-pacific")  # the turn's one action
    assert state.turn.acted and state.seats[gc].power == 4
    state, _ = play(state, GC, "done")
    assert ENGINE.to_move(state) == [cc]


def test_a_move_action_needs_a_power_to_start():
    """rules_text cthulhu-wars/actions: Move costs 1 Power per unit moved; with no Power the action is refused."""
    state = new_game(3)
    gc = seat(state, GC)
    give_turn(state, GC, power=0)
    with pytest.raises(IllegalMove):
        play(state, GC, "move acolyte south-pacific>north-pacific")
    give_turn(state, GC, power=1)
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    assert state.seats[gc].units["acolyte"].count("north-pacific") == 1
