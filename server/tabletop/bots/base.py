"""What a bot is, what advice looks like, and the one bot every game has: uniform random choice.

Every bot answers ``choose(engine, state, seat)`` with one of ``engine.legal_actions(state, seat)``.
Bots that can explain themselves also answer ``suggest(engine, state, seat, budget)`` with a
:class:`Suggestion`: the action, a short explanation in words, the main terms of the evaluation
and the odds the choice relied on.

Determinism: a bot draws only from its own generator, seeded when it is made, so the same bot
seed and the same sequence of decisions give the same choices. A search with a time limit stops
when the clock says so; give it an iteration budget (:class:`Budget`) for play that is exactly
reproducible on any machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.game import Engine
from ..core.rng import Rng


class Bot(Protocol):
    """Chooses one of ``engine.legal_actions(state, seat)``."""

    name: str

    def choose(self, engine: Engine, state: Any, seat: int) -> Any: ...


@dataclass
class Suggestion:
    """A bot's choice with its reasons, for a person or an assistant to read."""

    action: Any
    explanation: str
    terms: dict[str, float] = field(default_factory=dict)  # the evaluation's main terms, named in words
    odds: list[str] = field(default_factory=list)  # chances the choice relied on, in words
    value: float | None = None  # the bot's evaluation of its choice (its own scale)


@dataclass
class Budget:
    """How long a search may think: ``seconds`` of wall clock and/or ``iterations`` of its main loop.

    With only ``iterations`` a search is exactly reproducible; ``seconds`` caps it in time (what a
    tournament or an advice tool needs). Neither: the bot's own default.
    """

    seconds: float | None = None
    iterations: int | None = None

    def clock(self, default_seconds: float | None, default_iterations: int | None,
              timer: Callable[[], float] = time.perf_counter) -> Clock:
        if self.seconds is None and self.iterations is None:
            return Clock(default_seconds, default_iterations, timer)
        return Clock(self.seconds, self.iterations, timer)


class Clock:
    """Counts a search's iterations against its budget. The seconds are wall time unless ``timer`` says otherwise
    (a benchmark may count the process's CPU time, one core's seconds whatever else the machine runs)."""

    def __init__(self, seconds: float | None, iterations: int | None,
                 timer: Callable[[], float] = time.perf_counter) -> None:
        self.timer = timer
        self.deadline = None if seconds is None else timer() + seconds
        self.iterations = iterations
        self.done = 0

    def more(self) -> bool:
        """Whether another iteration fits (counting it)."""
        if self.iterations is not None and self.done >= self.iterations:
            return False
        if self.deadline is not None and self.timer() >= self.deadline:
            return False
        self.done += 1
        return True

    def left(self) -> float:
        return float("inf") if self.deadline is None else self.deadline - self.timer()


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.rng = Rng(seed)
        self.name = name

    def choose(self, engine: Engine, state: Any, seat: int) -> Any:
        return self.rng.choice(engine.legal_actions(state, seat))

    def suggest(self, engine: Engine, state: Any, seat: int, budget: Budget | None = None) -> Suggestion:
        action = self.choose(engine, state, seat)
        return Suggestion(action, "Chosen uniformly at random among the legal moves (a baseline, not advice).")
