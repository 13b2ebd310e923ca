"""Six players on the 6-player Earth map over MCP (rules_text cthulhu-wars/earth-six-players): list_games offers it,
new_game seats six factions, a complete game of legal moves to its end, list_adjacent and the picture; and the
heuristic and search bots answer every decision of a six-player game legally."""

from __future__ import annotations

import random

import pytest
from mcp import Client

from tabletop.bots.registry import make_bot
from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

from .helpers import call, play_at_random, refused

pytestmark = pytest.mark.anyio

FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "windwalker", "opener-of-the-way"]


def text_of(result) -> str:
    return next(c.text for c in result.content if c.type == "text")


async def test_a_complete_six_player_game_over_mcp(server):
    async with Client(server) as client:
        games = await call(client, "list_games")
        info = next(g for g in games["games"] if g["name"] == "cthulhu-wars")
        assert info["max_seats"] == 6 and "earth_6p" in info["summary"] and "PROVISIONAL 6-player" in info["summary"]
        bad = await refused(client, "new_game", game="cthulhu-wars", players=["A", "B", "C", "D", "E", "F", "G"])
        assert "3 to 6" in bad
        made = await client.call_tool("new_game", {"game": "cthulhu-wars", "players": list("ABCDEF"), "seed": 3,
                                                    "options": {"factions": FACTIONS}})
        assert not made.is_error and "earth_6p" in text_of(made) and "PROVISIONAL" in text_of(made)
        game = made.structured_content
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        full = await call(client, "get_state", game_id=game_id, detail="full")
        assert full["view"]["map"] == {"name": "earth", "layout": "earth_6p", "status": "provisional",
                                       "note": full["view"]["map"]["note"]}
        near = await call(client, "list_adjacent", game_id=game_id, area="Bering Sea")
        assert {a["id"] for a in near["adjacent"]} == {"arctic-ocean", "north-america-east", "north-america-west",
                                                        "north-pacific", "north-asia"}
        state, _ = await play_at_random(client, game_id, tokens, random.Random(3), limit=6000)
        assert state["outcome"]["reason"]
        picture = await client.call_tool("render_board", {"game_id": game_id, "format": "svg"})
        assert not picture.is_error


@pytest.mark.parametrize("bot", ["heuristic", "search"])
def test_the_bots_answer_every_decision_of_a_six_player_game_legally(bot):
    """Every seat played by the bot (search with a small budget) until the game ends or for a bounded number of
    decisions; each answer is one of the legal moves."""
    state = ENGINE.new_game(CthulhuWarsOptions(factions=FACTIONS), 6, 11)
    bots = [make_bot("cthulhu-wars", bot, seed, seconds=0.02) for seed in range(6)]
    kinds = set()
    for _ in range(400 if bot == "search" else 3000):
        if ENGINE.outcome(state) is not None:
            break
        seat = ENGINE.to_move(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        action = bots[seat].choose(ENGINE, state, seat)
        assert action in legal, (bot, seat, action)
        kinds.add(action.kind)
        state, _ = ENGINE.apply(state, seat, action)
    assert {"start", "direction"} <= kinds


#: Every piece of expansion material the engine has, switched on (rules_text cthulhu-wars/high-priests,
#: neutral-monsters, neutral-spellbooks, independent-great-old-ones).
EVERY_OPTION = {"high_priests": True, "neutral_ghast": True, "neutral_gug": True, "neutral_shantak": True,
                "neutral_star_vampire": True, "neutral_spellbooks": True, "igoo_byatis": True, "igoo_abhoth": True,
                "igoo_daoloth": True, "igoo_nyogtha": True}
#: Moves that bring an Independent Great Old One into play and use it, favoured by the random players (random play
#: seldom keeps the Power for one): Awakenings of every kind first.
INDEPENDENT_MOVES = ("awaken", "filth", "forgetfulness", "cosmic-unity", "from-below")


#: A game in which an Independent Great Old One is Awakened (most random games never keep the Power for one).
SIX_SEED = 8


async def test_a_complete_six_player_game_with_the_ancients_and_every_neutral_option_over_mcp(server):
    async with Client(server) as client:
        factions = ["ancients", *FACTIONS[:5]]
        game = await call(client, "new_game", game="cthulhu-wars", players=list("ABCDEF"), seed=SIX_SEED,
                          options={"factions": factions, **EVERY_OPTION})
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]

        def kind(notation: str) -> str:  # an Awakening is told by what it wakes
            return " ".join(notation.split()[:2]) if notation.startswith("awaken") else notation.split()[0]

        state, played = await play_at_random(
            client, game_id, tokens, random.Random(SIX_SEED), bias=0.9, kind=kind, limit=8000,
            favour=lambda notation, seen: notation.startswith(INDEPENDENT_MOVES))
        assert state["outcome"]["reason"]
        kinds = set(played)
        assert {"an-cathedral", "buy-card", "oath", "an-dematerialize"} <= kinds, sorted(kinds)
        assert kinds & {"awaken byatis", "awaken abhoth", "awaken daoloth", "awaken nyogtha"}, sorted(kinds)
        picture = await client.call_tool("render_board", {"game_id": game_id, "format": "svg"})
        assert not picture.is_error
