"""The simple Cthulhu Dice bots do what their names say, and matches between bots finish."""

from __future__ import annotations

from tabletop.arena.match import play_match
from tabletop.bots import RandomBot
from tabletop.bots.cthulhu_dice import CautiousBot, ThresholdBot
from tabletop.games.cthulhu_dice import ENGINE
from tabletop.games.cthulhu_dice.rules import Retreat, Roll


def decisions(bot, seeds=range(200)):
    """(state, choice) for every decision the bot takes after a roll, over many turns."""
    seen = []
    for seed in seeds:
        state = ENGINE.new_game(ENGINE.read_options({}), 2, seed)
        while ENGINE.to_move(state) and state.round < 3:
            seat = state.seat
            choice = bot.choose(ENGINE, state, seat)
            if state.phase == "decide":
                seen.append((state, choice))
            state, _ = ENGINE.apply(state, seat, choice)
    return seen


def test_the_cautious_bot_retreats_exactly_at_two_tentacles():
    seen = decisions(CautiousBot())
    assert {type(c) for _, c in seen} == {Roll, Retreat}
    for state, choice in seen:
        assert isinstance(choice, Retreat) == (state.total_tentacles >= 2)


def test_the_threshold_bot_banks_once_the_stash_reaches_its_threshold():
    bot = ThresholdBot(4)
    for state, choice in decisions(bot):
        assert isinstance(choice, Retreat) == (state.stash >= 4 or state.total_tentacles >= 2)


def test_bots_never_choose_an_illegal_action_and_matches_end():
    for seed in range(30):
        bots = [RandomBot(seed), CautiousBot(), ThresholdBot(3)]
        outcome = play_match(ENGINE, bots, seed)
        assert outcome.winners and outcome.scores


def test_matches_are_reproducible_from_their_seed():
    first = play_match(ENGINE, [ThresholdBot(2), ThresholdBot(5)], seed=77)
    again = play_match(ENGINE, [ThresholdBot(2), ThresholdBot(5)], seed=77)
    assert first == again


def test_the_optimal_bot_follows_the_advisor_and_its_fast_path_agrees():
    from tabletop.bots.cthulhu_dice import OptimalBot
    from tabletop.games.cthulhu_dice.advice import situation_for

    bot = OptimalBot()
    checked = 0
    for state, choice in decisions(ThresholdBot(3), seeds=range(12)):
        situation = situation_for(state, state.seat)
        advisor = bot.advisor(situation.players)
        advice = advisor.advise(situation.position)
        assert advisor.continues(situation.position) == (advice.choice == "continue")
        assert isinstance(bot.choose(ENGINE, state, state.seat), Roll) == (advice.choice == "continue")
        checked += 1
    assert checked > 50


def test_the_optimal_bot_plays_three_player_games_exactly():
    from tabletop.bots.cthulhu_dice import OptimalBot
    from tabletop.games.cthulhu_dice.advice import situation_for

    bot = OptimalBot()
    outcome = play_match(ENGINE, [bot, ThresholdBot(3), CautiousBot()], seed=11)
    assert outcome.winners
    state = ENGINE.new_game(ENGINE.read_options({}), 3, 5)
    state, _ = ENGINE.apply(state, 0, Roll())
    if ENGINE.to_move(state) == [0]:
        situation = situation_for(state, 0)
        assert situation.players == 3 and not situation.approximate
