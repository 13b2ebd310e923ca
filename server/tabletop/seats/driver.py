"""The server's driver of bot seats: every unfinished game's bots play as soon as their seat is awaited.

A driver holds the bot seats' tokens (from the store: nobody was given them) and plays each through the same
sessions API and seat view an agent holding that token has (``port.py``, ``player.py``); bots think in the
server's bot processes (``thinking.BotLanes``). Bots move only when awaited, so a game whose people have gone
silent costs nothing, and a game of bots alone plays to its end by itself.

Durable and shared: the games to drive are read from the store (every unfinished game with bot seats, scanned
every few seconds and at start-up, so a restarted server resumes them at once), and before each decision the
driver takes the game's lease (``Store.take_lease``: one atomic statement, a row per game, timed by the
database's clock), renewed while it thinks. On a fleet exactly one server holds a game's lease at a time; if it
dies, its lease runs out and another server takes the game over. Every move is sent with ``expected_ply``, so
a decision played by a server that lost its lease is refused (or answered as already played), never doubled.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import anyio

from ..core.errors import GameError
from ..sessions.errors import UnknownGame, UnreadableGame
from ..sessions.live import LiveGame
from ..sessions.manager import GameSessions
from ..sessions.storage import BotSeatRecord
from .player import SeatPlayer
from .port import SessionsPort
from .thinking import BotLanes

log = logging.getLogger("tabletop.seats")

#: How long a game's lease lasts unless renewed (seconds); a dead server's games are taken over after this.
LEASE_SECONDS = 5.0
#: How often the store is read for games with bots this server does not drive yet (made by another server).
SCAN_SECONDS = 2.0
#: How often a server that does not hold an awaited bot's lease asks for it again.
RETRY_SECONDS = 1.0
#: How long a game's driver sleeps when nothing wakes it (a move wakes it at once).
IDLE_SECONDS = 30.0


@dataclass
class DriverStats:
    """What a driver did: decisions played, decisions thought out but not played (wasted), their times."""

    decisions: int = 0
    wasted: int = 0
    errors: int = 0
    seconds: list[float] = field(default_factory=list)  # per decision: from reading the seat's state to the move


def awaited_bots(live: LiveGame, bots: dict[int, BotSeatRecord]) -> list[int]:
    return [seat for seat in live.to_move() if seat in bots]


class BotDriver:
    """Plays the bot seats of every unfinished game in ``sessions``' store (see the module docstring)."""

    def __init__(self, sessions: GameSessions, lanes: BotLanes | None = None, holder: str | None = None,
                 lease: float = LEASE_SECONDS, scan: float = SCAN_SECONDS) -> None:
        self.sessions = sessions
        self.store = sessions.store
        self.lanes = lanes or BotLanes()
        self.holder = holder or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.lease, self.scan = lease, scan
        self.stats = DriverStats()
        self.driving: set[str] = set()
        self._group: anyio.abc.TaskGroup | None = None

    @property
    def running(self) -> bool:
        return self._group is not None

    async def run(self, *, task_status: anyio.abc.TaskStatus = anyio.TASK_STATUS_IGNORED) -> None:
        """Drive bots until cancelled: the games found in the store now, every few seconds, and those given to
        :meth:`drive`."""
        try:
            async with anyio.create_task_group() as group:
                self._group = group
                task_status.started()
                while True:
                    try:
                        for game_id in await self.sessions.io(self.store.unfinished_bot_games):
                            self.drive(game_id)
                    except GameError as err:  # the database is away: try again at the next scan
                        log.warning("bot seats: cannot read the games with bots: %s", err)
                    await anyio.sleep(self.scan)
        finally:
            self._group = None
            self.lanes.close()

    def drive(self, game_id: str) -> None:
        """Start driving ``game_id``'s bots now (a game just made here needs no scan to be found)."""
        if self._group is not None and game_id not in self.driving:
            self.driving.add(game_id)
            self._group.start_soon(self._drive, game_id)

    async def _drive(self, game_id: str) -> None:
        try:
            await self._play(game_id)
        except (UnknownGame, UnreadableGame) as err:
            log.warning("bot seats: game %s cannot be played: %s", game_id, err)
            await self.sessions.io(lambda: self.store.end_lease(game_id, self.holder, finished=True))
        except GameError as err:  # the database failed: the next scan picks the game up again
            self.stats.errors += 1
            log.warning("bot seats: game %s: %s", game_id, err)
        except Exception:  # a fault of ours must not stop the other games (nor the server): logged, tried again
            self.stats.errors += 1
            log.exception("bot seats: game %s stopped; the next scan takes it up again", game_id)
        finally:
            self.driving.discard(game_id)

    async def _play(self, game_id: str) -> None:
        bots = {b.seat: b for b in await self.sessions.io(lambda: self.store.bot_seats(game_id))}
        players = {
            seat: SeatPlayer(SessionsPort(self.sessions, game_id, b.token), self.lanes.thinker(game_id, b.bot, b.seconds),
                             bot_name=b.bot, seconds=b.seconds)
            for seat, b in bots.items()
        }
        held = False
        while True:
            def ready(live: LiveGame) -> bool:
                return live.engine.outcome(live.state) is not None or bool(awaited_bots(live, bots))

            live, _ = await self.sessions.wait_until(game_id, ready, IDLE_SECONDS)
            if live.engine.outcome(live.state) is not None:
                await self.sessions.io(lambda: self.store.end_lease(game_id, self.holder, finished=True))
                return
            awaited = awaited_bots(live, bots)
            if not awaited:
                if held:  # a person or an agent is awaited: nobody needs to hold the game now
                    await self.sessions.io(lambda: self.store.end_lease(game_id, self.holder))
                    held = False
                continue
            held = await self.sessions.io(lambda: self.store.take_lease(game_id, self.holder, self.lease))
            if not held:  # another server drives this game's bots
                await anyio.sleep(RETRY_SECONDS)
                continue
            await self._decide(game_id, players[awaited[0]])

    async def _decide(self, game_id: str, player: SeatPlayer) -> None:
        """One decision of a bot seat, the lease renewed meanwhile; a decision the game no longer awaits is wasted."""
        started = time.monotonic()
        async with self._renewing(game_id):
            state = await player.port.state()
            if not state["your_turn"]:
                return
            try:
                played = await player.decide(state)
            except GameError as err:  # refused: the game moved on while the bot thought (another seat, a server)
                log.info("bot seats: game %s: a decision was refused: %s", game_id, err)
                played = False
        if played:
            self.stats.decisions += 1
            self.stats.seconds.append(time.monotonic() - started)
        else:
            self.stats.wasted += 1

    @asynccontextmanager
    async def _renewing(self, game_id: str):
        """Renew the game's lease every third of its length while the body runs (a search may think for long)."""
        async def renew() -> None:
            while True:
                await anyio.sleep(self.lease / 3)
                await self.sessions.io(lambda: self.store.take_lease(game_id, self.holder, self.lease))

        async with anyio.create_task_group() as group:
            group.start_soon(renew)
            try:
                yield
            finally:
                group.cancel_scope.cancel()

