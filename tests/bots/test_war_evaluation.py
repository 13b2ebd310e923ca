"""A Game of War bots: the evaluation: a batch scores as its positions alone, whatever their sizes; hand-checked terms."""

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


def test_terms_of_a_hand_built_position_are_the_ones_worked_out_by_hand():
    from tabletop.games.game_of_war.state import build_position

    # South: a cavalry on the column of its arsenal w20 (online, 12) and an infantry far off every line (offline,
    # half of 10); North has no unit. Arsenals: two each, so they cancel.
    state = build_position({"w9": "c", "q3": "i"}, side_to_move=1)
    south, north = ev.evaluate(state, 1), ev.evaluate(state, 0)
    assert south.material == 12 + 5 and north.material == -17
    assert south.communication == 0 and south.threats <= 0
    assert south.threat_square == south.chance_square == -1  # nothing to capture either way
    assert ev.score_many([state], 1)[0] == south.total
    # North's infantry next to the offline South infantry takes it (attack 4 against defence 0): our chance.
    exposed = build_position({"w9": "c", "q3": "i", "q2": "I"}, side_to_move=0)
    assert ev.evaluate(exposed, 0).chance_square == ev.evaluate(exposed, 1).threat_square == 2 * 25 + 16
