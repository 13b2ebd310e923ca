"""High Priests, a game option (rules_text ``cthulhu-wars/high-priests``): the unit, Recruiting it, how it counts as
a Cultist, the Unspeakable Oath at each of its timings, and the rulings' options."""

import random

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE, board, phases
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import CARD, HELD, POOL

from tabletop.games.cthulhu_wars.refusals import why_not

from .cw_helpers import BG, CC, GC, YS, ScriptedDice, give_turn, new_game, play, put, seat, seated, texts

HP = "high-priest"


def hp_game(players=3, **options):
    return new_game(players, high_priests=True, **options)


def window_seats(state):
    assert state.pending and state.pending[0].kind == "window"
    return ENGINE.to_move(state)


# ---- the option -------------------------------------------------------------------------------------------
def test_without_the_option_there_is_no_high_priest_and_its_moves_are_refused_citing_the_option():
    state = new_game(3)
    assert HP not in state.seats[0].units
    assert not CthulhuWarsOptions().high_priests
    for text in ("recruit high-priest south-pacific", "oath"):
        with pytest.raises(IllegalMove) as err:
            play(state, GC, text)
        assert "not in this game (game option high_priests)" in str(err.value)
        assert err.value.rule == "cthulhu-wars/high-priests"
    assert ENGINE.rule_for(ENGINE.parse("oath", state, 0)) == "cthulhu-wars/high-priests"


def test_options_stored_before_the_neutral_material_read_with_every_neutral_option_off():
    stored = CthulhuWarsOptions(factions=[GC, CC, BG]).model_dump()
    for name in ("high_priests", "high_priest_oath_in_doom_phase", "high_priest_oath_when_submerged", "neutral_ghast",
                 "neutral_gug", "neutral_shantak", "neutral_star_vampire", "ghast_hordeling_on_free_summon",
                 "ghast_hordeling_ice_age"):
        stored.pop(name)
    options = CthulhuWarsOptions.model_validate(stored)
    assert not options.high_priests and not options.neutral_gug and not options.stored_before_expansions
    assert HP not in ENGINE.new_game(options, 3, 1).seats[0].units


def test_with_the_option_every_faction_has_one_high_priest_in_its_pool():
    state = hp_game(4)
    for s, fs in enumerate(state.seats):
        assert fs.units[HP] == [POOL]
        unit = board.faction_of(state, s).unit(HP)
        assert (unit.count, unit.cost, unit.combat, unit.role) == (1, 3, 0, "cultist")


# ---- Recruiting it and what it is ----------------------------------------------------------------------------
def test_recruiting_costs_three_power_where_you_have_a_unit_and_needs_no_gate():
    state = hp_game()
    gc = seat(state, GC)
    put(state, GC, "deep-one", "north-pacific")  # no Gate there
    give_turn(state, GC, power=3)
    assert {"recruit high-priest north-pacific", "recruit high-priest south-pacific"} <= texts(state, GC)
    state, _ = play(state, GC, "recruit high-priest north-pacific")
    assert state.seats[gc].units[HP] == ["north-pacific"] and state.seats[gc].power == 0


def test_two_power_is_not_enough_to_recruit_it():
    state = hp_game()
    give_turn(state, GC, power=2)
    assert not any(t.startswith("recruit high-priest") for t in texts(state, GC))
    with pytest.raises(IllegalMove):
        play(state, GC, "recruit high-priest south-pacific")


def test_only_one_high_priest_per_faction():
    state = hp_game()
    put(state, GC, HP, "south-pacific")
    give_turn(state, GC, power=8)
    assert not any(t.startswith("recruit high-priest") for t in texts(state, GC))


def test_it_gives_one_power_at_gather_like_any_cultist():
    state = hp_game()
    gc = seat(state, GC)
    before = phases.power_sources(state, gc, None).cultists
    put(state, GC, HP, "north-pacific")
    assert phases.power_sources(state, gc, None).cultists == before + 1


def test_it_builds_and_controls_gates():
    state = hp_game()
    gc = seat(state, GC)
    put(state, GC, HP, "north-pacific")
    give_turn(state, GC, power=3)
    state, _ = play(state, GC, "gate north-pacific")
    assert state.gates["north-pacific"] == (gc, HP, 0)
    state.gates["north-pacific"] = None
    give_turn(state, GC, power=1)
    assert "control high-priest north-pacific" in texts(state, GC)


def test_it_can_be_captured_and_the_captor_gathers_one_power_for_it():
    state = hp_game()
    cc, gc = seat(state, CC), seat(state, GC)
    put(state, GC, HP, "north-pacific")
    put(state, CC, "nightgaunt", "north-pacific")
    give_turn(state, CC, power=2)
    state, _ = play(state, CC, f"capture north-pacific vs {GC}")
    assert state.seats[gc].units[HP] == ["@captured"] and state.seats[cc].captives == [(gc, HP, 0)]
    assert phases.power_sources(state, cc, None).captured_cultists == 1


def test_the_victim_chooses_between_its_acolyte_and_its_high_priest():
    state = hp_game()
    gc = seat(state, GC)
    put(state, GC, HP, "north-pacific")
    state.seats[gc].units["acolyte"][5] = "north-pacific"
    put(state, CC, "nightgaunt", "north-pacific")
    give_turn(state, CC, power=2)
    state, _ = play(state, CC, f"capture north-pacific vs {GC}")
    assert state.pending[0].kind == "lose" and ENGINE.to_move(state) == [gc]
    assert {"lose acolyte", "lose high-priest"} <= texts(state, GC)


def test_frenzy_gives_the_high_priest_combat_one():
    state = hp_game()
    bg = seat(state, BG)
    faction = board.faction_of(state, bg)
    assert faction.unit_combat(state, bg, HP, {}, 1) == 0
    state.seats[bg].spellbooks = ["frenzy"]
    assert board.faction_of(state, bg).unit_combat(state, bg, HP, {}, 1) == 1


def test_dreams_takes_acolytes_only_never_the_high_priest():
    state = hp_game()
    gc, cc = seat(state, GC), seat(state, CC)
    state.seats[gc].spellbooks = ["dreams"]
    state.seats[gc].units["acolyte"][5] = POOL
    for i, place in enumerate(state.seats[cc].units["acolyte"]):
        if place == "asia":
            board.eliminate(state, cc, "acolyte", i)
    put(state, CC, HP, "asia")
    give_turn(state, GC, power=8)
    assert not any(t.startswith("dreams asia") for t in texts(state, GC))


def everyone_passes(state):
    """Every seat passes its turns (and passes in the windows after them) until the Action phase is over."""
    while state.phase == "action" and not (state.pending and state.pending[0].data.get("context") == "gather"):
        s = ENGINE.to_move(state)[0]
        state, _ = ENGINE.apply(state, s, ENGINE.parse("done" if state.pending else "pass", state, s))
    return state


def test_ferox_protects_the_high_priest_like_any_cultist():
    from .cw_helpers import WW, seated

    state = seated([GC, WW, BG], starts={WW: "arctic-ocean"}, high_priests=True)
    ww = seat(state, WW)
    for i, place in enumerate(state.seats[ww].units["acolyte"]):
        if place == "arctic-ocean":
            board.eliminate(state, ww, "acolyte", i)
    state.gates.pop("arctic-ocean", None)
    put(state, WW, HP, "arctic-ocean")
    put(state, GC, "deep-one", "arctic-ocean")
    give_turn(state, GC, power=3)
    assert "capture arctic-ocean vs windwalker" in texts(state, GC)
    put(state, WW, "ithaqua", "antarctica")
    assert "capture arctic-ocean vs windwalker" not in texts(state, GC)


def test_zingaya_takes_acolytes_only_never_the_high_priest():
    state = hp_game(factions=[GC, YS, BG])
    ys, gc = seat(state, YS), seat(state, GC)
    state.seats[ys].spellbooks = ["zingaya"]
    put(state, YS, "undead", "north-pacific")
    put(state, GC, HP, "north-pacific")
    give_turn(state, YS, power=8)
    assert not any(t.startswith("ys-zingaya north-pacific") for t in texts(state, YS))
    state.seats[gc].units["acolyte"][5] = "north-pacific"
    assert "ys-zingaya north-pacific vs great-cthulhu" in texts(state, YS)


# ---- the Unspeakable Oath -------------------------------------------------------------------------------------
def test_after_its_own_action_the_owner_may_sacrifice_it_for_two_power_abandoning_its_gate():
    state = hp_game()
    gc = seat(state, GC)
    put(state, GC, HP, "north-pacific")
    state.gates["north-pacific"] = (gc, HP, 0)
    give_turn(state, GC, power=4)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert window_seats(state) == [gc] and texts(state, GC) == {"oath", "done"}
    state, log = play(state, GC, "oath")
    assert state.seats[gc].units[HP] == [POOL] and state.seats[gc].power == 3 + 2
    assert state.gates["north-pacific"] is None
    assert any("Unspeakable Oath" in line for line in log)
    assert not state.pending and state.turn.seat == gc, "its turn goes on"


def test_after_another_factions_action_it_may_be_sacrificed_too():
    state = hp_game()
    cc = seat(state, CC)
    put(state, CC, HP, "asia")
    give_turn(state, GC, power=4)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert window_seats(state) == [cc]
    power = state.seats[cc].power
    state, _ = play(state, CC, "oath")
    assert state.seats[cc].power == power + 2


def test_passing_keeps_the_high_priest():
    state = hp_game()
    cc = seat(state, CC)
    put(state, CC, HP, "asia")
    give_turn(state, GC, power=4)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    state, _ = play(state, CC, "done")
    assert state.seats[cc].units[HP] == ["asia"] and not state.pending


def test_the_oath_brings_a_faction_at_zero_power_back_into_the_action_phase():
    state = hp_game()
    gc, cc = seat(state, GC), seat(state, CC)
    put(state, CC, HP, "asia")
    state.seats[cc].power = 0
    state.seats[seat(state, BG)].power = 0
    give_turn(state, GC, power=1)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert state.seats[gc].power == 0 and window_seats(state) == [cc]
    state, _ = play(state, CC, "oath")
    assert state.seats[cc].power == 2
    assert state.phase == "action" and state.turn.seat == cc, "Crawling Chaos takes a turn again"


def test_the_oath_does_not_wake_a_hibernating_windwalker():
    from .cw_helpers import WW, seated

    state = seated([GC, WW, BG], starts={WW: "arctic-ocean"}, high_priests=True)
    gc, ww = seat(state, GC), seat(state, WW)
    put(state, WW, HP, "arctic-ocean")
    state.seats[ww].flags["hibernating"] = True
    state.seats[ww].power = 0
    state.seats[seat(state, BG)].power = 0
    give_turn(state, GC, power=2)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    state, _ = play(state, WW, "oath")
    assert state.seats[ww].power == 2 and state.turn.seat == gc
    state, _ = play(state, GC, "done")
    assert state.turn.seat == gc and state.turn.number > 1, "Windwalker takes no turn while it hibernates"


def test_at_gather_power_the_oath_comes_before_the_first_player_is_determined():
    state = hp_game()
    gc, cc = seat(state, GC), seat(state, CC)
    put(state, CC, HP, "asia")
    state.seats[gc].units["acolyte"][5] = "north-pacific"  # a second Gate: Great Cthulhu gathers 10, Crawling Chaos 9
    state.gates["north-pacific"] = (gc, "acolyte", 5)
    state = everyone_passes(state)
    assert state.pending[0].kind == "window" and state.pending[0].data["context"] == "gather"
    assert ENGINE.to_move(state) == [cc]
    assert (state.seats[gc].power, state.seats[cc].power) == (10, 9)
    assert "Gather Power" in ENGINE.decision_text(state, cc)
    state, _ = play(state, CC, "oath")
    assert state.seats[cc].power == 11
    assert state.first_player == cc and state.pending[0].kind == "direction"


def test_without_an_oath_at_gather_the_first_player_is_determined_as_usual():
    state = hp_game()
    gc = seat(state, GC)
    put(state, CC, HP, "asia")
    state.seats[gc].units["acolyte"][5] = "north-pacific"
    state.gates["north-pacific"] = (gc, "acolyte", 5)
    state = everyone_passes(state)
    state, _ = play(state, CC, "done")
    assert state.first_player == gc and state.pending[0].kind == "direction"


def test_in_its_own_doom_phase_decision_the_oath_pays_for_a_ritual_and_keeps_the_decision():
    state = hp_game()
    gc = seat(state, GC)
    put(state, GC, HP, "north-pacific")
    state.phase, state.turn = "doom", None
    state.seats[gc].power = state.ritual_cost - 2
    state.doom_queue = [gc]
    phases.next_ritual(state, [])
    assert ENGINE.to_move(state) == [gc] and state.pending[0].kind == "ritual"
    assert "ritual" not in texts(state, GC) and "oath" in texts(state, GC)
    state, _ = play(state, GC, "oath")
    assert state.pending[0].kind == "ritual" and "ritual" in texts(state, GC)
    state, _ = play(state, GC, "ritual")
    assert state.seats[gc].power == 0


def test_a_seat_with_only_a_high_priest_and_no_power_is_still_asked_in_the_doom_phase():
    state = hp_game()
    gc = seat(state, GC)
    put(state, GC, HP, "north-pacific")
    state.seats[gc].power = 0
    assert phases.has_doom_choice(state, gc)


def test_the_printed_cards_timing_keeps_the_oath_out_of_the_doom_phase():
    state = hp_game(high_priest_oath_in_doom_phase=False)
    gc, cc = seat(state, GC), seat(state, CC)
    put(state, GC, HP, "north-pacific")
    put(state, CC, HP, "asia")
    state.phase, state.turn = "doom", None
    state.seats[gc].power = 0
    assert not phases.has_doom_choice(state, gc)
    state.seats[gc].power = 20
    state.doom_queue = [gc]
    phases.next_ritual(state, [])
    assert "oath" not in texts(state, GC)
    state, _ = play(state, GC, "ritual")
    assert not (state.pending and state.pending[0].kind == "window" and cc in ENGINE.to_move(state))
    with pytest.raises(IllegalMove):
        play(state, GC, "oath")


def test_with_the_printed_timing_the_oath_is_still_asked_after_actions_and_at_gather():
    state = hp_game(high_priest_oath_in_doom_phase=False)
    cc = seat(state, CC)
    put(state, CC, HP, "asia")
    give_turn(state, GC, power=4)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert window_seats(state) == [cc]


def test_a_submerged_high_priest_is_sacrificed_only_with_its_option():
    for allowed in (False, True):
        state = hp_game(high_priest_oath_when_submerged=allowed)
        gc = seat(state, GC)
        state.seats[gc].units[HP] = [CARD]
        give_turn(state, CC, power=4)
        state, _ = play(state, CC, "summon nightgaunt asia")
        asked = bool(state.pending) and gc in ENGINE.to_move(state)
        assert asked == allowed
        if allowed:
            state, _ = play(state, GC, "oath")
            assert state.seats[gc].units[HP] == [POOL]


def high_priest_in_cursed_slumber(**options):
    """The Sleeper's High Priest holds its start Gate (north-america) and goes into Cursed Slumber with it."""
    state = seated([GC, "sleeper", "opener-of-the-way"], high_priests=True, starts={"opener-of-the-way": "europe"},
                   **options)
    sl = seat(state, "sleeper")
    state.seats[sl].spellbooks = ["cursed-slumber"]
    state.seats[sl].units[HP] = ["north-america"]
    state.gates["north-america"] = (sl, HP, 0)
    give_turn(state, "sleeper", power=1)
    state, _ = play(state, "sleeper", "sl-cursed-slumber north-america")
    assert state.seats[sl].units[HP] == [HELD] and board.gate_count(state, sl) == 1
    return state, sl


def test_a_high_priest_in_cursed_slumber_swears_the_oath_and_the_gate_is_abandoned_on_the_card():
    """Official FAQ (rules_text high-priests, sleeper-cursed-slumber; ruling high-priest-slumber, default
    stays-on-card): the Gate gives nothing more and comes back Abandoned when Cursed Slumber returns it."""
    state, sl = high_priest_in_cursed_slumber()
    assert sl in ENGINE.to_move(state) and "oath" in texts(state, "sleeper")
    gathered = phases.projected_gather(state)[sl].gathered
    state, log = play(state, "sleeper", "oath")
    assert state.seats[sl].units[HP] == [POOL] and state.seats[sl].power == 2
    assert any("sacrifices its High Priest in Cursed Slumber" in line for line in log)
    assert board.gate_count(state, sl) == 0, "an Abandoned Gate gives nothing"
    assert phases.projected_gather(state)[sl].gathered == gathered - 3, "neither the Gate (2) nor the Priest (1)"
    assert "holds an Abandoned Gate in Cursed Slumber" in ENGINE.describe(state, None)
    give_turn(state, "sleeper", power=1)
    assert "sl-slumber-return asia" in texts(state, "sleeper")
    state, _ = play(state, "sleeper", "sl-slumber-return asia")
    assert "asia" in state.gates and state.gates["asia"] is None and board.gate_count(state, sl) == 0
    assert "slumber" not in state.seats[sl].flags


def test_with_leaves_play_the_abandoned_slumber_gate_is_gone_and_the_card_is_free():
    state, sl = high_priest_in_cursed_slumber(high_priest_slumber_gate="leaves-play")
    state, _ = play(state, "sleeper", "oath")
    assert "slumber" not in state.seats[sl].flags and board.gate_count(state, sl) == 0
    give_turn(state, "sleeper", power=1)
    assert "not on the map" in why_not(state, sl, ENGINE.parse("oath", state, sl), 0, {}), "sworn once"
    assert not any(t.startswith("sl-slumber-return") for t in texts(state, "sleeper"))


def test_the_oath_is_no_loss_to_an_enemy_for_passion():
    state = hp_game(factions=[GC, CC, YS])
    ys = seat(state, YS)
    state.seats[ys].spellbooks = ["passion"]
    put(state, YS, HP, "europe")
    give_turn(state, YS, power=4)
    state, _ = play(state, YS, "summon undead europe")
    power = state.seats[ys].power
    state, _ = play(state, YS, "oath")
    assert state.seats[ys].power == power + 2
    give_turn(state, GC, power=4)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert state.seats[ys].power == power + 2, "Passion paid nothing for the sacrifice"


def test_passion_still_pays_when_an_enemy_captures_the_high_priest():
    state = hp_game(factions=[GC, CC, YS])
    ys = seat(state, YS)
    state.seats[ys].spellbooks = ["passion"]
    for i, place in enumerate(state.seats[ys].units["acolyte"]):
        if place == "europe":
            board.eliminate(state, ys, "acolyte", i)
    state.gates.pop("europe", None)
    put(state, YS, HP, "europe")
    put(state, GC, "deep-one", "europe")
    give_turn(state, GC, power=4)
    power = state.seats[ys].power
    state, _ = play(state, GC, f"capture europe vs {YS}")
    assert state.seats[ys].units[HP] == ["@captured"]
    assert state.seats[ys].power == power + 1


def test_the_window_text_names_the_oath():
    state = hp_game()
    cc = seat(state, CC)
    put(state, CC, HP, "asia")
    give_turn(state, GC, power=4)
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert "oath" in ENGINE.decision_text(state, cc)


def test_the_battle_dice_of_a_frenzied_high_priest_roll():
    state = hp_game()
    bg = seat(state, BG)
    state.seats[bg].spellbooks = ["frenzy"]
    put(state, BG, HP, "asia")  # its only unit there
    give_turn(state, BG, power=3)
    state.rng = ScriptedDice([1] * 20)
    state, log = play(state, BG, f"battle asia vs {CC}")
    assert any(line.startswith(f"{BG} rolls 1 die") for line in log)


def test_the_picture_shows_the_high_priest_as_a_chip_of_its_own():
    from tabletop.render import Text

    state = hp_game()
    put(state, GC, HP, "north-pacific")
    scene = ENGINE.draw(state, None, frozenset())
    assert any(isinstance(t, Text) and t.text == "High Priest" for t in scene.shapes)
    assert "great-cthulhu high-priest" in ENGINE.describe(state, None)


# ---- random games with the option ------------------------------------------------------------------------------
def conserved(state):
    for s, fs in enumerate(state.seats):
        faction = board.faction_of(state, s)
        assert {k: len(v) for k, v in fs.units.items()} == {u.name: u.count for u in faction.units}
        assert fs.power >= 0


@pytest.mark.parametrize("players,game_map", [(3, "earth"), (4, "dreamlands"), (5, "earth"), (5, "dreamlands")])
def test_random_games_with_high_priests_never_raise(players, game_map):
    for seed in range(2):
        rnd = random.Random(seed)
        state = ENGINE.new_game(CthulhuWarsOptions(high_priests=True, map=game_map), players, seed)
        oaths = 0
        for _ in range(20000):
            if ENGINE.outcome(state) is not None:
                break
            s = rnd.choice(ENGINE.to_move(state))
            action = rnd.choice(ENGINE.legal_actions(state, s))
            assert ENGINE.parse(ENGINE.notation(action), state, s) == action
            oaths += action.kind == "oath"
            state, _ = ENGINE.apply(state, s, action)
            conserved(state)
        assert ENGINE.outcome(state) is not None
