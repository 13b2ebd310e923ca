"""PostgreSQL persistence: the shared database of a fleet of stateless servers.

Any number of ``tabletop serve`` processes, on any number of machines, use one PostgreSQL database
through this store; none keeps anything another needs. The guarantees are SQLite's:

- a move is acknowledged only after its transaction committed (each write is one statement, run in
  autocommit, so it is its own transaction; a sequence of moves is one multi-row ``INSERT``);
- the primary key ``(game_id, ply)`` refuses a second writer: of two processes racing for a ply, exactly
  one commits and the other gets :class:`PlyTaken`;
- triggers refuse ``UPDATE``, ``DELETE`` and ``TRUNCATE`` of the move log.

Once a move (or a sequence) has committed, the writer announces it with ``pg_notify('tabletop_moves',
'<game> <ply>')`` in a transaction of its own that does not wait for the disk (``synchronous_commit``
off: a notification need not survive a crash). Not in the move's own transaction: PostgreSQL holds a
database-wide lock from a notifying transaction's commit until its WAL is flushed, which would let only
one move commit per disk flush across the whole fleet (measured: 314 moves/s with 8 writers here,
against about 1,000 without). The price: a server killed between a move's commit and its announcement
leaves other servers' waiters asleep until their wait_for_turn deadline (50 s at most), when they
re-read the log anyway. Each process keeps one listening connection (not one per waiter) in a thread
that hands what it hears to the sessions; when that connection drops it reconnects and tells the
sessions they may have missed moves, so their waiters re-read the log.

Connections come from a small pool of this module (:class:`ConnectionPool`): idle connections are reused,
new ones opened when needed, never in the background, so that the first request after the database comes
back connects at once (psycopg_pool's reconnection back-off would keep a recovered database unused for up to
minutes). A connection found broken is replaced and the operation tried again on another; for a write, the
retry first reads back whether the lost statement committed (a commit whose answer was lost), so a move is
never logged twice nor reported lost when it was kept.
The schema is created and migrated at start-up under an advisory lock, with the same numbered
:data:`~tabletop.sessions.store.MIGRATIONS` as SQLite; its version is kept in ``tabletop_schema``.

The database a store was started with is known by its identity (its oid in ``pg_database``), checked on every new
connection: a database dropped under a running store (and perhaps made again under the same name, even set up by
another server) is a StorageError, said once in the log, so that nothing is acknowledged into a database that is
not the one the server's games are in. Connections open at the drop end with it (``DROP DATABASE`` waits for them,
or ``WITH (FORCE)`` ends them), so checking new connections is enough.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg.pq import TransactionStatus

from .storage import (
    BUSY_TIMEOUT_MS,
    MIGRATIONS,
    BotSeatRecord,
    GameRecord,
    IdTaken,
    MissedMoves,
    MoveHeard,
    MoveRecord,
    PlyTaken,
    SAVE_TOURNAMENT_GAME,
    TOURNAMENT_COLUMNS,
    TOURNAMENT_GAME_COLUMNS,
    StorageError,
    Store,
    TournamentGame,
    TournamentRecord,
    bot_seat_rows,
    game_row,
    record_of,
    tournament_game_of,
    tournament_game_row,
    tournament_of,
)

log = logging.getLogger("tabletop.store")
#: Where a store says, in one line, that its database went away under it (as the SQLite store does).
gone_log = logging.getLogger("tabletop.storage")

#: The channel every committed move is announced on.
CHANNEL = "tabletop_moves"
#: The advisory lock held while the schema is created or migrated (processes starting together take turns).
SCHEMA_LOCK = 0x7461626C65746F70  # "tabletop"
#: Connections the pool keeps at most (per process); blocking tools run in up to 40 worker threads.
POOL_SIZE = 10
#: Tries of one operation when its connection turns out to be broken (each on another connection).
ATTEMPTS = 3

#: Version 0 of the schema, as SQLite's ``SCHEMA``; MIGRATIONS then bring it to the current version.
POSTGRES_SCHEMA = """
CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    options      TEXT NOT NULL,
    seed         BIGINT NOT NULL,
    seat_names   TEXT NOT NULL,
    token_hashes TEXT NOT NULL,
    created_at   TEXT NOT NULL
);
CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games(id),
    ply       INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    action    TEXT NOT NULL,
    notation  TEXT NOT NULL,
    events    TEXT NOT NULL,
    played_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE FUNCTION tabletop_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the move log is append-only';
END $$;
CREATE TRIGGER moves_are_append_only BEFORE UPDATE OR DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION tabletop_refuse_change();
CREATE TRIGGER moves_are_never_truncated BEFORE TRUNCATE ON moves
    FOR EACH STATEMENT EXECUTE FUNCTION tabletop_refuse_change();
CREATE TABLE tabletop_schema (version INTEGER NOT NULL);
INSERT INTO tabletop_schema VALUES (0);
"""

GAME_COLUMNS = "id, game, options, seed, seat_names, token_hashes, created_at, seed_chosen"
MOVE_COLUMNS = "ply, seat, action, notation, events, played_at, public"

T = TypeVar("T")


def redacted(url: str) -> str:
    """The URL without its password (in the user part or as a ``password=`` parameter); the rest as given."""
    url = re.sub(r"^([a-z]+://[^:/@?]*):[^@/?]*@", r"\1:***@", url)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", url)


def database_identity(conn: psycopg.Connection) -> int:
    """The oid of the database ``conn`` is connected to: a database made again under the same name has another."""
    return conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()[0]


def first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


class PoolTimeout(Exception):
    """Every connection of the pool stayed busy for the whole time-out."""


class ConnectionPool:
    """Up to ``max_size`` autocommit connections shared by the threads of one process.

    An idle connection is reused (the most recently used first, so that few stay warm); a new one is opened
    only when a thread needs one and none is idle, in that thread, with the real error if it cannot be; a
    connection returned broken (or inside a transaction) is closed and forgotten.
    """

    def __init__(self, connect: Callable[[], psycopg.Connection], max_size: int, timeout: float) -> None:
        self._connect = connect
        self.max_size = max_size
        self.timeout = timeout
        self._idle: list[psycopg.Connection] = []
        self._open = 0  # idle ones and those lent out
        self._ready = threading.Condition()
        self._closed = False

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        conn = self._get()
        try:
            yield conn
        finally:
            self._put(conn)

    def _get(self) -> psycopg.Connection:
        deadline = time.monotonic() + self.timeout
        with self._ready:
            while True:
                if self._closed:
                    raise PoolTimeout("the store is closed")
                if self._idle:
                    return self._idle.pop()
                if self._open < self.max_size:
                    self._open += 1
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise PoolTimeout(f"all {self.max_size} connections stayed busy for {self.timeout:g} s")
                self._ready.wait(left)
        try:
            return self._connect()
        except BaseException:
            with self._ready:
                self._open -= 1
                self._ready.notify()
            raise

    def _put(self, conn: psycopg.Connection) -> None:
        usable = not conn.closed and not conn.broken and conn.info.transaction_status == TransactionStatus.IDLE
        with self._ready:
            if usable and not self._closed:
                self._idle.append(conn)
            else:
                self._open -= 1
            self._ready.notify()
        if not usable or self._closed:
            conn.close()

    def drop_idle(self) -> None:
        """Close every idle connection (after one was found broken, the others likely are too: the server restarted)."""
        with self._ready:
            idle, self._idle = self._idle, []
            self._open -= len(idle)
            self._ready.notify_all()
        for conn in idle:
            conn.close()

    def close(self) -> None:
        with self._ready:
            self._closed = True
        self.drop_idle()


class PostgresStore(Store):
    """One PostgreSQL database shared by any number of server processes."""

    hears_other_processes = True
    remote = True

    def __init__(self, url: str, pool_size: int = POOL_SIZE, timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
        self.url = url
        self.location = redacted(url)
        self.timeout = timeout_ms / 1000
        self._heard: list[MoveHeard] = []
        self._missed: list[MissedMoves] = []
        self._listener: MoveListener | None = None
        self._closed = False
        self._said_gone = False
        self._database = self._prepare()
        self._pool = ConnectionPool(self._pooled_connection, pool_size, self.timeout)

    # ---- connections ------------------------------------------------------------------------
    def connect(self, **extra: Any) -> psycopg.Connection:
        """A new connection of its own (autocommit), outside the pool."""
        return psycopg.connect(
            self.url, autocommit=True, connect_timeout=max(1, int(self.timeout)), fallback_application_name="tabletop-mcp", **extra
        )

    def _pooled_connection(self) -> psycopg.Connection:
        """A connection for the pool, to the database the store was started with (else a StorageError): it gives up
        on a statement (a lock held too long, say) after the timeout."""
        try:
            conn = self.connect()
        except psycopg.OperationalError as err:  # a failed connection carries no SQLSTATE: its message says it
            if re.search(r'database ".*" does not exist', str(err)):
                raise self._gone() from None
            raise
        try:
            if database_identity(conn) != self._database:
                raise self._gone()
            conn.execute("SELECT set_config('statement_timeout', %s, false)", (f"{int(self.timeout * 1000)}ms",))
        except BaseException:
            conn.close()
            raise
        return conn

    def _gone(self) -> StorageError:
        """The StorageError for a database dropped (or dropped and made again) since the store started, said once in
        the server's log however many calls are refused after it."""
        message = (
            f"The game database {self.location} was dropped (or dropped and made again) while this server was running: "
            "nothing from now on would last. Restore it and restart the server"
        )
        if not self._said_gone:
            self._said_gone = True
            gone_log.error(message)
        return StorageError(message)

    def _prepare(self) -> int:
        """Create the schema, or bring it up to date, once, whichever process starts first; the database's identity."""
        try:
            with self.connect() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                if conn.execute("SELECT to_regclass('tabletop_schema')").fetchone()[0] is None:
                    if conn.execute("SELECT to_regclass('moves')").fetchone()[0] is not None:
                        raise StorageError(
                            f"{self.location} already has a table called moves that tabletop did not make; "
                            "give tabletop a database (or a schema, with ?options=-csearch_path=NAME) of its own"
                        )
                    conn.execute(POSTGRES_SCHEMA)
                version = conn.execute("SELECT version FROM tabletop_schema").fetchone()[0]
                if version > len(MIGRATIONS):
                    raise StorageError(
                        f"{self.location} was set up by a newer version of tabletop (schema {version}; this one knows "
                        f"{len(MIGRATIONS)}): upgrade this server"
                    )
                for number, change in enumerate(MIGRATIONS[version:], start=version + 1):
                    conn.execute(change.postgres)
                    conn.execute("UPDATE tabletop_schema SET version = %s", (number,))
                return database_identity(conn)
        except psycopg.Error as err:
            raise StorageError(f"Cannot use the PostgreSQL database {self.location}: {first_line(err)}") from None

    def schema_version(self) -> int:
        return self._run("read the schema version", lambda c: c.execute("SELECT version FROM tabletop_schema").fetchone()[0])

    def _run(
        self,
        doing: str,
        work: Callable[[psycopg.Connection], T],
        settle: Callable[[psycopg.Connection], tuple[bool, T | None]] | None = None,
    ) -> T:
        """``work`` on a pooled connection, tried again on another if the connection turns out to be broken.

        ``settle`` (for writes) runs first on a retry: it reads whether the lost attempt had committed after all,
        and says whether the work is done (with its result) or must be done again.
        """
        lost: BaseException | None = None
        for _ in range(ATTEMPTS):
            try:
                with self._pool.connection() as conn:
                    try:
                        if lost is not None and settle is not None:
                            done, value = settle(conn)
                            if done:
                                return value  # type: ignore[return-value]
                        return work(conn)
                    except psycopg.OperationalError as err:
                        if not conn.broken:
                            raise
                        lost = err
                self._pool.drop_idle()  # the server may have restarted: the next try opens a new connection
            except (PlyTaken, IdTaken):
                raise
            except (psycopg.Error, PoolTimeout) as err:
                raise self._failure(doing, err, in_doubt=lost is not None and settle is not None) from None
        raise self._failure(doing, lost, in_doubt=settle is not None)

    @staticmethod
    def _failure(doing: str, err: BaseException | None, in_doubt: bool) -> StorageError:
        if in_doubt:
            return StorageError(
                f"The connection to the game database was lost while trying to {doing}, and whether it was recorded "
                f"could not be checked ({first_line(err)}). Retry with expected_ply: a move that was recorded is "
                "then answered as already played"
            )
        return StorageError(f"The game database could not {doing} ({first_line(err)}); nothing was changed, try again")

    # ---- games ------------------------------------------------------------------------------
    def create_game(self, record: GameRecord, bots: list[BotSeatRecord] | tuple = ()) -> None:
        row = game_row(record)

        def insert(conn: psycopg.Connection) -> None:
            try:
                with conn.transaction():
                    conn.execute(f"INSERT INTO games ({GAME_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", row)
                    if bots:
                        with conn.cursor() as cursor:
                            cursor.executemany(
                                "INSERT INTO bot_seats (game_id, seat, bot, seconds, token) VALUES (%s, %s, %s, %s, %s)",
                                bot_seat_rows(record.id, bots),
                            )
                        conn.execute("INSERT INTO bot_games (game_id) VALUES (%s)", (record.id,))
            except psycopg.errors.UniqueViolation:
                raise IdTaken(f"a game with the id {record.id} already exists") from None

        def settle(conn: psycopg.Connection) -> tuple[bool, None]:
            """After a lost connection: was this game stored (done), or is its id still free (store it)?"""
            found = conn.execute("SELECT token_hashes FROM games WHERE id = %s", (record.id,)).fetchone()
            if found is None:
                return False, None
            if found[0] == row[5]:
                return True, None
            raise IdTaken(f"a game with the id {record.id} already exists")

        self._run("save the new game", insert, settle)

    def load_game(self, game_id: str) -> GameRecord | None:
        def read(conn: psycopg.Connection) -> tuple[Any, list[Any]]:
            row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = %s", (game_id,)).fetchone()
            return row, conn.execute("SELECT seat, bot FROM bot_seats WHERE game_id = %s", (game_id,)).fetchall()

        row, bots = self._run("read the game", read)
        return None if row is None else record_of(row, bots)

    def list_games(self, limit: int = 100) -> list[tuple[GameRecord, int]]:
        """The newest games with their public move counts (see GameStore.list_games)."""
        query = (
            f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS.split(', '))}, "
            "COALESCE((SELECT MAX(ply) FROM moves m WHERE m.game_id = g.id AND m.public), 0) "
            "FROM games g ORDER BY g.created_at DESC LIMIT %s"
        )
        rows = self._run("list the games", lambda c: c.execute(query, (limit,)).fetchall())
        return [(record_of(row[:8]), row[8]) for row in rows]

    # ---- standing answers -------------------------------------------------------------------
    def standing_answers(self, game_id: str) -> dict[int, dict[str, Any]]:
        rows = self._run("read the game's standing answers", lambda c: c.execute(
            "SELECT seat, answers FROM standing_answers WHERE game_id = %s", (game_id,)).fetchall())
        return {seat: json.loads(answers) for seat, answers in rows}

    def set_standing_answers(self, game_id: str, seat: int, answers: dict[str, Any] | None) -> None:
        if answers is None:  # one statement each: repeating it after a lost answer is harmless
            self._run("clear the seat's standing answers", lambda c: c.execute(
                "DELETE FROM standing_answers WHERE game_id = %s AND seat = %s", (game_id, seat)))
        else:
            self._run("keep the seat's standing answers", lambda c: c.execute(
                "INSERT INTO standing_answers (game_id, seat, answers) VALUES (%s, %s, %s) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET answers = excluded.answers",
                (game_id, seat, json.dumps(answers))))

    # ---- bot seats --------------------------------------------------------------------------
    def bot_seats(self, game_id: str) -> list[BotSeatRecord]:
        rows = self._run("read the game's bot seats", lambda c: c.execute(
            "SELECT seat, bot, seconds, token FROM bot_seats WHERE game_id = %s ORDER BY seat", (game_id,)).fetchall())
        return [BotSeatRecord(*row) for row in rows]

    def unfinished_bot_games(self) -> list[str]:
        rows = self._run("list the games with bots",
                         lambda c: c.execute("SELECT game_id FROM bot_games WHERE NOT finished").fetchall())
        return [r[0] for r in rows]

    def take_lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """One UPDATE, timed by the database's clock (the servers' own clocks may differ): of several servers
        asking at once, the row lock lets exactly one through. Repeating it after a lost answer is harmless."""
        taken = self._run("take the game's bots", lambda c: c.execute(
            "UPDATE bot_games SET holder = %s, lease_until = extract(epoch FROM clock_timestamp()) + %s "
            "WHERE game_id = %s AND NOT finished "
            "AND (holder IS NULL OR holder = %s OR lease_until < extract(epoch FROM clock_timestamp()))",
            (holder, seconds, game_id, holder)).rowcount)
        return taken == 1

    def end_lease(self, game_id: str, holder: str, finished: bool = False) -> None:
        self._run("let the game's bots go", lambda c: c.execute(
            "UPDATE bot_games SET holder = NULL, lease_until = NULL, finished = finished OR %s "
            "WHERE game_id = %s AND (holder = %s OR %s)", (finished, game_id, holder, finished)))

    # ---- the move log -----------------------------------------------------------------------
    def append_moves(self, game_id: str, moves: list[MoveRecord]) -> None:
        """Log moves (a sequence played as one) in one statement, so one transaction; returns after the commit.

        Raises PlyTaken, with nothing logged, if another writer logged any of those plies first, and
        StorageError, with nothing logged, if the database fails.
        """
        rows = [
            (game_id, m.ply, m.seat, json.dumps(m.action), m.notation, json.dumps(m.events), m.played_at, m.public)
            for m in moves
        ]
        placeholders = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s)"] * len(rows))
        insert = f"INSERT INTO moves (game_id, {MOVE_COLUMNS}) VALUES {placeholders}"
        flat = [value for row in rows for value in row]

        def append(conn: psycopg.Connection) -> None:
            try:
                conn.execute(insert, flat)
            except psycopg.errors.UniqueViolation as err:
                raise PlyTaken(f"ply {moves[0].ply} of {game_id} is already logged") from err
            self._announce(conn, game_id, moves[-1].ply)

        def settle(conn: psycopg.Connection) -> tuple[bool, None]:
            """After a lost connection: were these moves committed (done), or is the ply still free (append)?"""
            logged = conn.execute(
                f"SELECT game_id, {MOVE_COLUMNS} FROM moves WHERE game_id = %s AND ply BETWEEN %s AND %s ORDER BY ply",
                (game_id, moves[0].ply, moves[-1].ply),
            ).fetchall()
            if not logged:
                return False, None
            if [tuple(r) for r in logged] == rows:
                self._announce(conn, game_id, moves[-1].ply)
                return True, None
            raise PlyTaken(f"ply {moves[0].ply} of {game_id} is already logged")

        self._run("log the move", append, settle)

    @staticmethod
    def _announce(conn: psycopg.Connection, game_id: str, ply: int) -> None:
        """Tell every listening server that ``game_id`` has moves up to ``ply`` (after they committed)."""
        try:
            conn.execute(
                "SELECT set_config('synchronous_commit', 'off', true), pg_notify(%s, %s)", (CHANNEL, f"{game_id} {ply}")
            )
        except psycopg.Error as err:  # the move is committed and is acknowledged; waiters elsewhere re-read at their deadline
            log.warning("could not announce move %s of %s (%s)", ply, game_id, first_line(err))

    def last_ply(self, game_id: str) -> int:
        return self._run(
            "read the game",
            lambda c: c.execute("SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = %s", (game_id,)).fetchone()[0],
        )

    def moves(self, game_id: str, since: int = 0, limit: int | None = None) -> list[MoveRecord]:
        rows = self._run(
            "read the move log",
            lambda c: c.execute(
                f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = %s AND ply > %s ORDER BY ply LIMIT %s",
                (game_id, since, limit),
            ).fetchall(),
        )
        return [MoveRecord(p, s, json.loads(a), n, json.loads(e), t, bool(v)) for p, s, a, n, e, t, v in rows]

    # ---- tournaments ---------------------------------------------------------------------------
    def create_tournament(self, record: TournamentRecord) -> None:
        row = (record.id, record.name, record.game, json.dumps(record.spec), record.created_at, record.finished_at)

        def insert(conn: psycopg.Connection) -> None:
            try:
                conn.execute(f"INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)", row)
            except psycopg.errors.UniqueViolation:
                raise IdTaken(f"a tournament with the id {record.id} already exists") from None

        def settle(conn: psycopg.Connection) -> tuple[bool, None]:
            found = conn.execute("SELECT spec, created_at FROM tournaments WHERE id = %s", (record.id,)).fetchone()
            if found is None:
                return False, None
            if tuple(found) == (row[3], row[4]):
                return True, None
            raise IdTaken(f"a tournament with the id {record.id} already exists")

        self._run("save the new tournament", insert, settle)

    def load_tournament(self, tournament_id: str) -> TournamentRecord | None:
        row = self._run(
            "read the tournament",
            lambda c: c.execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = %s", (tournament_id,)).fetchone(),
        )
        return None if row is None else tournament_of(row)

    def list_tournaments(self, limit: int = 50) -> list[TournamentRecord]:
        rows = self._run(
            "list the tournaments",
            lambda c: c.execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments ORDER BY created_at DESC LIMIT %s", (limit,)).fetchall(),
        )
        return [tournament_of(row) for row in rows]

    def tournament_games(self, tournament_id: str) -> list[TournamentGame]:
        rows = self._run(
            "read the tournament's games",
            lambda c: c.execute(
                f"SELECT {TOURNAMENT_GAME_COLUMNS} FROM tournament_games WHERE tournament_id = %s ORDER BY slot", (tournament_id,)
            ).fetchall(),
        )
        return [tournament_game_of(row) for row in rows]

    def save_tournament_game(self, game: TournamentGame) -> None:
        """An upsert: doing it twice (a retry after a lost connection) leaves the same row."""
        row = tournament_game_row(game)
        self._run("record the tournament's game", lambda c: c.execute(SAVE_TOURNAMENT_GAME.format(p="%s"), row))

    def finish_tournament(self, tournament_id: str, when: str) -> None:
        self._run(
            "mark the tournament finished",
            lambda c: c.execute("UPDATE tournaments SET finished_at = %s WHERE id = %s", (when, tournament_id)),
        )

    def backup(self, target) -> None:
        raise StorageError(f"{self.location} is a PostgreSQL database: copy it with pg_dump (tabletop backup copies SQLite files)")

    # ---- hearing of moves -------------------------------------------------------------------
    def subscribe(self, heard: MoveHeard, missed: MissedMoves) -> None:
        """Be told of every move committed by any process (``heard``), and of every time the listening connection
        was (re)established (``missed``: moves committed meanwhile were not heard; re-read the log)."""
        self._heard.append(heard)
        self._missed.append(missed)
        if self._listener is None and not self._closed:
            self._listener = MoveListener(self)
            self._listener.start()

    @property
    def listener(self) -> "MoveListener | None":
        return self._listener

    def _deliver(self, payload: str) -> None:
        game_id, _, ply = payload.rpartition(" ")
        if not game_id or not ply.isdigit():
            return
        for heard in list(self._heard):
            heard(game_id, int(ply))

    def _resync(self) -> None:
        for missed in list(self._missed):
            missed()

    @property
    def cache_dir(self) -> Path:
        """Derived data (solved Cthulhu Dice tables) stays on this machine: ``$XDG_CACHE_HOME/tabletop``
        (``~/.cache/tabletop``), shared by the fleet's processes on it; nothing another machine needs."""
        return Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache").expanduser() / "tabletop"

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._listener is not None:
            self._listener.stop()
        self._pool.close()


class MoveListener(threading.Thread):
    """The process's one listening connection: hears every committed move and hands it on.

    It reconnects whenever its connection drops (backing off up to 2 s between tries) and, once listening
    again, reports that moves may have been missed, so that waiters re-read the log.
    """

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(name="tabletop-move-listener", daemon=True)
        self.store = store
        self.listening = threading.Event()
        self.backend_pid: int | None = None
        self.connections = 0  # how many times it (re)connected
        self._stopping = threading.Event()
        self._wake = f"tabletop_stop_{secrets.token_hex(8)}"  # a channel only this listener listens on

    def run(self) -> None:
        delay, complained = 0.05, False
        while not self._stopping.is_set():
            try:
                with self.store.connect(keepalives=1, keepalives_idle=10, keepalives_interval=5, keepalives_count=3) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    conn.execute(f"LISTEN {self._wake}")
                    self.backend_pid = conn.info.backend_pid
                    self.connections += 1
                    if complained:
                        log.warning("listening for moves on PostgreSQL again")
                    delay, complained = 0.05, False
                    self.listening.set()
                    self.store._resync()  # moves committed while nobody listened: the waiters re-read the log
                    while not self._stopping.is_set():
                        for note in conn.notifies(timeout=5.0):
                            if self._stopping.is_set():
                                break
                            if note.channel == CHANNEL:
                                self._hand_on(note.payload)
            except psycopg.Error as err:
                if not self._stopping.is_set() and not complained:
                    log.warning("lost the PostgreSQL connection that listens for moves (%s); reconnecting", first_line(err))
                    complained = True
            finally:
                self.listening.clear()
            self._stopping.wait(delay)
            delay = min(delay * 2, 2.0)

    def _hand_on(self, payload: str) -> None:
        try:
            self.store._deliver(payload)
        except Exception:  # noqa: BLE001 - a failing subscriber must not stop the listening
            log.exception("a subscriber failed on the move notification %r", payload)

    def stop(self) -> None:
        self._stopping.set()
        if self.listening.is_set():
            try:
                with self.store.connect() as conn:
                    conn.execute(f"NOTIFY {self._wake}")
            except psycopg.Error:
                pass  # it stops at its next time-out instead
        self.join(timeout=6)
