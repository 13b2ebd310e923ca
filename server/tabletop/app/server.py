"""Build the MCP server over a game store."""

from __future__ import annotations

import json
from typing import Any

from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent
from mcp.types import Tool as MCPTool
from pydantic import ValidationError

from .. import __version__
from ..apps.board import BoardApp
from ..core.text import clip
from ..seats.driver import BotDriver
from ..sessions.manager import GameSessions
from ..sessions.standing import StandingAnswers
from .arguments import refusal
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
from .replies import log_refusals_once, refused_call
from .tool_schemas import lean_output, plain_description, portable_input
from .updates import GameUpdates

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
        #: Publishes game://<id> updates to subscriptions/listen streams; whoever serves this server runs it too.
        self.updates: GameUpdates | None = None
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

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None, context: Any = None) -> Any:
        """The SDK's prompt, with an unknown prompt or a missing argument answered as invalid params (-32602)
        that names what there is, rather than an internal error logged with a traceback."""
        prompts = {p.name: p for p in await self.list_prompts()}
        prompt = prompts.get(name)
        if prompt is None:
            raise MCPError(INVALID_PARAMS, f"No prompt {clip(name, 60)!r}; prompts: {', '.join(sorted(prompts))}",
                           data={"name": clip(name, 60)})
        missing = [a.name for a in prompt.arguments or [] if a.required and a.name not in (arguments or {})]
        if missing:
            raise MCPError(INVALID_PARAMS, f"Prompt {name!r} needs the arguments {', '.join(missing)}",
                           data={"name": name, "missing": missing})
        return await super().get_prompt(name, arguments, context)

    async def advertised_input(self, name: str) -> dict[str, Any]:
        """The input schema of tool ``name`` as tools/list shows it ({} for an unknown tool)."""
        return next((t.input_schema for t in await self.list_tools() if t.name == name), {})

    async def documented_schemas(self) -> dict[str, tuple[dict[str, Any], dict[str, Any] | None]]:
        """Per tool: its input schema as advertised and its output schema with every field described."""
        return {tool.name: (portable_input(tool.input_schema), tool.output_schema) for tool in await super().list_tools()}

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """The SDK's call, with arguments that fail the tool's input schema refused as ``bad_arguments``."""
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as err:
            # the SDK raises a plain ToolError caused by pydantic's error only when the arguments fail validation;
            # a ValidationError inside a tool's body is a crash (UnexpectedToolError) and stays one
            if isinstance(err, UnexpectedToolError) or not isinstance(err.__cause__, ValidationError):
                raise
            raise refused_call(name, refusal(err.__cause__, await self.advertised_input(name))) from None
        if self.json_content and isinstance(result, CallToolResult) and result.structured_content is not None:
            copy = TextContent(type="text", text=json.dumps(result.structured_content, ensure_ascii=False))
            result = result.model_copy(update={"content": [*result.content, copy]})
        return result


def build_server(sessions: GameSessions, json_content: bool = False, output_schemas: bool = False) -> TabletopServer:
    log_refusals_once()
    bus = InMemorySubscriptionBus()
    board = BoardApp(sessions)  # the board in the conversation, for hosts that render apps (apps/)
    mcp = TabletopServer(
        "tabletop-mcp",
        extensions=[board],
        subscriptions=bus,
        version=__version__,
        instructions=INSTRUCTIONS,
        json_content=json_content,
        output_schemas=output_schemas,
    )
    mcp.sessions = sessions  # for the watching site beside /mcp (app/http.py)
    mcp.driver = BotDriver(sessions)
    mcp.updates = GameUpdates(sessions, bus)
    board.attach(mcp)
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
