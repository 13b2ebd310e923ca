"""render_board: a picture of any game's position, as a PNG image and/or an SVG resource (never as text)."""

from __future__ import annotations

import base64
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, EmbeddedResource, ImageContent, TextContent, TextResourceContents
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
    svg_uri: str | None = Field(description="The URI of the SVG sent as an embedded image/svg+xml resource, when asked for.")


def register_picture_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.tool(title="Draw the board", annotations=READ_ONLY)
    @refusals_as_tool_errors
    def render_board(
        game_id: GameId,
        token: OptionalToken = None,
        format: Annotated[
            Literal["png", "svg", "both"],
            Field(description="png, svg (a resource) or both."),
        ] = "png",
        overlays: Annotated[
            list[str], Field(max_length=10, description="Layers, e.g. 'lines' (A Game of War).")
        ] = [],  # noqa: B006 - pydantic copies defaults
    ) -> Annotated[CallToolResult, BoardPicture]:
        """A picture (PNG/SVG) of the position as your seat or a spectator sees it."""
        live = sessions.get(game_id)
        seat = sessions.optional_seat(live, token)
        engine = live.engine
        unknown = sorted(set(overlays) - set(engine.overlay_names))
        if unknown:
            raise BadOptions(f"{engine.title} has no overlay {', '.join(unknown)}", legal=list(engine.overlay_names))
        scene = engine.draw(live.state, seat, frozenset(overlays), live.record.seat_names)
        if scene is None:
            raise BadOptions(f"{engine.title} has no picture")
        ply = sessions.ply_for(live, seat)
        svg_uri = f"picture://{live.id}/{ply}.svg" if format != "png" else None
        info = BoardPicture(
            game_id=live.id,
            ply=ply,
            width=scene.width,
            height=scene.height,
            format=format,
            overlays=sorted(overlays),
            available_overlays=list(engine.overlay_names),
            svg_uri=svg_uri,
        )
        view = live.seat_label(seat) if seat is not None else "spectator"
        content: list[TextContent | ImageContent | EmbeddedResource] = [
            TextContent(type="text", text=f"{engine.title} {live.id} after move {ply}, {view} view ({scene.width}x{scene.height}).")
        ]
        if format != "svg":
            content.append(ImageContent(type="image", mime_type="image/png", data=base64.b64encode(to_png(scene)).decode()))
        if svg_uri is not None:
            document = TextResourceContents(uri=svg_uri, mime_type="image/svg+xml", text=to_svg(scene))
            content.append(EmbeddedResource(type="resource", resource=document))
        return CallToolResult(content=content, structured_content=info.model_dump(mode="json"))
