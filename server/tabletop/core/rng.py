"""Seeded randomness whose whole state is two integers.

The generator is SplitMix64 used in counter mode: draw ``n`` of seed ``s`` is a pure
function of ``(s, n)``. A game stores its ``Rng`` in its state, so the same seed and the
same moves always produce the same dice, a replay reproduces a game exactly, and copying
a state copies its future.

Engines ask for chance in the words of the table — ``die``, ``dice``, ``pick`` (one weighted
choice: a token from a bag, a die's face), ``draw`` (several from a bag, without putting them
back) — each with ``what`` it is for ("Great Cthulhu's battle dice"), so that the same request
can be answered by this generator or, in a game refereed at a real table, by a person entering
what the table showed.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _splitmix64(x: int) -> int:
    z = (x + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


#: Who answers chance instead of the generator (a game refereed at a real table), while a move is applied.
_TABLE: ContextVar[Any] = ContextVar("tabletop_table_chance", default=None)


@contextmanager
def answered_by(table: Any) -> Iterator[None]:
    """Within this block every ``die``/``dice``/``pick``/``draw`` is answered by ``table`` (an object with those
    four methods, e.g. ``tabletop.core.chance.TableAnswers``), never by the generator; draws are still counted."""
    mark = _TABLE.set(table)
    try:
        yield
    finally:
        _TABLE.reset(mark)


def fresh_seed() -> int:
    """A random seed for games created without one (63 bits so it fits SQLite INTEGER)."""
    return secrets.randbits(63)


class Rng:
    """Counter-based generator: ``seed`` never changes, ``draws`` counts 64-bit draws made."""

    __slots__ = ("seed", "draws")

    def __init__(self, seed: int, draws: int = 0) -> None:
        self.seed = seed & _MASK
        self.draws = draws

    def copy(self) -> Rng:
        return Rng(self.seed, self.draws)

    def next_u64(self) -> int:
        self.draws += 1
        return _splitmix64((self.seed + self.draws * _GOLDEN) & _MASK)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK - (_MASK + 1) % n
        while True:
            x = self.next_u64()
            if x <= limit:
                return x % n

    def die(self, sides: int = 6, what: str = "a die") -> int:
        """A die roll, 1..sides."""
        if (table := _TABLE.get()) is not None:
            self.draws += 1
            return table.die(sides, what)
        return self.below(sides) + 1

    def dice(self, count: int, sides: int = 6, what: str = "dice") -> list[int]:
        """``count`` dice rolled at once."""
        if (table := _TABLE.get()) is not None:
            self.draws += 1
            return table.dice(count, sides, what)
        return [self.die(sides, what) for _ in range(count)]

    def pick(self, weights: Mapping[str, int], what: str, secret: bool = False) -> str:
        """One of ``weights``' keys, each as likely as its weight (a token from a bag, a die's face). ``secret``:
        only the one who draws may see it (a hidden Elder Sign); the generator draws the same either way."""
        if (table := _TABLE.get()) is not None:
            self.draws += 1
            return table.pick(dict(weights), what, secret)
        roll = self.below(sum(weights.values()))
        for key, weight in weights.items():
            if roll < weight:
                return key
            roll -= weight
        raise AssertionError("unreachable: the roll is below the total weight")

    def draw(self, counts: Mapping[str, int], count: int, what: str) -> list[str]:
        """``count`` items drawn one after another from a bag holding ``counts``, without putting them back."""
        if (table := _TABLE.get()) is not None:
            self.draws += 1
            return table.draw(dict(counts), count, what)
        left, drawn = dict(counts), []
        for _ in range(count):
            item = self.pick(left, what)
            left[item] -= 1
            drawn.append(item)
        return drawn

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.seed, self.draws) == (other.seed, other.draws)

    def __repr__(self) -> str:
        return f"Rng(seed={self.seed}, draws={self.draws})"
