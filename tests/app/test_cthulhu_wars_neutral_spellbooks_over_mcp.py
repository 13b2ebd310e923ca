"""A complete three-player Cthulhu Wars game over MCP with the neutral spellbooks on: the books taken from the pool
and used, in notation and as objects, a refusal citing the book's section, and the picture at the end (rules_text
``cthulhu-wars/neutral-spellbooks``)."""

from __future__ import annotations

import random

import pytest
from mcp import Client

from .helpers import call, play_at_random, refused

pytestmark = pytest.mark.anyio

BOOKS = ("umr-at-tawil", "stars-are-right", "mao-ceremony", "shriveling", "recriminations", "undimensioned")
NEW = tuple(f"spellbook {b}" for b in BOOKS) + ("mao-ceremony", "shriveling", "recriminations", "undimensioned",
                                                 "rearrange")
SEED = 3


async def test_a_complete_game_with_the_neutral_spellbooks(server):
    async with Client(server) as client:
        games = await call(client, "list_games", detail="full")
        fields = next(g for g in games["games"] if g["name"] == "cthulhu-wars")["options_schema"]["properties"]
        assert fields["neutral_spellbooks"]["default"] is False
        plain = await call(client, "new_game", game="cthulhu-wars", players=["A", "B", "C"], seed=SEED)
        awaited = (await call(client, "get_state", game_id=plain["game_id"]))["to_move"][0]
        off = await refused(client, "apply_move", game_id=plain["game_id"], token=plain["seats"][awaited]["token"],
                            move="recriminations devolve umr-at-tawil")
        assert "game option neutral_spellbooks" in off and "rules://cthulhu-wars/neutral-recriminations" in off
        game = await call(client, "new_game", game="cthulhu-wars", players=["A", "B", "C"], seed=SEED,
                          options={"neutral_spellbooks": True})
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        state, seen = await play_at_random(
            client, game_id, tokens, random.Random(SEED), bias=0.9, kind=kind_of,
            favour=lambda notation, seen: notation.startswith(NEW) and seen.get(kind_of(notation), 0) < 3)
        assert state["outcome"]["reason"]
        assert sum(seen.get(f"spellbook {b}", 0) for b in BOOKS) >= 3, seen
        assert set(seen) & {"mao-ceremony", "shriveling", "recriminations", "undimensioned"}, seen
        picture = await client.call_tool("render_board", {"game_id": game_id, "format": "svg"})
        assert not picture.is_error


def kind_of(notation: str) -> str:
    """A move's kind, with the book for a spellbook choice."""
    words = notation.split()
    return " ".join(words[:2]) if words[0] == "spellbook" else words[0]
