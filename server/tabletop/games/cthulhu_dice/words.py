"""Dice in words, the same way everywhere a Cthulhu Dice position is told (describe, move summaries, odds, advice).

Per-kind counts are in the order of ``KINDS`` (library, museum, tomb): the kinds the advice and odds tools take.
"""

from __future__ import annotations

from collections.abc import Sequence

from .dice import KINDS


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``1 clue``, ``2 clues``, ``0 clues``."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def each_die(counts: Sequence[int]) -> str:
    """Every die of per-kind counts by its kind, e.g. ``library, library, tomb`` (a hand holds at most three)."""
    return ", ".join(kind.value for kind, n in zip(KINDS, counts) for _ in range(n))


def per_kind_text(counts: Sequence[int]) -> str:
    """Counts of every kind, e.g. ``7 library, 2 museum, 3 tomb`` (for the bag)."""
    return ", ".join(f"{n} {kind.value}" for kind, n in zip(KINDS, counts))


def clues_in_hand(counts: Sequence[int]) -> str:
    """``no clues in hand``, ``1 clue in hand (library)``, ``2 clues in hand (library, tomb)``."""
    held = sum(counts)
    return f"{counted(held, 'clue')} in hand ({each_die(counts)})" if held else "no clues in hand"


def tentacles_text(counts: Sequence[int], down: int | None = None) -> str:
    """``tentacles 0 (3 lose the stash)``, ``tentacles 2 (museum, museum; 3 lose the stash)``; without ``down``
    ``tentacles 0``, ``tentacles 2 (museum, museum)``."""
    parts = [each_die(counts)] if sum(counts) else []
    if down is not None:
        parts.append(f"{down} lose the stash")
    return f"tentacles {sum(counts)}" + (f" ({'; '.join(parts)})" if parts else "")


def bag_text(bag: Sequence[int]) -> str:
    """``bag 12 (7 library, 2 museum, 3 tomb)``."""
    return f"bag {sum(bag)} ({per_kind_text(bag)})"
