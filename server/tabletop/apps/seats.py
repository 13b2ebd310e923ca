"""People's seats handed to the board app rather than to the model: the one-time keys, and the way (``person_route``
of app/game_tools.py) by which ``new_game`` and ``get_state`` (``link: true``) hand a seat to the app when the client
renders apps, whether or not this server serves play pages (over stdio it serves none: the app is then the only way).

A tool handing a person's seat over this way puts neither the seat's token nor a link to it in what the model reads
(the answer's text and structured content): it says the seat is played from the board shown with the answer, and the
seat's one-time key is put in the answer's ``_meta`` (``META_KEY``), which a host passes to the app shown with the
answer and keeps out of the model's context. The app exchanges the key (``board_open``, app-only) for the seat's
token, once; the token then stays in the app's memory.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from mcp.types import CallToolResult

from ..app.game_tools import person_route
from ..sessions.live import LiveGame
from . import META_KEY

#: How long a person's seat key may wait to be opened by its app (seconds), and the most kept at once.
KEY_LIFE, MAX_KEYS = 24 * 3600, 10_000
#: The tools that may hand a person's seat over (new_game: the people's seats it makes; get_state: with link=true,
#: the seat of the token given, when this server serves no page for it).
HANDING_TOOLS = ("new_game", "get_state")
#: What the model is told of a seat handed to the app (after the seat's name).
PLAYED_IN_THE_APP = "plays from the board shown with this answer (the seat's access stays in it)."


@dataclass
class SeatKey:
    game_id: str
    seat: int
    token: str
    expires: float


class SeatKeys:
    """One-time keys to people's seats, held by this process until their app opens them (or they expire)."""

    def __init__(self, life: float = KEY_LIFE, most: int = MAX_KEYS) -> None:
        self.life, self.most = life, most
        self._keys: dict[str, SeatKey] = {}
        self._lock = threading.Lock()

    def issue(self, game_id: str, seat: int, token: str) -> str:
        key = secrets.token_urlsafe(24)
        now = time.monotonic()
        with self._lock:
            for old in [k for k, v in self._keys.items() if v.expires < now]:
                del self._keys[old]
            while len(self._keys) >= self.most:
                del self._keys[next(iter(self._keys))]
            self._keys[key] = SeatKey(game_id, seat, token, now + self.life)
        return key

    def redeem(self, key: str) -> SeatKey | None:
        """The seat of ``key``, once; None for a key unknown, used or expired."""
        with self._lock:
            found = self._keys.pop(key, None)
        return found if found is not None and found.expires >= time.monotonic() else None

    def drop(self, key: str) -> None:
        """Forget ``key`` (its answer never left the server)."""
        with self._lock:
            self._keys.pop(key, None)


@dataclass
class ToTheApp:
    """The ``person_route`` of one tool call by a client that renders apps: each seat handed over gets a key; the
    keys go into the answer's ``_meta`` (``answered``)."""

    keys: SeatKeys
    handed: list[dict[str, Any]] = field(default_factory=list)

    def hand(self, live: LiveGame, seat: int, token: str) -> str:
        key = self.keys.issue(live.id, seat, token)
        self.handed.append({"seat": seat, "name": live.record.seat_names[seat], "key": key})
        return PLAYED_IN_THE_APP

    def answered(self, result: Any) -> Any:
        """``result`` with the keys handed in ``_meta``; a refusal (or anything but a tool result) carries none,
        and its keys are forgotten."""
        if not self.handed:
            return result
        if not isinstance(result, CallToolResult) or result.is_error:
            for seat in self.handed:
                self.keys.drop(seat["key"])
            return result
        meta = {**(result.meta or {}), META_KEY: {"seats": self.handed}}
        return result.model_copy(update={"meta": meta})


@contextmanager
def seats_to_the_app(keys: SeatKeys) -> Iterator[ToTheApp]:
    """For the tool call run inside: people's seats go to the app (``person_route``), not to the model."""
    route = ToTheApp(keys)
    reset = person_route.set(route)
    try:
        yield route
    finally:
        person_route.reset(reset)
