"""Cthulhu Wars out-of-turn windows over MCP (rules_text ``cthulhu-wars/out-of-turn``): a seat is woken by
wait_for_turn and reveals its Elder Signs on another seat's turn, with its own token."""

from __future__ import annotations

import random

import anyio
import pytest
from mcp import Client

from .helpers import call

pytestmark = pytest.mark.anyio

GC = "great-cthulhu"


async def options_of(client: Client, game_id: str, token: str) -> list[dict]:
    moves = await call(client, "legal_moves", game_id=game_id, token=token, detail="full")
    return [m for g in moves["groups"] for m in g["options"]]


async def test_wait_for_turn_wakes_a_seat_asked_in_a_window(server):
    """Great Cthulhu holds an Elder Sign from its first Doom phase and declines its Ritual; when the next faction
    decides, Great Cthulhu is asked out of turn and its waiting wait_for_turn returns."""
    async with Client(server) as table, Client(server, mode="legacy") as cthulhu:
        game = await call(table, "new_game", game="cthulhu-wars", players=["Ann", "Bob", "Cy", "Di"], seed=5)
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        gc = next(s["seat"] for s in game["seats"] if s["role"] == "Great Cthulhu")
        await call(table, "apply_move", game_id=game_id, token=tokens[gc], move="direction clockwise")
        state = await call(table, "get_state", game_id=game_id, detail="full")
        while state["view"]["round"] == 1:  # everybody passes round 1
            await call(table, "apply_move", game_id=game_id, token=tokens[state["to_move"][0]], move="pass")
            state = await call(table, "get_state", game_id=game_id, detail="full")
        await call(table, "apply_move", game_id=game_id, token=tokens[gc], move=f"first-player {GC}")
        await call(table, "apply_move", game_id=game_id, token=tokens[gc], move="direction clockwise")
        await call(table, "apply_move", game_id=game_id, token=tokens[gc], move="spellbook dreams")
        await call(table, "apply_move", game_id=game_id, token=tokens[gc], move="no-ritual")
        state = await call(table, "get_state", game_id=game_id, detail="full")
        assert state["view"]["pending"] == "ritual" and state["to_move"] != [gc]
        answers = []

        async def cthulhu_waits():
            answers.append(await call(cthulhu, "wait_for_turn", game_id=game_id, token=tokens[gc], timeout_seconds=20))

        async with anyio.create_task_group() as tg:
            tg.start_soon(cthulhu_waits)
            await anyio.sleep(0.1)
            assert not answers
            await call(table, "apply_move", game_id=game_id, token=tokens[state["to_move"][0]], move="no-ritual")
        assert answers[0]["your_turn"] and not answers[0]["timed_out"]
        offered = {m["notation"] for m in await options_of(cthulhu, game_id, tokens[gc])}
        assert offered == {"reveal", "done"}
        played = await call(cthulhu, "apply_move", game_id=game_id, token=tokens[gc], actions=[{"kind": "reveal"}], detail="full")
        assert played["view"]["factions"][gc]["doom"] > 1 and played["view"]["factions"][gc]["elder_signs"] == []


async def test_a_complete_four_player_game_with_elder_signs_revealed_on_another_seats_turn(server):
    async with Client(server) as client:
        game = await call(client, "new_game", game="cthulhu-wars", players=["Ann", "Bob", "Cy", "Di"], seed=21)
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        factions = [s["role"] for s in game["seats"]]
        chooser = random.Random(9)
        out_of_turn = []
        for _ in range(4000):
            state = await call(client, "get_state", game_id=game_id, detail="full")
            if state["outcome"]:
                break
            view = state["view"]
            seat = chooser.choice(state["to_move"])
            options = await options_of(client, game_id, tokens[seat])
            notations = [m["notation"] for m in options]
            if view["pending"] == "window" and "reveal" in notations and view["phase"] == "action":
                mine = view["factions"][seat]["faction"]
                assert view["turn"] not in (None, mine), "a window reveal happens on another faction's turn"
                waited = await call(client, "wait_for_turn", game_id=game_id, token=tokens[seat], timeout_seconds=0.1)
                assert waited["your_turn"]
                played = await call(client, "apply_move", game_id=game_id, token=tokens[seat], move="reveal", detail="full")
                doom_before = view["factions"][seat]["doom"]
                assert played["view"]["factions"][seat]["elder_signs"] == []
                assert played["view"]["factions"][seat]["doom"] > doom_before
                out_of_turn.append((factions[seat], view["turn"]))
                continue
            # Elder Signs are kept for an Action-phase window: never revealed on a seat's own turn or in the Doom phase
            weights = [0 if n == "reveal" else 1 if n == "pass" else 10 for n in notations]
            pick = chooser.choices(options, weights)[0]
            move = {"move": pick["notation"]} if chooser.random() < 0.5 else {"actions": [pick["action"]]}
            await call(client, "apply_move", game_id=game_id, token=tokens[seat], **move)
        else:
            raise AssertionError("the game did not end")
        assert state["outcome"]["reason"] and out_of_turn, "some seat revealed Elder Signs on another seat's turn"
        reveals, after = 0, 0
        while after is not None:
            log = await call(client, "history", game_id=game_id, after=after, limit=200)
            reveals += sum(m["move"] == "reveal" for m in log["moves"])
            after = log["next_cursor"]
        assert log["ply"] == state["ply"] and reveals >= len(out_of_turn)
