"""render_board: a picture of any game's position, as a PNG image and as SVG."""

from __future__ import annotations

import base64
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ImageContent, TextContent
from pydantic import BaseModel, Field

from ..core.errors import BadOptions
from ..render import to_png, to_svg
from ..sessions.manager import GameSessions
from .game_tools import READ_ONLY, GameId, OptionalToken
from .replies import refusals_as_tool_errors


class BoardPicture(BaseModel):
    game_id: str
    ply: int
    width: int
    height: int
    format: Literal["png", "svg", "both"]
    overlays: list[str] = Field(description="Optional layers drawn on this picture.")
    available_overlays: list[str] = Field(description="Layers this game can add (pass them in `overlays`).")
    svg: str | None = Field(description="The picture as SVG text, when asked for.")


def register_picture_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def render_board(
        game_id: GameId,
        token: OptionalToken = None,
        format: Annotated[
            Literal["png", "svg", "both"], Field(description="png: an image; svg: SVG text; both: the two.")
        ] = "png",
        overlays: Annotated[
            list[str], Field(max_length=10, description="Optional layers, e.g. 'lines' in A Game of War.")
        ] = [],  # noqa: B006 - pydantic copies defaults
    ) -> Annotated[CallToolResult, BoardPicture]:
        """Draw the position of a game as a picture (PNG image and/or SVG), as your seat may see it (or as a
        spectator without a token). Use it to show a person the board; the text of get_state is better for
        reasoning."""
        live = sessions.get(game_id)
        seat = sessions.optional_seat(live, token)
        engine = live.engine
        unknown = sorted(set(overlays) - set(engine.overlay_names))
        if unknown:
            raise BadOptions(f"{engine.title} has no overlay {', '.join(unknown)}", legal=list(engine.overlay_names))
        scene = engine.draw(live.state, seat, frozenset(overlays))
        if scene is None:
            raise BadOptions(f"{engine.title} has no picture")
        svg = to_svg(scene) if format != "png" else None
        info = BoardPicture(
            game_id=live.id,
            ply=live.ply,
            width=scene.width,
            height=scene.height,
            format=format,
            overlays=sorted(overlays),
            available_overlays=list(engine.overlay_names),
            svg=svg,
        )
        content: list[TextContent | ImageContent] = [
            TextContent(type="text", text=f"{engine.title} {live.id} after move {live.ply} ({scene.width}x{scene.height}).")
        ]
        if format != "svg":
            content.append(ImageContent(type="image", mime_type="image/png", data=base64.b64encode(to_png(scene)).decode()))
        if svg is not None:
            content.append(TextContent(type="text", text=svg))
        return CallToolResult(content=content, structured_content=info.model_dump(mode="json"))
