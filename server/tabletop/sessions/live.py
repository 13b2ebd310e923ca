"""A game in memory (:class:`LiveGame`: its record, rules, state and chance source) and what playing returns
(:class:`Played`). The manager keeps these; the durable truth is the store's log."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from ..core.game import ChancePreview, Engine, LegalMoves
from .chance import ServerChance, Step
from .storage import GameRecord, MoveRecord
from .table import TableChance, referee_act


def chance_source(options: BaseModel) -> ServerChance:
    """Where a game's chance comes from, by its options: the table (``chance: table``) or the server."""
    return TableChance() if getattr(options, "chance", "server") == "table" else ServerChance()


@dataclass(eq=False)
class LiveGame:
    """One game in memory: its record, rules, current state, how many moves it has and where its chance comes from."""

    record: GameRecord
    engine: Engine
    options: BaseModel
    state: Any
    ply: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    chance: ServerChance = field(default_factory=ServerChance)
    #: Moves the server made for seats by their standing answers (``standing.py``), by log number; kept in memory
    #: only, for texts ("passed for you"): after a reload they read as the seat's own.
    answered: set[int] = field(default_factory=set)
    #: Per seat, the last move it was told of in a "since your last move" digest (``app/digest.py``), in memory.
    told: dict[int, int] = field(default_factory=dict)
    #: Per seat, how many moves of others it was told of in digests since it was last shown the whole position.
    drift: dict[int, int] = field(default_factory=dict)
    #: Per seat, the position's parts as the seat was last shown them (``Engine.position_parts``; ``app/text.py``):
    #: the next position it is shown tells only the parts changed since. In memory; after a restart, told whole.
    seen: dict[int, dict[str, str]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def table(self) -> TableChance | None:
        """The table's record (moves not taken back, undo's limit), when chance comes from the table."""
        return self.chance if isinstance(self.chance, TableChance) else None

    @property
    def pending(self):
        """The move waiting for the table's dice or draw, if any."""
        return self.chance.pending

    def to_move(self) -> list[int]:
        """Seats whose decision the game awaits (none while the table's chance is awaited)."""
        return self.chance.to_move(self.engine, self.state)

    def legal_moves(self, seat: int, focus: str | None = None, referee: bool = False) -> LegalMoves:
        """The seat's legal moves, as its token (or, ``referee``, the referee's) may play them: while the table's
        chance is awaited, the entries that would answer it for the referee, and none for a seat."""
        return self.chance.legal_moves(self, seat, focus, referee)

    def fresh_state(self) -> Any:
        return self.chance.new_state(self.engine, self.options, self.record.seat_names, self.record.seed)

    def referee_act(self, move: MoveRecord) -> str | None:
        """What the referee did in a logged row ("entered 3, 5 for Ann's move"), or None for a seat's own move
        (and always None when the game's chance is not the table's)."""
        return None if self.table is None else referee_act(move.action, self.seat_label(move.seat))

    def seat_label(self, seat: int) -> str:
        """What texts call a seat: the player's name with what it plays ("Ann (North)"), else either alone."""
        name, role, default = self.record.seat_names[seat], self.engine.seat_roles(self.state)[seat], f"seat {seat}"
        if name == default:
            return role
        return name if role in (default, name) else f"{name} ({role})"


@dataclass(frozen=True)
class Played:
    """A sequence of moves that was accepted as one (or, on a dry run, would be), or a table's entry.

    A dry run that ends with a move involving chance carries ``chance`` (a preview of what it could
    do) instead of that move's result: its events are empty and ``state_after`` is the position
    before it.
    """

    game: LiveGame
    seat: int
    steps: list[Step]
    dry_run: bool
    state_after: Any
    chance: ChancePreview | None = None
    #: The move numbers the seat is shown: the log's, except during a secret phase (see Engine.secret_phase),
    #: when the seat's moves are numbered among the moves it may see.
    shown: list[int] = field(default_factory=list)
    #: A retry of moves this seat had already played (nothing was played again).
    already: bool = False
    #: What the table must enter next (a table game whose last move awaits dice or a draw).
    pending: str | None = None
    #: The referee's entry of what the table showed (or an undo), played for ``seat`` but not chosen by it.
    entry: bool = False
    #: Played with the referee's token (a table game's referee acts for the seat awaited and enters chance).
    referee: bool = False

    @property
    def notation(self) -> str:
        return "; ".join(s.notation for s in self.steps)

    @property
    def events(self) -> list[str]:
        return [e for s in self.steps for e in s.events]

    @property
    def ply(self) -> int:
        return self.steps[-1].ply
