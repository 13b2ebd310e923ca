"""Cthulhu Wars tools that need no game: the map's adjacency and the Gather Power calculator."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import Field

from ..games.cthulhu_wars.maps import LAYOUTS, AdjacentAreas, list_adjacent as adjacent_areas
from ..games.cthulhu_wars.power import GatherPowerResult, PowerSources, gather_power as gather
from .game_tools import READ_ONLY
from .replies import refusals_as_tool_errors, reply


def register_cthulhu_wars_tools(mcp: MCPServer) -> None:
    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def list_adjacent(
        area: Annotated[str, Field(description="An area name, forgivingly matched: 'north atlantic', 'NZ', 'antarc'.")],
        layout: Annotated[
            str,
            Field(description=f"The Cthulhu Wars map layout: one of {', '.join(LAYOUTS)} (3, 4, 4 alternate, 5 players)."),
        ] = "earth_4p",
    ) -> Annotated[CallToolResult, AdjacentAreas]:
        """Cthulhu Wars: list the areas next to an area on a map layout, with each one's type (land or ocean).
        A unit moves one step to an adjacent area per Move. Unknown or ambiguous names are refused with the
        closest area names."""
        found = adjacent_areas(layout, area)
        names = ", ".join(f"{a.name} ({a.type})" for a in found.adjacent)
        return reply(found, f"{found.name} ({found.type}) on {found.layout} is adjacent to: {names}.")

    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def gather_power(sources: PowerSources) -> Annotated[CallToolResult, GatherPowerResult]:
        """Cthulhu Wars: compute one faction's Power for the Gather Power phase from counts, line by line: 1 per
        Cultist in play, 2 per controlled Gate, 1 per Abandoned Gate on the map, 1 per captured enemy Cultist,
        plus any faction extras you list; then the Minimum Power Rule (never below half the highest total,
        rounded up) if you give the highest total at the table."""
        result = gather(sources)
        lines = [f"{line.source}: {line.count} x {line.power_each} = {line.subtotal}" for line in result.lines]
        return reply(result, "\n".join([*lines, f"Total: {result.total} Power."]))
