"""A complete four-player Cthulhu Wars game over MCP with every Independent Great Old One (Byatis, Abhoth, Daoloth,
Nyogtha) and other neutral material on: the options as tools list them, an unknown card refused at set-up, a card's
action refused with its rule, the cards' moves in notation and as objects, battle odds and the picture on the way
(rules_text ``cthulhu-wars/independent-great-old-ones``)."""

from __future__ import annotations

import random

import pytest
from mcp import Client

from .helpers import call, play_at_random, refused

pytestmark = pytest.mark.anyio

OPTIONS = {"igoo_byatis": True, "igoo_abhoth": True, "igoo_daoloth": True, "igoo_nyogtha": True, "high_priests": True,
           "neutral_gug": True, "neutral_spellbooks": True}
FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]
NEW = ("awaken byatis", "awaken abhoth", "awaken daoloth", "awaken nyogtha", "forgetfulness", "filth", "cosmic-unity",
       "from-below-capture", "from-below-battle")
WAKE = ("awaken", "gate", "battle")
SEED = 8


async def test_a_complete_game_with_the_independent_great_old_ones(server):
    async with Client(server) as client:
        games = await call(client, "list_games", detail="full")
        info = next(g for g in games["games"] if g["name"] == "cthulhu-wars")
        fields = info["options_schema"]["properties"]
        cards = ("igoo_byatis", "igoo_abhoth", "igoo_daoloth", "igoo_nyogtha")
        assert set(cards) <= set(fields) and all(fields[name]["default"] is False for name in cards)
        bad = await refused(client, "new_game", game="cthulhu-wars", seats=3, options={"igoo_cthugha": True})
        assert "igoo_cthugha" in bad
        game = await call(client, "new_game", game="cthulhu-wars", players=["A", "B", "C", "D"], seed=SEED,
                          options={"factions": FACTIONS, **OPTIONS})
        game_id = game["game_id"]
        tokens = [s["token"] for s in game["seats"]]
        first = (await call(client, "get_state", game_id=game_id))["to_move"][0]
        off = await refused(client, "apply_move", game_id=game_id, token=tokens[first], move="forgetfulness europe")
        assert "rules://cthulhu-wars/igoo-byatis" in off
        odds_asked: list[bool] = []
        cards_seen: list[str] = []

        async def after(seat: int, pick: dict, kind: str) -> None:
            if kind == "battle" and len(odds_asked) < 3:
                area, enemy = pick["action"]["area"], pick["action"]["enemy"]
                odds = await call(client, "battle_odds", game_id=game_id, area=area, attacker=FACTIONS[seat],
                                  defender=enemy)
                odds_asked.append(odds["odds"]["attacker"]["dice"] >= 1)
            if kind.startswith("awaken ") and kind in NEW and not cards_seen:  # the position notes the card held
                result = await client.call_tool("get_state", {"game_id": game_id, "token": tokens[seat]})
                cards_seen.append(result.content[0].text)

        offered = [False]

        async def before(seat: int, options: list[dict]) -> None:
            offered[0] = any(m["notation"].startswith(NEW) for m in options)

        def favour(notation: str, seen: dict[str, int]) -> bool:
            """The cards' moves when there are any, else Awakenings, Gates and battles (the cards need a GOO)."""
            return notation.startswith(NEW) if offered[0] else notation.startswith(WAKE)

        state, seen = await play_at_random(client, game_id, tokens, random.Random(SEED), bias=0.85, kind=new_kind,
                                           before=before, after=after, favour=favour)
        assert state["outcome"]["reason"] and all(odds_asked)
        assert {"awaken byatis", "awaken abhoth", "awaken daoloth", "awaken nyogtha"} & set(seen), sorted(seen.items())
        assert cards_seen and "Independent Great Old One" in cards_seen[0]
        picture = await client.call_tool("render_board", {"game_id": game_id, "format": "svg"})
        assert not picture.is_error


def new_kind(notation: str) -> str:
    """The kind of a move, with its unit for Awakenings."""
    words = notation.split()
    return " ".join(words[:2]) if words[0] == "awaken" else words[0]
