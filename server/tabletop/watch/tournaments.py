"""What the watching site shows of a tournament (the arena's records): its schedule, results and live standings.

A slot's record says only who plays, its status and, once finished, the game's public result; the standings
are the arena's own (``tabletop.arena.standings``). Nothing here reads a game's moves.
"""

from __future__ import annotations

from typing import Any

import anyio
import anyio.to_thread

from ..arena.standings import standings
from ..core.errors import GameError
from ..sessions.manager import GameSessions
from ..sessions.store import Store

#: Tournaments listed on the index page.
RECENT = 20
#: The longest a tournament's event stream goes without re-reading the schedule (seconds). The arena's slot
#: records carry no notification, so a slot that starts or is marked finished is seen within this time;
#: every move of a running game of the tournament wakes the stream at once.
REREAD = 2.0
#: The longest tournament id looked up.
MAX_ID = 100


def recent(store: Store, limit: int = RECENT) -> list[dict[str, Any]]:
    return [
        {"id": t.id, "name": t.name, "game": t.game, "created_at": t.created_at, "finished": t.finished_at is not None}
        for t in store.list_tournaments(limit)
    ]


def view(store: Store, tournament_id: str) -> dict[str, Any] | None:
    """The tournament page as JSON-ready data, or None if there is no such tournament."""
    if len(tournament_id) > MAX_ID:
        return None
    record = store.load_tournament(tournament_id)
    if record is None:
        return None
    games = store.tournament_games(tournament_id)
    statuses = ("pending", "running", "finished", "abandoned")
    counts = {status: sum(1 for g in games if g.status == status) for status in statuses}
    return {
        "id": record.id,
        "name": record.name,
        "game": record.game,
        "created_at": record.created_at,
        "finished": record.finished_at is not None,
        "finished_at": record.finished_at,
        "counts": counts,
        "standings": [standing_row(s.as_dict()) for s in standings(store, tournament_id)],
        "games": [
            {
                "slot": g.slot,
                "game_id": g.game_id,
                "players": list(g.players),
                "status": g.status,
                "result": (g.outcome or {}).get("reason") if g.status == "finished" else None,
                "winners": [g.players[s] for s in (g.outcome or {}).get("winners") or [] if 0 <= s < len(g.players)]
                if g.status == "finished"
                else [],
            }
            for g in games
        ],
    }


def standing_row(row: dict[str, Any]) -> dict[str, Any]:
    """One line of the table, rounded for reading (rates in percent)."""
    return {
        "player": row["player"],
        "games": row["games"],
        "wins": row["wins"],
        "draws": row["draws"],
        "nobody_won": row["nobody_won"],
        "losses": row["losses"],
        "win_rate": round(100 * row["win_rate"], 1),
        "win_low": round(100 * row["win_low"], 1),
        "win_high": round(100 * row["win_high"], 1),
        "mu": round(row["mu"], 2),
        "sigma": round(row["sigma"], 2),
        "ordinal": round(row["ordinal"], 2),
    }


async def wait_for_change(sessions: GameSessions, shown: dict[str, Any], timeout: float) -> None:
    """Sleep until a move is made in one of the tournament's running games, or at most ``REREAD`` seconds."""
    running = [g["game_id"] for g in shown["games"] if g["status"] == "running" and g["game_id"]]
    limit = min(timeout, REREAD)
    if not running:
        await anyio.sleep(limit)
        return

    async def one(game_id: str, scope: anyio.CancelScope) -> None:
        try:
            live = await anyio.to_thread.run_sync(sessions.get, game_id)
            await sessions.wait_for_moves(game_id, live.ply, limit)
        except GameError:  # a game the arena recorded but this store cannot read: the re-read interval covers it
            await anyio.sleep(limit)
        scope.cancel()

    async with anyio.create_task_group() as tg:
        for game_id in running:
            tg.start_soon(one, game_id, tg.cancel_scope)
