"""A Game of War bots: the batched evaluation the planners use agrees with the term-by-term one."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.bots.game_of_war import evaluation as ev
from tabletop.core.rng import Rng
from tabletop.games.game_of_war import ENGINE as WAR
from tabletop.games.game_of_war.rules import legal_plays, play
from tabletop.games.game_of_war.state import OVER, PLAY


def random_play_position(seed: int, steps: int):
    state = WAR.new_game(WAR.read_options({"opening": "default"}), 2, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if not WAR.to_move(state):
            break
        seat = WAR.to_move(state)[0]
        state, _ = WAR.apply(state, seat, rng.choice(WAR.legal_actions(state, seat)))
    return state


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300))
def test_the_batched_score_of_every_next_position_is_the_term_by_term_total(seed, steps):
    state = random_play_position(seed, steps)
    if state.phase != PLAY:
        return
    # Every legal play's position: moves (same units), attacks (a unit fewer, or a turn passed) and end: mixed sizes.
    afters = [play(state, p)[0] for p in legal_plays(state)]
    for side in (0, 1):
        batched = ev.score_many(afters, side)
        for after, value in zip(afters, batched):
            assert abs(value - ev.evaluate(after, side).total) < 1e-9


def test_finished_and_unit_losing_positions_in_one_batch_score_as_alone():
    states = []
    for seed in range(12):
        state = random_play_position(seed, 400)
        states.append(state)
        if state.phase == PLAY:
            states.extend(play(state, p)[0] for p in legal_plays(state) if p[0] != "move")
    assert any(s.phase == OVER for s in states) or len({len(s.pieces) for s in states}) > 1
    for side in (0, 1):
        batched = ev.score_many(states, side)
        assert [round(v, 9) for v in batched] == [round(ev.evaluate(s, side).total, 9) for s in states]
