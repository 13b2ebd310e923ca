"""Advice from the bots: the move a chosen bot would play now for a seat, and why."""

from __future__ import annotations

import time
from typing import Annotated

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import BaseModel, Field

from ..bots.registry import BOTS, advice_seed, suggest
from ..core.errors import BadOptions, GameOver, NotYourTurn
from ..core.game import JsonObject
from ..core.text import clip
from ..sessions.manager import GameSessions
from .game_tools import READ_ONLY, GameId, SeatTokenArg
from .replies import refusals_as_tool_errors, reply

#: Thinking time: default and most (seconds).
DEFAULT_SECONDS, MAX_SECONDS = 2.0, 10.0


class SuggestedMove(BaseModel):
    game_id: str
    seat: int
    bot: str = Field(description="The bot that chose, and what it is.")
    move: str = Field(description="The move in notation; pass it to apply_move to play it.")
    action: JsonObject = Field(description="The same move as an object.")
    explanation: str = Field(description="Why, in words: the plan, the evaluation's main terms.")
    terms: dict[str, float] = Field(description="The evaluation's terms after the move (the bot's own scale).")
    odds: list[str] = Field(description="The chances the choice relied on.")
    value: float | None = Field(description="The bot's value of its choice (its own scale), if it has one.")
    seconds: float = Field(description="Time spent thinking.")


def register_bot_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.tool(title="Suggest a move", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def suggest_move(
        game_id: GameId,
        token: SeatTokenArg,
        bot: Annotated[str | None, Field(description="heuristic (default), search; dice: optimal.")] = None,
        seconds: Annotated[float, Field(ge=0.1, le=MAX_SECONDS, description="Most seconds to think.")] = DEFAULT_SECONDS,
    ) -> Annotated[CallToolResult, SuggestedMove]:
        """A bot's move for your seat now and why. Nothing is played."""
        live = sessions.get(game_id)
        seat = sessions.seat_for(live, token)
        engine = live.engine
        offered = BOTS.get(engine.name, {})
        name = bot or next(iter(offered), "")
        if name not in offered:
            raise BadOptions(f"{engine.title} has no bot {bot!r}; choose one of: {', '.join(offered)}")
        if (result := engine.outcome(live.state)) is not None:
            raise GameOver(f"Game {live.id} is over: {result.reason}", rule=f"{engine.name}/end")
        if seat not in engine.to_move(live.state):
            who = ", ".join(live.seat_label(s) for s in engine.to_move(live.state))
            raise NotYourTurn(f"It is not {live.seat_label(seat)}'s decision; the game is waiting for {who}",
                              rule=f"{engine.name}/turn")
        state, ply = live.state, live.ply
        seed = advice_seed(live.id, ply, seat)
        start = time.perf_counter()
        found = await anyio.to_thread.run_sync(lambda: suggest(engine, state, seat, engine.name, name, seed, seconds))
        spent = time.perf_counter() - start
        move = engine.notation(found.action)
        out = SuggestedMove(
            game_id=live.id,
            seat=seat,
            bot=f"{name}: {offered[name]}",
            move=move,
            action=found.action.model_dump(mode="json"),
            explanation=found.explanation,
            terms=found.terms,
            odds=found.odds,
            value=found.value,
            seconds=round(spent, 3),
        )
        text = f"Suggested by the {name} bot ({spent:.1f} s), not played: {move}\n{clip(found.explanation, 900)}"
        if found.odds:
            text += "\nOdds: " + clip("; ".join(found.odds), 600)
        return reply(out, text)
