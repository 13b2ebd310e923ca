"""Build the MCP server over a game store."""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from mcp.types import Tool as MCPTool

from .. import __version__
from ..seats.driver import BotDriver
from ..sessions.manager import GameSessions
from ..sessions.standing import StandingAnswers
from .bot_tools import register_bot_tools
from .completions import register_completions
from .cthulhu_wars_tools import register_cthulhu_wars_tools
from .dice_advice_tools import register_dice_advice_tools
from .dice_tools import register_dice_tools
from .game_of_war_tools import register_game_of_war_tools
from .game_tools import register_game_tools
from .picture_tools import register_picture_tools
from .standing_tools import register_standing_tools
from .rules_tools import register_game_resources, register_prompts, register_rules
from .replies import log_refusals_once
from .tool_schemas import lean_output, plain_description, portable_input

INSTRUCTIONS = """\
Tabletop MCP referees board games with a real rules engine: Cthulhu Dice, A Game of War (Debord) and
Cthulhu Wars.
To play: list_games -> new_game (you get a game id and one secret token per seat) -> get_state (the
position and, on your turn, your legal moves) -> apply_move (one move, or a whole turn as `moves`).
Illegal moves are refused with the reason and the rule, and change nothing. Between your turns call
wait_for_turn. Rules questions: search_rules, then read rules://<game>/<section>. Answer from the
engine and the rules text, not from memory."""


class TabletopServer(MCPServer):
    """The SDK's server with answers and tool listings shaped for models (see tool_schemas.py).

    ``json_content``: also put the JSON of each structured result into ``content``, for clients that
    ignore ``structuredContent`` (by default it is left out: the model would pay for the data twice).

    ``output_schemas``: advertise each tool's output schema in ``tools/list``. Off by default: a model
    is sent ``tools/list`` in every conversation, and the output schemas would be most of it. Programs
    find them in schemas/ (with every field described) or start the server with this option.
    Either way every structured result is checked against its schema before it leaves the server.
    """

    def __init__(self, *args: Any, json_content: bool = False, output_schemas: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.json_content = json_content
        self.output_schemas = output_schemas
        self.sessions: GameSessions | None = None
        #: Plays the bot seats of every unfinished game; whoever serves this server runs it (``driver.run()``).
        self.driver: BotDriver | None = None
        #: Where people reach this server's play pages (``tabletop serve --http``), e.g. ``http://127.0.0.1:8000``;
        #: None when it serves none (stdio): then ``new_game`` refuses people's seats.
        self.play_url: str | None = None

    async def list_tools(self) -> list[MCPTool]:
        return [
            tool.model_copy(
                update={
                    "description": plain_description(tool.description),
                    "input_schema": portable_input(tool.input_schema),
                    "output_schema": lean_output(tool.output_schema) if self.output_schemas else None,
                }
            )
            for tool in await super().list_tools()
        ]

    async def documented_schemas(self) -> dict[str, tuple[dict[str, Any], dict[str, Any] | None]]:
        """Per tool: its input schema as advertised and its output schema with every field described."""
        return {tool.name: (portable_input(tool.input_schema), tool.output_schema) for tool in await super().list_tools()}

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        result = await super().call_tool(name, arguments, context)
        if self.json_content and isinstance(result, CallToolResult) and result.structured_content is not None:
            copy = TextContent(type="text", text=json.dumps(result.structured_content, ensure_ascii=False))
            result = result.model_copy(update={"content": [*result.content, copy]})
        return result


def build_server(sessions: GameSessions, json_content: bool = False, output_schemas: bool = False) -> TabletopServer:
    log_refusals_once()
    mcp = TabletopServer(
        "tabletop-mcp",
        version=__version__,
        instructions=INSTRUCTIONS,
        json_content=json_content,
        output_schemas=output_schemas,
    )
    mcp.sessions = sessions  # for the watching site beside /mcp (app/http.py)
    mcp.driver = BotDriver(sessions)
    register_game_tools(mcp, sessions, mcp.driver)
    register_dice_tools(mcp, sessions)
    register_dice_advice_tools(mcp, sessions)
    register_cthulhu_wars_tools(mcp, sessions)
    register_game_of_war_tools(mcp, sessions)
    register_picture_tools(mcp, sessions)
    register_bot_tools(mcp, sessions)
    register_standing_tools(mcp, sessions, StandingAnswers(sessions))
    register_rules(mcp)
    register_game_resources(mcp, sessions)
    register_prompts(mcp)
    register_completions(mcp, sessions)
    return mcp
