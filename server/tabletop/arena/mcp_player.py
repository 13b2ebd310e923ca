"""A bot playing one seat through an MCP client that holds only that seat's token.

The seat is played by ``seats.player.SeatPlayer``, the one implementation the server's own bot seats use too: what
the seat is shown comes from the MCP tools (``get_state``, ``history``, ``wait_for_turn``), moves go back through
``apply_move`` (numbered with ``expected_ply``), and the bot, unchanged, thinks in a worker thread on the game it
rebuilds from what the seat was shown. If the log cannot be rebuilt, the player asks the server's
``suggest_move`` for the same bot's choice at its seat, with its own token (the server's bots choose from what
that seat may know).
"""

from __future__ import annotations

import re
from typing import Any

from mcp import Client

from ..seats.player import SeatPlayer
from ..seats.thinking import in_thread


#: A refusal because the game moved on first (the SDK may put "Error executing tool apply_move: " before it).
CONFLICT = re.compile(r"^(?:Error executing tool \w+: )?conflict:")


class McpPort:
    """A seat's port (``seats.player.SeatPort``) over an MCP client holding the seat's token."""

    def __init__(self, client: Client, game_id: str, token: str) -> None:
        self.client, self.game_id, self.token = client, game_id, token

    async def call(self, tool: str, **args: Any) -> dict[str, Any]:
        result = await self.client.call_tool(tool, {"game_id": self.game_id, "token": self.token, **args})
        if result.is_error:
            raise RuntimeError(f"{tool} failed: {result.content[0].text}")
        return result.structured_content

    async def state(self) -> dict[str, Any]:
        return await self.call("get_state", detail="full")

    async def history(self, after: int, limit: int) -> dict[str, Any]:
        return await self.call("history", after=after, limit=limit)

    async def wait(self, timeout: float) -> None:
        await self.call("wait_for_turn", timeout_seconds=timeout)

    async def play(self, move: str | None, action: dict[str, Any] | None, expected: int) -> bool:
        given = {"move": move} if action is None else {"actions": [action]}
        result = await self.client.call_tool("apply_move", {"game_id": self.game_id, "token": self.token,
                                                            "expected_ply": expected, **given})
        if result.is_error:
            text = result.content[0].text
            if CONFLICT.match(text):
                return False  # the game moved on first (another seat awaited at once played): nothing was played
            raise RuntimeError(f"apply_move failed: {text}")
        return True

    async def accepts(self, move: str) -> bool:
        result = await self.client.call_tool("apply_move", {"game_id": self.game_id, "token": self.token,
                                                            "move": move, "dry_run": True})
        return not result.is_error

    async def advice(self, bot: str, seconds: float) -> str | None:
        result = await self.client.call_tool("suggest_move", {"game_id": self.game_id, "token": self.token,
                                                              "bot": bot, "seconds": seconds})
        return None if result.is_error else result.structured_content["move"]


class McpSeat(SeatPlayer):
    """One seat of one game, played by ``bot`` over ``client`` with ``token`` (see the module docstring)."""

    def __init__(self, client: Client, game_id: str, token: str, bot: Any, options: dict[str, Any] | None = None,
                 bot_name: str | None = None, seconds: float = 2.0) -> None:
        super().__init__(McpPort(client, game_id, token), in_thread(bot), options=options, bot_name=bot_name,
                         seconds=seconds)
        self.token = token

    async def call(self, tool: str, **args: Any) -> dict[str, Any]:
        return await self.port.call(tool, **{k: v for k, v in args.items() if k not in ("game_id", "token")})


__all__ = ["McpPort", "McpSeat"]
