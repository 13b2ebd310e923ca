"""Compact text for models: legal moves written once, alternatives factored, every answer bounded.

A model pays for every character it reads, so lists of moves are written the way a person would
jot them down: ``C e7-d6/e6/f6`` for three moves of one unit, ``summon deep-one
south-pacific/europe`` for one summon at either Gate. Any listed alternative can be played by
writing the common part with that one alternative (``C e7-e6``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable


#: The longest text any answer lists moves in before it summarises the rest.
MOVES_BUDGET = 2400


def factor(notations: Iterable[str], separators: str = " ") -> list[str]:
    """Notations with a common stem merged: ``['C e7-d6', 'C e7-e6']`` -> ``['C e7-d6/e6']``.

    The stem is everything up to the last of ``separators`` (a game's notation decides which
    characters end a stem: ``"-"`` between War squares, ``">"`` between Cthulhu Wars areas, whose
    names hold hyphens themselves). Order is kept; notations with no separator stay whole.
    """
    if isinstance(notations, list) and len(notations) < 2:
        return list(notations)  # one notation is its own stem and last part: nothing to merge
    last_part = last_part_pattern(separators)
    stems: dict[str, list[str]] = {}
    order: list[str] = []
    for text in notations:
        found = last_part.match(text)
        stem, last = (found.group(1), found.group(2)) if found else (text, "")
        if stem not in stems:
            stems[stem] = []
            order.append(stem)
        if last:
            stems[stem].append(last)
    return [stem + "/".join(stems[stem]) if stems[stem] else stem for stem in order]


@functools.cache
def last_part_pattern(separators: str) -> re.Pattern[str]:
    """What :func:`factor` splits a notation at: the stem up to the last of ``separators`` and the rest (compiled once
    for each set of separators)."""
    return re.compile(rf"^(.*[{re.escape(separators)}])([^{re.escape(separators)}]+)$")


@functools.cache
def separator_pattern(separators: str) -> re.Pattern[str]:
    """What :func:`merge_alternatives` splits a line at, the separators kept (compiled once for each set)."""
    return re.compile(f"([{re.escape(separators)}])")


def merge_alternatives(lines: list[str], separators: str = " ") -> list[str]:
    """Factored lines that differ in one word only merged into one line: ``['battle asia vs ys', 'battle europe vs
    ys']`` -> ``['battle asia/europe vs ys']``. Each line stands for every combination of its alternatives, and so
    does each merged one (the lines merged are alike in every other word). Words are split at ``separators``; the
    first line of a merged run keeps its place."""
    if len(lines) < 2:
        return list(lines)  # a line alone has nothing to merge with
    split = separator_pattern(separators)
    rows = [split.split(line) for line in lines]
    if not any_alike(rows):
        return list(lines)  # no two lines alike but for one word: every pass below would merge nothing
    words = range(0, max(len(r) for r in rows), 2)  # words sit at even places (rows merge only with rows as long)
    clean, turn = 0, 0
    while clean < len(words):  # the words in turn, over and over, until none of them merges anything more
        rows, joined = merged_at(rows, words[turn % len(words)])
        clean = 1 if joined else clean + 1  # a word just merged has no more alike lines until another word merges
        turn += 1
    return ["".join(r) for r in rows]


def any_alike(rows: list[list[str]]) -> bool:
    """Whether two ``rows`` (words and separators) are alike but for the word at one place, the only rows
    :func:`merged_at` merges: one look at every word of every row, where the passes of :func:`merge_alternatives`
    take several."""
    seen: set[tuple] = set()
    for row in rows:
        size = len(row)
        for column in range(0, size, 2):
            key = (size, column, *row[:column], *row[column + 1:])
            if key in seen:
                return True
            seen.add(key)
    return False


def merged_at(rows: list[list[str]], column: int) -> tuple[list[list[str]], bool]:
    """``rows`` (words and separators) with those alike but for the word at ``column`` merged; whether any were."""
    kept: list[list[str]] = []
    found: dict[tuple, list[str]] = {}
    for row in rows:
        if column >= len(row):
            kept.append(row)
            continue
        key = (len(row), *row[:column], *row[column + 1:])
        if key in found:
            first = found[key]
            words = first[column].split("/")
            first[column] = "/".join(words + [w for w in row[column].split("/") if w not in words])
            continue
        found[key] = row = list(row)
        kept.append(row)
    return kept, len(kept) < len(rows)


def bounded_lines(lines: list[str], budget: int, more: str) -> list[str]:
    """``lines`` cut to about ``budget`` characters; ``more`` (formatted with the count left out) ends a cut list."""
    kept, used = [], 0
    for index, line in enumerate(lines):
        if used + len(line) > budget and kept:
            kept.append(more.format(len(lines) - index))
            return kept
        kept.append(line)
        used += len(line) + 1
    return kept


def clip(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters (with an ellipsis), for echoing what a caller sent."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def chance(p: float) -> str:
    """A probability as a reader wants it: rounded, and its exact value beside it ('2.0% (0.020424)')."""
    return f"{p:.1%} ({p:.6g})"


def amount(x: float) -> str:
    """An expected count to four decimals ('1.1667'), which is exact for the calculators' sixths and thirds
    to the last digit shown."""
    return f"{x:.4f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a control character or a lone surrogate (Unicode categories Cc, Cs): what no name or
    label a user gives may carry into a picture, a page or a log line."""
    return any(unicodedata.category(c) in ("Cc", "Cs") for c in text)
