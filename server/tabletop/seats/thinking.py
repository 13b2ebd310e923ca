"""Where bots think: never on the event loop, and never holding up other calls.

:func:`in_thread` thinks in a worker thread of this process (the arena's players: one bot object per seat, so a
bot's own generator carries on from decision to decision). :class:`BotLanes` thinks in worker processes of their
own (the server's bot seats): a search's CPU-bound loop in this process would hold the interpreter lock and slow
every other call. Each seat's decisions always go to the same lane, which keeps that seat's rebuilt game between
its decisions (``bots.observe.Observer``), so a decision replays only the moves made since the last. A lane gets
only the :class:`~.player.Observation` (what the seat may know), never the game's state.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import anyio
import anyio.lowlevel

from ..bots.registry import advice_seed, make_bot
from ..sessions.manager import wake
from .player import Observation, Think, choose

#: Seats whose rebuilt games a lane keeps (the least recently used beyond this are rebuilt when next needed).
OBSERVERS_KEPT = 256

#: A lane's seats, by (game id, seat): the rebuilt game each keeps between its decisions.
_observers: OrderedDict[tuple[str, int], Any] = OrderedDict()


def in_thread(bot: Any) -> Think:
    """A thinker that asks ``bot`` in a worker thread, keeping the seat's rebuilt game between decisions."""
    observers: list[Any] = []

    async def think(observation: Observation) -> tuple[str, dict[str, Any]] | None:
        if not observers:
            observers.append(observation.observer())
        return await anyio.to_thread.run_sync(choose, observers[0], observation, bot)

    return think


def decide_in_lane(game_id: str, observation: Observation, bot: str, seconds: float) -> tuple[Any, float]:
    """In a lane's process: bot ``bot``'s move for the observed seat, and the CPU seconds it took. The bot is made
    afresh for each decision with a seed of the position, so the same position gets the same choice whichever lane
    or server thinks it (a search's time budget aside)."""
    started = time.process_time()
    key = (game_id, observation.seat)
    observer = _observers.pop(key, None) or observation.observer()
    _observers[key] = observer
    while len(_observers) > OBSERVERS_KEPT:
        _observers.popitem(last=False)
    seed = advice_seed(game_id, len(observation.log), observation.seat)
    chosen = choose(observer, observation, make_bot(observation.game, bot, seed, seconds))
    return chosen, time.process_time() - started


def start_lane(parent: int) -> None:
    """Run in each lane as it starts: it ends itself as soon as the server that started it is gone (a killed
    server's lanes must not linger), checked every second by a thread of its own."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="lane-parent-watch", daemon=True).start()


def warm_up() -> int:
    """Run in each lane as it starts: the engines and bots imported before the first decision needs them."""
    from ..bots.registry import _cw, _cw_search, _dice, _war, _war_search

    for module in (_war, _war_search, _cw, _cw_search, _dice):
        module()
    return os.getpid()


class BotLanes:
    """``lanes`` worker processes (one by default per core), started when first needed."""

    def __init__(self, lanes: int | None = None) -> None:
        self.count = max(1, lanes or os.cpu_count() or 1)
        self._pools: list[ProcessPoolExecutor] = []
        self.cpu_seconds: list[float] = []  # per decision, as measured in the lanes

    def _lane(self, game_id: str, seat: int) -> ProcessPoolExecutor:
        if not self._pools:
            context = multiprocessing.get_context("spawn")  # a clean process: this one has threads and a loop
            self._pools = [ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=start_lane,
                                               initargs=(os.getpid(),)) for _ in range(self.count)]
            for pool in self._pools:
                pool.submit(warm_up)
        digest = hashlib.sha256(f"{game_id}:{seat}".encode()).digest()
        return self._pools[digest[0] % len(self._pools)]

    def thinker(self, game_id: str, bot: str, seconds: float) -> Think:
        """A thinker for one bot seat of ``game_id``: each decision in that seat's lane, awaited without a thread."""

        async def think(observation: Observation) -> tuple[str, dict[str, Any]] | None:
            future = self._lane(game_id, observation.seat).submit(decide_in_lane, game_id, observation, bot, seconds)
            chosen, cpu = await settled(future)
            self.cpu_seconds.append(cpu)
            return chosen

        return think

    def close(self) -> None:
        for pool in self._pools:
            pool.shutdown(wait=False, cancel_futures=True)
        self._pools = []


async def settled(future: Future) -> Any:
    """The result of a process pool's ``future``, awaited on the event loop (its callback wakes the loop)."""
    done, loop = anyio.Event(), anyio.lowlevel.current_token()
    future.add_done_callback(lambda _: wake(done, loop))
    try:
        await done.wait()
    except BaseException:
        future.cancel()
        raise
    return future.result()
