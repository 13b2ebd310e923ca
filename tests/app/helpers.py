"""Small helpers for driving the server through an MCP client."""

from __future__ import annotations

import random
from typing import Any, Awaitable, Callable

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


Hook = Callable[[int, dict[str, Any], str], Awaitable[None]]


async def play_at_random(
    client: Client, game_id: str, tokens: list[str], chooser: random.Random, *,
    favour: Callable[[str, dict[str, int]], bool] = lambda notation, seen: False, bias: float = 0.7,
    kind: Callable[[str], str] = lambda notation: notation.split()[0],
    before: Callable[[int, list[dict[str, Any]]], Awaitable[None]] | None = None, after: Hook | None = None,
    limit: int = 5000,
) -> tuple[dict[str, Any], dict[str, int]]:
    """Play a whole game over MCP: each time a seat awaited at random plays a random legal move, sent in notation
    or as an object at random; with probability ``bias`` one of the moves ``favour`` picks (by its notation and
    the kinds played so far), when there are any. ``before(seat, options)`` runs before the choice and
    ``after(seat, pick, kind)`` after the move. Returns the final state and how often each kind of move was played
    (``kind`` names it from its notation)."""
    seen: dict[str, int] = {}
    for _ in range(limit):
        state = await call(client, "get_state", game_id=game_id)
        if state["outcome"]:
            return state, seen
        seat = chooser.choice(state["to_move"])
        moves = await call(client, "legal_moves", game_id=game_id, token=tokens[seat], detail="full")
        options = [m for g in moves["groups"] for m in g["options"]]
        assert options, f"seat {seat} is awaited but has no legal move"
        if before is not None:
            await before(seat, options)
        favoured = [m for m in options if favour(m["notation"], seen)]
        pick = chooser.choice(favoured) if favoured and chooser.random() < bias else chooser.choice(options)
        move = {"move": pick["notation"]} if chooser.random() < 0.5 else {"actions": [pick["action"]]}
        await call(client, "apply_move", game_id=game_id, token=tokens[seat], **move)
        played = kind(pick["notation"])
        seen[played] = seen.get(played, 0) + 1
        if after is not None:
            await after(seat, pick, played)
    raise AssertionError("the game did not end")
