"""Fixtures shared by every test: the anyio backend, a throwaway PostgreSQL server, and a store of each kind.

PostgreSQL is started once per test session, only if a test asks for it, from the server programs on this
machine (see postgres_cluster.py); each test gets a database of its own, dropped afterwards. When the
programs are missing, every PostgreSQL test fails saying what to install: none is skipped.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings
from postgres_cluster import Cluster, PostgresMissing

from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import Store, open_store

# CI runs the same examples every time (a failure there is reproducible); elsewhere Hypothesis explores.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

STORE_KINDS = ["sqlite", "postgresql"]


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="session")
def postgres_cluster():
    """One PostgreSQL server for the whole test session, in a temporary folder, on a free port of 127.0.0.1."""
    try:
        cluster = Cluster().start()
    except PostgresMissing as err:
        pytest.fail(str(err), pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster):
    """A new, empty database of its own for one test; its URL."""
    url = postgres_cluster.create_database()
    yield url
    postgres_cluster.drop_database(url)  # WITH (FORCE): ends what the test left connected


class Stores:
    """Where one test keeps its games, in SQLite or PostgreSQL, and ways to open that database again (as another
    server process would) or to reach it behind the store's back."""

    def __init__(self, kind: str, target: str, cluster: Cluster | None = None) -> None:
        self.kind = kind
        self.target = target  # what --db takes: a file or a URL
        self.cluster = cluster
        self._opened: list[Store] = []
        self._raw = None

    @property
    def postgres(self) -> bool:
        return self.kind == "postgresql"

    def open(self, **options) -> Store:
        """Another store on the same database (each is what one server process has)."""
        if self.postgres:
            from tabletop.sessions.postgres import PostgresStore

            store: Store = PostgresStore(self.target, **options)
        else:
            store = open_store(self.target) if not options else _sqlite(self.target, **options)
        self._opened.append(store)
        return store

    def sessions(self, **options) -> GameSessions:
        return GameSessions(self.open(), **options)

    def raw(self):
        """A plain connection to the database (sqlite3 or psycopg, autocommit), shared by the test."""
        if self._raw is None:
            if self.postgres:
                import psycopg

                self._raw = psycopg.connect(self.target, autocommit=True)
            else:
                self._raw = sqlite3.connect(self.target, isolation_level=None)
        return self._raw

    def execute(self, sql: str, params: tuple = ()):
        """Run ``sql`` (``?`` placeholders) on the raw connection; returns the cursor."""
        return self.raw().execute(sql.replace("?", "%s") if self.postgres else sql, params)

    @property
    def refusal(self) -> type[Exception]:
        """What the raw connection raises when a trigger refuses a statement."""
        if self.postgres:
            import psycopg

            return psycopg.errors.RaiseException
        return sqlite3.DatabaseError

    def everything_stored(self) -> bytes:
        """Every byte the database holds for the games: the file (and its WAL), or a full dump of the database."""
        if self.postgres:
            dump = subprocess.run(
                [str(self.cluster.bin / "pg_dump"), "--data-only", self.target], capture_output=True, check=True
            )
            return dump.stdout
        db = Path(self.target)
        wal = db.with_name(db.name + "-wal")
        return db.read_bytes() + (wal.read_bytes() if wal.exists() else b"")

    def close(self) -> None:
        for store in self._opened:
            store.close()
        if self._raw is not None:
            self._raw.close()


def _sqlite(target: str, **options) -> Store:
    from tabletop.sessions.store import GameStore

    return GameStore(target, **options)


@pytest.fixture(params=STORE_KINDS)
def stores(request, tmp_path):
    """The test runs once on a SQLite file and once on a PostgreSQL database."""
    if request.param == "postgresql":
        cluster = request.getfixturevalue("postgres_cluster")
        where = Stores("postgresql", request.getfixturevalue("postgres_url"), cluster)
    else:
        where = Stores("sqlite", str(tmp_path / "games.sqlite3"))
    yield where
    where.close()
