"""One seat's desk: what its play page shows, and the moves it sends, always as that seat and nobody else.

What the page reads is built here, and only here, from the functions that take the seat as the viewer: the
position in words (``Engine.describe`` for the seat), the picture (``Engine.draw`` for the seat), the log as the
seat may read it (``GameSessions.log_page``) and the seat's legal moves. Moves, dry runs and advice go through the
MCP tools themselves (``apply_move``, ``cthulhu_dice_advice``) with the seat's token, so a person gets the answer a
model holding the seat gets, word for word, and a refusal says why with the rule.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent

from ..app.text import awaiting
from ..core.errors import GameError
from ..core.game import LegalMoves
from ..render import to_svg
from ..sessions.live import LiveGame
from ..sessions.manager import GameSessions

#: The most log lines a page or event carries (the latest ones).
MAX_LOG = 300
#: The most lines of "since your last move".
MAX_SINCE = 60

#: Calls an MCP tool of this server in-process: ``(name, arguments) -> result`` (``MCPServer.call_tool``).
ToolCaller = Callable[[str, dict[str, Any]], Awaitable[Any]]


def seat_view(sessions: GameSessions, live: LiveGame, seat: int) -> dict[str, Any]:
    """The whole page of ``seat`` as JSON-ready data (the same for the first page and every event)."""
    state = live.state  # one consistent position: another thread may play meanwhile
    engine, record = live.engine, live.record
    labels = [live.seat_label(s) for s in range(len(record.seat_names))]
    outcome = engine.outcome(state)
    to_move = [] if outcome else live.to_move()
    mine = seat in to_move
    moves = live.legal_moves(seat) if mine else None
    log = seat_log(sessions, live, seat, over=outcome is not None)
    scene = engine.draw(state, seat, frozenset(), record.seat_names)
    return {
        "id": live.id,
        "game": engine.name,
        "title": engine.title,
        "seat": seat,
        "you": labels[seat],
        "players": labels,
        "to_move": [labels[s] for s in to_move],
        "your_turn": mine,
        "ply": sessions.ply_for(live, seat),
        "over": outcome is not None,
        "result": outcome.reason if outcome else None,
        "winners": [labels[s] for s in outcome.winners] if outcome else [],
        "you_won": bool(outcome and seat in outcome.winners),
        "seed": record.seed if outcome else None,
        "waiting": None if outcome or mine else awaiting(live),
        "position": engine.describe(state, seat),
        "moves": [] if moves is None else groups_of(moves),
        "note": moves.note if moves is not None else None,
        "since": since_last_move(log),
        "log": log[-MAX_LOG:],
        "log_cut": max(0, len(log) - MAX_LOG),
        "svg": None if scene is None else to_svg(scene, spots=True),
        "advice": engine.name == "cthulhu-dice",
    }


def focused_moves(live: LiveGame, seat: int, focus: str) -> dict[str, Any]:
    """The seat's legal moves narrowed by the engine to ``focus`` (a War square lists the placements there during
    the deployment); none when the decision is not the seat's."""
    if seat not in live.to_move() or not focus.strip():
        return {"moves": []}
    try:
        moves = live.legal_moves(seat, focus)
    except GameError:
        return {"moves": []}
    return {"moves": groups_of(moves)}


def groups_of(moves: LegalMoves) -> list[dict[str, Any]]:
    return [{"title": g.title, "moves": [{"notation": m.notation, "summary": m.summary} for m in g.moves]} for g in moves.groups]


def seat_log(sessions: GameSessions, live: LiveGame, seat: int, over: bool) -> list[dict[str, Any]]:
    """Every move the seat may read, in words, with what each caused (dice and battle results among them)."""
    page = sessions.log_page(live, seat, 0, 10**9, told=over)
    lines = []
    for n, m in page.moves:
        act = live.referee_act(m)  # a table's entry: the referee's, not the seat's
        who, move = ("referee", act) if act else (live.seat_label(m.seat), m.notation)
        lines.append({"n": n, "who": who, "mine": m.seat == seat and not act, "move": move, "events": list(m.events)})
    return lines


def since_last_move(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves after the seat's own last one (all of them if it has not moved yet), the latest ``MAX_SINCE``."""
    last = max((i for i, line in enumerate(log) if line["mine"]), default=-1)
    return log[last + 1 :][-MAX_SINCE:]


@dataclass
class Desk:
    """The seat's hands: moves and advice through the MCP tools, with its token."""

    call: ToolCaller
    game_id: str
    token: str

    async def send(self, moves: list[str], dry_run: bool, expected: int | None) -> dict[str, Any]:
        """``apply_move`` of ``moves`` as one sequence: ``{ok, text, legal, chance, your_turn}`` or ``{ok: False,
        text}`` with the refusal's reason and rule (nothing played)."""
        args: dict[str, Any] = {"game_id": self.game_id, "token": self.token, "moves": moves, "dry_run": dry_run, "detail": "full"}
        if expected is not None:
            args["expected_ply"] = expected
        try:
            result = await self.call("apply_move", args)
        except ToolError as err:
            return refusal(err)
        data = structured(result)
        legal = data.get("legal") or []
        return {
            "ok": True,
            "text": text_of(result),
            "your_turn": bool(data.get("your_turn")) and not data.get("chance"),
            "chance": data.get("chance") is not None,
            "over": data.get("outcome") is not None,
            "legal": [
                {"title": g["title"], "moves": [{"notation": o["notation"], "summary": o["summary"]} for o in g.get("options") or []]}
                for g in legal
            ],
        }

    async def advice(self) -> dict[str, Any]:
        """Cthulhu Dice's exact advice for the seat: roll on or retreat, with the chances of winning either way."""
        try:
            result = await self.call("cthulhu_dice_advice", {"game_id": self.game_id, "token": self.token})
        except ToolError as err:
            return refusal(err)
        return {"ok": True, "text": text_of(result)}


def refusal(err: ToolError) -> dict[str, Any]:
    """A refused call as the page shows it: the refusal's own words (``illegal_move: ...``, with the rule)."""
    return {"ok": False, "text": re.sub(r"^Error executing tool \w+: ", "", str(err))}


def structured(result: Any) -> dict[str, Any]:
    return result.structured_content or {} if isinstance(result, CallToolResult) else {}


def text_of(result: Any) -> str:
    if not isinstance(result, CallToolResult):
        return ""
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))
