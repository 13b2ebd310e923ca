"""A complete four-player Cthulhu Wars game over MCP with High Priests and every neutral monster card on: the new
moves in notation and as objects, their refusals, battle odds and the picture on the way (rules_text
``cthulhu-wars/high-priests``, ``cthulhu-wars/neutral-monsters``)."""

from __future__ import annotations

import random

import pytest
from mcp import Client

from .helpers import call, play_at_random, refused

pytestmark = pytest.mark.anyio

OPTIONS = {"high_priests": True, "neutral_ghast": True, "neutral_gug": True, "neutral_shantak": True,
           "neutral_star_vampire": True}
FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]
NEW = ("oath", "buy-card", "place-monster", "carry", "recruit high-priest", "summon ghast", "summon gug",
       "summon shantak", "summon star-vampire", "move shantak")
SEED = 4


async def test_a_complete_game_with_high_priests_and_every_neutral_monster_card(server):
    async with Client(server) as client:
        games = await call(client, "list_games", detail="full")
        info = next(g for g in games["games"] if g["name"] == "cthulhu-wars")
        fields = info["options_schema"]["properties"]
        assert set(OPTIONS) <= set(fields) and all(fields[name]["default"] is False for name in OPTIONS)
        bad = await refused(client, "new_game", game="cthulhu-wars", seats=3, options={"neutral_byatis": True})
        assert "bad_options" in bad
        plain = await call(client, "new_game", game="cthulhu-wars", players=["A", "B", "C"], seed=SEED)
        awaited = (await call(client, "get_state", game_id=plain["game_id"]))["to_move"][0]
        off = await refused(client, "apply_move", game_id=plain["game_id"], token=plain["seats"][awaited]["token"],
                            move="recruit high-priest south-pacific")
        assert "game option high_priests" in off and "rules://cthulhu-wars/high-priests" in off
        game = await call(client, "new_game", game="cthulhu-wars", players=["A", "B", "C", "D"], seed=SEED,
                          options={"factions": FACTIONS, **OPTIONS})
        game_id = game["game_id"]
        tokens = [s["token"] for s in game["seats"]]
        odds_asked = []

        async def ask_odds_once(seat: int, pick: dict, kind: str) -> None:
            if kind == "battle" and not odds_asked:
                area, enemy = pick["action"]["area"], pick["action"]["enemy"]
                odds = await call(client, "battle_odds", game_id=game_id, area=area, attacker=FACTIONS[seat], defender=enemy)
                odds_asked.append(odds["odds"]["attacker"]["dice"] >= 0)

        state, seen = await play_at_random(
            client, game_id, tokens, random.Random(SEED), bias=0.8, kind=new_kind, after=ask_odds_once,
            favour=lambda notation, seen: notation.startswith(NEW) and seen.get(new_kind(notation), 0) < 3)
        assert state["outcome"]["reason"] and all(odds_asked)
        assert {"oath", "buy-card", "recruit high-priest"} <= set(seen), seen
        picture = await client.call_tool("render_board", {"game_id": game_id, "format": "svg"})
        assert not picture.is_error


def new_kind(notation: str) -> str:
    """The kind of a move, with its unit for the Recruits, Summons and Moves of the neutral units."""
    words = notation.split()
    return " ".join(words[:2]) if words[0] in ("recruit", "summon", "move") else words[0]
