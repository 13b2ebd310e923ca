"""Chance entered from a real table: what a move needs rolled or drawn, and checking what the table says.

In a game whose chance comes from the table, a move is applied with every ``die``/``dice``/``pick``/``draw``
answered by :class:`TableAnswers` (see ``tabletop.core.rng.answered_by``). When the answers run out it raises
:class:`NeedChance` carrying a :class:`ChanceRequest`, which says exactly what to enter; the move is retried
from its start with one more answer each time, so a move is always a pure function of its answers.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .errors import IllegalMove, MalformedMove
from .rng import Rng

#: The word that starts an entry's notation: ``enter 3 5 6``.
ENTER = "enter"


def _norm(text: str) -> str:
    return text.strip().lower().replace("-", "_")


@dataclass(frozen=True)
class ChanceRequest:
    """One random event awaiting the table: ``kind`` is die, dice, pick (one item from weighted choices) or
    draw (``count`` items from a bag without putting them back); ``options`` maps each item to its weight or
    how many the bag holds (pick, draw)."""

    kind: str
    what: str
    count: int = 1
    sides: int = 6
    options: tuple[tuple[str, int], ...] = ()
    #: Only the seat it is drawn for may learn it (a hidden Elder Sign): its entry is hidden from the others.
    secret: bool = False

    @property
    def text(self) -> str:
        """The request in the table's words: "Great Cthulhu's battle dice in Arabia: enter 5 faces (1-6)"."""
        if self.kind in ("die", "dice"):
            faces = "a face" if self.count == 1 else f"{self.count} faces"
            return f"{self.what}: enter {faces} (1-{self.sides})"
        left = ", ".join(f"{k} {n}" if self.kind == "draw" else k for k, n in self.options if n > 0)
        items = "one" if self.count == 1 else f"{self.count}"
        return f"{self.what}: enter {items} of {left}"

    def example(self) -> list[str]:
        """One possible entry, for legal_moves: drawn with a seed taken from the request itself, so the same
        request shows the same example on every call (and in every server process)."""
        rng = Rng(int.from_bytes(hashlib.sha256(repr(self).encode()).digest()[:8], "big"))
        if self.kind in ("die", "dice"):
            return [str(v) for v in rng.dice(self.count, self.sides)]
        return rng.draw(dict(self.options), self.count, self.what)

    def check(self, values: list[str], rule: str) -> list[str]:
        """``values`` as stored (faces as digits, items as their names), or a refusal naming the rule."""
        if len(values) != self.count:
            raise IllegalMove(f"{self.text}: {len(values)} given, {self.count} needed", rule=rule)
        if self.kind in ("die", "dice"):
            if not all(v.strip().isdigit() and 1 <= int(v) <= self.sides for v in values):
                raise IllegalMove(
                    f"{self.text}: '{' '.join(values)}' is not possible, a die of {self.sides} sides shows 1 to {self.sides}",
                    rule=rule,
                )
            return [str(int(v)) for v in values]
        names = {_norm(k): k for k, _ in self.options}
        left = dict(self.options)
        out = []
        for v in values:
            key = names.get(_norm(v))
            if key is None or left[key] <= 0:
                why = "is not one of them" if key is None else ("cannot come up" if self.kind == "pick" else "is not left in the bag")
                raise IllegalMove(f"{self.text}: '{v}' {why}", rule=rule)
            if self.kind == "draw":
                left[key] -= 1
            out.append(key)
        return out


class NeedChance(Exception):
    """Raised while applying a move whose next random event has no answer yet."""

    def __init__(self, request: ChanceRequest) -> None:
        super().__init__(request.text)
        self.request = request


class TableAnswers:
    """Answers the engine's chance requests, in order, from what the table entered (each entry already checked
    by :meth:`ChanceRequest.check`); raises NeedChance for the first request without an entry."""

    def __init__(self, entries: list[list[str]]) -> None:
        self.entries, self.used = entries, 0

    def _next(self, request: ChanceRequest) -> list[str]:
        if self.used >= len(self.entries):
            raise NeedChance(request)
        self.used += 1
        return self.entries[self.used - 1]

    def die(self, sides: int, what: str) -> int:
        return int(self._next(ChanceRequest("die", what, 1, sides))[0])

    def dice(self, count: int, sides: int, what: str) -> list[int]:
        if count == 0:
            return []
        return [int(v) for v in self._next(ChanceRequest("dice", what, count, sides))]

    def pick(self, weights: dict[str, int], what: str, secret: bool = False) -> str:
        return self._next(ChanceRequest("pick", what, 1, options=tuple(weights.items()), secret=secret))[0]

    def draw(self, counts: dict[str, int], count: int, what: str) -> list[str]:
        if count == 0:
            return []
        return list(self._next(ChanceRequest("draw", what, count, options=tuple(counts.items()))))


def read_entry(move: str | dict) -> list[str] | None:
    """The values of an entry (``enter 3 5 6`` or ``{"enter": [3, 5, 6]}``), or None if ``move`` is not one."""
    if isinstance(move, dict):
        if set(move) != {ENTER}:
            return None
        values = move[ENTER]
        if not isinstance(values, list) or not values:
            raise MalformedMove('An entry object is {"enter": [values]}, e.g. {"enter": [3, 5, 6]}')
        return [str(v) for v in values]
    words = move.replace(",", " ").split()
    if not words or words[0].lower() != ENTER:
        return None
    if len(words) == 1:
        raise MalformedMove("An entry names what the table showed, e.g. 'enter 3 5 6'")
    return words[1:]


def is_undo(move: str | dict) -> bool:
    return move == {"undo": True} or (isinstance(move, str) and move.strip().lower() == "undo")
