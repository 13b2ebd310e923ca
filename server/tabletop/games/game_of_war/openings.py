"""Named ready-made deployments. Rules: ``game-of-war/setup``.

Each opening lists, per side, ``(unit letter, square)`` pairs. "default" is the de-facto
opening shared by several implementations (facts sheet, section 2.2); every unit of both
sides is online in it.
"""

from __future__ import annotations

from .board import index
from .units import KIND_BY_LETTER


def _squares(letter: str, *cells: tuple[int, int]) -> list[tuple[int, int]]:
    kind = KIND_BY_LETTER[letter]
    return [(kind, index(x, y)) for x, y in cells]


_DEFAULT_NORTH = (
    _squares("C", (2, 6), (3, 6), (2, 7), (3, 7))
    + _squares("I", (9, 5), (5, 6), (6, 6), (8, 6), (4, 7), (6, 7), (7, 7), (8, 7), (5, 8))
    + _squares("K", (7, 6))
    + _squares("W", (5, 7))
    + _squares("R", (2, 3))
    + _squares("X", (4, 5))
)
_DEFAULT_SOUTH = (
    _squares("I", (14, 10), (15, 10), (16, 10), (14, 11), (15, 11), (16, 11), (14, 12), (15, 12), (16, 12))
    + _squares("K", (17, 10))
    + _squares("C", (18, 10), (17, 11), (18, 11), (17, 12))
    + _squares("W", (15, 14))
    + _squares("R", (22, 14))
    + _squares("X", (16, 13))
)

#: name -> (description, (North's (kind, square) list, South's))
OPENINGS: dict[str, tuple[str, tuple[list[tuple[int, int]], list[tuple[int, int]]]]] = {
    "default": (
        "The common default opening: North massed west of its mountains, South around its "
        "northern fortress; every unit online.",
        (_DEFAULT_NORTH, _DEFAULT_SOUTH),
    ),
}


def opening_units(name: str, side: int) -> list[tuple[int, int]]:
    """The ``(kind, square)`` pairs of one side of a named opening."""
    return OPENINGS[name][1][side]

