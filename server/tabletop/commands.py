"""What every ``tabletop`` command shares (cli.py, arena/command.py): :class:`CommandError`, the one line a command
that cannot go on reports, and :func:`open_store`, the store ``--db`` names."""

from __future__ import annotations


class CommandError(Exception):
    """A command cannot go on; its message is the one line the user reads."""


def open_store(db: str | None, synchronous: str = "NORMAL"):
    """The store ``--db`` names (a SQLite file or a ``postgresql://`` URL), else ``$TABLETOP_DB``, else the default file."""
    from .sessions.store import StorageError, default_db_target
    from .sessions.store import open_store as open_any_store

    try:
        return open_any_store(db or default_db_target(), synchronous=synchronous.upper())
    except StorageError as err:
        raise CommandError(err.message) from None
