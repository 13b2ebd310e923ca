"""SQLite persistence: a game is its options, seed and an append-only log of accepted moves.

The store is deliberately small (create, append, read) so another backend (PostgreSQL for a
fleet of servers) can stand in for it. A move counts as accepted only once its transaction has
committed. WAL with ``synchronous=NORMAL`` survives a killed process; ``FULL`` also survives
power loss at the cost of an fsync per move.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

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

Synchronous = Literal["NORMAL", "FULL"]


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


@dataclass(frozen=True, slots=True)
class MoveRecord:
    ply: int
    seat: int
    action: dict[str, Any]
    notation: str
    events: list[str]
    played_at: str


def record_of(row: tuple) -> GameRecord:
    """A ``games`` row as a record (JSON columns decoded)."""
    gid, game, options, seed, names, hashes, created = row
    return GameRecord(gid, game, json.loads(options), seed, json.loads(names), json.loads(hashes), created)


class PlyTaken(Exception):
    """Another writer (another server process) logged a move at this ply first."""


class GameStore:
    """One SQLite file; safe to share between threads of this process and between processes."""

    def __init__(self, path: Path | str, synchronous: Synchronous = "NORMAL") -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA busy_timeout=10000")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

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
        with self._lock:
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.game,
                    json.dumps(record.options),
                    record.seed,
                    json.dumps(record.seat_names),
                    json.dumps(record.token_hashes),
                    record.created_at,
                ),
            )

    def load_game(self, game_id: str) -> GameRecord | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else record_of(row)

    def list_games(self, limit: int = 100) -> list[tuple[GameRecord, int]]:
        """The newest games with their move counts."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) "
                "FROM games g ORDER BY g.created_at DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [(record_of(row[:7]), row[7]) for row in rows]

    def append_move(self, game_id: str, move: MoveRecord) -> None:
        """Log a move; returns only after the commit. Raises PlyTaken if that ply already exists."""
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        move.ply,
                        move.seat,
                        json.dumps(move.action),
                        move.notation,
                        json.dumps(move.events),
                        move.played_at,
                    ),
                )
            except sqlite3.IntegrityError as err:
                raise PlyTaken(f"ply {move.ply} of {game_id} is already logged") from err

    def last_ply(self, game_id: str) -> int:
        """The number of logged moves (plies count from 1 without gaps)."""
        with self._lock:
            row = self._db.execute("SELECT MAX(ply) FROM moves WHERE game_id = ?", (game_id,)).fetchone()
        return row[0] or 0

    def moves(self, game_id: str, since: int = 0) -> list[MoveRecord]:
        """Moves with ``ply > since``, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT ply, seat, action, notation, events, played_at FROM moves "
                "WHERE game_id = ? AND ply > ? ORDER BY ply",
                (game_id, since),
            ).fetchall()
        return [MoveRecord(p, s, json.loads(a), n, json.loads(e), t) for p, s, a, n, e, t in rows]
