"""Persistence: a game is its options, seed and an append-only log of accepted moves.

:class:`Store` is the small interface the sessions use (create, append, read, hear of moves); it has
two implementations: :class:`GameStore`, one SQLite file (the embedded default, this module), and
``PostgresStore`` (``postgres.py``), the shared database of a fleet of stateless servers.
:func:`open_store` picks one from ``--db``: a ``postgresql://`` URL or a file. Both keep the same
tables, evolved by the same numbered :data:`MIGRATIONS`, and give the same guarantees: a move counts
as accepted only once its transaction has committed; the ``(game, ply)`` key refuses a second writer
(:class:`PlyTaken`); the move log refuses updates and deletions.

SQLite: WAL with ``synchronous=NORMAL`` survives a killed process; ``FULL`` also survives power loss
at the cost of an fsync per move. Any failure of the database (disk full, locked for longer than the
busy timeout, an I/O error) is a :class:`StorageError` saying what could not be done; the file and its
folder are made readable by their owner only, and a damaged file is refused when opened.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal, NamedTuple

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
)

#: How long a write waits for another process's lock before it fails (milliseconds).
BUSY_TIMEOUT_MS = 10_000

Synchronous = Literal["NORMAL", "FULL"]


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``--db`` names a PostgreSQL database (``postgresql://…`` or ``postgres://…``) rather than a file."""
    return str(target).startswith(("postgresql://", "postgres://"))


def default_db_target() -> str:
    """``$TABLETOP_DB`` as given (a file or a ``postgresql://`` URL), else the default SQLite file."""
    env = os.environ.get("TABLETOP_DB")
    if env and is_postgres_url(env):
        return env
    return str(default_db_path())


def default_db_path() -> Path:
    """``$TABLETOP_DB``, else ``$XDG_DATA_HOME/tabletop-mcp/games.sqlite3`` (``~/.local/share`` by default)."""
    if env := os.environ.get("TABLETOP_DB"):
        return Path(env).expanduser()
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tabletop-mcp" / "games.sqlite3"


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


@dataclass(frozen=True, slots=True)
class MoveRecord:
    ply: int
    seat: int
    action: dict[str, Any]
    notation: str
    events: list[str]
    played_at: str
    public: bool = True  # visible to everyone when played (false: a secret move, such as a hidden placement)


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


def record_of(row: tuple) -> GameRecord:
    """A ``games`` row as a record (JSON columns decoded)."""
    gid, game, options, seed, names, hashes, created, chosen = row
    return GameRecord(gid, game, json.loads(options), seed, json.loads(names), json.loads(hashes), created, bool(chosen))


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
    def create_game(self, record: GameRecord) -> None:
        """Store a new game; :class:`IdTaken`, with nothing stored, if its id is taken."""

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


def open_store(target: str | Path, synchronous: Synchronous = "NORMAL") -> Store:
    """The store ``--db`` names: PostgreSQL for a ``postgresql://`` URL, else the SQLite file at that path."""
    if is_postgres_url(target):
        from .postgres import PostgresStore  # psycopg is imported only by those who use PostgreSQL

        return PostgresStore(str(target))
    return GameStore(Path(target).expanduser(), synchronous=synchronous)


class GameStore(Store):
    """One SQLite file; safe to share between threads of this process and between processes."""

    def __init__(self, path: Path | str, synchronous: Synchronous = "NORMAL", busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
        self.path = Path(path)
        self.location = str(path)
        self._lock = threading.Lock()
        memory = str(path) == ":memory:"
        created = not memory and not self.path.exists()
        try:
            if not memory:
                make_private_folder(self.path.parent)
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        except OSError as err:
            raise StorageError(f"Cannot create the game database's folder {self.path.parent}: {err.strerror}") from None
        except sqlite3.Error as err:
            raise StorageError(f"Cannot open the game database {self.path}: {err}") from None
        try:
            if created:
                os.chmod(self.path, 0o600)
            self._db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            if not memory and self._db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise StorageError(f"{self.path} is damaged (SQLite's quick check failed); restore it from a backup")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._migrate()
        except sqlite3.DatabaseError as err:
            self._db.close()
            raise StorageError(f"{self.path} is not a usable SQLite game database ({err})") from None
        except OSError as err:
            self._db.close()
            raise StorageError(f"Cannot use {self.path}: {err.strerror}") from None

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Hold the connection and turn any database failure into a StorageError saying what failed."""
        with self._lock:
            try:
                yield
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as err:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise StorageError(f"The game database could not {doing} ({err}); nothing was changed, try again") from None

    def _migrate(self) -> None:
        """Apply the schema changes this file has not had yet (games made before a change keep its default)."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        for number, change in enumerate(MIGRATIONS[version:], start=version + 1):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if self._db.execute("PRAGMA user_version").fetchone()[0] < number:  # another process may have done it
                    for statement in change.sqlite.split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {number}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    @property
    def cache_dir(self) -> Path | None:
        """A folder for data derived from the games, kept beside the database: ``<db file>.cache`` (the
        user of a subfolder creates it, owner-only). None for an in-memory store."""
        if str(self.path) == ":memory:":
            return None
        return self.path.with_name(self.path.name + ".cache")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_game(self, record: GameRecord) -> None:
        with self._guard("save the new game"), _id_taken_on_conflict(record.id):
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.game,
                    json.dumps(record.options),
                    record.seed,
                    json.dumps(record.seat_names),
                    json.dumps(record.token_hashes),
                    record.created_at,
                    int(record.seed_chosen),
                ),
            )

    def load_game(self, game_id: str) -> GameRecord | None:
        with self._guard("read the game"):
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else record_of(row)

    def list_games(self, limit: int = 100) -> list[tuple[GameRecord, int]]:
        """The newest games with their public move counts (the last move everyone could see: a hidden
        deployment's placements are not counted until it is revealed)."""
        with self._guard("list the games"):
            rows = self._db.execute(
                "SELECT g.*, COALESCE((SELECT MAX(ply) FROM moves m WHERE m.game_id = g.id AND m.public = 1), 0) "
                "FROM games g ORDER BY g.created_at DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [(record_of(row[:8]), row[8]) for row in rows]

    def append_moves(self, game_id: str, moves: list[MoveRecord]) -> None:
        """Log moves (a sequence played as one) in one transaction; returns only after the commit.

        Raises PlyTaken, with nothing logged, if another writer logged any of those plies first, and
        StorageError, with nothing logged, if the database fails.
        """
        rows = [
            (game_id, m.ply, m.seat, json.dumps(m.action), m.notation, json.dumps(m.events), m.played_at, int(m.public))
            for m in moves
        ]
        insert = "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        with self._guard("log the move"):
            try:
                if len(rows) == 1:  # one statement is its own transaction (autocommit)
                    self._db.execute(insert, rows[0])
                    return
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(insert, rows)
                self._db.execute("COMMIT")
            except sqlite3.IntegrityError as err:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise PlyTaken(f"ply {moves[0].ply} of {game_id} is already logged") from err

    def last_ply(self, game_id: str) -> int:
        """The number of logged moves (plies count from 1 without gaps)."""
        with self._guard("read the game"):
            row = self._db.execute("SELECT MAX(ply) FROM moves WHERE game_id = ?", (game_id,)).fetchone()
        return row[0] or 0

    def moves(self, game_id: str, since: int = 0, limit: int | None = None) -> list[MoveRecord]:
        """Moves with ``ply > since``, in order (at most ``limit`` of them)."""
        with self._guard("read the move log"):
            rows = self._db.execute(
                "SELECT ply, seat, action, notation, events, played_at, public FROM moves "
                "WHERE game_id = ? AND ply > ? ORDER BY ply LIMIT ?",
                (game_id, since, -1 if limit is None else limit),
            ).fetchall()
        return [MoveRecord(p, s, json.loads(a), n, json.loads(e), t, bool(v)) for p, s, a, n, e, t, v in rows]

    # ---- tournaments ---------------------------------------------------------------------------
    def create_tournament(self, record: TournamentRecord) -> None:
        row = (record.id, record.name, record.game, json.dumps(record.spec), record.created_at, record.finished_at)
        with self._guard("save the new tournament"):
            try:
                self._db.execute(f"INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", row)
            except sqlite3.IntegrityError:
                raise IdTaken(f"a tournament with the id {record.id} already exists") from None

    def load_tournament(self, tournament_id: str) -> TournamentRecord | None:
        with self._guard("read the tournament"):
            row = self._db.execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
        return None if row is None else tournament_of(row)

    def list_tournaments(self, limit: int = 50) -> list[TournamentRecord]:
        with self._guard("list the tournaments"):
            rows = self._db.execute(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments ORDER BY created_at DESC LIMIT ?", (limit,)
            ).fetchall()
        return [tournament_of(row) for row in rows]

    def tournament_games(self, tournament_id: str) -> list[TournamentGame]:
        with self._guard("read the tournament's games"):
            rows = self._db.execute(
                f"SELECT {TOURNAMENT_GAME_COLUMNS} FROM tournament_games WHERE tournament_id = ? ORDER BY slot", (tournament_id,)
            ).fetchall()
        return [tournament_game_of(row) for row in rows]

    def save_tournament_game(self, game: TournamentGame) -> None:
        row = tournament_game_row(game)
        with self._guard("record the tournament's game"):
            self._db.execute(SAVE_TOURNAMENT_GAME.format(p="?"), row)

    def finish_tournament(self, tournament_id: str, when: str) -> None:
        with self._guard("mark the tournament finished"):
            self._db.execute("UPDATE tournaments SET finished_at = ? WHERE id = ?", (when, tournament_id))

    def backup(self, target: Path) -> None:
        """A consistent copy of the live database at ``target`` (SQLite's online backup), owner-only."""
        if target.exists():
            raise StorageError(f"{target} already exists; give a new file name")
        make_private_folder(target.parent)
        copy = sqlite3.connect(str(target))
        try:
            os.chmod(target, 0o600)
            with self._guard("copy the database"):
                self._db.backup(copy)
        finally:
            copy.close()


@contextmanager
def _id_taken_on_conflict(game_id: str) -> Iterator[None]:
    try:
        yield
    except sqlite3.IntegrityError:
        raise IdTaken(f"a game with the id {game_id} already exists") from None


def make_private_folder(folder: Path) -> None:
    """Create ``folder`` (and missing parents) readable by its owner only; an existing folder is left as it is."""
    missing = []
    for parent in [folder, *folder.parents]:
        if parent.exists():
            if not parent.is_dir():
                raise NotADirectoryError(20, f"{parent} is a file, not a folder")
            break
        missing.append(parent)
    for parent in reversed(missing):
        parent.mkdir(mode=0o700)
        os.chmod(parent, 0o700)
