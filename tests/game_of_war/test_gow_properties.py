"""Random legal games to the end: invariants, every listed move applies, illegal moves are
refused with the state unchanged, and replaying the log reproduces the game.

Defaults keep the run short; set GOW_GAMES (games through the engine API) and GOW_FAST_GAMES
(games through the play tuples) higher for a long soak, e.g. GOW_FAST_GAMES=2000.
"""

from __future__ import annotations

import os
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.errors import GameError
from tabletop.games.game_of_war import ENGINE, GameOfWarOptions
from tabletop.games.game_of_war.actions import Attack, Move
from tabletop.games.game_of_war.board import ARSENAL_SQUARES, MOUNTAINS, SQUARES, mask_of, square_name
from tabletop.games.game_of_war.network import compute_network
from tabletop.games.game_of_war.rules import ATTACK, END, MOVE, legal_plays, play
from tabletop.games.game_of_war.units import STATS, is_relay

from .helpers import snapshot

GAMES = int(os.environ.get("GOW_GAMES", "4"))
FAST_GAMES = int(os.environ.get("GOW_FAST_GAMES", "20"))


def check_invariants(state, previous=None) -> None:
    for side in (0, 1):
        squares = [sq for sq, code in state.pieces.items() if code >> 3 == side]
        assert state.units[side] == mask_of(squares)
        assert state.relays[side] == mask_of(sq for sq in squares if is_relay(state.pieces[sq] & 7))
        assert not state.units[side] & state.arsenals[1 - side]
        assert state.arsenals[side] & ~ARSENAL_SQUARES[side] == 0
        for kind, stats in enumerate(STATS):
            assert sum(1 for sq in squares if state.pieces[sq] & 7 == kind) <= stats.count
    assert not state.units[0] & state.units[1]
    assert not (state.units[0] | state.units[1]) & MOUNTAINS
    opts = state.options
    assert state.network == compute_network(
        state.arsenals, state.units, state.relays, opts.enemy_relays_block_lines, opts.adjacent_relays_reemit
    )
    if previous is not None and previous.phase != "setup":
        for side in (0, 1):
            assert len([c for c in state.pieces.values() if c >> 3 == side]) <= len(
                [c for c in previous.pieces.values() if c >> 3 == side]
            )
            assert state.arsenals[side] & ~previous.arsenals[side] == 0


def pick(actions, rng: random.Random, phase: str):
    """A random legal action, nudged so that deployments finish and games end."""
    kinds = {a.kind for a in actions}
    if phase == "setup":
        if "commit" in kinds:
            return next(a for a in actions if a.kind == "commit")
        if rng.random() < 0.9:
            return rng.choice([a for a in actions if a.kind == "place"])
        return rng.choice(actions)
    if "attack" in kinds and rng.random() < 0.6:
        return rng.choice([a for a in actions if a.kind == "attack"])
    moves = [a for a in actions if a.kind == "move"]
    if moves and rng.random() < 0.85:
        return rng.choice(moves)
    return rng.choice(actions)


def random_illegal(state, seat, rng: random.Random, legal_texts: set[str]):
    for _ in range(20):
        a, b = rng.randrange(SQUARES), rng.randrange(SQUARES)
        action = rng.choice([Move(origin=square_name(a), destination=square_name(b)), Attack(target=square_name(b))])
        if ENGINE.notation(action) not in legal_texts and not any(
            t.endswith(f"{square_name(a)}-{square_name(b)}") for t in legal_texts
        ):
            return action
    return None


def play_game(seed: int) -> None:
    rng = random.Random(seed)
    options = GameOfWarOptions(
        opening="default" if seed % 2 else None,
        max_turns=500,
        retreat_distance=rng.choice(["one", "full"]),
        units_block_fire=rng.random() < 0.3,
        futile_attacks=rng.random() < 0.3,
    )
    state = ENGINE.new_game(options, 2, seed)
    check_invariants(state)
    step = 0
    while ENGINE.to_move(state):
        seat = rng.choice(ENGINE.to_move(state))
        actions = ENGINE.legal_actions(state, seat)
        assert actions, "a seat to move always has a legal action"
        before = snapshot(state)
        if state.phase == "play" and step % 40 == 0:
            for action in actions:
                ENGINE.apply(state, seat, action)
            assert snapshot(state) == before
        if state.phase == "play" and step % 7 == 0:
            illegal = random_illegal(state, seat, rng, {ENGINE.notation(a) for a in actions})
            if illegal is not None:
                try:
                    ENGINE.apply(state, seat, illegal)
                except GameError:
                    pass
                else:
                    raise AssertionError(f"accepted an unlisted move {ENGINE.notation(illegal)}")
                assert snapshot(state) == before
        new, _ = ENGINE.apply(state, seat, pick(actions, rng, state.phase))
        assert snapshot(state) == before
        check_invariants(new, state)
        state = new
        step += 1
    assert ENGINE.outcome(state) is not None
    replay = ENGINE.new_game(options, 2, seed)
    for seat, action in state.actions():
        replay, _ = ENGINE.apply(replay, seat, action)
    assert snapshot(replay) == snapshot(state)


@settings(max_examples=GAMES, deadline=None, database=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_games_through_the_engine(seed):
    play_game(seed)


def test_many_fast_random_games_keep_the_invariants():
    rng = random.Random(2024)
    for game in range(FAST_GAMES):
        state = ENGINE.new_game(GameOfWarOptions(opening="default", max_turns=800), 2, game)
        while state.phase == "play":
            plays = legal_plays(state)
            attacks = [p for p in plays if p[0] == ATTACK]
            moves = [p for p in plays if p[0] == MOVE]
            if attacks and rng.random() < 0.5:
                chosen = rng.choice(attacks)
            elif moves and rng.random() < 0.8:
                chosen = rng.choice(moves)
            else:
                chosen = rng.choice(plays)
            assert chosen[0] in (MOVE, ATTACK, END)
            new, _ = play(state, chosen)
            check_invariants(new, state)
            state = new
        assert state.phase == "over"
