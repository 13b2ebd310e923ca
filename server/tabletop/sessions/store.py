"""The embedded game database: one SQLite file (:class:`GameStore`), and :func:`open_store`, which picks a store.

:func:`open_store` reads ``--db``: a ``postgresql://`` URL opens ``PostgresStore`` (``postgres.py``), anything
else the SQLite file at that path. What both stores share (records, the interface, the schema and its
migrations, their guarantees) is in ``storage.py``.

SQLite: WAL with ``synchronous=NORMAL`` survives a killed process; ``FULL`` also survives power loss
at the cost of an fsync per move. Any failure of the database (disk full, locked for longer than the
busy timeout, an I/O error) is a :class:`StorageError` saying what could not be done; the file and its
folder are made readable by their owner only, and a damaged file is refused when opened.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from .storage import (  # the shared names are importable from here too
    BUSY_TIMEOUT_MS,
    MIGRATIONS,
    BotSeatRecord,
    SAVE_TOURNAMENT_GAME,
    SCHEMA,
    TOURNAMENT_COLUMNS,
    TOURNAMENT_GAME_COLUMNS,
    GameRecord,
    IdTaken,
    MoveRecord,
    PlyTaken,
    StorageError,
    Store,
    TournamentGame,
    TournamentRecord,
    bot_seat_rows,
    game_row,
    now,
    record_of,
    tournament_game_of,
    tournament_game_row,
    tournament_of,
)

Synchronous = Literal["NORMAL", "FULL"]


#: Where the store says, in one line, that its file went away under it.
log = logging.getLogger("tabletop.storage")


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
        self._file = None if memory else file_identity(self.path)
        self._said_gone = False

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Hold the connection and turn any database failure into a StorageError saying what failed. Before and
        after the work, the file must still be the one opened: a move committed into a file deleted or replaced
        meanwhile would be lost at the next start, so it is never acknowledged."""
        with self._lock:
            self._same_file(doing)
            try:
                yield
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as err:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise StorageError(f"The game database could not {doing} ({err}); nothing was changed, try again") from None
            self._same_file(doing)

    def _same_file(self, doing: str) -> None:
        """A StorageError (and one line in the server's log) if the database file was deleted, moved or replaced
        since it was opened."""
        if self._file is None or file_identity(self.path) == self._file:
            return
        message = (
            f"The game database {self.path} was deleted, moved or replaced while this server was running, so it could "
            f"not {doing}: nothing from now on would last. Restore the file (or put it back) and restart the server"
        )
        if not self._said_gone:  # one line in the log, however many calls are refused after it
            self._said_gone = True
            log.error(message)
        raise StorageError(message)

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

    def create_game(self, record: GameRecord, bots: list[BotSeatRecord] | tuple = ()) -> None:
        row = game_row(record)
        with self._guard("save the new game"), _id_taken_on_conflict(record.id):
            if not bots:  # one statement is its own transaction (autocommit)
                self._db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
                self._db.executemany(
                    "INSERT INTO bot_seats (game_id, seat, bot, seconds, token) VALUES (?, ?, ?, ?, ?)",
                    bot_seat_rows(record.id, bots),
                )
                self._db.execute("INSERT INTO bot_games (game_id) VALUES (?)", (record.id,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def load_game(self, game_id: str) -> GameRecord | None:
        with self._guard("read the game"):
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            bots = self._db.execute("SELECT seat, bot FROM bot_seats WHERE game_id = ?", (game_id,)).fetchall()
        return None if row is None else record_of(row, bots)

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

    # ---- standing answers ----------------------------------------------------------------------
    def standing_answers(self, game_id: str) -> dict[int, dict[str, Any]]:
        with self._guard("read the game's standing answers"):
            rows = self._db.execute("SELECT seat, answers FROM standing_answers WHERE game_id = ?", (game_id,)).fetchall()
        return {seat: json.loads(answers) for seat, answers in rows}

    def set_standing_answers(self, game_id: str, seat: int, answers: dict[str, Any] | None) -> None:
        with self._guard("keep the seat's standing answers"):  # one statement: its own transaction
            if answers is None:
                self._db.execute("DELETE FROM standing_answers WHERE game_id = ? AND seat = ?", (game_id, seat))
            else:
                self._db.execute(
                    "INSERT INTO standing_answers (game_id, seat, answers) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_id, seat) DO UPDATE SET answers = excluded.answers",
                    (game_id, seat, json.dumps(answers)),
                )

    # ---- bot seats -----------------------------------------------------------------------------
    def bot_seats(self, game_id: str) -> list[BotSeatRecord]:
        with self._guard("read the game's bot seats"):
            rows = self._db.execute(
                "SELECT seat, bot, seconds, token FROM bot_seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()
        return [BotSeatRecord(*row) for row in rows]

    def unfinished_bot_games(self) -> list[str]:
        with self._guard("list the games with bots"):
            return [r[0] for r in self._db.execute("SELECT game_id FROM bot_games WHERE finished = 0").fetchall()]

    def take_lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """One UPDATE (SQLite runs it alone), timed by this machine's clock: every process sharing the file is on it."""
        moment = time.time()
        with self._guard("take the game's bots"):
            taken = self._db.execute(
                "UPDATE bot_games SET holder = ?, lease_until = ? WHERE game_id = ? AND finished = 0 "
                "AND (holder IS NULL OR holder = ? OR lease_until < ?)",
                (holder, moment + seconds, game_id, holder, moment),
            ).rowcount
        return taken == 1

    def end_lease(self, game_id: str, holder: str, finished: bool = False) -> None:
        with self._guard("let the game's bots go"):
            self._db.execute(
                "UPDATE bot_games SET holder = NULL, lease_until = NULL, finished = MAX(finished, ?) "
                "WHERE game_id = ? AND (holder = ? OR ?)",
                (int(finished), game_id, holder, int(finished)),
            )

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


def file_identity(path: Path) -> tuple[int, int] | None:
    """The file at ``path`` as the system knows it (device and inode), or None if there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


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
