"""Build the MCP server over a game store."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

from .. import __version__
from ..sessions.manager import GameSessions
from .cthulhu_wars_tools import register_cthulhu_wars_tools
from .dice_advice_tools import register_dice_advice_tools
from .dice_tools import register_dice_tools
from .game_of_war_tools import register_game_of_war_tools
from .game_tools import register_game_tools
from .picture_tools import register_picture_tools
from .rules_tools import register_game_resources, register_prompts, register_rules

INSTRUCTIONS = """\
Tabletop MCP referees board games with a real rules engine: Cthulhu Dice, A Game of War (Debord) and
Cthulhu Wars.
To play: list_games -> new_game (you get a game id and one secret token per seat) -> get_state /
legal_moves -> apply_move (with the seat's token). Illegal moves are refused with the reason and
the rule, and change nothing. Agents playing different seats call wait_for_turn between moves.
Rules questions: search_rules, then read rules://<game>/<section>. Answer from the engine and the
rules text, not from memory."""


def build_server(sessions: GameSessions) -> MCPServer:
    mcp = MCPServer("tabletop-mcp", version=__version__, instructions=INSTRUCTIONS)
    register_game_tools(mcp, sessions)
    register_dice_tools(mcp, sessions)
    register_dice_advice_tools(mcp, sessions)
    register_cthulhu_wars_tools(mcp, sessions)
    register_game_of_war_tools(mcp, sessions)
    register_picture_tools(mcp, sessions)
    register_rules(mcp)
    register_game_resources(mcp, sessions)
    register_prompts(mcp)
    return mcp
