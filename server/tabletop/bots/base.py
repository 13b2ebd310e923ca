"""What a bot is, and the one bot every game has: uniform random choice among legal actions."""

from __future__ import annotations

from typing import Any, Protocol

from ..core.game import Engine
from ..core.rng import Rng


class Bot(Protocol):
    """Chooses one of ``engine.legal_actions(state, seat)``."""

    name: str

    def choose(self, engine: Engine, state: Any, seat: int) -> Any: ...


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.rng = Rng(seed)
        self.name = name

    def choose(self, engine: Engine, state: Any, seat: int) -> Any:
        return self.rng.choice(engine.legal_actions(state, seat))
