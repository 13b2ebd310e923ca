"""Game updates the 2026 way: a client that follows a game hears when it changes.

A client of protocol 2026-07-28 sends ``subscriptions/listen`` naming the resources it follows (e.g.
``game://cthulhu-dice-ab12cd``, the game's public view); the SDK serves that stream
(``mcp.server.subscriptions.ListenHandler``) and sends ``notifications/resources/updated`` for every
event published on the server's subscription bus that matches the client's list. Here every change
of a game (a move by anyone: a seat, a bot, a person's page, another server on the same database)
is published on that bus as an update of ``game://<id>``. Like ``wait_for_turn``, it is a level
trigger: read the game again when told. Earlier clients keep ``wait_for_turn``.
"""

from __future__ import annotations

import logging

import anyio
import anyio.abc
import anyio.lowlevel
from mcp.server.subscriptions import ResourceUpdated, SubscriptionBus

from ..sessions.manager import GameSessions

log = logging.getLogger(__name__)

#: Games changed but not yet published, at most (a client's listen stream is a level trigger: one update per
#: game is enough, so ids past this while the publisher is behind are dropped, and the game is not forgotten
#: for long: its next move publishes it again).
BACKLOG = 1024


def game_uri(game_id: str) -> str:
    """The resource a client follows for a game: its public view."""
    return f"game://{game_id}"


class GameUpdates:
    """Publishes ``game://<id>`` updates on ``bus`` when a game of ``sessions`` changes, while :meth:`run` runs."""

    def __init__(self, sessions: GameSessions, bus: SubscriptionBus) -> None:
        self.bus = bus
        self._loop: anyio.lowlevel.EventLoopToken | None = None
        self._send: anyio.abc.ObjectSendStream[str] | None = None
        sessions.watchers.append(self.changed)

    async def run(self, *, task_status: anyio.abc.TaskStatus = anyio.TASK_STATUS_IGNORED) -> None:
        """Publish the games' changes until cancelled."""
        send, receive = anyio.create_memory_object_stream[str](BACKLOG)
        self._send, self._loop = send, anyio.lowlevel.current_token()
        task_status.started()
        try:
            with send, receive:
                async for game_id in receive:
                    await self.bus.publish(ResourceUpdated(uri=game_uri(game_id)))
        finally:
            self._send = self._loop = None

    def changed(self, game_id: str) -> None:
        """Called from any thread when ``game_id`` may have changed: queue it on the publisher's event loop."""
        loop = self._loop
        if loop is None:
            return
        try:
            loop.backend_class.run_sync_soon(self._queue, (game_id,), loop.native_token)
        except (RuntimeError, anyio.RunFinishedError):  # the loop has ended: nobody listens any more
            pass

    def _queue(self, game_id: str) -> None:
        """Runs on the publisher's event loop."""
        if self._send is None:
            return
        try:
            self._send.send_nowait(game_id)
        except anyio.WouldBlock:
            log.debug("game updates: backlog full, %s not published", game_id)
        except anyio.ClosedResourceError:
            pass
