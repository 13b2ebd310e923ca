"""Run a tournament: create each game on the server (the server draws its seed and keeps it secret until the game
ends), hand each player only its own seat's token, watch the game to its end, record it, and go on.

Resuming: the tournament's id is a digest of its spec, so running the same command again finds it in the store.
Finished games are never played again nor counted twice (a slot is finished once, in one committed write). A game
left ``running`` by an arena that was stopped (even by SIGKILL) is *abandoned and replayed*: its slot is played
again with a new game, the same players in the same seats and the same bot seeds (the dice are new: the server
draws a new secret seed); the abandoned game's id is kept in the slot's outcome (``abandoned_games``) and never
counted. A game given up because the model service kept failing is likewise ``abandoned`` and replayed by the next
run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from ..sessions.store import IdTaken, Store, TournamentGame, TournamentRecord, now
from .players import bot_seed, play_seat
from .seat_stats import SeatLost, SeatStats, ServiceFailed
from .server import Endpoint, connect
from .spec import TournamentSpec, schedule

POLL_SECONDS = 0.2


@dataclass
class Played:
    """What became of one slot."""

    status: str  # finished | abandoned
    outcome: dict[str, Any]


@dataclass
class Progress:
    """What the live display shows: told of every slot that starts and ends."""

    total: int
    done: int = 0
    running: int = 0
    started_at: float = field(default_factory=time.monotonic)
    on_change: Callable[["Progress"], None] | None = None

    def changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)


def prepare(store: Store, spec: TournamentSpec) -> tuple[TournamentRecord, list[TournamentGame]]:
    """The tournament in the store (created on the first run) and its schedule, running games marked for replay."""
    record = store.load_tournament(spec.id)
    if record is None:
        record = TournamentRecord(spec.id, spec.name, spec.game, spec.as_json(), now())
        try:
            store.create_tournament(record)
        except IdTaken:  # another arena created it at the same moment
            record = store.load_tournament(spec.id)
    known = {g.slot: g for g in store.tournament_games(spec.id)}
    slots = []
    for slot, players in enumerate(schedule(spec)):
        game = known.get(slot) or TournamentGame(spec.id, slot, players)
        if game.status in ("running", "abandoned"):
            left = list((game.outcome or {}).get("abandoned_games", [])) + ([game.game_id] if game.game_id else [])
            game = TournamentGame(spec.id, slot, players, "pending", None, {"abandoned_games": left})
            store.save_tournament_game(game)
        elif slot not in known:
            store.save_tournament_game(game)
        slots.append(game)
    return record, slots


async def run(store: Store, spec: TournamentSpec, endpoint: Endpoint, logs: Path, progress: Progress | None = None) -> None:
    """Play every slot not finished yet, ``spec.parallel`` at a time, then mark the tournament finished."""
    _, slots = prepare(store, spec)
    todo = [g for g in slots if g.status != "finished"]
    progress = progress or Progress(len(slots))
    progress.total, progress.done = len(slots), len(slots) - len(todo)
    progress.changed()
    limiter = anyio.CapacityLimiter(spec.parallel)

    async def one(game: TournamentGame) -> None:
        async with limiter:
            progress.running += 1
            progress.changed()
            try:
                await play_slot(store, spec, endpoint, game, logs)
            finally:
                progress.running -= 1
                progress.done += 1
                progress.changed()

    async with anyio.create_task_group() as tg:
        for game in todo:
            tg.start_soon(one, game)
    if all(g.status == "finished" for g in store.tournament_games(spec.id)):
        store.finish_tournament(spec.id, now())


async def play_slot(store: Store, spec: TournamentSpec, endpoint: Endpoint, slot: TournamentGame, logs: Path) -> Played:
    """Create the slot's game, play it to its end (or a limit) and record the result."""
    carried = {k: v for k, v in (slot.outcome or {}).items() if k == "abandoned_games"}
    async with connect(endpoint) as arena:
        made = await arena.call_tool("new_game", {"game": spec.game, "players": [{"name": p[:40]} for p in slot.players],
                                                  "options": spec.options})
        if made.is_error:
            played = Played("abandoned", {**carried, "error": made.content[0].text})
            store.save_tournament_game(TournamentGame(spec.id, slot.slot, slot.players, "abandoned", None, played.outcome))
            return played
        game_id = made.structured_content["game_id"]
        tokens = [s["token"] for s in made.structured_content["seats"]]
        store.save_tournament_game(TournamentGame(spec.id, slot.slot, slot.players, "running", game_id, carried or None))
        played = await watch(arena, spec, endpoint, slot, game_id, tokens, logs)
    played.outcome = {**played.outcome, **carried, "replay": f"tabletop replay {game_id}"}
    store.save_tournament_game(TournamentGame(spec.id, slot.slot, slot.players, played.status, game_id, played.outcome))
    return played


async def watch(arena, spec: TournamentSpec, endpoint: Endpoint, slot: TournamentGame, game_id: str, tokens: list[str],
                logs: Path) -> Played:
    """Run the players and a monitor of the public position; the first to settle the game ends it."""
    players = {p.name: p for p in spec.players}
    stats = {seat: SeatStats() for seat in range(len(tokens))}
    ended: dict[str, Any] = {}
    started = time.monotonic()

    async def seat_task(seat: int, scope: anyio.CancelScope) -> None:
        player = players[slot.players[seat]]
        try:
            await play_seat(endpoint, spec.game, player, game_id, seat, tokens[seat], bot_seed(spec.id, slot.slot, seat),
                            spec.options, spec.limits, spec.legal_moves, logs, stats[seat])
        except Exception as err:  # noqa: BLE001 - a broken player abandons its game, not the tournament
            leaves = leaf_errors(err)  # the MCP client's task groups wrap what the player raised
            lost = next((e for e in leaves if isinstance(e, SeatLost)), None)
            failed = next((e for e in leaves if isinstance(e, ServiceFailed)), None)
            if lost is not None:
                ended.setdefault("lost", (lost.seat, lost.reason))
            elif failed is not None:
                ended.setdefault("abandoned", f"{player.name}'s model service kept failing: {failed}")
            else:
                ended.setdefault("abandoned", f"{player.name} failed: " + "; ".join(f"{type(e).__name__}: {e}" for e in leaves))
            scope.cancel()

    async def monitor(scope: anyio.CancelScope) -> None:
        while True:
            state = (await arena.call_tool("get_state", {"game_id": game_id})).structured_content
            if state["outcome"] is not None:
                ended["outcome"], ended["moves"] = state["outcome"], state["ply"]
                scope.cancel()
                return
            if state["ply"] >= spec.limits.game_moves or time.monotonic() - started > spec.limits.game_seconds:
                ended["limit"], ended["moves"] = state["ply"], state["ply"]
                scope.cancel()
                return
            await anyio.sleep(POLL_SECONDS)

    async with anyio.create_task_group() as tg:
        for seat in range(len(tokens)):
            tg.start_soon(seat_task, seat, tg.cancel_scope)
        tg.start_soon(monitor, tg.cancel_scope)
    seconds = time.monotonic() - started
    record = {"game_id": game_id, "seconds": round(seconds, 3), "moves": ended.get("moves"),
              "stats": {str(s): st.as_dict() for s, st in sorted(stats.items())}}
    if "outcome" in ended:
        return Played("finished", {**ended["outcome"], **record, "ended_by": "game"})
    if "lost" in ended:
        seat, reason = ended["lost"]
        winners = [s for s in range(len(tokens)) if s != seat]
        return Played("finished", {"winners": winners, "reason": f"{slot.players[seat]} lost: {reason}", **record,
                                   "ended_by": "loss", "lost_seat": seat})
    if "limit" in ended:
        reason = f"the game was stopped at move {ended['limit']} (limits: {spec.limits.game_moves} moves, " \
                 f"{spec.limits.game_seconds:g} s): nobody won"
        return Played("finished", {"winners": [], "reason": reason, **record, "ended_by": "limit"})
    return Played("abandoned", {**record, "error": ended.get("abandoned", "stopped")})


def leaf_errors(err: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups, or the exception itself."""
    if isinstance(err, BaseExceptionGroup):
        return [leaf for inner in err.exceptions for leaf in leaf_errors(inner)]
    return [err]


__all__ = ["Progress", "prepare", "run"]
