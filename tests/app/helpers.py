"""Small helpers for driving the server through an MCP client."""

from __future__ import annotations

from typing import Any

from mcp import Client


async def call(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    """Call a tool that must succeed; return its structured result (and check it comes with one compact text)."""
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content[0].text
    texts = [c for c in result.content if c.type == "text"]
    assert len(texts) == 1 and texts[0].text.strip(), "every answer has exactly one text, written for a model"
    assert not texts[0].text.lstrip().startswith("{"), "the text is not a JSON copy of the structured content"
    return result.structured_content


async def refused(client: Client, tool: str, **args: Any) -> str:
    """Call a tool that must be refused; return the error text."""
    result = await client.call_tool(tool, args)
    assert result.is_error, f"{tool} {args} was accepted"
    return result.content[0].text


async def play_to_the_end(client: Client, game_id: str, tokens: list[str], limit: int = 5000) -> dict[str, Any]:
    """Play a whole game over MCP: each seat rolls until it has 3 in the stash, then retreats."""
    for _ in range(limit):
        state = await call(client, "get_state", game_id=game_id, detail="full")
        if state["outcome"]:
            return state
        seat = state["to_move"][0]
        moves = await call(client, "legal_moves", game_id=game_id, token=tokens[seat])
        names = [m for g in moves["groups"] for m in g["moves"]]
        move = "retreat" if "retreat" in names and state["view"]["stash"] >= 3 else names[0]
        await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=move)
    raise AssertionError("the game did not end")
