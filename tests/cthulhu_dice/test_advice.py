"""A live game's position as the solver sees it (advice.py, rules_text cthulhu-dice/advice)."""

from __future__ import annotations

from tabletop.games.cthulhu_dice.advice import rules_of, situation_for
from tabletop.games.cthulhu_dice.advisor import default_advisor
from tabletop.games.cthulhu_dice.model import CTHULHU_DICE
from tabletop.games.cthulhu_dice.rules import CthulhuDiceOptions, new_game


def game(seats: int, scores: list[int], seat: int, contenders: list[int] | None = None):
    state = new_game(CthulhuDiceOptions(), seats, seed=1)
    state.scores, state.seat, state.contenders = list(scores), seat, contenders
    return state


def test_two_and_three_players_are_their_own_exact_positions():
    two = situation_for(game(2, [5, 9], 1), 1)
    assert (two.players, two.approximate, two.position.scores, two.position.mover) == (2, False, (5, 9), 1)
    three = situation_for(game(3, [5, 9, 2], 2), 2)
    assert (three.players, three.approximate, three.position.scores, three.position.mover) == (3, False, (5, 9, 2), 2)
    assert rules_of(game(3, [0, 0, 0], 0)) == CTHULHU_DICE


def test_a_tie_break_among_fewer_players_is_the_smaller_exact_game():
    # Seats 0 and 2 of three tied on 14: the two-player game from 14-14, seat 2 second.
    tie = situation_for(game(3, [14, 11, 14], 2, contenders=[0, 2]), 2)
    assert (tie.players, tie.approximate, tie.position.scores, tie.position.mover, tie.seats) == (2, False, (14, 14), 1, (0, 2))
    advice = default_advisor(2).advise(tie.position)
    assert 0 < advice.win_if_continue < 1
    # Three of four players tied: the three-player game from the tie.
    three = situation_for(game(4, [15, 15, 9, 15], 3, contenders=[0, 1, 3]), 3)
    assert (three.players, three.approximate, three.position.scores, three.position.mover) == (3, False, (15, 15, 15), 2)
    assert 0 < default_advisor(3).advise(three.position).win_if_continue < 1


def test_four_players_are_a_duel_with_the_strongest_opponent():
    duel = situation_for(game(4, [5, 12, 3, 12], 2), 2)
    assert duel.approximate and duel.players == 2 and duel.rival == 3, "the later seat wins a tie for strongest"
    assert duel.position.scores == (3, 12) and duel.position.mover == 0, "the rival still plays this round"


def test_scores_past_the_cap_are_answered_approximately():
    # A tie-break that went on past the cap (26): the same tie-break moved down to start from 13.
    tie = situation_for(game(3, [27, 5, 27], 0, contenders=[0, 2]), 0)
    assert tie.approximate and tie.position.scores == (13, 13) and "tie-break past the score cap" in tie.note
    assert 0 < default_advisor(2).advise(tie.position).win_if_continue < 1
    at_cap = situation_for(game(2, [26, 26], 0, contenders=[0, 1]), 0)
    assert at_cap.approximate and at_cap.position.scores == (13, 13), "the model ends a tie at the cap; the game plays on"
    mid_round = situation_for(game(2, [31, 28], 1, contenders=[0, 1]), 1)
    assert mid_round.position.scores == (16, 13) and mid_round.approximate
    # Someone past the cap in the last round: counted as the cap.
    race = situation_for(game(2, [29, 10], 1), 1)
    assert race.approximate and race.position.scores == (26, 10) and "counted as the cap" in race.note
    assert not situation_for(game(2, [20, 20], 0, contenders=[0, 1]), 0).approximate, "within the cap: exact"
