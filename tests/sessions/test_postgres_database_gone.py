"""A PostgreSQL database dropped (or dropped and made again) under a running store: every later call that would
write or read a game is a storage_error, nothing is acknowledged into a database that is not the one the store was
started with, and the store says so once in the server's log (issue 37, finding 1)."""

from __future__ import annotations

import logging

import psycopg
import pytest

from tabletop.sessions.manager import GameSessions
from tabletop.sessions.postgres import PostgresStore


def drop(cluster, url: str, again: bool) -> None:
    """What an administrator does behind the server's back: end its connections, drop its database (and, with
    ``again``, create an empty one of the same name, which a second server could then set up)."""
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        if again:
            conn.execute(f'CREATE DATABASE "{name}"')


def refused_kind(call) -> str | None:
    with pytest.raises(Exception) as err:
        call()
    return getattr(err.value, "kind", None)


@pytest.mark.parametrize("how", ["dropped", "dropped and made again", "made again and set up by another server"])
def test_a_database_dropped_under_a_running_postgresql_store_is_a_storage_error(postgres_cluster, postgres_url, how, caplog):
    store = PostgresStore(postgres_url)
    try:
        sessions = GameSessions(store)
        live, tokens = sessions.create("cthulhu-dice", None, ["Ann", "Bob"])
        sessions.play(live.id, tokens[0], "roll")
        drop(postgres_cluster, postgres_url, again=how != "dropped")
        if how.endswith("another server"):
            PostgresStore(postgres_url).close()  # a second server starts on the new, empty database and sets it up
        with caplog.at_level(logging.ERROR, logger="tabletop.storage"):
            assert refused_kind(lambda: sessions.play(live.id, tokens[0], "roll")) == "storage_error"
            assert refused_kind(lambda: sessions.create("cthulhu-dice", None, ["Cy", "Di"])) == "storage_error"
            assert refused_kind(lambda: sessions.play(live.id, tokens[0], "roll")) == "storage_error"
        said = [r for r in caplog.records if "was dropped" in r.getMessage()]
        assert len(said) == 1, "the server says what happened, once"
    finally:
        store.close()
    if how != "dropped":  # nothing was written into the new database
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            tables = conn.execute("SELECT to_regclass('games')").fetchone()[0]
            if tables is not None:
                assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 0
