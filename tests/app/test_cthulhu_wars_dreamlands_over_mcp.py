"""The Dreamlands map over MCP: a complete game, list_adjacent with tunnels, battle odds against the Bhole and the
Zoogs, the picture, and search_rules answering the issue's questions (rules_text cthulhu-wars/dreamlands)."""

from __future__ import annotations

import base64
import random

import pytest
from mcp import Client

from .helpers import call, refused

pytestmark = pytest.mark.anyio

FACTIONS = ["sleeper", "great-cthulhu", "crawling-chaos"]
#: The Sleeper's opening: a Serpent Man from its start in the Cavern of Flame to the Bhole in the Vale of Pnath.
OPENING = ["summon serpent-man cavern-of-flame", "move serpent-man cavern-of-flame>vale-of-pnath", "battle vale-of-pnath vs bhole"]


def text_of(result) -> str:
    return next(c.text for c in result.content if c.type == "text")


async def test_a_complete_game_on_the_dreamlands_map(server):
    async with Client(server) as client:
        games = await call(client, "list_games")
        info = next(g for g in games["games"] if g["name"] == "cthulhu-wars")
        assert "dreamlands (dreamlands_3p" in info["summary"] and "PROVISIONAL" in info["summary"]
        made = await client.call_tool("new_game", {"game": "cthulhu-wars", "players": ["Sam", "Cy", "Nye"], "seed": 5,
                                                    "options": {"map": "dreamlands", "factions": FACTIONS}})
        assert not made.is_error and "PROVISIONAL" in text_of(made) and "vale-of-pnath: Bhole" in text_of(made)
        game = made.structured_content
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        shown = await client.call_tool("get_state", {"game_id": game_id})
        assert "PROVISIONAL" in text_of(shown) and "Tunnels: A ruins-of-karoth~zura" in text_of(shown)
        full = await call(client, "get_state", game_id=game_id, detail="full")
        assert full["view"]["map"]["status"] == "provisional" and full["view"]["creatures"]["bhole"] == "vale-of-pnath"
        chooser = random.Random(5)
        opening, odds_seen = list(OPENING), set()
        for _ in range(4000):
            state = await call(client, "get_state", game_id=game_id, detail="full")
            if state["outcome"]:
                break
            seat = chooser.choice(state["to_move"])
            moves = await call(client, "legal_moves", game_id=game_id, token=tokens[seat], detail="full")
            options = [m for g in moves["groups"] for m in g["options"]]
            notations = [m["notation"] for m in options]
            if opening and state["view"]["round"] == 1 and seat != 0 and state["view"]["pending"] is None:
                await call(client, "apply_move", game_id=game_id, token=tokens[seat], move="pass")
                continue
            if opening and seat == 0 and opening[0] in notations:
                pick = opening.pop(0)
                if pick.startswith("battle"):
                    odds = await client.call_tool("battle_odds", {"game_id": game_id, "area": "vale", "attacker": "sleeper",
                                                                  "defender": "bhole"})
                    assert "The Bhole rolls 6 dice" in text_of(odds) and odds.structured_content["odds"]["defender"]["dice"] == 6
                    odds_seen.add("bhole")
                    dry = await call(client, "apply_move", game_id=game_id, token=tokens[0], move=pick, dry_run=True)
                    assert dry["chance"] and "One Kill destroys it" in dry["chance"]["summary"]
                await call(client, "apply_move", game_id=game_id, token=tokens[0], move=pick)
                if pick.startswith("move"):
                    await call(client, "apply_move", game_id=game_id, token=tokens[0], move="done")
                continue
            creature_fights = [m for m in options if m["notation"].endswith(("vs bhole", "vs zoogs"))]
            battles = [m for m in options if m["notation"].startswith(("battle", "gate", "summon", "awaken"))]
            pick = (chooser.choice(creature_fights) if creature_fights and chooser.random() < 0.8
                    else chooser.choice(battles) if battles and chooser.random() < 0.5 else chooser.choice(options))
            zoogs = state["view"].get("creatures", {}).get("zoogs") or {}
            if zoogs and "zoogs" not in odds_seen:
                area = next(iter(zoogs))
                odds = await client.call_tool("battle_odds", {"game_id": game_id, "area": area,
                                                              "attacker": state["view"]["factions"][seat]["faction"],
                                                              "defender": "zoogs"})
                assert "roll no dice" in text_of(odds) and odds.structured_content["odds"]["defender"]["dice"] == 0
                odds_seen.add("zoogs")
            move = {"move": pick["notation"]} if chooser.random() < 0.5 else {"actions": [pick["action"]]}
            await call(client, "apply_move", game_id=game_id, token=tokens[seat], **move)
        else:
            raise AssertionError("the game did not end")
        assert not opening and odds_seen == {"bhole", "zoogs"}, (opening, odds_seen)
        events, after = "", 0
        while after is not None:
            page = await call(client, "history", game_id=game_id, after=after, limit=200)
            events += " ".join(e for m in page["moves"] for e in m["events"])
            after = page["next_cursor"]
        assert "battles the Bhole in vale-of-pnath" in events and "Zoogs: 6 not in play roll" in events
        assert state["outcome"]["reason"]
        picture = await client.call_tool("render_board", {"game_id": game_id, "format": "both"})
        svg = picture.content[-1].resource.text
        assert "PROVISIONAL MAP" in svg and "Surface" in svg and "Underworld" in svg and "Tunnels" in svg
        png = base64.b64decode(next(c for c in picture.content if c.type == "image").data)
        assert png.startswith(b"\x89PNG")


async def test_list_adjacent_shows_tunnels_and_provisional_adjacency(client: Client):
    result = await client.call_tool("list_adjacent", {"layout": "dreamlands_5p", "area": "zura"})
    text = text_of(result)
    assert "Ruins of Karoth (land, underworld through tunnel A)" in text and "PROVISIONAL" in text
    found = result.structured_content
    karoth = next(a for a in found["adjacent"] if a["id"] == "ruins-of-karoth")
    assert karoth["tunnel"] == "A" and karoth["board"] == "underworld" and not karoth["provisional"]
    assert any(a["provisional"] for a in found["adjacent"]) and found["rule"] == "cthulhu-wars/dreamlands"
    for layout in ("dreamlands_3p", "dreamlands_4p", "dreamlands_4p_alt"):
        back = await call(client, "list_adjacent", layout=layout, area="Ruins of Karoth")
        assert {"zura", "tower-of-koth", "vale-of-pnath"} <= {a["id"] for a in back["adjacent"]}
    earth = await call(client, "list_adjacent", layout="earth_3p", area="Europe")
    assert all(a["tunnel"] is None and not a["provisional"] for a in earth["adjacent"]) and earth["map_note"] is None
    assert "dreamlands_5p" in await refused(client, "list_adjacent", layout="moon", area="zura")


async def test_a_dreamlands_game_refuses_a_battle_with_a_creature_that_is_not_there(client: Client):
    made = await call(client, "new_game", game="cthulhu-wars", seats=3, seed=2, options={"map": "dreamlands"})
    tokens = [s["token"] for s in made["seats"]]
    state = await call(client, "get_state", game_id=made["game_id"])
    first = state["to_move"][0]
    await call(client, "apply_move", game_id=made["game_id"], token=tokens[first], move="direction clockwise")
    error = await refused(client, "apply_move", game_id=made["game_id"], token=tokens[first], move="battle kadath vs bhole")
    assert "illegal_move" in error


@pytest.mark.parametrize(
    "question, section",
    [
        ("What is the Bhole's Combat?", "dreamlands-bhole"),
        ("How many dice are rolled for Zoogs in the first Doom Phase?", "dreamlands-zoogs"),
        ("How does the Citadel victory work?", "dreamlands-citadels"),
        ("What happens when a Zoog appears on a Citadel with a controlled Gate?", "dreamlands-zoogs"),
    ],
)
async def test_search_rules_answers_the_dreamlands_questions(client: Client, question, section):
    found = await call(client, "search_rules", query=question, game="cthulhu-wars")
    assert found["results"][0]["uri"].startswith(f"rules://cthulhu-wars/{section}#")
