"""The game state: pieces as a dict and as bit masks, the turn, and the rulings in force.

Rules: ``game-of-war/turn``. A state is never changed once built: ``clone`` gives the copy a
rule function edits before handing it back.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from tabletop.core.rng import Rng

from .board import ARSENAL_SQUARES, MOUNTAINS, SIDE_NAMES, parse_square
from .network import compute_network
from .options import GameOfWarOptions
from .units import KIND_BY_LETTER, is_relay, piece

SETUP, PLAY, OVER = "setup", "play", "over"
NO_SQUARE = -1


class State:
    """One position of A Game of War with everything needed to go on from it."""

    __slots__ = (
        "options",
        "rng",
        "phase",
        "pieces",  # square -> piece code (side << 3 | kind); arsenals are not pieces
        "units",  # per side: mask of squares holding that side's mobile units
        "relays",  # per side: mask of its relays (both kinds)
        "arsenals",  # per side: mask of its surviving arsenals
        "network",  # Network computed from the three above
        "committed",  # per side, during set-up: deployment committed
        "side",  # side to move
        "turn",  # player turns begun, from 1
        "moved",  # squares of units that have moved this turn
        "moves_made",
        "moves_closed",  # no more moves this turn (arsenal capture under that ruling)
        "attack_used",
        "retreat",  # square of the side to move's unit that must retreat first, or NO_SQUARE
        "no_attack",  # square of the unit that retreated this turn (it cannot attack)
        "threat",  # square of an enemy unit driven back by this turn's attack
        "die",  # the die rolled for the first player (0 if none)
        "winner",  # winning side, None while playing or on a draw
        "reason",
        "log",  # (previous log, (seat, action)) cons cells; None when empty
    )

    def clone(self) -> State:
        copy = State.__new__(State)
        for name in State.__slots__:
            setattr(copy, name, getattr(self, name))
        return copy

    # ---- reading ---------------------------------------------------------------------------
    @property
    def occupied(self) -> int:
        return self.units[0] | self.units[1]

    def actions(self) -> list[tuple[int, Any]]:
        """Every accepted ``(seat, action)``, oldest first."""
        out = []
        cell = self.log
        while cell is not None:
            cell, entry = cell
            out.append(entry)
        out.reverse()
        return out

    def side_pieces(self, side: int) -> Iterator[tuple[int, int]]:
        for sq, code in self.pieces.items():
            if code >> 3 == side:
                yield sq, code

    # ---- editing (only on a fresh clone) ---------------------------------------------------
    def put(self, sq: int, code: int) -> None:
        self.pieces = {**self.pieces, sq: code}
        side, bit = code >> 3, 1 << sq
        self.units = _with(self.units, side, self.units[side] | bit)
        if is_relay(code & 7):
            self.relays = _with(self.relays, side, self.relays[side] | bit)

    def take(self, sq: int) -> int:
        pieces = dict(self.pieces)
        code = pieces.pop(sq)
        self.pieces = pieces
        side, keep = code >> 3, ~(1 << sq)
        self.units = _with(self.units, side, self.units[side] & keep)
        self.relays = _with(self.relays, side, self.relays[side] & keep)
        return code

    def shift(self, origin: int, destination: int) -> None:
        pieces = dict(self.pieces)
        code = pieces.pop(origin)
        pieces[destination] = code
        self.pieces = pieces
        side, swap = code >> 3, (1 << origin) | (1 << destination)
        self.units = _with(self.units, side, self.units[side] ^ swap)
        if self.relays[side] >> origin & 1:
            self.relays = _with(self.relays, side, self.relays[side] ^ swap)

    def refresh_network(self) -> None:
        self.network = compute_network(
            self.arsenals,
            self.units,
            self.relays,
            self.options.enemy_relays_block_lines,
            self.options.adjacent_relays_reemit,
        )

    def record(self, seat: int, action: Any) -> None:
        self.log = (self.log, (seat, action))


def _with(pair: tuple[int, int], side: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if side == 0 else (pair[0], value)


def empty_state(options: GameOfWarOptions, seed: int) -> State:
    """The board with its arsenals and no units, in set-up."""
    state = State.__new__(State)
    state.options = options
    state.rng = Rng(seed)
    state.phase = SETUP
    state.pieces = {}
    state.units = (0, 0)
    state.relays = (0, 0)
    state.arsenals = ARSENAL_SQUARES
    state.committed = (False, False)
    state.side = 0
    state.turn = 0
    state.moved = 0
    state.moves_made = 0
    state.moves_closed = False
    state.attack_used = False
    state.retreat = NO_SQUARE
    state.no_attack = NO_SQUARE
    state.threat = NO_SQUARE
    state.die = 0
    state.winner = None
    state.reason = ""
    state.log = None
    state.refresh_network()
    return state


def build_position(
    units: Mapping[str, str],
    *,
    side_to_move: int = 0,
    arsenals: Mapping[int, list[str]] | None = None,
    options: GameOfWarOptions | None = None,
    seed: int = 0,
) -> State:
    """A position in play built by hand, for tests, puzzles and analysis.

    ``units`` maps square names to unit letters (upper case North, lower case South:
    ``{"e7": "C", "h9": "i"}``). ``arsenals`` keeps, for each side it names (0 North, 1
    South), only the listed canonical arsenal squares; unnamed sides keep both. Raises
    ValueError on a square that cannot hold the unit.
    """
    state = empty_state(options or GameOfWarOptions(), seed)
    if arsenals is not None:
        kept = []
        for side in (0, 1):
            if side not in arsenals:
                kept.append(ARSENAL_SQUARES[side])
                continue
            mask = 0
            for name in arsenals[side]:
                sq = parse_square(name)
                if sq is None or not ARSENAL_SQUARES[side] >> sq & 1:
                    raise ValueError(f"{name!r} is not an arsenal square of {SIDE_NAMES[side]}")
                mask |= 1 << sq
            kept.append(mask)
        state.arsenals = (kept[0], kept[1])
    for name, char in units.items():
        sq = parse_square(name)
        side = 0 if char.isupper() else 1
        blocked = MOUNTAINS | state.arsenals[1 - side]
        if sq is None or blocked >> sq & 1 or char.upper() not in KIND_BY_LETTER or sq in state.pieces:
            raise ValueError(f"cannot place {char!r} on {name!r}")
        state.put(sq, piece(side, KIND_BY_LETTER[char.upper()]))
    state.phase = PLAY
    state.committed = (True, True)
    state.side = side_to_move
    state.turn = 1
    state.refresh_network()
    return state


__all__ = ["NO_SQUARE", "OVER", "PLAY", "SETUP", "State", "build_position", "empty_state"]
