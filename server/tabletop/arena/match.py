"""Play one game between bots at engine level (no server), for benchmarks and tournaments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bots.base import Bot
from ..core.game import Engine, Outcome


def play_match(engine: Engine, bots: Sequence[Bot], seed: int, options: Any = None, max_actions: int = 1_000_000) -> Outcome:
    """Seat ``bots[i]`` at seat ``i`` and play to the end; return the outcome."""
    state = engine.new_game(options if options is not None else engine.read_options({}), len(bots), seed)
    for _ in range(max_actions):
        to_move = engine.to_move(state)
        if not to_move:
            outcome = engine.outcome(state)
            assert outcome is not None
            return outcome
        seat = to_move[0]
        state, _ = engine.apply(state, seat, bots[seat].choose(engine, state, seat))
    raise RuntimeError(f"{engine.name} game with seed {seed} did not end within {max_actions} actions")
