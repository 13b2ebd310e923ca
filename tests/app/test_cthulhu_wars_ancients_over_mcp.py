"""A complete four-player Cthulhu Wars game over MCP seating The Ancients (rules_text cthulhu-wars/ancients): their
start choice, Cathedrals, free Summons and Dematerialization in notation and as objects, the calculators on the way,
the picture at the end."""

from __future__ import annotations

import random

import pytest
from mcp import Client

from .helpers import call, play_at_random, refused

pytestmark = pytest.mark.anyio

FACTIONS = ["ancients", "great-cthulhu", "sleeper", "opener-of-the-way"]
SEED = 3
NEW = ("an-", "start")


async def test_a_complete_four_player_game_with_the_ancients(server):
    async with Client(server) as client:
        games = await call(client, "list_games")
        info = next(g for g in games["games"] if g["name"] == "cthulhu-wars")
        assert "ancients" in info["summary"] and "Cathedrals" in info["summary"]
        game = await call(client, "new_game", game="cthulhu-wars", players=["A", "B", "C", "D"], seed=SEED,
                          options={"factions": FACTIONS})
        game_id = game["game_id"]
        tokens = [s["token"] for s in game["seats"]]
        assert game["seats"][0]["role"] == "The Ancients"
        checked = {"gather": False, "refused": False}

        async def refuse_a_cathedral_once(seat: int, options: list[dict]) -> None:
            if seat == 0 and not checked["refused"] and not any(m["notation"].startswith("an-cathedral") for m in options):
                answer = await refused(client, "apply_move", game_id=game_id, token=tokens[0], move="an-cathedral europe")
                assert "cthulhu-wars/ancients" in answer
                checked["refused"] = True

        async def gather_after_a_cathedral(seat: int, pick: dict, kind: str) -> None:
            if kind == "an-cathedral" and not checked["gather"]:
                report = await call(client, "gather_power", game_id=game_id)
                assert any(r["faction"] == "ancients" for r in report["results"])
                checked["gather"] = True

        state, seen = await play_at_random(
            client, game_id, tokens, random.Random(SEED), favour=lambda notation, seen: notation.startswith(NEW),
            before=refuse_a_cathedral_once, after=gather_after_a_cathedral, limit=4000)
        assert state["outcome"]["reason"]
        assert seen.get("start") and seen.get("an-cathedral") and seen.get("an-dematerialize"), seen
        assert checked == {"gather": True, "refused": True}, checked
        picture = await client.call_tool("render_board", {"game_id": game_id, "format": "svg"})
        assert not picture.is_error
