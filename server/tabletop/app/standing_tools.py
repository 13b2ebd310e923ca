"""The standing answers tool: a seat tells the server in advance which out-of-turn windows it passes (``sessions/standing.py``)."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, Field

from ..core.game import JsonObject
from ..sessions.manager import GameSessions
from ..sessions.standing import StandingAnswers, read_answers
from .game_tools import GameId
from .replies import refusals_as_tool_errors, reply

#: Setting the same answers twice leaves the same answers: idempotent; nothing is ever lost by it.
SETS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


class StandingResult(BaseModel):
    """A seat's standing answers after the call, and what may be set."""

    game_id: str = Field(description="The game.")
    seat: int = Field(description="Your seat.")
    answers: dict[str, Any] | None = Field(description="Your standing answers now (null: none, every decision is asked).")
    fields: dict[str, Any] = Field(description="What may be set: the JSON Schema of the answers.")


def register_standing_tools(mcp: MCPServer, sessions: GameSessions, standing: StandingAnswers) -> None:
    @mcp.tool(title="Standing answers", annotations=SETS)
    @refusals_as_tool_errors
    async def standing_answers(
        game_id: GameId,
        token: Annotated[str, Field(description="Your seat token.")],
        answers: Annotated[JsonObject | None, Field(description="Set these ({}: none; omit: show yours).")] = None,
    ) -> Annotated[CallToolResult, StandingResult]:
        """Windows the server passes for you (Cthulhu Wars), e.g. {"windows": "near-my-units"}; changeable."""
        live = sessions.get(game_id)
        seat = sessions.seat_for(live, token)
        model = live.engine.standing_model
        if model is None:
            read_answers(live, answers or {})  # refused: the game has none
        if answers is not None:
            await sessions.io(lambda: standing.set(live, seat, answers or None))
        held = (await sessions.io(lambda: standing.of(live))).get(seat)
        fields = model.model_json_schema() if model is not None else {}
        result = StandingResult(game_id=live.id, seat=seat, answers=held.model_dump(mode="json") if held else None, fields=fields)
        return reply(result, answers_text(live.seat_label(seat), held, fields))


def answers_text(who: str, held: BaseModel | None, fields: dict[str, Any]) -> str:
    """The answers in force and the fields that may be set, each with its choices and meaning."""
    lines = [f"{who}'s standing answers: " + (", ".join(f"{k}={v}" for k, v in held.model_dump(mode="json").items()) if held
                                               else "none (every window is asked)") + "."]
    if held:
        lines.append("The server passes the windows they cover for you and says so in your next 'since your last move'.")
    for name, spec in fields.get("properties", {}).items():
        choices = spec.get("enum") or (spec.get("items") or {}).get("enum")
        lines.append(f"- {name}" + (f" ({'/'.join(map(str, choices))})" if choices else "") + f": {spec.get('description', '')}")
    return "\n".join(lines)
