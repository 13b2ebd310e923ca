"""A complete four-player Cthulhu Wars game through the MCP client, each seat acting with its own token."""

from __future__ import annotations

import random

import pytest
from mcp import Client

from .helpers import call, refused

pytestmark = pytest.mark.anyio


async def test_a_complete_four_player_game_with_four_seat_tokens(server):
    async with Client(server) as client:
        game = await call(client, "new_game", game="cthulhu-wars", players=["Ann", "Bob", "Cy", "Di"], seed=11)
        game_id = game["game_id"]
        tokens = [s["token"] for s in game["seats"]]
        assert len({s["role"] for s in game["seats"]}) == 4
        chooser = random.Random(5)
        for _ in range(3000):
            state = await call(client, "get_state", game_id=game_id)
            if state["outcome"]:
                break
            seat = chooser.choice(state["to_move"])
            others = [t for i, t in enumerate(tokens) if i not in state["to_move"]]
            if others and chooser.random() < 0.05:
                assert "not_your_turn" in await refused(client, "apply_move", game_id=game_id, token=others[0], move="pass")
            moves = await call(client, "legal_moves", game_id=game_id, token=tokens[seat], detail="full")
            options = [m for g in moves["groups"] for m in g["options"]]
            assert options, f"seat {seat} is awaited but has no legal move"
            pick = chooser.choice(options)
            move = {"move": pick["notation"]} if chooser.random() < 0.5 else {"actions": [pick["action"]]}
            await call(client, "apply_move", game_id=game_id, token=tokens[seat], **move)
        else:
            raise AssertionError("the game did not end")
        outcome = state["outcome"]
        assert outcome["reason"]
        log = await call(client, "history", game_id=game_id, limit=200)
        assert log["seed"] == 11 and len(log["moves"]) == min(200, state["ply"])
        seats_view = await call(client, "get_state", game_id=game_id, token=tokens[0])
        assert seats_view["outcome"] == outcome
