"""A Game of War tools for referees: both sides' lines of communication, and a combat explained."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import Field

from ..core.errors import BadOptions
from ..games.game_of_war import ENGINE as GAME_OF_WAR
from ..games.game_of_war.analysis import CombatPreview, NetworkStatus
from ..sessions.live import LiveGame
from ..sessions.manager import GameSessions
from .game_tools import READ_ONLY, GameId
from .replies import refusals_as_tool_errors, reply


def game_of_war(sessions: GameSessions, game_id: str) -> LiveGame:
    live = sessions.get(game_id)
    if live.engine is not GAME_OF_WAR:
        raise BadOptions(f"Game {game_id} is {live.engine.title}, not A Game of War")
    return live


def register_game_of_war_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.tool(title="Game of War: lines", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def network_status(game_id: GameId) -> Annotated[CallToolResult, NetworkStatus]:
        """A Game of War: each side's online/offline units, relays and squares its lines cover."""
        status = GAME_OF_WAR.network_status(game_of_war(sessions, game_id).state)
        if not status.sides:
            return reply(status, "Set-up is under way: deployments are secret, so nothing is reported yet. Rule: rules://game-of-war/setup.")
        text = [
            f"{s.side}: {len(s.online)} online, {len(s.offline)} offline"
            + (f" ({', '.join(s.offline)})" if s.offline else "")
            + f"; relaying: {', '.join(s.relaying) or 'none'}; lines cover {len(s.covered)} squares."
            for s in status.sides
        ]
        return reply(status, "\n".join([*text, "Rule: rules://game-of-war/communication."]))

    @mcp.tool(title="Game of War: attack preview", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def combat_preview(
        game_id: GameId,
        square: Annotated[str, Field(description="The attacked unit's square, e.g. 'h9'.")],
    ) -> Annotated[CallToolResult, CombatPreview]:
        """A Game of War: an attack on the unit at `square`, unit by unit, and its result."""
        preview = GAME_OF_WAR.combat_preview(game_of_war(sessions, game_id).state, square)
        parts = [f"{c.unit} {c.square} ({c.side}, {c.role}) {c.value}" for c in preview.contributors]
        text = (
            f"Attack by {preview.attacker} on the {preview.target_unit} at {preview.target}: {preview.attack} against "
            f"{preview.defence}: {preview.result}.\n" + "\n".join(parts) + "\nRule: rules://game-of-war/combat."
        )
        return reply(preview, text)
