"""The board a dry run leaves (``Engine.consequences``): changed squares, the mover's units cut off, enemy units cut
off, what was destroyed; during the secret deployment the seat's own squares only.

Rules: rules_text game-of-war/communication (lines are worked out again after every move), game-of-war/combat
(a capture) and game-of-war/setup (each side's deployment stays secret until both have committed).
"""

from __future__ import annotations

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.game_of_war import ENGINE, GameOfWarOptions, build_position
from tabletop.games.game_of_war.actions import Commit, Place, UseOpening
from tabletop.games.game_of_war.foresight import BOARD_BUDGET

from .test_cut_off_marks import CHAIN

NORTH, SOUTH = 0, 1

# Counted by hand. The o2 arsenal's diagonal runs through x11 (online); the cavalry x12 is online only as x11's
# neighbour. South's infantry w12 is online through the w20 arsenal's line up the w file. Cavalry x12 to w13 leaves
# x11's side and off every line (offline), and on the w file it stops South's line before w12, which goes offline.
# x11's infantry then attacks w12 (range 2, next to it): 4 against 0 (an offline unit defends 0), a capture.
CROSSING = {"x11": "I", "x12": "C", "w12": "i", "c15": "i"}


def tried(state, seat, moves: list[str]):
    after = state
    for move in moves:
        trial = ENGINE.try_action(after, seat, ENGINE.parse(move, after, seat))
        assert not trial.chance
        after = trial.state_after
    return after


def test_a_move_that_cuts_its_own_units_off():
    state = build_position(CHAIN)
    after = tried(state, NORTH, ["I h13-h12"])
    assert ENGINE.consequences(state, after, NORTH) == [
        "Board: h13: I → empty; h12: empty → I",
        "Your units: cut off by it (online before, offline after): I i14, C j15.",
    ]


def test_a_sequence_followed_unit_by_unit():
    state = build_position(CHAIN)
    after = tried(state, NORTH, ["I h13-h12", "C h10-g11"])  # g11 is next to h12: the cavalry stays online
    assert ENGINE.consequences(state, after, NORTH) == [
        "Board: h13: I → empty; h12: empty → I; h10: C → empty; g11: empty → C",
        "Your units: cut off by it (online before, offline after): I i14, C j15.",
    ]
    # a move that keeps its line, then one that cuts itself off and is then still offline
    after = tried(state, NORTH, ["I h13-h14", "C h10-g9"])
    assert ENGINE.consequences(state, after, NORTH)[1] == "Your units: cut off by it (online before, offline after): C g9 (from h10)."


def test_enemy_units_cut_off_and_a_capture():
    state = build_position(CROSSING)
    after = tried(state, NORTH, ["C x12-w13"])
    assert ENGINE.consequences(state, after, NORTH) == [
        "Board: x12: C → empty; w13: empty → C",
        "Your units: cut off by it (online before, offline after): C w13 (from x12).",
        "Enemy units cut off by it: i w12.",
    ]
    after = tried(state, NORTH, ["C x12-w13", "attack w12"])
    assert ENGINE.consequences(state, after, NORTH) == [
        "Board: x12: C → empty; w13: empty → C; w12: i → empty",
        "Your units: cut off by it (online before, offline after): C w13 (from x12).",
        "Destroyed: South infantry w12.",
    ]


def test_units_still_offline_and_reconnected_are_told_apart():
    # c17 is offline from the start, far from every line; infantry h13 to h14 stays on the h file
    state = build_position({"h13": "I", "c17": "I", "w18": "i"})
    after = tried(state, NORTH, ["I h13-h14"])
    assert ENGINE.consequences(state, after, NORTH)[1] == "Your units: none cut off by it; still offline: I c17."
    # after I h13-h12 has cut i14 and j15 off, the cavalry h10 to h11 reconnects neither
    cut = tried(build_position(CHAIN), NORTH, ["I h13-h12"])
    later = tried(cut, NORTH, ["C h10-h11"])
    assert ENGINE.consequences(cut, later, NORTH)[1] == "Your units: none cut off by it; still offline: I i14, C j15."
    # the relay h12, on the h file, sends a diagonal through i13, j14, k15; moved to h13 it sends one through i14,
    # j15 instead, and the infantry j15 (offline before) comes back online
    state = build_position({"h12": "R", "j15": "I", "w18": "i"})
    after = tried(state, NORTH, ["R h12-h13"])
    assert ENGINE.consequences(state, after, NORTH) == [
        "Board: h12: R → empty; h13: empty → R",
        "Your units: none cut off by it; back online: I j15.",
    ]


def test_the_board_stays_short():
    state = ENGINE.new_game(GameOfWarOptions(opening="default", first_player="north"), 2, 1)
    moves = ["R c4-b4", "C c7-a5", "C c8-a8", "X e6-c5", "I f9-f10"]
    lines = ENGINE.consequences(state, tried(state, NORTH, moves), NORTH)
    assert sum(len(line) + 1 for line in lines) <= BOARD_BUDGET
    assert lines[0].startswith("Board: c4: R → empty; b4: empty → R; c7: C → empty; a5: empty → C")


# ---- during the secret deployment -------------------------------------------------------------------------------
def test_deployment_dry_runs_show_only_the_seats_own_squares():
    state = ENGINE.new_game(GameOfWarOptions(), 2, 3)
    before = state
    after, _ = ENGINE.apply(state, SOUTH, Place(unit="infantry", square="n13"))
    assert ENGINE.consequences(before, after, SOUTH) == ["Board: n13: empty → i"]
    # North's units are never shown to South, even where they changed between the two positions
    north_placed, _ = ENGINE.apply(after, NORTH, Place(unit="cavalry", square="e7"))
    both, _ = ENGINE.apply(north_placed, SOUTH, Place(unit="cavalry", square="o13"))
    assert ENGINE.consequences(before, both, SOUTH) == ["Board: n13: empty → i; o13: empty → c"]
    assert ENGINE.consequences(before, both, NORTH) == ["Board: e7: empty → C"]


@pytest.mark.parametrize("first", ["north", "south", "die"])
def test_a_dry_run_of_the_last_commit_never_shows_the_other_deployment(first):
    state = ENGINE.new_game(GameOfWarOptions(first_player=first), 2, 3)
    state, _ = ENGINE.apply(state, NORTH, UseOpening(name="default"))
    state, _ = ENGINE.apply(state, NORTH, Commit())
    with pytest.raises(IllegalMove):  # refused as it would be when played: South has placed nothing
        ENGINE.try_action(state, SOUTH, Commit())
    state, _ = ENGINE.apply(state, SOUTH, UseOpening(name="default"))
    trial = ENGINE.try_action(state, SOUTH, Commit())
    assert trial.chance and trial.state_after is None and trial.events == []
    assert "reveals both deployments" in trial.preview.summary
    # the first commit is an ordinary dry run: it reveals nothing
    fresh = ENGINE.new_game(GameOfWarOptions(first_player=first), 2, 3)
    fresh, _ = ENGINE.apply(fresh, NORTH, UseOpening(name="default"))
    first_commit = ENGINE.try_action(fresh, NORTH, Commit())
    assert not first_commit.chance and first_commit.events == ["North commits its deployment."]
