"""The 25 x 20 board: squares, names, canonical terrain and precomputed bit masks.

Rules: ``game-of-war/board``.

A square is an index ``y * 25 + x`` (x = column 0..24 from West to East, y = row 0..19 from
North to South) and, as a bit mask, ``1 << index``. Square names are a column letter ``a..y``
followed by a row number ``1..20``: ``a1`` is the North-West corner, ``y20`` the South-East
corner. North is at the top: rows 1..10 are North's territory, rows 11..20 South's.
"""

from __future__ import annotations

from collections.abc import Iterator

WIDTH = 25
HEIGHT = 20
SQUARES = WIDTH * HEIGHT
BOARD = (1 << SQUARES) - 1

NORTH, SOUTH = 0, 1
SIDE_NAMES = ("North", "South")
COLUMNS = "abcdefghijklmnopqrstuvwxy"


def index(x: int, y: int) -> int:
    """The square at column ``x``, row ``y`` (both 0-based)."""
    return y * WIDTH + x


def square_name(sq: int) -> str:
    """``index(4, 6)`` -> ``"e7"``."""
    return f"{COLUMNS[sq % WIDTH]}{sq // WIDTH + 1}"


SQUARE_INDEX = {square_name(sq): sq for sq in range(SQUARES)}


def parse_square(name: str) -> int | None:
    """``"e7"`` -> its index, or None when the text names no square."""
    return SQUARE_INDEX.get(name.strip().lower())


def mask_of(squares) -> int:
    mask = 0
    for sq in squares:
        mask |= 1 << sq
    return mask


def bits(mask: int) -> Iterator[int]:
    """The squares set in ``mask``, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def names(mask: int) -> list[str]:
    return [square_name(sq) for sq in bits(mask)]


# ---- canonical terrain (facts sheet, section 2), as (x, y) ------------------------------------
_MOUNTAINS = [
    (9, 2), (10, 2), (11, 2), (12, 2), (9, 3), (9, 4), (9, 6), (9, 7), (9, 8),
    (10, 13), (11, 13), (12, 13), (13, 13), (14, 13), (15, 13), (15, 15), (15, 16), (15, 17),
]
_PASSES = [(9, 5), (15, 14)]
_FORTRESSES = [(7, 1), (20, 7), (12, 8), (14, 11), (2, 12), (22, 14)]
_ARSENALS = ([(14, 1), (7, 3)], [(2, 19), (22, 19)])

MOUNTAINS = mask_of(index(x, y) for x, y in _MOUNTAINS)
PASSES = mask_of(index(x, y) for x, y in _PASSES)
FORTRESSES = mask_of(index(x, y) for x, y in _FORTRESSES)
ARSENAL_SQUARES = tuple(mask_of(index(x, y) for x, y in side) for side in _ARSENALS)
PASSABLE = BOARD & ~MOUNTAINS

_ROWS_PER_SIDE = HEIGHT // 2
TERRITORY = (
    (1 << (_ROWS_PER_SIDE * WIDTH)) - 1,
    BOARD & ~((1 << (_ROWS_PER_SIDE * WIDTH)) - 1),
)

# ---- geometry ---------------------------------------------------------------------------------
#: The eight lines, as (dx, dy); the first four step to higher indices.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1))


def _walk(sq: int, dx: int, dy: int) -> list[int]:
    x, y = sq % WIDTH, sq // WIDTH
    out = []
    x, y = x + dx, y + dy
    while 0 <= x < WIDTH and 0 <= y < HEIGHT:
        out.append(index(x, y))
        x, y = x + dx, y + dy
    return out


#: LINES[sq]: for each of the 8 directions, the squares met walking away from sq, nearest first.
LINES = tuple(tuple(tuple(_walk(sq, dx, dy)) for dx, dy in DIRECTIONS) for sq in range(SQUARES))
#: Rays as masks, split by whether they run to higher (first four directions) or lower indices.
RAYS_UP = tuple(tuple(mask_of(line) for line in LINES[sq][:4] if line) for sq in range(SQUARES))
RAYS_DOWN = tuple(tuple(mask_of(line) for line in LINES[sq][4:] if line) for sq in range(SQUARES))
NEIGHBOURS = tuple(mask_of(line[0] for line in LINES[sq] if line) for sq in range(SQUARES))
#: Squares on the 8 lines within distance 4 of sq (the farthest any unit acts in combat).
COMBAT_ZONE = tuple(mask_of(s for line in LINES[sq] for s in line[:4]) for sq in range(SQUARES))

_NOT_WEST_EDGE = BOARD & ~mask_of(index(0, y) for y in range(HEIGHT))
_NOT_EAST_EDGE = BOARD & ~mask_of(index(WIDTH - 1, y) for y in range(HEIGHT))


def dilate(mask: int) -> int:
    """``mask`` plus every square next to it (8 ways)."""
    row = mask | ((mask << 1) & _NOT_WEST_EDGE) | ((mask >> 1) & _NOT_EAST_EDGE)
    return (row | (row << WIDTH) | (row >> WIDTH)) & BOARD


def terrain_name(sq: int) -> str:
    bit = 1 << sq
    if bit & MOUNTAINS:
        return "mountain"
    if bit & PASSES:
        return "pass"
    if bit & FORTRESSES:
        return "fortress"
    if bit & (ARSENAL_SQUARES[0] | ARSENAL_SQUARES[1]):
        return "arsenal"
    return "plain"
