"""A Game of War through the MCP client: two seats, secret deployment, a whole game to the end."""

from __future__ import annotations

import json
import random

import pytest
from mcp import Client

from .helpers import call, refused

pytestmark = pytest.mark.anyio


def sides_shown(state: dict) -> set[str]:
    return {unit["side"] for unit in state["view"]["units"]}


async def test_two_seats_deploy_in_secret_then_play_a_whole_game(server):
    async with Client(server) as north_client, Client(server, mode="legacy") as south_client:
        game = await call(north_client, "new_game", game="game-of-war", players=["Ann", "Bob"], seed=8, options={"max_turns": 60})
        game_id = game["game_id"]
        north, south = (s["token"] for s in game["seats"])
        assert [s["role"] for s in game["seats"]] == ["North", "South"]

        await call(north_client, "apply_move", game_id=game_id, token=north, move="opening default")
        await call(south_client, "apply_move", game_id=game_id, token=south, move="place I o12")
        # each seat sees only its own deployment; a spectator sees none
        assert sides_shown(await call(north_client, "get_state", game_id=game_id, token=north, detail="full")) == {"North"}
        assert sides_shown(await call(south_client, "get_state", game_id=game_id, token=south, detail="full")) == {"South"}
        assert sides_shown(await call(south_client, "get_state", game_id=game_id, detail="full")) == set()
        log = await call(south_client, "history", game_id=game_id, token=south)
        assert [(m["ply"], m["move"]) for m in log["moves"]] == [(1, "place I o12")] and log["hidden"] is None
        assert log["ply"] == 1, "South counts only its own moves: nothing tells it how many North made"
        spectator = await call(south_client, "history", game_id=game_id)
        assert spectator["moves"] == [] and spectator["ply"] == 0 and spectator["hidden"] is None
        status = await call(south_client, "network_status", game_id=game_id)
        assert status["sides"] == [], "lines would give the deployments away"
        picture = await south_client.call_tool("render_board", {"game_id": game_id, "token": south, "format": "svg"})
        svg = picture.content[-1].resource.text
        assert ">i<" in svg and ">I<" not in svg

        await call(north_client, "apply_move", game_id=game_id, token=north, move="commit")
        await call(south_client, "apply_move", game_id=game_id, token=south, move="remove o12")
        await call(south_client, "apply_move", game_id=game_id, token=south, move="opening default")
        await call(south_client, "apply_move", game_id=game_id, token=south, move="commit")
        everyone = await call(south_client, "get_state", game_id=game_id, detail="full")
        assert sides_shown(everyone) == {"North", "South"} and everyone["view"]["phase"] == "play"
        assert (await call(south_client, "history", game_id=game_id))["hidden"] == 0
        status = await call(north_client, "network_status", game_id=game_id)
        assert all(not side["offline"] for side in status["sides"]), "the default opening is fully online"

        clients = {0: (north_client, north), 1: (south_client, south)}
        chooser = random.Random(3)
        previews = 0
        for _ in range(5000):
            state = await call(north_client, "get_state", game_id=game_id)
            if state["outcome"]:
                break
            seat = state["to_move"][0]
            client, token = clients[seat]
            other_client, other_token = clients[1 - seat]
            if chooser.random() < 0.02:
                assert "not_your_turn" in await refused(other_client, "apply_move", game_id=game_id, token=other_token, move="end")
            moves = await call(client, "legal_moves", game_id=game_id, token=token, detail="full")
            options = [m for g in moves["groups"] for m in g["options"]]
            attacks = [m for m in options if m["notation"].startswith("attack")]
            if attacks and previews < 5:
                target = attacks[0]["notation"].split()[1]
                preview = await call(client, "combat_preview", game_id=game_id, square=target)
                assert preview["declarable_now"] and preview["attack"] == sum(
                    c["value"] for c in preview["contributors"] if c["side"] == preview["attacker"]
                )
                previews += 1
            pick = chooser.choice(attacks or options) if chooser.random() < 0.5 else chooser.choice(options)
            move = {"move": pick["notation"]} if chooser.random() < 0.5 else {"actions": [pick["action"]]}
            await call(client, "apply_move", game_id=game_id, token=token, **move)
        else:
            raise AssertionError("the game did not end")
        assert state["outcome"]["reason"]
        log = await call(north_client, "history", game_id=game_id, limit=200)
        assert log["seed"] == 8 and len(log["moves"]) == min(200, state["ply"])


async def south_sees(client, game_id: str, token: str) -> list:
    """Everything South's token can read about the game during set-up, with the game id left out."""
    answers = [
        await client.call_tool("get_state", {"game_id": game_id, "token": token, "detail": "full"}),
        await client.call_tool("get_state", {"game_id": game_id}),
        await client.call_tool("history", {"game_id": game_id, "token": token}),
        await client.call_tool("wait_for_turn", {"game_id": game_id, "token": token, "timeout_seconds": 0}),
        await client.call_tool("legal_moves", {"game_id": game_id, "token": token, "focus": "o12"}),
    ]
    listed = (await client.call_tool("list_games", {"recent": 5})).structured_content["recent"]
    for move in answers[2].structured_content["moves"]:
        move.pop("played_at")  # when South itself moved, which differs between the two games anyway
    seen = [(a.content[0].text, a.structured_content) for a in answers] + [[g["moves"] for g in listed if g["game_id"] == game_id]]
    return json.loads(json.dumps(seen).replace(game_id, "GAME"))


async def test_during_hidden_deployment_nothing_tells_a_seat_how_many_moves_the_other_made(server):
    """Two games where South plays the same set-up moves while North makes one move or nine (placements and
    take-backs): every answer South can get is the same in both."""
    async with Client(server) as client:
        seen = []
        for north_moves in (["place C c7"], ["place C c7", "remove c7", "place C c7", "place C d7", "remove d7",
                                             "place I e7", "remove e7", "place I e7", "place K f7"]):  # fmt: skip
            game = await call(client, "new_game", game="game-of-war", players=["Ann", "Bob"], seed=8)
            game_id = game["game_id"]
            north, south = (s["token"] for s in game["seats"])
            await call(client, "apply_move", game_id=game_id, token=south, moves=["place I o12", "place I o13"])
            await call(client, "apply_move", game_id=game_id, token=north, moves=north_moves)
            played = await call(client, "apply_move", game_id=game_id, token=south, move="place C p12")
            assert played["played"][0]["ply"] == 3, "South's own moves are numbered among the moves it may see"
            seen.append(await south_sees(client, game_id, south))
        assert seen[0] == seen[1]
