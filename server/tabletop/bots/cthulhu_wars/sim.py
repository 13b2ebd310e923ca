"""Playing ahead on determinised copies of a Cthulhu Wars game (never the real one).

:func:`step` applies an action taken from ``legal_actions`` exactly as the engine's ``apply`` does
once it has checked legality (the check is skipped: the action comes from the legal list), on a
copy. :func:`settle` lets the fast policy answer whatever an action sets off until the seat that
acted has a real choice again or the turn has passed on; :func:`playout` plays every seat with a
policy for a number of actions or until a phase boundary.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.games.cthulhu_wars.engine import ENGINE, play_legal
from tabletop.games.cthulhu_wars.state import GameState

from .policy import FastPolicy


def step(state: GameState, seat: int, action: Any) -> GameState:
    """The state after ``seat`` plays a legal ``action`` (the caller's state is untouched)."""
    return play_legal(state, seat, action)[0]


def awaited(state: GameState) -> int | None:
    seats = ENGINE.to_move(state)
    return seats[0] if seats else None


def settle(state: GameState, seat: int, policy: FastPolicy, limit: int = 200, start: tuple | None = None) -> GameState:
    """Answer with ``policy`` everything until ``seat`` faces a real choice of its own turn again (more units of
    a Move action, a new turn), another seat's turn begins, or the phase or round changes (from ``start``,
    the phase and round of the decision); pending decisions of anyone, ``seat``'s included, and its
    unlimited follow-ups after its action are answered by the policy."""
    for _ in range(limit):
        if state.phase == "over" or (start is not None and (state.round, state.phase) != start):
            return state
        who = awaited(state)
        if who is None:
            return state
        if not state.pending:
            turn = state.turn
            if turn is None or turn.seat != seat or turn.moving or not turn.acted:
                return state
        legal = ENGINE.legal_actions(state, who)
        state = step(state, who, policy.choose(state, who, legal))
    return state


def playout(state: GameState, policies: Callable[[int], FastPolicy], actions: int,
            stop: Callable[[GameState], bool] | None = None) -> GameState:
    """Play up to ``actions`` decisions, every seat by its policy, stopping early at game end or when ``stop`` says."""
    for _ in range(actions):
        if state.phase == "over" or (stop is not None and stop(state)):
            return state
        who = awaited(state)
        if who is None:
            return state
        legal = ENGINE.legal_actions(state, who)
        state = step(state, who, policies(who).choose(state, who, legal))
    return state
