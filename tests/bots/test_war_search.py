"""The A Game of War search: the whole turns it weighs are legal, the first is the heuristic's, the budget holds."""

from __future__ import annotations

import itertools

import pytest

from tabletop.bots.base import Budget
from tabletop.bots.game_of_war.heuristic import TurnPlanner, WarHeuristicBot, position_key
from tabletop.bots.game_of_war.press import search_score_many
from tabletop.bots.game_of_war.search import WarSearchBot
from tabletop.core.rng import Rng
from tabletop.games.game_of_war import ENGINE as WAR
from tabletop.games.game_of_war.rules import legal_plays, play
from tabletop.games.game_of_war.state import OVER, PLAY


def heuristic_position(seed: int, turns: int):
    """A position in play reached by two heuristic bots (a realistic middle game)."""
    state = WAR.new_game(WAR.read_options({"opening": "default"}), 2, seed)
    bots = [WarHeuristicBot(seed), WarHeuristicBot(seed + 1)]
    while WAR.to_move(state) and (state.phase != PLAY or state.turn < turns):
        seat = WAR.to_move(state)[0]
        state, _ = WAR.apply(state, seat, bots[seat].choose(WAR, state, seat))
    assert state.phase == PLAY
    return state


@pytest.fixture(scope="module")
def middle_game():
    return heuristic_position(5, 14)


def test_every_candidate_turn_is_a_legal_whole_turn_ending_where_the_search_thinks(middle_game):
    state, seat = middle_game, middle_game.side
    bot = WarSearchBot(1, seconds=None, iterations=1)
    bot.mine.cache, bot.model.cache = {}, {}
    candidates = list(itertools.islice(bot.candidates(state, seat), 14))
    assert len(candidates) >= 8
    assert len({tuple(plays) for plays, _ in candidates}) == len(candidates)
    for plays, end in candidates:
        s = state
        for p in plays:
            assert s.side == seat and p in legal_plays(s), (plays, p)
            s, _ = play(s, p)
        assert s.phase == OVER or s.side != seat  # the whole turn is played
        assert position_key(s) == position_key(end)


def test_the_first_candidates_are_the_greedy_turns_of_the_search_and_of_the_heuristic(middle_game):
    state, seat = middle_game, middle_game.side
    own, _, _ = TurnPlanner(Rng(0), 0.0, evaluator=search_score_many).plan(state, seat)
    plain, _, _ = TurnPlanner(Rng(0), 0.0).plan(state, seat)
    bot = WarSearchBot(1, seconds=None, iterations=1)
    bot.mine.cache, bot.model.cache = {}, {}
    first = [plays for plays, _ in itertools.islice(bot.candidates(state, seat), 2)]
    assert first[0] == own and plain in first
    assert bot.search(state, seat, Budget(iterations=1)) == own  # one candidate: nothing else to weigh


def test_the_search_keeps_the_best_foreseen_turn_and_stops_at_its_budget(middle_game):
    state, seat = middle_game, middle_game.side
    wide = WarSearchBot(1, seconds=None, iterations=6)
    wide.search(state, seat, Budget(iterations=6))
    assert wide.last["candidates"] == 6
    assert wide.last["value"] >= wide.last["greedy"] - wide.noise / 2  # never worse than the greedy turn

    examined = []
    for seconds in (1.0, 2.0):
        ticks = itertools.count()
        timed = WarSearchBot(1, timer=lambda: next(ticks) * 0.25)  # a clock that moves 0.25 s at every look
        timed.search(state, seat, Budget(seconds=seconds))
        examined.append(timed.last["candidates"])
    assert 1 <= examined[0] <= 4 < examined[1] <= 8


def test_a_budget_too_short_to_play_out_any_turn_plays_the_greedy_one(middle_game):
    state, seat = middle_game, middle_game.side
    greedy, _, _ = TurnPlanner(Rng(0), 0.0, evaluator=search_score_many).plan(state, seat)
    ticks = itertools.count()
    bot = WarSearchBot(1, timer=lambda: next(ticks) * 1.0)  # the greedy plan alone "took" a whole second
    assert bot.search(state, seat, Budget(seconds=1.0)) == greedy
    assert bot.last["candidates"] == 0 and bot.last["value"] == bot.last["greedy"] > float("-inf")
