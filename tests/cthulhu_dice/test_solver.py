"""The exact solver: dice model against the engine, whole games against brute force, the shipped tables,
the advisor and the odds (rules_text cthulhu-dice/turn, /end, /rulings, /advice)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

from tabletop.games.cthulhu_dice import rules, solver
from tabletop.games.cthulhu_dice.advisor import Advisor, Position, advise, roll_odds
from tabletop.games.cthulhu_dice.model import (
    CTHULHU_DICE,
    EXHAUSTION_RULINGS,
    NELLER_ZOMBIE_DICE_FIRST_PLAYER,
    ZOMBIE_DICE,
    DiceRules,
    GameRules,
    hand_distribution,
    rules_for_options,
    transitions,
)
from tabletop.games.cthulhu_dice.rules import BagCounts, CthulhuDiceOptions
from tabletop.games.cthulhu_dice.solver import load_table, recompute
from tabletop.games.cthulhu_dice.turn import turn_graph

from .brute_force import Game, solve_small

#: Full or larger solves; they run by default, `-m "not slow"` leaves them out.
slow = pytest.mark.slow
#: The largest brute-force comparisons (minutes): only with TABLETOP_BIG_CHECKS=1.
big = pytest.mark.skipif(not os.environ.get("TABLETOP_BIG_CHECKS"), reason="set TABLETOP_BIG_CHECKS=1 (minutes)")
FIRST_SOLVER = Path(__file__).with_name("data") / "optimal_2p_13_first_solver.json"


def options(bag: tuple[int, int, int], goal: int, ruling: str, tie_rule: str) -> CthulhuDiceOptions:
    return CthulhuDiceOptions(
        goal=goal, tie_rule=tie_rule, bag_exhaustion=ruling, bag=BagCounts(library=bag[0], museum=bag[1], tomb=bag[2])
    )


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


def test_odds_follow_the_bag_exhaustion_ruling():
    # One Tomb die left, one Library clue in hand, 12 Elder Sign dice set aside.
    state = dict(clues=(1, 0, 0), bag=(0, 0, 1), tentacles=(0, 1, 0), elder_signs=(7, 3, 1))
    fewer = roll_odds(**state, dice=DiceRules(counts=(8, 4, 3), exhaustion="roll_fewer"))
    assert all(r.elder_signs + r.clues + r.tentacles == 2 for r in fewer.results), "roll the two dice there are"
    with pytest.raises(ValueError, match="not allowed"):
        roll_odds(**state, dice=DiceRules(counts=(8, 4, 3), exhaustion="must_retreat"))
    full = roll_odds(**state)
    assert all(r.elder_signs + r.clues + r.tentacles == 3 for r in full.results)


def test_bag_exhaustion_rulings_differ_in_what_is_drawn():
    # One Tomb die left in the bag, three dice needed, 12 Elder Sign dice set aside.
    state = (0, 0, 2) + (0, 0, 0) + (0, 0, 1)
    returned = hand_distribution(DiceRules(exhaustion="return_elder_signs"), state)
    drawn_first = hand_distribution(DiceRules(exhaustion="draw_then_return"), state)
    fewer = hand_distribution(DiceRules(exhaustion="roll_fewer"), state)
    assert math.isclose(sum(p for hand, _, p in returned if hand[2] == 1), 3 / 13, abs_tol=1e-12)
    assert math.isclose(sum(p for hand, _, p in drawn_first if hand[2] == 1), 1.0, abs_tol=1e-12)
    assert fewer == [((0, 0, 1), (0, 0, 0), 1.0)]
    assert hand_distribution(DiceRules(exhaustion="must_retreat"), state) == []


# --- the dice model against the engine -------------------------------------------------------


@pytest.mark.parametrize("ruling", EXHAUSTION_RULINGS)
def test_every_roll_of_the_model_is_the_engines_roll(ruling):
    """Every dice state of a turn with a small bag: the solver's transitions equal the engine's own rolls,
    enumerated exhaustively (brute_force.Game.dice_outcomes)."""
    dice = DiceRules(counts=(3, 2, 1), exhaustion=ruling)
    game = Game(options((3, 2, 1), 13, ruling, "tiebreak_rounds"), 2, 26)
    graph = turn_graph(dice)
    for state in graph.states:
        tentacles, clues, bag = state[:3], state[3:6], state[6:]
        signs = tuple(n - t - c - b for n, t, c, b in zip(dice.counts, tentacles, clues, bag))
        key = (0, "decide", (0, 0), sum(signs), bag, clues, tentacles, signs, None)
        model = transitions(dice, state)
        if not rules.can_continue(game.state(key)):
            assert model == {}, state
            continue
        engine: dict = {}
        for (_, bag2, clues2, tentacles2, _), gain, downed, p in game.dice_outcomes(key):
            target = (0, -1) if downed else (gain, tentacles2 + clues2 + bag2)
            engine[target] = engine.get(target, 0.0) + p
        assert set(engine) == set(model), state
        assert max(abs(engine[k] - model[k]) for k in model) < 1e-12, state


# --- whole games against brute force ---------------------------------------------------------


def compare_with_brute_force(opts: CthulhuDiceOptions, players: int) -> None:
    """Every turn start's values (every player's win probability), and the advisor's roll/retreat values at
    a sample of decisions, against value iteration over the engine's whole game."""
    reference = solve_small(opts, players)
    rules = rules_for_options(opts)
    solution = solver.solve(rules, players)
    starts = reference.turn_start_values()
    assert starts
    for (seat, scores, contenders), expected in starts.items():
        if contenders is None or len(contenders) == players:
            got = solution.value((seat, scores))
        else:  # a tie-break among fewer players: the smaller game's values
            sub = solution.subgames[len(contenders)].value((contenders.index(seat), tuple(scores[c] for c in contenders)))
            got = np.zeros(players)
            got[list(contenders)] = sub
        assert np.abs(got - expected).max() < 1e-12, (seat, scores, contenders)
    advisor = Advisor(solution)
    decisions = [k for k in reference.keys if k[1] == "decide" and k[8] is None]
    for key in decisions[:: max(1, len(decisions) // 40)]:
        seat, _, scores, stash, bag, clues, tentacles, signs, _ = key
        # The reference caps the stash at the score cap; a real stash holds every Elder Sign set aside
        # (the capped total is the same).
        advice = advisor.advise(Position(scores, seat, max(stash, sum(signs)), tentacles, clues, signs, bag))
        actions = reference.action_values(key)
        assert abs(advice.win_if_retreat - actions["retreat"][seat]) < 1e-12, key
        if "roll" in actions:
            assert abs(advice.win_if_continue - actions["roll"][seat]) < 1e-12, key
        else:
            assert advice.win_if_continue is None and advice.choice == "retreat"


@pytest.mark.parametrize(
    ("ruling", "tie_rule"), [("roll_fewer", "shared_win"), ("must_retreat", "tiebreak_rounds")]
)
def test_two_player_games_match_brute_force(ruling, tie_rule):
    compare_with_brute_force(options((3, 3, 0), 2, ruling, tie_rule), 2)


def test_three_player_game_matches_brute_force():
    compare_with_brute_force(options((3, 3, 0), 1, "return_elder_signs", "tiebreak_rounds"), 3)


@slow
@pytest.mark.parametrize("tie_rule", ["tiebreak_rounds", "shared_win"])
@pytest.mark.parametrize("ruling", EXHAUSTION_RULINGS)
@pytest.mark.parametrize(("players", "goal"), [(2, 2), (3, 1)])
def test_every_ruling_and_tie_rule_matches_brute_force(players, goal, ruling, tie_rule):
    compare_with_brute_force(options((3, 3, 0), goal, ruling, tie_rule), players)


@big
@pytest.mark.parametrize("tie_rule", ["tiebreak_rounds", "shared_win"])
@pytest.mark.parametrize("ruling", EXHAUSTION_RULINGS)
@pytest.mark.parametrize("players", [2, 3])
def test_every_ruling_matches_brute_force_with_three_kinds_of_dice(players, ruling, tie_rule):
    compare_with_brute_force(options((3, 2, 1), 2, ruling, tie_rule), players)


# --- the shipped tables ----------------------------------------------------------------------


def test_shipped_tables_are_for_our_game():
    for players in (2, 3):
        table = load_table(players=players)
        assert table.rules == CTHULHU_DICE and table.players == players
        values = table.values[~np.isnan(table.values[..., 0])]
        assert values.min() >= 0.0 and values.max() <= 1.0
        assert np.abs(values.sum(axis=-1) - 1.0).max() < 1e-12, "someone always wins"
    # A pinned figure (this solver's own result, kept to notice any change); the values are checked
    # against independent computations in test_tables_by_hand.py and by brute force above.
    assert abs(load_table(players=2).first_player_win - 0.4613892444) < 1e-10


def test_two_player_table_has_the_first_solvers_values():
    first = json.loads(FIRST_SOLVER.read_text())
    table = load_table(players=2)
    for name, ours in (("first_to_move", table.first_to_move), ("second_to_move", table.second_to_move)):
        theirs = np.array([[np.nan if x is None else x for x in row] for row in first[name]])
        both = ~np.isnan(theirs) & ~np.isnan(ours)
        assert both.sum() > 150
        assert np.abs(theirs[both] - ours[both]).max() < 1e-12


@slow
def test_the_standard_solve_reproduces_the_shipped_table():
    again = solver.solve(CTHULHU_DICE, 2)
    shipped = load_table(players=2)
    assert np.array_equal(np.isnan(again.values), np.isnan(shipped.values))
    assert np.nanmax(np.abs(again.values - shipped.values)) < 1e-12


#: Slices of the two-player table: a ring just below the goal, a tie-break ring, a race (the second
#: player chasing 20), an anti-diagonal of rings, the start.
SLICES_2P = [[(0, (12, 12))], [(0, (20, 20))], [(1, (20, 5))], [(0, (9, 12)), (0, (10, 11)), (0, (11, 10)), (0, (12, 9))],
             [(0, (0, 0))]]
#: Slices of the three-player table: a ring just below the goal, an inner ring, the last seat chasing a leader
#: at 14 (seat 1's score cannot matter), the second seat after the first reached the goal, a three-way
#: tie-break, the start.
SLICES_3P = [[(0, (12, 12, 12))], [(0, (5, 9, 11))], [(2, (14, 0, 7))], [(1, (15, 3, 8))], [(0, (20, 20, 20))],
             [(0, (0, 0, 0))]]


@pytest.mark.parametrize(("players", "slices"), [(2, SLICES_2P), (3, SLICES_3P)])
def test_table_slices_recompute_to_the_shipped_values(players, slices):
    """The shipped files are what the current solver computes (they are not stale). This does not show
    the solver right; test_tables_by_hand.py does that for positions worked out without it."""
    shipped = load_table(players=players)
    for keys, again in zip(slices, recompute(shipped, slices)):
        assert np.array_equal(np.isnan(again.values), np.isnan(shipped.values)), keys
        assert np.nanmax(np.abs(again.values - shipped.values)) < 1e-12, keys


# --- the advisor on the shipped tables -------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), [(0, 0), (5, 9), (12, 3), (14, 14)])
def test_advice_at_turn_start_agrees_with_the_table(first, second):
    table = load_table(players=2)
    as_first = advise(Position.duel(first, second, opponent_still_to_play=True))
    assert abs(as_first.win_if_continue - table.first_to_move[first, second]) < 1e-12
    assert as_first.win_if_retreat is None and as_first.choice == "continue"
    as_second = advise(Position.duel(second, first, opponent_still_to_play=False))
    assert abs(as_second.win_if_continue - table.second_to_move[first, second]) < 1e-12


def test_three_player_advice_at_turn_start_agrees_with_the_table():
    table = load_table(players=3)
    for seat, scores in [(0, (0, 0, 0)), (1, (7, 4, 9)), (2, (15, 12, 10))]:
        advice = advise(Position(scores, seat))
        assert abs(advice.win_if_continue - table.value((seat, scores))[seat]) < 1e-12


def test_advice_retreats_when_the_stash_already_wins():
    advice = advise(Position.duel(10, 12, False, stash=3, tentacles=(0, 0, 2), elder_signs=(3, 0, 0)))
    assert advice.choice == "retreat" and advice.win_if_retreat == 1.0
    assert advice.win_if_continue < 1.0 and advice.expected_signs_if_continue < 3


def test_advice_rejects_finished_games_and_impossible_dice():
    with pytest.raises(ValueError):
        advise(Position.duel(13, 15, opponent_still_to_play=True))
    with pytest.raises(ValueError):
        advise(Position.duel(3, 4, True, stash=0, elder_signs=(1, 0, 0), tentacles=(0, 1, 0), clues=(1, 0, 0)))
    with pytest.raises(ValueError, match="not played this round"):
        advise(Position((3, 14, 2), 0))


# --- Zombie Dice: T. Neller's published result -----------------------------------------------


@slow
def test_zombie_dice_first_player_matches_neller():
    assert abs(solver.solve(ZOMBIE_DICE).first_player_win - NELLER_ZOMBIE_DICE_FIRST_PLAYER) < 1e-6


def test_zombie_dice_rules_are_the_standard_bag():
    assert ZOMBIE_DICE.dice.counts == (6, 4, 3) and ZOMBIE_DICE.dice.faces == CTHULHU_DICE.dice.faces
    assert GameRules(dice=DiceRules(counts=(6, 4, 3), exhaustion="draw_then_return")) == ZOMBIE_DICE
