"""How much one call may ask of the sessions: the longest id or token looked up, the longest move read, the most
moves played as one sequence. Anything beyond is refused unread, with its start echoed."""

from __future__ import annotations

import json
from typing import Any

from ..core.errors import MalformedMove
from ..core.text import clip

#: The longest game id or seat token looked up (longer ones are refused unread).
MAX_ID = 100
#: The most moves one apply_move may play as a sequence.
MAX_SEQUENCE = 50
#: The longest move accepted, in characters of notation (objects: of their JSON); longer ones are refused unread.
MAX_MOVE_TEXT = 200

#: A move as a caller gives it: notation, or the object legal_moves shows.
Move = str | dict[str, Any]


def within_limits(move: Move) -> Move:
    """The move, if it is short enough to be read; else a MalformedMove echoing only its start."""
    size = len(move) if isinstance(move, str) else len(json.dumps(move, default=str))
    limit = MAX_MOVE_TEXT if isinstance(move, str) else 10 * MAX_MOVE_TEXT
    if size > limit:
        raise MalformedMove(f"A move is at most {limit} characters long; this one has {size}: {clip(str(move), 60)}")
    return move


def as_sequence(moves: Move | list[Move]) -> list[Move]:
    """One move or a list of them, as a list of 1 to MAX_SEQUENCE moves."""
    sequence = moves if isinstance(moves, list) else [moves]
    if not 1 <= len(sequence) <= MAX_SEQUENCE:
        raise MalformedMove(f"Give between 1 and {MAX_SEQUENCE} moves, not {len(sequence)}")
    return sequence
