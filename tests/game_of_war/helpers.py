"""Shared helpers for the A Game of War tests."""

from __future__ import annotations

from tabletop.games.game_of_war.board import names
from tabletop.games.game_of_war.state import State


def online(state: State, side: int) -> set[str]:
    return set(names(state.units[side] & state.network.online[side]))


def offline(state: State, side: int) -> set[str]:
    return set(names(state.units[side] & ~state.network.online[side]))


def snapshot(state: State) -> tuple:
    """Everything that defines a state, for equality checks."""
    return (
        tuple(sorted(state.pieces.items())),
        state.units,
        state.relays,
        state.arsenals,
        state.network,
        state.phase,
        state.committed,
        state.side,
        state.turn,
        state.moved,
        state.moves_made,
        state.moves_closed,
        state.attack_used,
        state.retreat,
        state.no_attack,
        state.threat,
        state.die,
        state.winner,
        state.reason,
        state.rng.draws,
        len(state.actions()),
    )
