"""What every game database shares: the records, the :class:`Store` interface, the schema and its migrations.

A game is its options, seed and an append-only log of accepted moves. :class:`Store` is the small interface
the sessions use (create, append, read, hear of moves); its two implementations are ``GameStore``, one SQLite
file (``store.py``), and ``PostgresStore`` (``postgres.py``). Both keep the same tables, evolved by the same
numbered :data:`MIGRATIONS`, and give the same guarantees: a move counts as accepted only once its transaction
has committed; the ``(game, ply)`` key refuses a second writer (:class:`PlyTaken`); the move log refuses
updates and deletions; any failure of the database is a :class:`StorageError` that changed nothing.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

from ..core.errors import GameError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    seat_names  TEXT NOT NULL,
    token_hashes TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id   TEXT NOT NULL REFERENCES games(id),
    ply       INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    action    TEXT NOT NULL,
    notation  TEXT NOT NULL,
    events    TEXT NOT NULL,
    played_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS moves_are_append_only_u BEFORE UPDATE ON moves
    BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS moves_are_append_only_d BEFORE DELETE ON moves
    BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
"""


#: Migration 3: a tournament (its spec as JSON) and its games by slot (players by seat as JSON, the outcome as JSON).
TOURNAMENT_TABLES = """
CREATE TABLE IF NOT EXISTS tournaments (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    game        TEXT NOT NULL,
    spec        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    finished_at TEXT
);
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    slot          INTEGER NOT NULL,
    game_id       TEXT,
    players       TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('pending', 'running', 'finished', 'abandoned')),
    outcome       TEXT,
    PRIMARY KEY (tournament_id, slot)
);
CREATE INDEX IF NOT EXISTS tournaments_by_creation ON tournaments (created_at)
"""


#: Migration 5: the bot seats of a game (the server holds their tokens: nobody is given them) and, per game with
#: bots, whether it has finished and which server drives its bots until when (seconds since the epoch).
BOT_TABLES = """
CREATE TABLE IF NOT EXISTS bot_seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    bot     TEXT NOT NULL,
    seconds DOUBLE PRECISION NOT NULL,
    token   TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS bot_games (
    game_id     TEXT PRIMARY KEY REFERENCES games(id),
    finished    {flag},
    holder      TEXT,
    lease_until DOUBLE PRECISION
);
CREATE INDEX IF NOT EXISTS bot_games_unfinished ON bot_games (finished)
"""


#: Migration 6: a seat's standing answers (``Engine.standing_model`` as JSON): decisions the server makes for the
#: seat by itself (passing the out-of-turn windows its answers cover), kept so a restarted server keeps them.
STANDING_TABLE = """
CREATE TABLE IF NOT EXISTS standing_answers (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    answers TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
)
"""


class Migration(NamedTuple):
    """One schema change, written for each store; its number is its place in :data:`MIGRATIONS`."""

    why: str
    sqlite: str
    postgres: str


#: Schema changes after the first version, in order, the same for both stores. SQLite counts those applied in
#: ``PRAGMA user_version``, PostgreSQL in the table ``tabletop_schema``.
MIGRATIONS = (
    Migration(
        "whether the creator chose the seed (and so can predict the dice); server-drawn seeds stay secret",
        "ALTER TABLE games ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE games ADD COLUMN seed_chosen BOOLEAN NOT NULL DEFAULT TRUE",
    ),
    Migration(
        "whether a move was public when played (a hidden deployment's placements are not), so that listings can "
        "count moves without telling anyone how many secret moves were made",
        "ALTER TABLE moves ADD COLUMN public INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE moves ADD COLUMN public BOOLEAN NOT NULL DEFAULT TRUE",
    ),
    Migration(
        "list the newest games without reading every game (a tournament's database holds many)",
        "CREATE INDEX IF NOT EXISTS games_by_creation ON games (created_at)",
        "CREATE INDEX IF NOT EXISTS games_by_creation ON games (created_at)",
    ),
    Migration(
        "tournaments run by `tabletop arena` and their games, kept beside the games so that a stopped tournament "
        "resumes where it was (statements separated by semicolons)",
        TOURNAMENT_TABLES,
        TOURNAMENT_TABLES,
    ),
    Migration(
        "seats the server plays itself (bots), with the seat tokens nobody else is given, and per game with bots "
        "whether it is finished and which server drives its bots until when (a lease)",
        BOT_TABLES.format(flag="INTEGER NOT NULL DEFAULT 0"),
        BOT_TABLES.format(flag="BOOLEAN NOT NULL DEFAULT FALSE"),
    ),
    Migration(
        "a seat's standing answers (the out-of-turn windows the server passes for it), kept across restarts",
        STANDING_TABLE,
        STANDING_TABLE,
    ),
)

#: How long a write waits for another process's lock before it fails (milliseconds).
BUSY_TIMEOUT_MS = 10_000


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seat_names: list[str]
    token_hashes: list[str]
    created_at: str
    seed_chosen: bool = False  # the creator picked the seed (reproducible, but the creator can predict the dice)
    bots: dict[int, str] = field(default_factory=dict)  # seats the server plays itself: seat -> bot (public)


@dataclass(frozen=True, slots=True)
class MoveRecord:
    ply: int
    seat: int
    action: dict[str, Any]
    notation: str
    events: list[str]
    played_at: str
    public: bool = True  # visible to everyone when played (false: a secret move, such as a hidden placement)


@dataclass(frozen=True, slots=True)
class BotSeatRecord:
    """A seat the server plays itself: which bot, how long it may think a decision, and the seat's token (kept
    here only: the bot plays through the same seat API as anyone holding it)."""

    seat: int
    bot: str
    seconds: float
    token: str


#: What a tournament game can be: not started, being played, played to the end, or given up (never counted).
TOURNAMENT_GAME_STATUSES = ("pending", "running", "finished", "abandoned")


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """One tournament of ``tabletop arena``: its name, game and the whole spec it runs (JSON-able)."""

    id: str
    name: str
    game: str
    spec: dict[str, Any]
    created_at: str
    finished_at: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One slot of a tournament's schedule: the players by seat and, once started, its game and outcome."""

    tournament_id: str
    slot: int
    players: list[str]
    status: str = "pending"  # one of TOURNAMENT_GAME_STATUSES
    game_id: str | None = None
    outcome: dict[str, Any] | None = None  # the game's Outcome (winners, reason, scores) plus what the arena recorded


def tournament_of(row: tuple) -> TournamentRecord:
    tid, name, game, spec, created, finished = row
    return TournamentRecord(tid, name, game, json.loads(spec), created, finished)


def tournament_game_of(row: tuple) -> TournamentGame:
    tid, slot, game_id, players, status, outcome = row
    return TournamentGame(tid, slot, json.loads(players), status, game_id, None if outcome is None else json.loads(outcome))


def tournament_game_row(game: TournamentGame) -> tuple:
    """The columns of ``tournament_games`` in table order, after checking the status."""
    if game.status not in TOURNAMENT_GAME_STATUSES:
        raise ValueError(f"unknown tournament game status {game.status!r}")
    outcome = None if game.outcome is None else json.dumps(game.outcome)
    return (game.tournament_id, game.slot, game.game_id, json.dumps(game.players), game.status, outcome)


#: Insert a tournament game, or replace what its slot had (the same statement in both stores).
SAVE_TOURNAMENT_GAME = (
    "INSERT INTO tournament_games (tournament_id, slot, game_id, players, status, outcome) VALUES ({p}, {p}, {p}, {p}, {p}, {p}) "
    "ON CONFLICT (tournament_id, slot) DO UPDATE SET game_id = excluded.game_id, players = excluded.players, "
    "status = excluded.status, outcome = excluded.outcome"
)
TOURNAMENT_COLUMNS = "id, name, game, spec, created_at, finished_at"
TOURNAMENT_GAME_COLUMNS = "tournament_id, slot, game_id, players, status, outcome"


def game_row(record: GameRecord) -> tuple:
    """A record as a ``games`` row, in table order (JSON columns encoded): the inverse of :func:`record_of`."""
    return (record.id, record.game, json.dumps(record.options), record.seed, json.dumps(record.seat_names),
            json.dumps(record.token_hashes), record.created_at, record.seed_chosen)


def bot_seat_rows(game_id: str, bots: list[BotSeatRecord] | tuple) -> list[tuple]:
    """A game's bot seats as ``bot_seats`` rows (game_id, seat, bot, seconds, token)."""
    return [(game_id, b.seat, b.bot, b.seconds, b.token) for b in bots]


def record_of(row: tuple, bots: list[tuple[int, str]] | None = None) -> GameRecord:
    """A ``games`` row as a record (JSON columns decoded), with its bot seats' ``(seat, bot)`` rows."""
    gid, game, options, seed, names, hashes, created, chosen = row
    return GameRecord(gid, game, json.loads(options), seed, json.loads(names), json.loads(hashes), created, bool(chosen),
                      dict(bots or []))


class PlyTaken(Exception):
    """Another writer (another server process) logged a move at this ply first."""


class IdTaken(Exception):
    """A game with this id already exists (nothing was stored)."""


class StorageError(GameError):
    """The game database failed (disk full, locked too long, damaged, unreadable): nothing was changed."""

    kind = "storage_error"


#: Told of moves committed by any process: ``(game id, its last ply)``.
MoveHeard = Callable[[str, int], None]
#: Told that moves may have been missed (the listening connection was re-established): re-read the log.
MissedMoves = Callable[[], None]


class Store(ABC):
    """A game database: what the sessions need, and all they may assume.

    Every write is acknowledged only after it has committed; ``append_moves`` raises :class:`PlyTaken`, with
    nothing logged, when another writer logged one of those plies first; every database failure is a
    :class:`StorageError`. The store keeps nothing in memory that another process would need.
    """

    #: What to show people: a file's path, or a URL without its password.
    location: str
    #: Whether :meth:`subscribe` hears moves committed by other processes as they commit (PostgreSQL's
    #: LISTEN/NOTIFY). When false, waiters must re-read the log now and then to see other processes' moves.
    hears_other_processes: bool = False
    #: Whether the database is a server shared over the network by a fleet (PostgreSQL): every call is a round
    #: trip that may wait (keep it off an event loop), and no process may keep state another needs.
    remote: bool = False

    @abstractmethod
    def create_game(self, record: GameRecord, bots: list[BotSeatRecord] | tuple = ()) -> None:
        """Store a new game with its bot seats, in one transaction; :class:`IdTaken`, with nothing stored, if its
        id is taken."""

    @abstractmethod
    def load_game(self, game_id: str) -> GameRecord | None: ...

    @abstractmethod
    def list_games(self, limit: int = 100) -> list[tuple[GameRecord, int]]:
        """The newest games with their public move counts."""

    @abstractmethod
    def append_moves(self, game_id: str, moves: list[MoveRecord]) -> None:
        """Log moves (a sequence played as one) in one transaction; returns only after the commit."""

    def append_move(self, game_id: str, move: MoveRecord) -> None:
        """Log one move (see append_moves)."""
        self.append_moves(game_id, [move])

    @abstractmethod
    def last_ply(self, game_id: str) -> int:
        """The number of logged moves (plies count from 1 without gaps)."""

    @abstractmethod
    def moves(self, game_id: str, since: int = 0, limit: int | None = None) -> list[MoveRecord]:
        """Moves with ``ply > since``, in order (at most ``limit`` of them)."""

    # ---- bot seats (``seats/``) ----------------------------------------------------------------
    @abstractmethod
    def bot_seats(self, game_id: str) -> list[BotSeatRecord]:
        """The game's bot seats, by seat (none for a game without bots)."""

    @abstractmethod
    def unfinished_bot_games(self) -> list[str]:
        """The ids of games with bot seats not yet marked finished."""

    @abstractmethod
    def take_lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """Whether ``holder`` now drives the bots of ``game_id`` for ``seconds`` more: it held the lease already,
        or nobody did, or the last holder's ran out (then it is taken over). One atomic statement, so of several
        servers asking at once exactly one gets it; False for a finished game."""

    @abstractmethod
    def end_lease(self, game_id: str, holder: str, finished: bool = False) -> None:
        """``holder`` lets the lease go (if it held it); ``finished``: the game is over (whoever holds the lease),
        its bots are done and nobody drives it again."""

    @abstractmethod
    def standing_answers(self, game_id: str) -> dict[int, dict[str, Any]]:
        """The standing answers set in this game, per seat."""

    @abstractmethod
    def set_standing_answers(self, game_id: str, seat: int, answers: dict[str, Any] | None) -> None:
        """Set (or, with None, clear) a seat's standing answers."""

    def subscribe(self, heard: MoveHeard, missed: MissedMoves) -> None:
        """Be told of moves other processes commit (only where :attr:`hears_other_processes`)."""

    # ---- tournaments (``tabletop arena``) -----------------------------------------------------
    @abstractmethod
    def create_tournament(self, record: TournamentRecord) -> None:
        """Store a new tournament; :class:`IdTaken`, with nothing stored, if its id is taken."""

    @abstractmethod
    def load_tournament(self, tournament_id: str) -> TournamentRecord | None: ...

    @abstractmethod
    def list_tournaments(self, limit: int = 50) -> list[TournamentRecord]:
        """The newest tournaments first."""

    @abstractmethod
    def tournament_games(self, tournament_id: str) -> list[TournamentGame]:
        """Every game of a tournament's schedule recorded so far, by slot."""

    @abstractmethod
    def save_tournament_game(self, game: TournamentGame) -> None:
        """Record a slot of a tournament's schedule, replacing what the slot had (committed on return)."""

    @abstractmethod
    def finish_tournament(self, tournament_id: str, when: str) -> None:
        """Mark a tournament finished at ``when`` (ISO time)."""

    @property
    def cache_dir(self) -> Path | None:
        """A folder for data derived from the games (solved Cthulhu Dice tables); None keeps it in memory."""
        return None

    def backup(self, target: Path) -> None:
        raise StorageError(f"{self.location} cannot be copied by tabletop backup; use the database's own tools")

    @abstractmethod
    def close(self) -> None: ...
