"""Property tests: many random games played to the end keep every invariant of the rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.errors import GameError
from tabletop.games.cthulhu_dice import ENGINE
from tabletop.games.cthulhu_dice.rules import DiceState, Retreat, Roll

MAX_ACTIONS = 20_000


def snapshot(state: DiceState) -> tuple:
    return (ENGINE.view(state, None), state.rng.seed, state.rng.draws, state.turns)


def check_invariants(state: DiceState, before: DiceState) -> None:
    total = sum(state.options.bag.as_list())
    assert sum(state.bag) + sum(state.clues) + sum(state.tentacles) + sum(state.signs) == total, "dice are conserved"
    assert all(s >= 0 for s in state.scores), "scores are never negative"
    assert all(a >= b for a, b in zip(state.scores, before.scores)), "banked scores never fall"
    assert state.stash >= 0
    if state.phase == "decide":
        assert state.total_tentacles < 3, "a player with three tentacles is downed, never asked to choose"
    if state.phase == "start":
        assert state.bag == state.options.bag.as_list() and state.stash == 0


def play_random_game(seats: int, seed: int, policy_seed: int, options: dict) -> tuple[DiceState, list]:
    rng = random.Random(policy_seed)
    boldness = rng.uniform(0.1, 0.9)  # a player who never banks could roll forever
    state = ENGINE.new_game(ENGINE.read_options(options), seats, seed)
    log = []
    for _ in range(MAX_ACTIONS):
        to_move = ENGINE.to_move(state)
        if not to_move:
            return state, log
        seat = to_move[0]
        legal = ENGINE.legal_actions(state, seat)
        action = Roll() if Roll() in legal and (state.phase == "start" or rng.random() < boldness) else legal[-1]
        # a random other seat trying to act is refused and changes nothing
        intruder = rng.randrange(seats)
        if intruder != seat:
            before = snapshot(state)
            try:
                ENGINE.apply(state, intruder, action)
            except GameError:
                pass
            else:
                raise AssertionError("a seat acted out of turn")
            assert snapshot(state) == before
        new_state, events = ENGINE.apply(state, seat, action)
        assert events
        check_invariants(new_state, state)
        log.append((seat, action))
        state = new_state
    raise AssertionError("game did not end")


def check_result(state: DiceState) -> None:
    outcome = ENGINE.outcome(state)
    assert outcome is not None and state.phase == "over"
    best = max(state.scores)
    assert best >= state.options.goal
    assert all(state.scores[w] == best for w in outcome.winners), "the winner has the most Elder Signs"
    if state.options.tie_rule == "tiebreak_rounds":
        assert len(outcome.winners) == 1
    else:
        assert sorted(outcome.winners) == [s for s, v in enumerate(state.scores) if v == best]
    if state.contenders is None:
        assert len(set(state.turns)) == 1, "everyone has had the same number of turns"


def replay(seats: int, seed: int, options: dict, log: list) -> DiceState:
    state = ENGINE.new_game(ENGINE.read_options(options), seats, seed)
    for seat, action in log:
        state, _ = ENGINE.apply(state, seat, action)
    return state


options_strategy = st.fixed_dictionaries(
    {
        "bag_exhaustion": st.sampled_from(["return_elder_signs", "draw_then_return", "roll_fewer", "must_retreat"]),
        "tie_rule": st.sampled_from(["tiebreak_rounds", "shared_win"]),
        "goal": st.sampled_from([13, 13, 6, 20]),
    }
)


@settings(max_examples=150, deadline=None)
@given(
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**63 - 1),
    policy_seed=st.integers(0, 2**32),
    options=options_strategy,
)
def test_random_games_end_correctly_and_replay_exactly(seats, seed, policy_seed, options):
    state, log = play_random_game(seats, seed, policy_seed, options)
    check_result(state)
    again = replay(seats, seed, options, log)
    assert snapshot(again) == snapshot(state), "the same seed and moves give the same game"


def test_the_same_seed_gives_the_same_dice_and_another_seed_does_not():
    a, _ = play_random_game(3, 7, 1, {})
    b, _ = play_random_game(3, 7, 1, {})
    c, _ = play_random_game(3, 8, 1, {})
    assert snapshot(a) == snapshot(b)
    assert snapshot(a) != snapshot(c)


def test_a_greedy_player_runs_the_bag_dry_and_the_game_survives_it():
    """Always continuing eventually exhausts the bag mid-turn; every ruling handles it."""
    for ruling in ("return_elder_signs", "draw_then_return", "roll_fewer", "must_retreat"):
        seen_short = False
        for seed in range(60):
            state = ENGINE.new_game(ENGINE.read_options({"bag_exhaustion": ruling}), 2, seed)
            while ENGINE.to_move(state) and not seen_short:
                seat = state.seat
                if state.phase == "decide" and state.dice_needed > sum(state.bag):
                    seen_short = True
                legal = ENGINE.legal_actions(state, seat)
                action = Roll() if Roll() in legal and (state.stash < 40) else Retreat()
                state, _ = ENGINE.apply(state, seat, action)
        assert seen_short, ruling
