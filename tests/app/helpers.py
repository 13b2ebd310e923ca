"""Small helpers for driving the server through an MCP client."""

from __future__ import annotations

import json
from typing import Any

from mcp import Client


async def call(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    """Call a tool that must succeed; return its structured result (and check the text mirrors)."""
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content[0].text
    assert result.content[0].text.strip(), "every answer has a human-readable text"
    assert json.loads(result.content[-1].text) == result.structured_content
    return result.structured_content


async def refused(client: Client, tool: str, **args: Any) -> str:
    """Call a tool that must be refused; return the error text."""
    result = await client.call_tool(tool, args)
    assert result.is_error, f"{tool} {args} was accepted"
    return result.content[0].text


async def play_to_the_end(client: Client, game_id: str, tokens: list[str], limit: int = 5000) -> dict[str, Any]:
    """Play a whole game over MCP: each seat rolls until it has 3 in the stash, then retreats."""
    for _ in range(limit):
        state = await call(client, "get_state", game_id=game_id)
        if state["outcome"]:
            return state
        seat = state["to_move"][0]
        moves = await call(client, "legal_moves", game_id=game_id, token=tokens[seat])
        names = [m["notation"] for g in moves["groups"] for m in g["moves"]]
        move = "retreat" if "retreat" in names and state["view"]["stash"] >= 3 else names[0]
        await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=move)
    raise AssertionError("the game did not end")
