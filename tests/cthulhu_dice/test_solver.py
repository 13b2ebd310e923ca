"""The exact two-player solver: odds, the shipped table, the advisor (rules_text cthulhu-dice/turn, /end)."""

from __future__ import annotations

import copy
import math
from dataclasses import replace
from functools import lru_cache

import numpy as np
import pytest

from tabletop.games.cthulhu_dice import solver
from tabletop.games.cthulhu_dice.solver import (
    CTHULHU_DICE,
    NELLER_ZOMBIE_DICE_FIRST_PLAYER,
    ZOMBIE_DICE,
    DiceRules,
    GameRules,
    Position,
    advise,
    load_table,
    roll_odds,
)

#: Full or larger solves (about a minute in all); they run by default, `-m "not slow"` leaves them out.
slow = pytest.mark.slow


# --- odds ------------------------------------------------------------------------------------


def test_first_roll_odds_sum_to_one_and_average_the_bag():
    odds = roll_odds(clues=(0, 0, 0), bag=(8, 4, 3))
    assert math.isclose(sum(r.probability for r in odds.results), 1.0, abs_tol=1e-12)
    # Each drawn die is a uniformly random die of the bag: 3 * (8*3 + 4*2 + 3*1) / (15*6) signs.
    assert math.isclose(odds.expected_elder_signs, 3 * 35 / 90, abs_tol=1e-12)
    assert math.isclose(odds.expected_tentacles, 3 * (8 * 1 + 4 * 2 + 3 * 3) / 90, abs_tol=1e-12)
    assert math.isclose(odds.p_downed, sum(r.probability for r in odds.results if r.tentacles == 3), abs_tol=1e-15)


def test_odds_match_a_hand_computation_with_a_draw():
    # Two Library clues in hand, bag of one Library and one Tomb, two tentacles already set aside.
    odds = roll_odds(clues=(2, 0, 0), bag=(1, 0, 1), tentacles=(0, 2, 0))
    no_tentacle = 0.5 * (5 / 6) ** 3 + 0.5 * (5 / 6) ** 2 * (3 / 6)
    assert math.isclose(odds.p_downed, 1 - no_tentacle, abs_tol=1e-12)
    three_signs = 0.5 * (3 / 6) ** 3 + 0.5 * (3 / 6) ** 2 * (1 / 6)
    assert math.isclose(next(r.probability for r in odds.results if r.elder_signs == 3), three_signs, abs_tol=1e-12)
    assert math.isclose(sum(r.probability for r in odds.results), 1.0, abs_tol=1e-12)


def test_bag_exhaustion_rulings_differ_in_what_is_drawn():
    # One Tomb die left in the bag, three dice needed, 12 Elder Sign dice set aside.
    state = (0, 0, 2) + (0, 0, 0) + (0, 0, 1)
    returned = solver.hand_distribution(DiceRules(exhaustion="return_elder_signs"), state)
    drawn_first = solver.hand_distribution(DiceRules(exhaustion="draw_then_return"), state)
    assert math.isclose(sum(p for hand, _, p in returned if hand[2] == 1), 3 / 13, abs_tol=1e-12)
    assert math.isclose(sum(p for hand, _, p in drawn_first if hand[2] == 1), 1.0, abs_tol=1e-12)


# --- the shipped table -----------------------------------------------------------------------


def test_shipped_table_is_for_our_game():
    table = load_table()
    assert table.rules == CTHULHU_DICE
    assert 0.0 < table.first_player_win < 1.0
    assert np.nanmin(table.first_to_move) >= 0.0 and np.nanmax(table.second_to_move) <= 1.0


def resolved(pairs: list[tuple[int, int]], races: list[int]) -> solver.Solution:
    """The shipped table with ``pairs`` and ``races`` solved again from the rest of it."""
    table = copy.deepcopy(load_table())
    graph = solver.turn_graph(table.rules.dice)
    for first in races:
        table.second_to_move[first, :first] = np.nan
        solver.solve_race(graph, table, first)
    for pair in pairs:
        table.first_to_move[pair] = table.second_to_move[pair] = np.nan
    solver.solve_pairs(graph, table, pairs)
    return table


@pytest.mark.parametrize(
    ("pairs", "races"),
    [([(12, 12)], []), ([(11, 12), (12, 11)], []), ([(20, 20)], [20]), ([(9, 12), (10, 11), (11, 10), (12, 9)], [])],
)
def test_table_slice_recomputes_to_the_shipped_values(pairs, races):
    shipped = load_table()
    again = resolved(pairs, races)
    for pair in pairs:
        assert abs(again.first_to_move[pair] - shipped.first_to_move[pair]) < 1e-12
        assert abs(again.second_to_move[pair] - shipped.second_to_move[pair]) < 1e-12
    for first in races:
        assert np.abs(again.second_to_move[first, :first] - shipped.second_to_move[first, :first]).max() < 1e-12


# --- the advisor -----------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), [(0, 0), (5, 9), (12, 3), (14, 14)])
def test_advice_at_turn_start_agrees_with_the_table(first, second):
    table = load_table()
    as_first = advise(Position(first, second, opponent_still_to_play=True))
    assert abs(as_first.win_if_continue - table.first_to_move[first, second]) < 1e-12
    assert as_first.win_if_retreat is None and as_first.choice == "continue"
    as_second = advise(Position(second, first, opponent_still_to_play=False))
    assert abs(as_second.win_if_continue - table.second_to_move[first, second]) < 1e-12


def brute_force_continue(position: Position) -> float:
    """Win probability of rolling now, by plain recursion over the turn's states (last turn of a round)."""
    table = load_table()
    rules = table.rules
    assert not position.opponent_still_to_play
    first, mine = position.opponent_score, position.my_score
    held = solver.hold_for_second(table, first, mine)

    @lru_cache(maxsize=None)
    def best(state, total):
        if held[total] == 1.0:
            return 1.0
        if total == rules.cap:
            return max(held[total], held[mine])
        return max(held[total], roll(state, total))

    def roll(state, total):
        stay = rest = 0.0
        for (gain, nxt), p in solver.transitions(rules.dice, state).items():
            if nxt == solver.BUSTED:
                rest += p * held[mine]
            elif nxt == state and gain == 0:
                stay += p
            else:
                rest += p * best(nxt, min(total + gain, rules.cap))
        # Re-rolling three clues to the same state: continue until something else happens.
        return rest / (1.0 - stay) if stay else rest

    state = tuple(position.tentacles) + tuple(position.clues) + tuple(position.bag)
    total = min(mine + position.stash, rules.cap)
    stay_now = solver.transitions(rules.dice, state).get((0, state), 0.0)
    return roll(state, total) * (1 - stay_now) + stay_now * best(state, total) if stay_now else roll(state, total)


@pytest.mark.parametrize(
    "position",
    [
        Position(12, 14, False, stash=2, tentacles=(0, 1, 0), clues=(1, 0, 1), elder_signs=(2, 0, 0), bag=(5, 3, 2)),
        Position(11, 13, False, stash=1, tentacles=(0, 0, 2), clues=(1, 1, 1), elder_signs=(1, 0, 0), bag=(6, 3, 0)),
        Position(10, 12, False, stash=2, tentacles=(1, 0, 0), clues=(0, 1, 0), elder_signs=(1, 0, 1), bag=(6, 3, 2)),
    ],
)
def test_advice_within_a_turn_matches_plain_recursion(position):
    advice = advise(position)
    assert abs(advice.win_if_continue - brute_force_continue(position)) < 1e-12
    assert advice.choice == ("continue" if advice.win_if_continue > advice.win_if_retreat else "retreat")
    assert advice.expected_signs_if_retreat == position.stash


def test_advice_retreats_when_the_stash_already_wins():
    advice = advise(Position(10, 12, False, stash=3, tentacles=(0, 0, 2), elder_signs=(3, 0, 0)))
    assert advice.choice == "retreat" and advice.win_if_retreat == 1.0
    assert advice.win_if_continue < 1.0 and advice.expected_signs_if_continue < 3


def test_advice_rejects_finished_games_and_impossible_dice():
    with pytest.raises(ValueError):
        advise(Position(13, 15, opponent_still_to_play=True))
    with pytest.raises(ValueError):
        advise(Position(3, 4, True, stash=0, elder_signs=(1, 0, 0), tentacles=(0, 1, 0), clues=(1, 0, 0)))


# --- a whole game, independently: plain value iteration on a tiny bag ------------------------


def value_iteration(rules: GameRules, sweeps: int = 2000) -> float:
    """First player's win probability by sweeping every state until nothing changes (no cleverness).

    A state is (seat to move, first's score, second's score, stash, dice state, before the first
    roll); ending a turn leads to the other seat's turn start, or to the end of the round.
    """
    graph = solver.turn_graph(rules.dice)
    start, goal, cap = graph.states[graph.start], rules.goal, rules.cap
    win: dict = {}

    def turn_start(seat, first, second):
        """Key of a turn start, or the first player's fixed result when the round has ended the game."""
        if seat == 0 and max(first, second) >= goal:
            if first != second:
                return 1.0 if first > second else 0.0
            if rules.tie_rule == "shared_win" or first == cap:
                return 0.5
        return (seat, first, second, 0, start, True)

    def ended(seat, first, second, total):
        """(key or value, flip): the next position once ``seat`` banks ``total``."""
        after = turn_start(1, total, second) if seat == 0 else turn_start(0, first, total)
        return after, seat == 1 or not isinstance(after, float)

    def successors(key):
        seat, f, s, stash, state, fresh = key
        mine = f if seat == 0 else s
        out = []
        for (gain, nxt), p in solver.transitions(rules.dice, state).items():
            if nxt == solver.BUSTED:
                out.append((p, *ended(seat, f, s, mine)))
            else:
                out.append((p, (seat, f, s, min(stash + gain, cap - mine), nxt, False), False))
        return out, None if fresh else ended(seat, f, s, min(mine + stash, cap))

    def value(target, flip, seat_result):
        got = target if isinstance(target, float) else win.get(target, 0.5)
        # Values are the mover's; a first-player result (float) or the opponent's key is flipped.
        if isinstance(target, float):
            return got if seat_result == 0 else 1.0 - got
        return 1.0 - got if flip else got

    keys = [
        (seat, f, s, stash, state, state == start and stash == 0)
        for seat in (0, 1) for f in range(cap + 1) for s in range(cap + 1)
        for stash in range(cap + 1) for state in graph.states
        if (((f < goal and s < goal) or f == s < cap) if seat == 0 else (s < goal or f >= s))
        if stash <= cap - (f if seat == 0 else s)
    ]
    plan = {key: successors(key) for key in keys}
    for _ in range(sweeps):
        change = 0.0
        for key, (moves, bank) in plan.items():
            seat = key[0]
            total = sum(p * value(target, flip, seat) for p, target, flip in moves)
            if bank is not None:
                total = max(total, value(*bank, seat))
            change = max(change, abs(total - win.get(key, 0.5)))
            win[key] = total
        if change < 1e-14:
            break
    result = turn_start(0, 0, 0)
    return win[result]


@pytest.mark.parametrize("tie_rule", ["tiebreak_rounds", "shared_win"])
@pytest.mark.parametrize(
    ("counts", "goal"), [((2, 1, 0), 3), pytest.param((1, 1, 1), 3, marks=slow), pytest.param((2, 1, 1), 2, marks=slow)]
)
def test_tiny_game_matches_plain_value_iteration(counts, goal, tie_rule):
    # Three or four dice: the bag runs short every turn, and a hand can get stuck (retreat only).
    rules = GameRules(dice=DiceRules(counts=counts), goal=goal, cap=2 * goal, tie_rule=tie_rule)
    assert abs(solver.solve(rules).first_player_win - value_iteration(rules)) < 1e-12


# --- Zombie Dice: T. Neller's published result -----------------------------------------------


@slow
def test_zombie_dice_first_player_matches_neller():
    assert abs(solver.solve(ZOMBIE_DICE).first_player_win - NELLER_ZOMBIE_DICE_FIRST_PLAYER) < 1e-6


def test_zombie_dice_rules_are_the_standard_bag():
    assert ZOMBIE_DICE.dice.counts == (6, 4, 3) and ZOMBIE_DICE.dice.faces == CTHULHU_DICE.dice.faces
    assert replace(ZOMBIE_DICE, dice=CTHULHU_DICE.dice) == CTHULHU_DICE
