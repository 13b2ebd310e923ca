"""Where a live game's chance comes from: the game's own seeded generator (this module, the default), or a real
table whose results a referee enters (``table.py``, option ``chance: table``).

The move path (``manager.GameSessions.play``) asks a game's chance source three things and nothing else:
whether a call is the table's own entry rather than a seat's moves (:meth:`ServerChance.entry`), the result of
applying a move (:meth:`ServerChance.apply`, the source of chance answers), and the game in memory after rows
were logged (:meth:`ServerChance.logged`). Loading a game replays its log row by row through
:meth:`ServerChance.replay`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.game import Engine, LegalMoves
from .storage import MoveRecord, Store

#: A game in memory (``live.LiveGame``, which is built on top of its chance source, so not imported here).
LiveGame = Any


@dataclass(frozen=True)
class Step:
    """One move of a played sequence (or a table's entry): its number in the log, notation, object and what it caused."""

    ply: int
    notation: str
    action: dict[str, Any]
    events: list[str]


class Entry(NamedTuple):
    """What the table showed for a pending move (or an undo), as a step to log for the seat whose move it was;
    ``already``: a retry of an entry the log already holds at that number (nothing is logged again)."""

    seat: int
    step: Step
    already: bool = False


class Applied(NamedTuple):
    """A move applied for real: the state after it, its events, and whether chance took part (it drew from the
    generator, or it now awaits the table)."""

    state: Any
    events: list[str]
    chance: bool


class ServerChance:
    """Chance drawn from the game's own generator, kept in its state: the same seed and moves give the same game.

    Nothing ever waits for chance and nobody enters it; a game of this kind has no referee.
    """

    #: Whether the game has a referee's token beside the seats' (who enters chance and may act for any seat).
    has_referee = False
    #: The move waiting for chance to be entered (``table.Pending``): never, here.
    pending: Any = None

    def new_state(self, engine: Engine, options: Any, names: list[str], seed: int) -> Any:
        return engine.new_game(options, len(names), seed, names)

    def to_move(self, engine: Engine, state: Any) -> list[int]:
        return engine.to_move(state)

    def legal_moves(self, live: LiveGame, seat: int, focus: str | None, referee: bool = False) -> LegalMoves:
        """The seat's legal moves (``referee``: asked with the referee's token, which acts for the seat)."""
        return live.engine.legal_moves(live.state, seat, focus)

    def entry(self, live: LiveGame, referee: bool, sequence: list[Any], expected: int | None, store: Store) -> Entry | None:
        """The table's entry or undo that ``sequence`` is, checked and ready to log, if it is one; never, here
        (every call is a seat's moves). ``store`` is read for a retried entry (``expected`` already used)."""
        return None

    def apply(self, engine: Engine, state: Any, seat: int, action: Any) -> Applied:
        drawn = engine.generator(state).draws
        after, events = engine.apply(state, seat, action)
        return Applied(after, events, engine.generator(after).draws != drawn)

    def replay(self, live: LiveGame, row: MoveRecord) -> None:
        """Bring ``live`` forward by one logged row (the log holds only accepted moves, so this succeeds)."""
        live.state = replay_move(live.engine, live.state, row)
        live.ply = row.ply

    def logged(self, live: LiveGame, rows: list[MoveRecord], state_after: Any) -> None:
        """``live`` after ``rows`` were committed, ``state_after`` being the state the move path computed for them."""
        live.state, live.ply = state_after, rows[-1].ply


def replay_move(engine: Engine, state: Any, move: MoveRecord) -> Any:
    """Apply a logged move again; the log only holds accepted moves, so this must succeed."""
    action = engine.read_move(move.action, state, move.seat)
    new_state, _ = engine.apply(state, move.seat, action)
    return new_state
