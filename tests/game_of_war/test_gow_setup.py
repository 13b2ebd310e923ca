"""Hidden simultaneous deployment, openings and the die (rules_text game-of-war/setup)."""

from __future__ import annotations

import pytest

from tabletop.core.errors import BadOptions, IllegalMove, NotYourTurn
from tabletop.games.game_of_war import ENGINE, GameOfWarOptions
from tabletop.games.game_of_war.actions import Commit, EndTurn, Place, Remove, UseOpening

from .helpers import snapshot

NORTH, SOUTH = 0, 1


def fresh(seed: int = 3):
    return ENGINE.new_game(GameOfWarOptions(), 2, seed)


def test_both_seats_deploy_at_once():
    state = fresh()
    assert ENGINE.to_move(state) == [NORTH, SOUTH]
    assert state.phase == "setup"


def test_each_side_sees_only_its_own_deployment():
    state = fresh()
    state, events = ENGINE.apply(state, NORTH, Place(unit="cavalry", square="e7"))
    assert events == ["North places C (cavalry) at e7; 16 still to place."], "the mover's own log says what it placed"
    assert [u["square"] for u in ENGINE.view(state, NORTH)["units"]] == ["e7"]
    assert ENGINE.view(state, SOUTH)["units"] == []
    assert ENGINE.view(state, None)["units"] == []
    row_7 = 1 + 7  # after the status line and the column header
    assert ENGINE.describe(state, SOUTH).split("\n")[row_7] == " 7 .........#..............."
    assert ENGINE.describe(state, NORTH).split("\n")[row_7] == " 7 ....C....#..............."
    assert ENGINE.network_status(state).sides == []


def test_placement_stays_in_ones_own_territory_on_free_squares():
    state = fresh()
    for place in (Place(unit="cavalry", square="e11"), Place(unit="cavalry", square="j3")):
        before = snapshot(state)
        with pytest.raises(IllegalMove) as caught:
            ENGINE.apply(state, NORTH, place)
        assert caught.value.rule == "game-of-war/setup"
        assert snapshot(state) == before


def test_commit_needs_every_unit_and_remove_takes_one_back():
    state = fresh()
    state, _ = ENGINE.apply(state, NORTH, Place(unit="relay", square="a1"))
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, NORTH, Commit())
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, NORTH, Place(unit="relay", square="a2"))  # only one relay
    state, _ = ENGINE.apply(state, NORTH, Remove(square="a1"))
    assert ENGINE.view(state, NORTH)["units"] == []


def test_commit_then_reveal_and_roll_for_the_first_player():
    state = fresh(seed=11)
    state, _ = ENGINE.apply(state, NORTH, UseOpening(name="default"))
    state, _ = ENGINE.apply(state, NORTH, Commit())
    assert ENGINE.to_move(state) == [SOUTH]
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, NORTH, Remove(square="c7"))
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, SOUTH, EndTurn())
    state, _ = ENGINE.apply(state, SOUTH, UseOpening(name="default"))
    state, events = ENGINE.apply(state, SOUTH, Commit())
    assert state.phase == "play" and 1 <= state.die <= 6
    assert state.side == (NORTH if state.die <= 3 else SOUTH)
    assert f"The die shows {state.die}" in events[-1]
    assert len(ENGINE.view(state, None)["units"]) == 34
    assert ENGINE.to_move(state) == [state.side]


def test_the_die_follows_the_seed():
    rolls = {ENGINE.new_game(GameOfWarOptions(opening="default"), 2, seed).die for seed in range(40)}
    assert rolls == {1, 2, 3, 4, 5, 6}
    again = [ENGINE.new_game(GameOfWarOptions(opening="default"), 2, 9).die for _ in range(3)]
    assert len(set(again)) == 1


def test_a_named_opening_starts_the_game_in_one_call():
    state = ENGINE.new_game(GameOfWarOptions(opening="default", first_player="south"), 2, 0)
    assert state.phase == "play" and ENGINE.to_move(state) == [SOUTH]


def test_bad_options_and_seat_counts():
    with pytest.raises(BadOptions):
        ENGINE.new_game(GameOfWarOptions(), 3, 0)
    with pytest.raises(BadOptions):
        ENGINE.read_options({"opening": "nonesuch"})
    with pytest.raises(BadOptions):
        ENGINE.read_options({"retreat_distance": "far"})


def test_legal_moves_in_setup_are_compact_and_focusable():
    state = fresh()
    overview = ENGINE.legal_moves(state, NORTH)
    assert overview.count < 5 and "focus" in overview.note
    cavalry = ENGINE.legal_moves(state, NORTH, "C")
    assert cavalry.groups[0].title == "Place cavalry"
    assert cavalry.count == 250 - 9  # rows 1-10 less North's nine mountains
    at_e7 = ENGINE.legal_moves(state, NORTH, "e7")
    assert [m.notation for g in at_e7.groups for m in g.moves] == [f"place {u} e7" for u in "ICKWRX"]
