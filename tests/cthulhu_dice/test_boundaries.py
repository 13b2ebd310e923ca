"""Cthulhu Dice at every threshold: the bag running short with 0, 1 and 2 dice left under each
ruling, a bag that holds exactly enough, two and three Tentacles, the goal, the bag's minimum.

Expected values are worked out from rules_text cthulhu-dice/turn, /end and /rulings (and the
seed's "3 dice from a bag of 15"), not read from the code. Small bags of Library dice (a
variant the rulings allow) make a short bag reachable in two rolls: a bag of 6 + k dice holds
k dice after two rolls of three Elder Signs.
"""

from __future__ import annotations

import pytest

from tabletop.core.errors import BadOptions, IllegalMove
from tabletop.games.cthulhu_dice.dice import DieKind, Face
from tabletop.games.cthulhu_dice.model import DiceRules, hand_distribution
from tabletop.games.cthulhu_dice.rules import CthulhuDiceOptions, DiceState, Retreat, Roll, apply, legal_actions, new_game

from .rigged import Script, ScriptedRng, rig

L = DieKind.library
ES, CL, TE = Face.elder_sign, Face.clue, Face.tentacle
RULINGS = ("return_elder_signs", "draw_then_return", "roll_fewer", "must_retreat")


def game(library: int, ruling: str = "return_elder_signs", **options) -> DiceState:
    bag = {"library": library, "museum": 0, "tomb": 0}
    return new_game(CthulhuDiceOptions(bag=bag, bag_exhaustion=ruling, **options), 2, seed=3)


def roll(state: DiceState, draws: int, faces: list[Face]) -> tuple[DiceState, list[str]]:
    rig(state, [L] * draws, faces)
    return apply(state, state.seat, Roll())


def short_bag(left: int, ruling: str) -> DiceState:
    """Two rolls of three Elder Signs from a bag of 6 + ``left``: ``left`` dice remain, 3 are needed."""
    state = game(6 + left, ruling)
    for _ in range(2):
        state, _ = roll(state, 3, [ES, ES, ES])
    assert (sum(state.bag), state.dice_needed, state.stash, sum(state.signs)) == (left, 3, 6, 6)
    return state


def model_hands(state: DiceState) -> list[tuple[int, int, float]]:
    """The model's (dice rolled, dice left in the bag, p) for continuing from ``state``."""
    dice = DiceRules(counts=tuple(state.options.bag.as_list()), exhaustion=state.options.bag_exhaustion)
    key = tuple(state.tentacles) + tuple(state.clues) + tuple(state.bag)
    return [(sum(hand), sum(bag), p) for hand, bag, p in hand_distribution(dice, key)]


@pytest.mark.parametrize("left", [0, 1, 2])
def test_return_elder_signs_refills_the_bag_then_draws_three(left):
    state = short_bag(left, "return_elder_signs")
    assert Roll() in legal_actions(state, 0)
    state, events = roll(state, 3, [CL, CL, CL])
    assert any("go back in" in e for e in events)
    assert len(state.last_roll) == 3
    assert sum(state.bag) == left + 6 - 3, "six Elder Sign dice went back, three were drawn"
    assert state.stash == 6, "the points stay"
    assert model_hands(short_bag(left, "return_elder_signs")) == [(3, left + 3, 1.0)]


@pytest.mark.parametrize("left", [0, 1, 2])
def test_draw_then_return_empties_the_bag_first(left):
    state = short_bag(left, "draw_then_return")
    state, events = roll(state, 3, [CL, CL, CL])
    assert len(state.last_roll) == 3
    assert sum(state.bag) == 6 - (3 - left), "the last dice came out first, the rest from the six returned"
    assert state.stash == 6
    assert model_hands(short_bag(left, "draw_then_return")) == [(3, 6 - (3 - left), 1.0)]


@pytest.mark.parametrize("left", [1, 2])
def test_roll_fewer_rolls_only_the_dice_left(left):
    state = short_bag(left, "roll_fewer")
    assert legal_actions(state, 0) == [Roll(), Retreat()]
    state, _ = roll(state, left, [ES] * left)
    assert len(state.last_roll) == left
    assert sum(state.bag) == 0 and state.stash == 6 + left
    assert model_hands(short_bag(left, "roll_fewer")) == [(left, 0, 1.0)]


def test_roll_fewer_with_no_die_left_and_no_clue_must_retreat():
    state = short_bag(0, "roll_fewer")
    assert legal_actions(state, 0) == [Retreat()]
    with pytest.raises(IllegalMove):
        apply(state, 0, Roll())
    assert model_hands(state) == []


def test_roll_fewer_with_an_empty_bag_rolls_the_clues_in_hand():
    state = game(7, "roll_fewer")
    state, _ = roll(state, 3, [ES, ES, ES])
    state, _ = roll(state, 3, [ES, ES, CL])  # one clue in hand, one die in the bag, two needed
    assert (sum(state.bag), state.dice_needed) == (1, 2)
    state, _ = roll(state, 1, [CL, ES])  # the clue again and the last die
    assert len(state.last_roll) == 2 and sum(state.bag) == 0 and sum(state.clues) == 1
    assert model_hands(state) == [(1, 0, 1.0)]
    state, _ = roll(state, 0, [ES])  # only the clue is rolled
    assert len(state.last_roll) == 1 and state.stash == 5 + 1 + 1


@pytest.mark.parametrize("left", [0, 1, 2])
def test_must_retreat_allows_no_roll_on_a_short_bag(left):
    state = short_bag(left, "must_retreat")
    assert legal_actions(state, 0) == [Retreat()]
    with pytest.raises(IllegalMove):
        apply(state, 0, Roll())
    assert model_hands(state) == []


@pytest.mark.parametrize("ruling", RULINGS)
def test_a_bag_holding_exactly_the_dice_needed_is_not_short(ruling):
    state = game(6, ruling)
    state, _ = roll(state, 3, [ES, ES, ES])
    assert (sum(state.bag), state.dice_needed) == (3, 3)
    assert Roll() in legal_actions(state, 0)
    state, events = roll(state, 3, [ES, ES, ES])
    assert not any("go back in" in e for e in events)
    assert sum(state.bag) == 0 and sum(state.signs) == 6
    assert model_hands(game(6, ruling)) == [(3, 3, 1.0)]


def test_two_tentacles_leave_the_choice_and_the_third_downs():
    state = game(15)
    state, _ = roll(state, 3, [TE, TE, ES])
    assert state.phase == "decide" and state.stash == 1
    assert legal_actions(state, 0) == [Roll(), Retreat()]
    state, _ = roll(state, 3, [ES, ES, TE])
    assert state.seat == 1 and state.scores == [0, 0], "downed: the stash of 3 is lost"


def test_the_goal_is_reached_at_thirteen_not_twelve():
    for score, over in [(12, False), (13, True)]:
        state = game(15)
        state.scores = [score, 0]
        state, _ = roll(state, 3, [CL, CL, CL])
        state, _ = apply(state, 0, Retreat())
        state, _ = roll(state, 3, [CL, CL, CL])
        state, _ = apply(state, 1, Retreat())
        assert (state.phase == "over") is over, score


def test_the_bag_needs_six_dice():
    with pytest.raises(BadOptions):
        game(5)
    assert sum(game(6).bag) == 6


@pytest.mark.parametrize("seats", [2, 6])
def test_two_and_six_seats_are_allowed(seats):
    assert len(new_game(CthulhuDiceOptions(), seats, seed=1).scores) == seats


def test_a_script_left_unused_is_reported():
    rng = ScriptedRng([0, 1, 2])
    copy = rng.copy()
    assert copy.below(6) == 0 and copy.below(6) == 1
    assert rng.script.unused() == (2,), "the furthest copy counts"
    Script.made.remove(rng.script)  # this test checks the record itself, not a rigged roll


def finish_round(state: DiceState) -> DiceState:
    """Every seat still to play this round rolls three clues and retreats (scores unchanged)."""
    first_round = state.round
    while state.phase != "over" and state.round == first_round:
        state, _ = roll(state, 3, [CL, CL, CL])
        state, _ = apply(state, state.seat, Retreat())
    return state


def test_rounds_are_counted_and_each_starts_with_the_first_seat():
    state = new_game(CthulhuDiceOptions(), 3, seed=3)
    assert (state.round, state.seat) == (1, 0)
    for expected in (2, 3):
        state = finish_round(state)
        assert (state.round, state.seat) == (expected, 0)


@pytest.mark.parametrize(
    ("scores", "reason"),
    [
        ([14, 13, 12], "seat 0 wins with 14 Elder Signs; final scores: seat 0 14, seat 1 13, seat 2 12 (devoured: below 13)"),  # exactly 13 survives
        ([13, 12, 0], (
            "seat 0 wins with 13 Elder Signs; final scores: seat 0 13, seat 1 12 (devoured: below 13), "
            "seat 2 0 (devoured: below 13)"
        )),
        ([15, 13, 13], "seat 0 wins with 15 Elder Signs; final scores: seat 0 15, seat 1 13, seat 2 13"),
    ],
)
def test_players_below_thirteen_are_devoured_at_the_end(scores, reason):
    state = new_game(CthulhuDiceOptions(), 3, seed=3)
    state.scores = list(scores)
    state = finish_round(state)
    assert state.phase == "over" and state.end_reason == reason and state.winners == [0]


def test_tied_leaders_play_on_alone_from_the_first_of_them_or_share_the_win():
    state = new_game(CthulhuDiceOptions(), 3, seed=3)
    state.scores = [5, 14, 14]
    state = finish_round(state)
    assert (state.phase, state.contenders, state.seat, state.round) == ("start", [1, 2], 1, 2)
    shared = new_game(CthulhuDiceOptions(tie_rule="shared_win"), 3, seed=3)
    shared.scores = [5, 14, 14]
    shared = finish_round(shared)
    assert shared.winners == [1, 2] and shared.end_reason == (
        "seat 1 and seat 2 share the win with 14 Elder Signs; final scores: seat 0 5 (devoured: below 13), seat 1 14, seat 2 14"
    )


@pytest.mark.parametrize("ending", ["retreat", "downed"])
def test_a_turn_ends_with_every_die_back_in_the_bag_and_nothing_carried_over(ending):
    state = new_game(CthulhuDiceOptions(), 2, seed=3)
    state, _ = roll(state, 3, [ES, TE, CL])
    if ending == "retreat":
        state, _ = apply(state, 0, Retreat())
    else:
        state, _ = roll(state, 2, [TE, TE, ES])
    assert state.seat == 1 and state.phase == "start" and state.turns == [1, 0]
    assert state.bag == [8, 4, 3] and state.stash == 0
    assert (state.clues, state.tentacles, state.signs) == ([0, 0, 0], [0, 0, 0], [0, 0, 0])
