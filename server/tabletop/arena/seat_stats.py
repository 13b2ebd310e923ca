"""What a player reports of its seat in one game: its :class:`SeatStats`, or one of the two ways its game ends early
(:class:`SeatLost`: the seat loses; :class:`ServiceFailed`: the game is abandoned). Every kind of player
(:mod:`tabletop.arena.players`, :mod:`tabletop.arena.model_player`) fills these and the runner reads them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class SeatStats:
    """What one player did in one game (the report sums these per player)."""

    decisions: int = 0  # moves it chose and the server accepted
    illegal: int = 0  # moves the server refused (malformed arguments included)
    limits_hit: int = 0  # decisions on which a per-turn limit was reached
    forfeits: int = 0  # decisions the arena made for it (a random legal move) after a limit
    fallbacks: int = 0  # bots: decisions where the position could not be rebuilt nor advice had (first legal move played)
    advised: int = 0  # bots: decisions taken from the server's suggest_move (the log could not be rebuilt)
    tool_calls: int = 0
    service_errors: int = 0  # failures of the model service or network (retried; never counted as play)
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0  # time spent deciding

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class SeatLost(Exception):
    """The player loses the game (a limit was hit and the tournament says so)."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.reason = reason


class ServiceFailed(Exception):
    """The model service kept failing after every retry: the game is abandoned, not counted against the model."""
