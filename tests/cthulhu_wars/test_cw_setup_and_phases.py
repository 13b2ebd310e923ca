"""Set-up, Gather Power, First Player, the Doom phase and Rituals (rules_text setup, turn, doom)."""

import pytest

from .cw_helpers import BG, CC, GC, YS, clear, give_turn, new_game, play, put, seat
from tabletop.core.errors import BadOptions, IllegalMove, NotYourTurn
from tabletop.games.cthulhu_wars import ENGINE, phases
from tabletop.games.cthulhu_wars.state import ELDER_SIGN_BAG, RITUAL_TRACKS


@pytest.mark.parametrize("players, layout", [(3, "earth_3p"), (4, "earth_4p"), (5, "earth_5p")])
def test_setup_gives_8_power_6_acolytes_and_a_controlled_gate_in_each_start_area(players, layout):
    state = new_game(players)
    assert state.layout_name == layout
    for s, fs in enumerate(state.seats):
        start = state.layout.start_areas(ENGINE_FACTION(fs.faction).start_symbol)[0].id
        assert fs.power == 8 and fs.doom == 0
        assert fs.units["acolyte"].count(start) == 6
        assert state.controller(start) == s
    assert state.es_bag == list(ELDER_SIGN_BAG) and state.ritual_cost == 5
    assert state.seats[state.first_player].faction == GC


def ENGINE_FACTION(name):
    from tabletop.games.cthulhu_wars.factions import FACTIONS

    return FACTIONS[name]


def test_alternate_four_player_layout_and_faction_choice():
    state = new_game(4, alternate_layout=True, factions=[CC, GC, BG, YS])
    assert state.layout_name == "earth_4p_alt" and state.first_player == 1
    assert state.seats[2].units["acolyte"][0] == "west-africa"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_first_player_chooses_the_direction_of_play_in_round_one(players):
    """rules_text first-player: the First Player picks the direction, in round 1 as in every later round."""
    state = new_game(players, direction=None)
    gc = seat(state, GC)
    assert ENGINE.to_move(state) == [gc] and state.pending[0].kind == "direction" and state.turn is None
    assert {ENGINE.notation(a) for a in ENGINE.legal_actions(state, gc)} == {
        "direction clockwise", "direction counterclockwise"}
    state, _ = play(state, GC, "direction counterclockwise")
    assert state.direction == -1 and state.phase == "action" and state.round == 1
    assert ENGINE.to_move(state) == [gc]
    state, _ = play(state, GC, "pass")
    assert ENGINE.to_move(state) == [(gc - 1) % players], "play goes the other way round"


def test_bad_setups_are_refused():
    with pytest.raises(BadOptions):
        new_game(2)
    with pytest.raises(BadOptions):
        new_game(3, factions=[GC, GC, CC])


def test_round_one_is_only_an_action_phase_then_gather_first_player_and_doom():
    state = new_game(3)
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    # everyone gathered 6 (Acolytes) + 2 (Gate) = 8: a three-way tie for the First Player to break
    assert [fs.power for fs in state.seats] == [8, 8, 8] and state.round == 2
    assert state.pending[0].kind == "first-player" and ENGINE.to_move(state) == [seat(state, GC)]
    state, _ = play(state, GC, f"first-player {CC}")
    assert ENGINE.to_move(state) == [seat(state, CC)] and state.pending[0].kind == "direction"
    state, log = play(state, CC, "direction counterclockwise")
    assert state.phase == "doom" and state.direction == -1
    assert [fs.doom for fs in state.seats] == [1, 1, 1]
    # Great Cthulhu's first requirement: a spellbook (and an Elder Sign) in the first Doom phase
    assert state.pending[0].kind == "spellbook" and ENGINE.to_move(state) == [seat(state, GC)]
    state, _ = play(state, GC, "spellbook devolve")
    assert len(state.seats[seat(state, GC)].elder_signs) == 1
    assert ENGINE.to_move(state) == [seat(state, CC)] and state.pending[0].kind == "ritual"


def test_gather_power_seed_example_totals_nine():
    """Two Gates, three Cultists, one captive and one Abandoned Gate: 9 Power."""
    state = new_game(3)
    gc = seat(state, GC)
    clear(state, GC, "south-pacific")
    put(state, GC, "acolyte", "south-pacific", 2)
    put(state, GC, "acolyte", "north-pacific", 1)
    state.gates["south-pacific"] = (gc, "acolyte", 0)
    state.gates["north-pacific"] = (gc, "acolyte", 2)
    state.gates["indian-ocean"] = None
    state.seats[gc].captives = [(seat(state, CC), "acolyte", 5)]
    assert phases.power_sources(state, gc, None).model_dump()["cultists"] == 3
    from tabletop.games.cthulhu_wars.power import gather_power

    assert gather_power(phases.power_sources(state, gc, None)).total == 9


def test_minimum_power_rule_raises_four_to_seven_when_the_highest_is_thirteen():
    state = new_game(3)
    cc, gc = seat(state, CC), seat(state, GC)
    for fs in state.seats:
        clear(state, fs.faction, fs.units["acolyte"][0])
    state.gates = {}
    places = state.seats[cc].units["acolyte"]
    places[:] = ["asia"] * 4 + ["europe", "africa"]
    state.gates.update({"asia": (cc, "acolyte", 0), "europe": (cc, "acolyte", 4), "africa": (cc, "acolyte", 5)})
    state.gates["north-pacific"] = None  # an Abandoned Gate: +1 for everyone
    put(state, GC, "acolyte", "south-pacific", 3)
    phases.gather(state, [])
    assert state.seats[cc].power == 6 + 6 + 1 == 13
    assert state.seats[gc].power == 7  # 3 + 1 = 4, raised to half of 13 rounded up


def test_ritual_costs_follow_the_track_and_give_doom_per_gate_and_signs_per_goo():
    state = new_game(3)
    gc = seat(state, GC)
    state.phase, state.turn = "doom", None
    state.seats[gc].power = 20
    put(state, GC, "cthulhu", "south-pacific")
    phases.perform_ritual(state, gc, [])
    assert state.seats[gc].power == 15 and state.seats[gc].doom == 1 and len(state.seats[gc].elder_signs) == 1
    assert state.ritual_cost == 6
    assert RITUAL_TRACKS[4] == (5, 6, 7, 7, 8, 8, 9, 10, 10)


def test_instant_death_ends_the_game_after_the_doom_phase():
    state = new_game(3)
    state.ritual_step = len(state.ritual_track) - 2
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    state.seats[seat(state, GC)].power = state.seats[seat(state, CC)].power = 12
    state.seats[seat(state, CC)].requirements = ["three-gates-or-12-power"]  # 12 Power: already met
    state, _ = play(state, GC, f"first-player {GC}")
    state, _ = play(state, GC, "direction clockwise")
    state, _ = play(state, GC, "spellbook dreams")
    state, _ = play(state, GC, "ritual")  # marker reaches Instant Death; others may still ritual
    assert state.instant_death and state.phase == "doom" and ENGINE.to_move(state) == [seat(state, CC)]
    while state.phase != "over":
        s = ENGINE.to_move(state)[0]
        answer = "done" if state.pending[0].kind == "window" else "no-ritual"
        state, _ = ENGINE.apply(state, s, ENGINE.parse(answer, state, s))
    assert ENGINE.outcome(state).winners == []


def test_out_of_turn_and_illegal_moves_are_refused_and_leave_the_state_alone():
    state = new_game(3)
    before = state.copy()
    cc = seat(state, CC)
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, cc, ENGINE.parse("pass", state, cc))
    with pytest.raises(IllegalMove) as err:
        play(state, GC, "move acolyte south-pacific>europe")
    assert "rules://cthulhu-wars/actions" in str(err.value)
    assert state == before


def test_zero_power_seats_are_skipped():
    state = new_game(3)
    give_turn(state, GC, power=1)
    state.seats[seat(state, CC)].power = 0
    state, _ = play(state, GC, "summon deep-one south-pacific")
    assert state.seats[seat(state, GC)].power == 0
    assert ENGINE.to_move(state) == [seat(state, BG)]


def test_elder_signs_can_be_revealed_in_the_doom_phase_out_of_turn():
    """A seat holding Elder Signs is asked in Doom order even when it cannot pay for a Ritual; revealing
    adds their values to its Doom and does not use up its Ritual."""
    state = new_game(3)
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    gc, cc = seat(state, GC), seat(state, CC)
    state, _ = play(state, GC, f"first-player {GC}")
    state, _ = play(state, GC, "direction clockwise")
    state, _ = play(state, GC, "spellbook dreams")  # Great Cthulhu's first Doom phase: an Elder Sign
    signs = list(state.seats[gc].elder_signs)
    assert signs and ENGINE.to_move(state) == [gc]
    kinds = {a.kind for a in ENGINE.legal_actions(state, gc)}
    assert kinds == {"ritual", "reveal", "no-ritual"}
    doom = state.seats[gc].doom
    state, log = play(state, GC, "reveal")
    assert state.seats[gc].doom == doom + sum(signs) and state.seats[gc].elder_signs == []
    assert ENGINE.to_move(state) == [gc], "the Ritual choice is still open"
    assert {a.kind for a in ENGINE.legal_actions(state, gc)} == {"ritual", "no-ritual"}
    state, _ = play(state, GC, "no-ritual")
    # a seat that can pay for no Ritual but holds an Elder Sign is still asked
    state.seats[cc].power = 0
    state.seats[cc].elder_signs = [2]
    state.doom_queue = [cc]
    state.pending = []
    phases.next_ritual(state, [])
    assert ENGINE.to_move(state) == [cc]
    assert {a.kind for a in ENGINE.legal_actions(state, cc)} == {"reveal", "no-ritual"}
    doom_cc = state.seats[cc].doom
    state, _ = play(state, CC, "reveal")
    assert state.seats[cc].doom == doom_cc + 2
    assert all(p.kind != "ritual" for p in state.pending), "nothing left to decide: the Doom phase moves on"
    assert state.phase == "action"
