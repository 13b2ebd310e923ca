"""A time limit on request headers for ``tabletop serve --http``.

uvicorn has none: a client that opens a connection and sends its request line and headers a byte at a time (or
nothing at all) keeps the connection open for as long as it likes, and enough such clients use up the server's
connections. :class:`HeaderDeadline` is uvicorn's own HTTP/1.1 protocol (h11) with one timer more: it is armed
whenever the connection waits for a request (when it opens, and when a response has been sent on a kept-alive
connection), and stopped as soon as a whole request line and headers have arrived; if it fires first, the connection
is closed. Bodies and responses are not limited by it (a long ``wait_for_turn`` or an event stream is not a slow
header). The limit is :data:`HEADER_SECONDS`, or ``$TABLETOP_HEADER_SECONDS`` when that is a number of seconds
above 0 and at most 3600; ``tabletop serve`` passes :func:`header_deadline_protocol` to uvicorn as its ``http``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has to send a request's line and headers, from the moment the server waits for them.
HEADER_SECONDS = 10.0
#: The environment variable that sets another limit.
HEADER_SECONDS_ENV = "TABLETOP_HEADER_SECONDS"
#: The longest limit the environment may set.
MOST_SECONDS = 3600.0

log = logging.getLogger("tabletop.http")


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request line and headers take longer than ``limit``."""

    limit: float = HEADER_SECONDS

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Arm the timer while the connection waits for a request's headers (h11: the client is IDLE), else stop it."""
        waiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if waiting and self._deadline is None:
            self._deadline = self.loop.call_later(self.limit, self._too_slow)
        elif not waiting:
            self._stop()

    def _stop(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            log.debug("closed a connection whose request headers took longer than %g s", self.limit)
            self.transport.close()


def header_seconds() -> float:
    """The limit in force: ``$TABLETOP_HEADER_SECONDS`` if it is a good number of seconds, else HEADER_SECONDS (a
    warning in the log says when a value was not taken)."""
    given = os.environ.get(HEADER_SECONDS_ENV, "").strip()
    if not given:
        return HEADER_SECONDS
    try:
        value = float(given)
    except ValueError:
        value = math.nan
    if not 0 < value <= MOST_SECONDS:
        log.warning("%s=%r is not a number of seconds above 0 and at most %g; using %g", HEADER_SECONDS_ENV,
                    given[:40], MOST_SECONDS, HEADER_SECONDS)
        return HEADER_SECONDS
    return value


def header_deadline_protocol() -> type[HeaderDeadline]:
    """The protocol class to give uvicorn (``uvicorn.Config(app, http=...)``), with the limit in force now."""
    return type("HeaderDeadline", (HeaderDeadline,), {"limit": header_seconds()})
