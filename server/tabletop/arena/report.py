"""A tournament's report, in JSON and in Markdown, from the store alone (so a report can be written at any time,
during a tournament or long after): standings, per player what it did per move, and per game who sat where,
the result and how to replay it."""

from __future__ import annotations

import json
from typing import Any

from ..sessions.store import Store
from .standings import standings_of

PLAYER_FIELDS = ("decisions", "illegal", "limits_hit", "forfeits", "fallbacks", "advised", "tool_calls", "service_errors",
                 "input_tokens", "output_tokens", "seconds")


def per_player(games) -> dict[str, dict[str, float]]:
    """Sums of each player's seat statistics over the finished games, with per-move rates."""
    sums: dict[str, dict[str, float]] = {}
    for game in games:
        if game.status != "finished" or not game.outcome:
            continue
        for seat, name in enumerate(game.players):
            seat_stats = game.outcome.get("stats", {}).get(str(seat), {})
            row = sums.setdefault(name, {f: 0 for f in PLAYER_FIELDS})
            for f in PLAYER_FIELDS:
                row[f] += seat_stats.get(f, 0)
    for row in sums.values():
        moves = max(1, row["decisions"] + row["forfeits"])
        row["illegal_per_move"] = row["illegal"] / moves
        row["tokens_per_move"] = (row["input_tokens"] + row["output_tokens"]) / moves
        row["seconds_per_move"] = row["seconds"] / moves
    return sums


def report(store: Store, tournament_id: str) -> dict[str, Any]:
    record = store.load_tournament(tournament_id)
    if record is None:
        raise KeyError(tournament_id)
    games = store.tournament_games(tournament_id)
    return {
        "tournament": {"id": record.id, "name": record.name, "game": record.game, "created_at": record.created_at,
                       "finished_at": record.finished_at, "spec": record.spec},
        "standings": [s.as_dict() for s in standings_of(games)],
        "players": per_player(games),
        "games": [
            {"slot": g.slot, "game_id": g.game_id, "players": g.players, "status": g.status,
             "winners": (g.outcome or {}).get("winners"), "reason": (g.outcome or {}).get("reason") or (g.outcome or {}).get("error"),
             "ended_by": (g.outcome or {}).get("ended_by"), "moves": (g.outcome or {}).get("moves"),
             "abandoned_games": (g.outcome or {}).get("abandoned_games", []),
             "replay": f"tabletop replay {g.game_id}" if g.game_id else None}
            for g in games
        ],
    }


def as_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2)


def as_markdown(data: dict[str, Any]) -> str:
    t = data["tournament"]
    lines = [f"# {t['name']}", "", f"Tournament `{t['id']}` of {t['game']}, started {t['created_at']}"
             + (f", finished {t['finished_at']}." if t["finished_at"] else " (not finished)."), "", "## Standings", "",
             "| # | player | rating (mu ± sigma) | ordinal | games | wins | shared wins | nobody won | win rate (95%) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for i, s in enumerate(data["standings"], 1):
        lines.append(f"| {i} | {s['player']} | {s['mu']:.1f} ± {s['sigma']:.1f} | {s['ordinal']:.1f} | {s['games']} | {s['wins']} | "
                     f"{s['draws']} | {s['nobody_won']} | {s['win_rate']:.0%} ({s['win_low']:.0%}-{s['win_high']:.0%}) |")
    lines += ["", "## Play", "",
              "| player | moves | illegal / move | limits hit | forfeits | service errors | tokens / move | s / move |",
              "|---|---|---|---|---|---|---|---|"]
    for name, p in data["players"].items():
        lines.append(f"| {name} | {p['decisions']:.0f} | {p['illegal_per_move']:.3f} | {p['limits_hit']:.0f} | {p['forfeits']:.0f} | "
                     f"{p['service_errors']:.0f} | {p['tokens_per_move']:.0f} | {p['seconds_per_move']:.3f} |")
    lines += ["", "## Games", "", "| slot | game | players by seat | status | result | replay |", "|---|---|---|---|---|---|"]
    for g in data["games"]:
        result = (g["reason"] or "").replace("|", "/").replace("\n", " ")[:160]
        replay = f"`{g['replay']}`" if g["replay"] else ""
        lines.append(f"| {g['slot']} | {g['game_id'] or '-'} | {', '.join(g['players'])} | {g['status']} | {result} | {replay} |")
    return "\n".join(lines) + "\n"


__all__ = ["as_json", "as_markdown", "report"]
