"""Windwalker (rules_text cthulhu-wars/windwalker and its spellbook sections), from the card texts."""

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE, board
from tabletop.games.cthulhu_wars.battle import side_combat
from tabletop.games.cthulhu_wars.phases import projected_gather
from tabletop.games.cthulhu_wars.state import POOL

from .cw_helpers import BG, GC, OW, SL, WW, ScriptedDice, clear, give_turn, play, put, seat, seated, texts

THREE = [GC, BG, WW]  # 3-player map: Windwalker chooses Arctic Ocean or Antarctica


def game(books=(), **kwargs):
    state = seated(THREE, starts={WW: "arctic-ocean"}, **kwargs)
    state.seats[seat(state, WW)].spellbooks = list(books)
    give_turn(state, WW)
    return state


def test_units_counts_costs_and_combat():
    state = game()
    ww = board.faction_of(state, seat(state, WW))
    table = {u.name: (u.count, u.cost, u.combat, u.role) for u in ww.units}
    assert table == {
        "acolyte": (6, 1, 0, "cultist"), "wendigo": (4, 1, 1, "monster"), "gnoph-keh": (4, 4, 3, "monster"),
        "rhan-tegoth": (1, 6, 3, "goo"), "ithaqua": (1, 6, 0, "goo"),
    }  # fmt: skip


def test_gnoph_keh_costs_as_many_as_are_left_in_the_pool():
    state = game()
    state.seats[seat(state, WW)].power = 20
    costs = []
    for _ in range(4):
        costs.append(board.faction_of(state, seat(state, WW)).summon_cost(state, seat(state, WW), "gnoph-keh"))
        give_turn(state, WW)
        state, _ = play(state, WW, "summon gnoph-keh arctic-ocean")
    assert costs == [4, 3, 2, 1]
    assert state.seats[seat(state, WW)].power == 20 - 10


def test_hibernate_gains_per_enemy_goo_at_most_doubling_and_sits_the_phase_out():
    state = game()
    ww = seat(state, WW)
    put(state, GC, "cthulhu", "south-pacific")
    put(state, BG, "shub-niggurath", "africa")
    state.seats[ww].power = 1
    state, log = play(state, WW, "ww-hibernate")
    assert state.seats[ww].power == 2, "two enemy Great Old Ones, but no more than doubling 1"
    assert board.faction_of(state, ww).sits_out(state, ww)
    state, _ = play(state, WW, "done")
    # everyone else passes: the phase ends though Windwalker still has Power
    while state.phase == "action" and state.turn is not None:
        s = state.turn.seat
        assert s != ww, "a hibernating faction takes no turns"
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    assert state.round == 2


def test_hibernate_power_is_kept_into_the_next_gather_before_the_minimum_power_rule():
    state = game()
    ww = seat(state, WW)
    state.seats[ww].power = 5
    state.seats[ww].flags["hibernating"] = True
    result = projected_gather(state)[ww]
    assert any(line.source.startswith("Hibernate") and line.subtotal == 5 for line in result.lines)
    assert result.gathered == 5 + 6 + 2  # kept + 6 Acolytes + 1 Gate


def test_rhan_tegoth_awakens_at_either_pole_without_a_gate():
    state = game()
    state.seats[seat(state, WW)].power = 6
    assert {"awaken rhan-tegoth arctic-ocean", "awaken rhan-tegoth antarctica"} <= texts(state, WW)
    state, _ = play(state, WW, "awaken rhan-tegoth antarctica")
    assert state.seats[seat(state, WW)].units["rhan-tegoth"][0] == "antarctica"
    assert "awaken-rhan-tegoth" in state.seats[seat(state, WW)].requirements


def test_ithaqua_needs_rhan_tegoth_once_and_replaces_a_gate_at_a_pole():
    state = game()
    ww = seat(state, WW)
    state.seats[ww].power = 12
    assert not any(t.startswith("awaken ithaqua") for t in texts(state, WW)), "Rhan-Tegoth first"
    state.seats[ww].flags["awakened-rhan-tegoth"] = True  # awakened once, since eliminated
    assert "awaken ithaqua arctic-ocean" in texts(state, WW)
    assert "awaken ithaqua antarctica" not in texts(state, WW), "no Gate in Antarctica"
    state, _ = play(state, WW, "awaken ithaqua arctic-ocean")
    assert "arctic-ocean" not in state.gates, "Ithaqua replaces the Gate"
    assert state.seats[ww].units["acolyte"].count("arctic-ocean") == 6, "its Cultist stays in the Area"
    assert board.controlled_gates(state, ww) == []


def test_ithaqua_rolls_half_the_enemys_doom_rounded_up():
    state = game()
    put(state, WW, "ithaqua", "south-pacific")
    state.seats[seat(state, GC)].doom = 7
    probe = {"area": "south-pacific", "attacker": seat(state, WW), "defender": seat(state, GC)}
    assert side_combat(state, seat(state, WW), probe, "south-pacific") == 4


def test_ferox_only_a_great_old_one_captures_windwalker_cultists_while_ithaqua_is_in_play():
    state = game()
    put(state, GC, "deep-one", "arctic-ocean")
    give_turn(state, GC)
    assert "capture arctic-ocean vs windwalker" in texts(state, GC)
    put(state, WW, "ithaqua", "antarctica")
    assert "capture arctic-ocean vs windwalker" not in texts(state, GC)
    put(state, GC, "cthulhu", "arctic-ocean")
    assert "capture arctic-ocean vs windwalker" in texts(state, GC)


def battle(state, attacker, area, enemy, dice):
    state.rng = ScriptedDice(dice)
    give_turn(state, attacker, power=10)
    state, _ = play(state, attacker, f"battle {area} vs {enemy}")
    return state


def test_eternal_pays_one_to_cancel_a_result_on_rhan_tegoth():
    state = game()
    ww = seat(state, WW)
    clear(state, GC, "south-pacific")
    put(state, GC, "starspawn", "south-pacific")
    put(state, WW, "rhan-tegoth", "south-pacific")
    state = battle(state, GC, "south-pacific", WW, [6, 1, 1] + [1, 1, 1])
    state.seats[ww].power = 3
    assert texts(state, WW) == {"ww-eternal cancel", "ww-eternal accept"}
    saved, _ = play(state, WW, "ww-eternal cancel")
    assert saved.seats[ww].units["rhan-tegoth"][0] == "south-pacific" and saved.seats[ww].power == 2
    dead, _ = play(state, WW, "ww-eternal accept")
    assert dead.seats[ww].units["rhan-tegoth"][0] == POOL


def test_howl_is_not_a_pain_the_unit_may_go_where_windwalker_stands():
    state = game(["howl"])
    clear(state, GC, "south-pacific")
    put(state, GC, "deep-one", "south-pacific")
    put(state, WW, "wendigo", "south-pacific")
    put(state, WW, "wendigo", "indian-ocean")
    state = battle(state, WW, "south-pacific", GC, [1] * 10)
    assert "ww-howl" in texts(state, WW)
    state, _ = play(state, WW, "ww-howl")
    options = texts(state, GC)
    assert "ww-howl-away deep-one to indian-ocean" in options, "an Area with Windwalker units is allowed"
    state, _ = play(state, GC, "ww-howl-away deep-one to indian-ocean")
    assert state.seats[seat(state, GC)].units["deep-one"][0] == "indian-ocean"


def test_berserkergang_each_gnoph_keh_killed_costs_the_enemy_a_unit():
    state = game(["berserkergang"])
    gc = seat(state, GC)
    clear(state, GC, "south-pacific")
    put(state, GC, "starspawn", "south-pacific")
    put(state, GC, "deep-one", "south-pacific", 2)
    put(state, WW, "gnoph-keh", "south-pacific")
    # Great Cthulhu attacks: 3+2 dice, one Kill on the Gnoph-Keh; Windwalker's 3 dice miss
    state = battle(state, GC, "south-pacific", WW, [6, 1, 1, 1, 1] + [1, 1, 1])
    assert state.seats[seat(state, WW)].units["gnoph-keh"][0] == POOL
    assert state.pending[0].kind == "ww-berserk" and ENGINE.to_move(state) == [gc]
    assert "done" not in texts(state, GC), "the loss is compulsory"
    state, _ = play(state, GC, "ww-berserk deep-one")
    assert state.seats[gc].units["deep-one"].count("south-pacific") == 1


def test_cannibalism_places_a_wendigo_after_an_enemy_kill():
    state = game(["cannibalism"])
    clear(state, GC, "south-pacific")
    put(state, GC, "deep-one", "south-pacific")
    put(state, WW, "gnoph-keh", "south-pacific")
    state = battle(state, WW, "south-pacific", GC, [6, 1, 1] + [1])
    assert state.pending[0].kind == "ww-cannibalism"
    state, _ = play(state, WW, "ww-cannibalism wendigo")
    assert state.seats[seat(state, WW)].units["wendigo"].count("south-pacific") == 1


def test_arctic_wind_units_follow_ithaqua_for_free():
    state = game(["arctic-wind"])
    ww = seat(state, WW)
    put(state, WW, "ithaqua", "arctic-ocean")
    state.seats[ww].power = 5
    state, _ = play(state, WW, "move ithaqua arctic-ocean>europe")
    assert state.seats[ww].power == 4
    assert texts(state, WW) == {"ww-arctic-wind acolyte", "done"}
    state, _ = play(state, WW, "ww-arctic-wind acolyte")
    state, _ = play(state, WW, "ww-arctic-wind acolyte")
    state, _ = play(state, WW, "done")
    assert state.seats[ww].units["acolyte"].count("europe") == 2 and state.seats[ww].power == 4


def test_ice_age_makes_enemy_actions_ending_there_cost_one_more():
    state = game(["ice-age"])
    state, _ = play(state, WW, "ww-ice-age africa")
    give_turn(state, BG, power=3)
    assert ENGINE.summarize(ENGINE.parse("summon ghoul africa", state, seat(state, BG)), state).endswith("(costs 2 Power)")
    state, log = play(state, BG, "summon ghoul africa")
    assert state.seats[seat(state, BG)].power == 1 and any("Ice Age" in line for line in log)
    give_turn(state, BG, power=1)
    assert "recruit africa" not in texts(state, BG) and "move acolyte africa>asia" in texts(state, BG)
    give_turn(state, WW, power=1)
    state.seats[seat(state, WW)].flags["ice-age"] = "arctic-ocean"
    state, _ = play(state, WW, "summon wendigo arctic-ocean")
    assert state.seats[seat(state, WW)].power == 0, "Windwalker never pays its own Ice Age"


def test_herald_makes_the_ritual_cost_five():
    state = game(["herald"])
    state.ritual_step = 4  # the track says 9
    state.seats[seat(state, WW)].power = 5
    from tabletop.games.cthulhu_wars.phases import ritual_cost_for

    assert ritual_cost_for(state, seat(state, WW)) == 5 and ritual_cost_for(state, seat(state, GC)) == 9


def test_requirements_first_player_opposite_gate_and_another_six_spellbooks():
    state = game()
    ww = seat(state, WW)
    faction = board.faction_of(state, ww)
    assert faction.met_requirements(state, ww) == []
    state.first_player = ww
    state.gates["antarctica"] = None
    state.seats[seat(state, GC)].spellbooks = ["a"] * 6
    assert set(faction.met_requirements(state, ww)) == {"first-player", "opposite-gate", "another-six-spellbooks"}


def test_windwalker_is_never_first_player_at_the_start():
    for seed in range(20):
        state = seated([SL, WW, OW], seed, direction=None)
        assert state.seats[state.first_player].faction != WW


@pytest.mark.parametrize("sixes, signs", [(0, 0), (1, 1), (2, 2)])
def test_anytime_gives_an_elder_sign_per_enemy_with_six_spellbooks(sixes, signs):
    state = game()
    for faction in (GC, BG)[:sixes]:
        state.seats[seat(state, faction)].spellbooks = ["x"] * 6
    state, _ = play(state, WW, "ww-anytime")
    assert len(state.seats[seat(state, WW)].elder_signs) == signs
    assert state.pending[0].kind == "spellbook", "the requirement is met at once"


def test_anytime_still_open_at_the_end_of_the_game_is_taken_then():
    from tabletop.games.cthulhu_wars.victory import finish

    state = game(["cannibalism", "howl", "berserkergang", "arctic-wind", "ice-age"])
    state.seats[seat(state, GC)].spellbooks = ["x"] * 6
    finish(state, [])
    fs = state.seats[seat(state, WW)]
    assert "anytime" in fs.requirements and len(fs.spellbooks) == 6 and fs.doom >= 1


def test_a_hibernating_windwalker_refuses_more_turns_but_is_still_asked_in_windows():
    state = game()
    state.seats[seat(state, WW)].elder_signs = [2]
    state, _ = play(state, WW, "ww-hibernate")
    with pytest.raises(IllegalMove):
        play(state, WW, "ww-hibernate")


@pytest.mark.parametrize("gnoph_keh_killed", [True, False])
def test_berserkergang_when_windwalker_attacks_costs_the_defender_and_nothing_without_a_kill(gnoph_keh_killed):
    """rules_text windwalker-berserkergang: the *enemy* eliminates a unit per Gnoph-Keh killed — the defender when
    Windwalker attacks; a battle with no Kill on a Gnoph-Keh asks nothing."""
    state = game(["berserkergang"])
    gc, ww = seat(state, GC), seat(state, WW)
    clear(state, GC, "south-pacific")
    put(state, GC, "starspawn", "south-pacific")
    put(state, GC, "deep-one", "south-pacific", 2)
    put(state, WW, "gnoph-keh", "south-pacific")
    gc_dice = [6, 1, 1, 1, 1] if gnoph_keh_killed else [1, 1, 1, 1, 1]
    state = battle(state, WW, "south-pacific", GC, [1, 1, 1] + gc_dice)  # Windwalker's 3 dice miss
    if gnoph_keh_killed:
        assert state.seats[ww].units["gnoph-keh"][0] == POOL
        assert state.pending[0].kind == "ww-berserk" and ENGINE.to_move(state) == [gc]
    else:
        assert state.seats[ww].units["gnoph-keh"][0] == "south-pacific"
        assert not any(p.kind == "ww-berserk" for p in state.pending) and state.battle is None
