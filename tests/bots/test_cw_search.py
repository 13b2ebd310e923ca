"""The Cthulhu Wars search player's parts: candidate means blended with the heuristic's judgement, and the greedy
rollout policy (legal answers only, its width, every seat judged by its own evaluation)."""

from __future__ import annotations

from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
from tabletop.bots.cthulhu_wars.search import PRIOR, CwSearchBot, GreedyPolicy, blended, main_choice, thin
from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars import ENGINE as CW

from .test_game_bots import random_position


def turn_position(seed: int, steps: int):
    """A random position, then random play on until a seat faces the main choice of its turn (None if the game
    ends first)."""
    state = random_position(CW, {}, 4, seed, steps)
    rng = Rng(seed + 1)
    for _ in range(300):
        seats = CW.to_move(state)
        if not seats:
            return None
        if not state.pending and main_choice(state, seats[0]):
            return state
        state, _ = CW.apply(state, seats[0], rng.choice(CW.legal_actions(state, seats[0])))
    return None


def test_blended_means_follow_the_rollouts_and_ignore_their_scale():
    prior = [10.0, 8.0, 3.0]
    # No rollouts yet: the heuristic's order and values.
    assert blended(prior, [0.0] * 3, [0] * 3) == prior
    # The rollouts end later and score everything about 20 lower: only the differences between candidates matter.
    totals, counts = [-10.0 * 4, -8.0 * 8, -17.0 * 4], [4, 8, 4]
    shifted = blended(prior, [t + 100.0 * n for t, n in zip(totals, counts, strict=True)], counts)
    plain = blended(prior, totals, counts)
    assert [round(a - b, 9) for a, b in zip(shifted, plain, strict=True)] == [100.0] * 3
    # The second candidate's futures are better than the first's: with enough of them it overtakes the prior.
    assert plain[1] > plain[0] > plain[2]
    # A single noisy future does not overturn a clear one-step judgement.
    one = blended([10.0, 0.0], [-5.0, 2.0], [1, 1])
    assert one[0] > one[1]
    assert PRIOR >= 1


def test_the_greedy_rollout_policy_answers_every_decision_legally():
    policy = GreedyPolicy(Rng(3), width=6)
    met = set()
    for seed in range(4):
        state = random_position(CW, {}, 4, seed, 40 * seed)
        for _ in range(120):
            seats = CW.to_move(state)
            if not seats:
                break
            seat = seats[0]
            legal = CW.legal_actions(state, seat)
            action = policy.choose(state, seat, legal)
            assert action in legal
            met.add("turn" if main_choice(state, seat) and not state.pending else "other")
            state, _ = CW.apply(state, seat, action)
    assert met == {"turn", "other"}


def test_the_greedy_policy_compares_at_most_its_width_keeping_every_answer_that_is_not_a_move():
    checked = 0
    for seed in range(10):
        state = turn_position(seed, 50 + 9 * seed)
        if state is None:
            continue
        seats = CW.to_move(state)
        legal = [a for a in CW.legal_actions(state, seats[0]) if a.kind != "abandon"]
        width = 5
        listed = thin(legal, width, Rng(11))
        assert len(listed) == min(width, len(legal)) and all(a in legal for a in listed)
        assert len({str(a) for a in listed}) == len(listed)
        others = [a for a in legal if a.kind != "move"]
        if len(others) <= width:
            assert all(a in listed for a in others)
        if len(legal) > width:
            checked += 1
        if checked == 3:
            return
    raise AssertionError("too few turn decisions checked")


def test_the_search_plays_one_of_the_heuristics_candidates_and_reports_its_futures():
    for seed in range(12):
        state = turn_position(seed, 70 + 7 * seed)
        if state is None:
            continue
        seats = CW.to_move(state)
        bot = CwSearchBot(4, seconds=None, iterations=10)
        seat = seats[0]
        ranked, searched = bot.decide(state, seat, bot.default)
        if not searched:
            continue
        table = bot.last["table"]
        assert 2 <= len(table) <= bot.width
        assert bot.last["iterations"] >= len(table)
        assert sum(n for _, _, n in table) == bot.last["iterations"]
        assert ranked[0].action == table[0][0] and ranked[0].action in CW.legal_actions(state, seat)
        return
    raise AssertionError("no searched decision found")


def test_the_search_keeps_its_budget_and_falls_back_on_the_heuristics_order():
    """No rollout starts once the budget is spent (the heuristic's ranking counts against it): with no time left
    the heuristic's best candidate is played; with fewer iterations than candidates only that many are played out."""
    from tabletop.bots.base import Budget

    for seed in range(12):
        state = turn_position(seed, 70 + 7 * seed)
        if state is None:
            continue
        seat = CW.to_move(state)[0]
        bot = CwSearchBot(4, seconds=None, iterations=2)
        ranked, searched = bot.decide(state, seat, bot.default)
        if not searched or len(bot.last["table"]) < 3:
            continue
        assert bot.last["iterations"] == 2 and sum(n for _, _, n in bot.last["table"]) == 2
        assert sorted(n for _, _, n in bot.last["table"])[-2:] == [1, 1] and min(n for _, _, n in bot.last["table"]) == 0
        late = CwSearchBot(4)
        ranked, searched = late.decide(state, seat, Budget(seconds=1e-9))
        heuristic = CwHeuristicBot(4).rank(state, seat, CW.legal_actions(state, seat))
        assert late.last["iterations"] == 0
        assert ranked[0].action == heuristic[0].action
        return
    raise AssertionError("no searched decision with three candidates found")


def test_the_search_budget_runs_on_the_clock_it_is_given():
    """A benchmark counts one core's seconds (the process's CPU time): the search's budget follows the timer passed
    in. With a timer that has already run past the budget, not a single rollout starts."""
    from tabletop.bots.base import Budget

    ticks = iter(range(0, 10_000, 5))  # every reading of this clock is 5 seconds later

    def fast_clock() -> float:
        return float(next(ticks))

    for seed in range(12):
        state = turn_position(seed, 70 + 7 * seed)
        if state is None:
            continue
        seat = CW.to_move(state)[0]
        probe = CwSearchBot(4, seconds=None, iterations=1)
        if not probe.decide(state, seat, probe.default)[1]:
            continue
        bot = CwSearchBot(4, seconds=3.0, timer=fast_clock)
        bot.decide(state, seat, Budget(seconds=3.0))
        assert bot.last["iterations"] == 0
        return
    raise AssertionError("no searched decision found")
