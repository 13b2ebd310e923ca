"""The sessions layer's refusals: a game or seat that does not exist, a move another writer got in first, a
stored game this version cannot rebuild. (A store's own failure is ``storage.StorageError``.)"""

from __future__ import annotations

from ..core.errors import GameError


class UnknownGame(GameError):
    kind = "unknown_game"


class BadToken(GameError):
    kind = "bad_token"


class MoveConflict(GameError):
    kind = "conflict"


class UnreadableGame(GameError):
    """A stored game this version cannot rebuild (its options or log follow rules that have changed)."""

    kind = "unreadable_game"
