"""A complete five-player Cthulhu Wars game over MCP seating Windwalker, Sleeper and Opener of the Way: start
choices, the new actions and decisions in notation and as objects, and the calculators and picture on the way."""

from __future__ import annotations

import random

import pytest
from mcp import Client

from .helpers import call, play_at_random, refused

pytestmark = pytest.mark.anyio

FACTIONS = ["great-cthulhu", "windwalker", "sleeper", "opener-of-the-way", "black-goat"]
SEED = 1
NEW = ("ww-", "sl-", "ow-", "start")


async def test_a_complete_five_player_game_with_the_expansion_factions(server):
    async with Client(server) as client:
        games = await call(client, "list_games")
        info = next(g for g in games["games"] if g["name"] == "cthulhu-wars")
        assert all(f in info["summary"] for f in FACTIONS + ["crawling-chaos", "yellow-sign"])
        bad = await refused(client, "new_game", game="cthulhu-wars", seats=3, options={"factions": ["sleeper", "nyogtha", "windwalker"]})
        assert "bad_options" in bad and "opener-of-the-way" in bad
        game = await call(client, "new_game", game="cthulhu-wars", players=["A", "B", "C", "D", "E"], seed=SEED,
                          options={"factions": FACTIONS})
        game_id = game["game_id"]
        tokens = [s["token"] for s in game["seats"]]
        assert [s["role"] for s in game["seats"]][1:4] == ["Windwalker", "The Sleeper", "Opener of the Way"]
        checked = {"gather": False, "odds": False}

        async def check_calculators_once(seat: int, pick: dict, kind: str) -> None:
            if kind == "ww-hibernate" and not checked["gather"]:
                report = await call(client, "gather_power", game_id=game_id)
                ww = next(r for r in report["results"] if r["faction"] == "windwalker")
                assert any(line["source"].startswith("Hibernate") for line in ww["power"]["lines"])
                checked["gather"] = True
            if kind == "battle" and not checked["odds"]:
                area, enemy = pick["action"]["area"], pick["action"]["enemy"]
                odds = await call(client, "battle_odds", game_id=game_id, area=area, attacker=FACTIONS[seat], defender=enemy)
                assert odds["odds"]["attacker"]["dice"] >= 1
                checked["odds"] = True

        state, seen = await play_at_random(
            client, game_id, tokens, random.Random(SEED), after=check_calculators_once, limit=4000,
            favour=lambda notation, seen: notation.startswith(NEW) and notation.split()[0] not in seen)
        assert state["outcome"]["reason"]
        assert seen.get("start") == 2 and seen.get("ww-hibernate") and checked["gather"], seen
        assert any(k.startswith("sl-") for k in seen) and any(k.startswith("ow-") for k in seen), seen
        picture = await client.call_tool("render_board", {"game_id": game_id, "format": "svg"})
        assert not picture.is_error
