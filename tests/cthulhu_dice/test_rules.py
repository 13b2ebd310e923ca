"""Rules tests taken from the seed's own text (rules_text/cthulhu-dice)."""

from __future__ import annotations

import pytest

from tabletop.core.errors import BadOptions, GameOver, IllegalMove, NotYourTurn
from tabletop.games.cthulhu_dice.dice import FACE_COUNTS, SIDES, STANDARD_BAG, DieKind, Face
from tabletop.games.cthulhu_dice.rules import CthulhuDiceOptions, DiceState, Retreat, Roll, apply, legal_actions, new_game

from .rigged import rig

L, M, T = DieKind.library, DieKind.museum, DieKind.tomb
ES, CL, TE = Face.elder_sign, Face.clue, Face.tentacle


def game(seats: int = 2, **options) -> DiceState:
    return new_game(CthulhuDiceOptions(**options), seats, seed=1)


def play(state: DiceState, action, draws=(), faces=()) -> DiceState:
    if isinstance(action, Roll):
        rig(state, list(draws), list(faces))
    new, _ = apply(state, state.seat, action)
    return new


def test_the_bag_holds_15_dice_8_library_4_museum_3_tomb():
    assert STANDARD_BAG == (8, 4, 3) and sum(STANDARD_BAG) == 15
    assert game().bag == [8, 4, 3]


@pytest.mark.parametrize(
    "kind, counts", [(L, (3, 2, 1)), (M, (2, 2, 2)), (T, (1, 2, 3))]
)
def test_each_die_has_six_sides_with_the_seeds_faces(kind, counts):
    assert FACE_COUNTS[kind] == counts
    sides = SIDES[kind]
    assert len(sides) == 6
    assert (sides.count(ES), sides.count(CL), sides.count(TE)) == counts


def test_a_turn_starts_with_a_mandatory_roll_of_three_dice():
    state = game()
    assert legal_actions(state, 0) == [Roll()]
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, Retreat())
    assert err.value.rule == "cthulhu-dice/turn"
    after = play(state, Roll(), [L, M, T], [ES, CL, TE])
    assert after.bag == [7, 3, 2]
    assert after.stash == 1 and after.total_tentacles == 1 and sum(after.clues) == 1


def test_elder_signs_go_to_the_stash_and_retreat_banks_it():
    state = play(game(), Roll(), [L, L, M], [ES, ES, ES])
    assert state.stash == 3 and state.scores == [0, 0]
    state = play(state, Retreat())
    assert state.scores == [3, 0] and state.stash == 0 and state.seat == 1
    assert state.bag == [8, 4, 3], "every die goes back into the bag when the turn ends"


@pytest.mark.parametrize("clues, drawn", [(0, 3), (1, 2), (2, 1), (3, 0)])
def test_continuing_draws_up_to_three_dice_and_rerolls_the_clues(clues, drawn):
    faces = [CL] * clues + [ES] * (3 - clues)
    state = play(game(), Roll(), [L, L, L], faces)
    assert sum(state.clues) == clues
    bag_before = sum(state.bag)
    state = play(state, Roll(), [M] * drawn, [ES] * 3)
    assert sum(state.bag) == bag_before - drawn
    assert len(state.last_roll) == 3, "the clue dice in hand are rolled again with the new ones"
    assert state.stash == (3 - clues) + 3


def test_tentacles_accumulate_and_three_down_the_player_losing_the_stash():
    state = play(game(), Roll(), [T, L, L], [TE, ES, ES])
    state = play(state, Roll(), [T, M, L], [TE, ES, ES])
    assert state.total_tentacles == 2 and state.stash == 4 and state.seat == 0
    state = play(state, Roll(), [T, L, L], [TE, ES, ES])
    assert state.scores == [0, 0], "a downed player scores nothing this turn"
    assert state.seat == 1 and state.phase == "start" and state.stash == 0


def test_three_tentacles_in_a_single_roll_down_the_player():
    state = play(game(), Roll(), [T, T, T], [TE, TE, TE])
    assert state.seat == 1 and state.scores == [0, 0]


def test_acting_out_of_turn_is_refused_and_changes_nothing():
    state = game()
    with pytest.raises(NotYourTurn):
        apply(state, 1, Roll())
    assert state.bag == [8, 4, 3] and state.rng.draws == 0


def bank(state: DiceState, points: int) -> DiceState:
    """Give the seat to move ``points`` this turn by editing the stash, then retreat."""
    state = play(state, Roll(), [L, L, L], [CL, CL, CL])
    state.stash = points
    return play(state, Retreat())


def test_reaching_13_finishes_the_round_and_the_highest_wins():
    state = game(seats=3)
    state = bank(state, 13)  # seat 0 reaches 13: the round goes on
    assert state.phase == "start" and state.seat == 1
    state = bank(state, 14)
    state = bank(state, 5)  # seat 2 ends the round
    assert state.phase == "over"
    assert state.winners == [1]
    assert "seat 2" in state.end_reason and "devoured" in state.end_reason
    with pytest.raises(GameOver):
        apply(state, 0, Roll())


def test_the_round_ends_with_the_last_seat_even_if_the_first_reached_13_later():
    state = game(seats=2)
    state = bank(state, 5)
    state = bank(state, 13)  # seat 1 is last in the round: the game ends at once
    assert state.phase == "over" and state.winners == [1]


def test_tied_leaders_play_further_rounds_by_default():
    state = game(seats=3)
    state = bank(state, 13)
    state = bank(state, 13)
    state = bank(state, 2)
    assert state.phase == "start" and state.contenders == [0, 1] and state.seat == 0
    state = bank(state, 1)
    assert state.seat == 1, "only the tied leaders take turns"
    state = bank(state, 0)
    assert state.phase == "over" and state.winners == [0] and state.scores == [14, 13, 2]


def test_tied_leaders_share_the_win_under_the_shared_win_ruling():
    state = game(seats=2, tie_rule="shared_win")
    state = bank(state, 13)
    state = bank(state, 13)
    assert state.phase == "over" and state.winners == [0, 1]


def long_turn(state: DiceState) -> DiceState:
    """Roll until the bag holds fewer dice than needed: three Elder Signs per roll, 12 dice used."""
    for _ in range(4):
        draws = [L, L, L] if state.bag[0] >= 3 else [M, M, M] if state.bag[1] >= 3 else [T, T, T]
        state = play(state, Roll(), draws, [ES, ES, ES])
    state = play(state, Roll(), [L, L, M], [CL, CL, ES])
    # 15 dice drawn: 13 Elder Signs set aside, 2 clue dice in hand; one die must be drawn, the bag is empty
    return state


def test_an_empty_bag_returns_the_elder_sign_dice_by_default_and_keeps_the_stash():
    state = long_turn(game())
    assert sum(state.bag) == 0 and state.stash == 13 and sum(state.clues) == 2
    assert Roll() in legal_actions(state, 0)
    state = play(state, Roll(), [L], [CL, CL, ES])
    assert state.stash == 14
    assert sum(state.bag) == 12, "13 returned dice minus the one drawn"


def test_a_short_bag_can_be_drawn_dry_before_the_elder_signs_return():
    state = game(bag_exhaustion="draw_then_return")
    for draws, faces in [([L, L, L], [ES] * 3), ([L, L, L], [ES] * 3), ([M, M, M], [ES] * 3), ([T, T, T], [ES, ES, CL])]:
        state = play(state, Roll(), draws, faces)
    state = play(state, Roll(), [L, L], [CL, ES, ES])  # the tomb clue is rolled again
    assert state.bag == [0, 1, 0] and state.dice_needed == 2 and state.signs == [8, 3, 2]
    state = play(state, Roll(), [M, L], [CL, ES, ES])
    # the last museum die came out of the bag first; then 13 Elder Sign dice went back and a library die was drawn
    assert state.bag == [7, 3, 2] and state.stash == 15 and state.signs == [1, 1, 0]


def test_an_empty_bag_can_mean_rolling_fewer_dice():
    state = long_turn(game(bag_exhaustion="roll_fewer"))
    state = play(state, Roll(), [], [CL, ES])
    assert len(state.last_roll) == 2 and state.stash == 14


def test_an_empty_bag_can_force_a_retreat():
    state = long_turn(game(bag_exhaustion="must_retreat"))
    assert legal_actions(state, 0) == [Retreat()]
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, Roll())
    assert err.value.rule == "cthulhu-dice/rulings"


@pytest.mark.parametrize("seats", [1, 7])
def test_two_to_six_players(seats):
    with pytest.raises(BadOptions):
        game(seats=seats)
    assert len(game(seats=6).scores) == 6
