"""What is owed, over MCP (rules_text ``cthulhu-wars/turn``): the answer to every Cthulhu Wars move says what the
seat must or may do next, or why its turn has ended, and a refused 'done' says what is still owed."""

from __future__ import annotations

import random

import pytest
from mcp import Client

from tabletop.games.cthulhu_wars.engine import CthulhuWars

from .helpers import call, refused

pytestmark = pytest.mark.anyio


async def test_every_answer_to_a_move_says_what_is_owed_next(server):
    engine = CthulhuWars()
    async with Client(server) as client:
        game = await call(client, "new_game", game="cthulhu-wars", players=["Ann", "Bob", "Cy", "Di"], seed=12)
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        pick = random.Random(4)
        seen = set()
        for _ in range(700):
            state = await call(client, "get_state", game_id=game_id)
            if state["outcome"]:
                break
            seat = state["to_move"][0]
            moves = await call(client, "legal_moves", game_id=game_id, token=tokens[seat])
            move = pick.choice([m for g in moves["groups"] for m in g["moves"]])
            answer = await client.call_tool("apply_move", {"game_id": game_id, "token": tokens[seat], "move": move})
            assert not answer.is_error, answer.content[0].text
            live = server.sessions.get(game_id)
            if answer.structured_content["outcome"]:
                assert "Game over" in answer.content[0].text or "wins" in answer.content[0].text
                break
            owed = engine.owed(live.state, seat)
            assert owed and owed in answer.content[0].text, (move, owed, answer.content[0].text)
            seen.add(owed.split(":")[0].split("(")[0][:30])
        assert len(seen) >= 6, f"only these states were met: {seen}"


async def test_a_refused_done_says_that_the_turns_action_is_still_owed(server):
    async with Client(server) as client:
        game = await call(client, "new_game", game="cthulhu-wars", players=["Ann", "Bob", "Cy"], seed=3)
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        gc = next(s["seat"] for s in game["seats"] if s["role"] == "Great Cthulhu")
        await call(client, "apply_move", game_id=game_id, token=tokens[gc], move="direction clockwise")
        first = (await call(client, "get_state", game_id=game_id))["to_move"][0]
        text = await refused(client, "apply_move", game_id=game_id, token=tokens[first], move="done")
        assert "you still owe your turn's action" in text and "Power" in text, text
        after = await call(client, "get_state", game_id=game_id)
        assert after["to_move"] == [first] and after["ply"] == 1, "the refusal changed nothing"
