"""'Since your last move': what a seat is told first by wait_for_turn, get_state and its own apply_move (issue 33).

Driven through the real MCP client against the real server; what the digest must say is read independently from
``history`` (the log as the seat may read it), never from the digest's own code."""

from __future__ import annotations

import random
import re

import pytest
from mcp import Client

from tabletop.app.digest import DIGEST_BUDGET

from .helpers import call

pytestmark = pytest.mark.anyio

HEAD = "Since your last move:"


def digest_of(text: str) -> list[str]:
    """The digest's lines at the start of an answer's text (none if it has none)."""
    if not text.startswith(HEAD):
        return []
    lines = []
    for line in text.split("\n")[1:]:
        if not (line.startswith("- ") or line.startswith("… ")):
            break
        lines.append(line)
    return lines


def counted(events: list[str]) -> list[str]:
    """Runs of the same text as the digest tells them once: "North ends the turn. (x3)"; long ones clipped."""
    runs: list[list] = []
    for text in (" ".join(e.split()) for e in events):
        text = text if len(text) <= 220 else text[:219] + "…"
        if runs and runs[-1][0] == text:
            runs[-1][1] += 1
        else:
            runs.append([text, 1])
    return [t if n == 1 else f"{t} (x{n})" for t, n in runs]


async def text_of(client: Client, tool: str, **args) -> str:
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content[0].text
    return result.content[0].text


async def others_since(client: Client, game_id: str, token: str, seat: int, since: int) -> list[str]:
    """The events of the other seats' moves after ``since``, as history gives them to ``seat``."""
    log = await call(client, "history", game_id=game_id, token=token, after=since, limit=200)
    return [" ".join(m["events"]) for m in log["moves"] if m["seat"] != seat and m["events"]]


async def waited_and_checked(client: Client, game_id: str, token: str, seat: int, since: int):
    """wait_for_turn for ``seat``, its digest checked: the tail of the others' events after move ``since`` (the
    seat's last) as history tells them, within the budget, with the count of those left out; the answer and the
    digest's lines."""
    told = await client.call_tool("wait_for_turn", {"game_id": game_id, "token": token, "timeout_seconds": 0})
    lines = digest_of(told.content[0].text)
    shown = [line[2:] for line in lines if line.startswith("- ")]
    assert sum(len(line) for line in shown) <= DIGEST_BUDGET + 250
    runs = counted(await others_since(client, game_id, token, seat, since))
    assert shown == runs[len(runs) - len(shown):], (shown, runs)
    assert bool(lines and lines[0].startswith("… ")) == (len(shown) < len(runs))
    return told, shown


async def test_an_opponents_whole_dice_turn_is_told_once_roll_by_roll(server):
    async with Client(server) as client:
        game = await call(client, "new_game", game="cthulhu-dice", players=["Ann", "Bob"], seed=4)
        game_id, (ann, bob) = game["game_id"], [s["token"] for s in game["seats"]]
        first = await text_of(client, "wait_for_turn", game_id=game_id, token=ann, timeout_seconds=0)
        assert not first.startswith(HEAD), "nobody has moved yet"
        while (await call(client, "get_state", game_id=game_id))["to_move"] == [0]:
            await call(client, "apply_move", game_id=game_id, token=ann, move="roll")
        told = await text_of(client, "wait_for_turn", game_id=game_id, token=bob, timeout_seconds=0)
        expected = await others_since(client, game_id, bob, 1, 0)
        shown = [line[2:] for line in digest_of(told) if line.startswith("- ")]
        assert expected and shown == counted(expected)[-len(shown):]
        assert any("downed" in line or "retreats" in line for line in digest_of(told)), "how Ann's turn ended is told"
        again = await text_of(client, "get_state", game_id=game_id, token=bob)
        assert not again.startswith(HEAD), "what was told is not told twice"
        assert "Your turn" in told and told.index(HEAD) == 0


async def test_every_wait_begins_with_the_others_moves_since_the_seats_last_move_bounded(server):
    """Random whole games of Cthulhu Dice and A Game of War: each digest is the tail of the others' moves (their
    events) since the seat last moved, as history tells them, within its budget, with the count of those left out."""
    async with Client(server) as client:
        for game, options in (("cthulhu-dice", {}), ("game-of-war", {"opening": "default", "max_turns": 40})):
            made = await call(client, "new_game", game=game, players=["Ann", "Bob"], options=options, seed=11)
            game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
            last = {0: 0, 1: 0}
            pick = random.Random(5)
            for _ in range(400):
                state = await call(client, "get_state", game_id=game_id)
                if state["outcome"]:
                    break
                seat = state["to_move"][0]
                told, _ = await waited_and_checked(client, game_id, tokens[seat], seat, last[seat])
                moves = [m for g in told.structured_content["legal"] for m in g["moves"]]
                move = "end" if "end" in moves and pick.random() < 0.3 else pick.choice(moves)
                played = await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=move)
                last[seat] = played["played"][-1]["ply"]


async def test_cthulhu_wars_digests_tell_every_event_of_the_others_and_battles_from_both_sides(server):
    """A random 4-player Cthulhu Wars game: every digest is the tail of the others' events since the seat last
    moved (as history tells them); a battle against a seat is told to it with both sides' dice."""
    async with Client(server) as client:
        made = await call(client, "new_game", game="cthulhu-wars", players=["Ann", "Bob", "Cy", "Di"], seed=21)
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        last, pick, battles_told = {s: 0 for s in range(4)}, random.Random(8), 0
        for _ in range(600):
            state = await call(client, "get_state", game_id=game_id)
            if state["outcome"]:
                break
            seat = state["to_move"][0]
            told, shown = await waited_and_checked(client, game_id, tokens[seat], seat, last[seat])
            faction = made["seats"][seat]["role"].lower().replace(" ", "-").removeprefix("the-")
            for line in shown:
                if f"vs {faction}" in line or f"battles {faction}" in line:
                    assert line.count(" rolls ") == 2, line
                    battles_told += 1
            moves = [m for g in told.structured_content["legal"] for m in g["moves"]]
            battles = [m for m in moves if m.startswith("battle ")]
            move = pick.choice(battles) if battles and pick.random() < 0.5 else pick.choice(moves)
            played = await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=move)
            last[seat] = played["played"][-1]["ply"]
        assert battles_told, "no battle against a seat was told in the game"


async def test_nothing_of_the_other_sides_hidden_deployment_is_told(server):
    async with Client(server) as client:
        made = await call(client, "new_game", game="game-of-war", players=["Ann", "Bob"], seed=8)
        game_id, (north, south) = made["game_id"], [s["token"] for s in made["seats"]]
        await call(client, "apply_move", game_id=game_id, token=north, moves=["place C c7", "place I e7"])
        for tool, args in (("wait_for_turn", {"timeout_seconds": 0}), ("get_state", {})):
            text = await text_of(client, tool, game_id=game_id, token=south, **args)
            assert HEAD not in text and not re.search(r"\b[ce]7\b", text)  # the game id may hold "e7"
        placed = await text_of(client, "apply_move", game_id=game_id, token=south, move="place I o12")
        assert HEAD not in placed and not re.search(r"\bc7\b", placed)


async def test_a_destroyed_war_unit_is_told_to_its_side(server):
    """A War attack that destroys a unit: the attacked side's next answer says which unit and how it was beaten."""
    async with Client(server) as client:
        made = await call(client, "new_game", game="game-of-war", players=["Ann", "Bob"], options={"opening": "default"}, seed=2)
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        pick = random.Random(1)
        for _ in range(3000):
            state = await call(client, "get_state", game_id=game_id)
            assert not state["outcome"], "no capture happened in the game"
            seat = state["to_move"][0]
            full = await call(client, "legal_moves", game_id=game_id, token=tokens[seat], detail="full")
            options = [o for g in full["groups"] for o in g["options"]]
            captures = [o["notation"] for o in options if o["notation"].startswith("attack") and "capture" in o["summary"]]
            if captures:
                await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=captures[0])
                state = await call(client, "get_state", game_id=game_id)
                if state["to_move"] == [seat]:
                    await call(client, "apply_move", game_id=game_id, token=tokens[seat], move="end")
                told = await text_of(client, "wait_for_turn", game_id=game_id, token=tokens[1 - seat], timeout_seconds=0)
                square = captures[0].split()[1]
                assert any("Attack on" in line and square in line and "destroyed" in line for line in digest_of(told)), told
                return
            moves = [o["notation"] for o in options if not o["notation"].startswith("attack")]
            await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=pick.choice(moves))


async def test_the_answer_to_a_move_tells_only_what_was_not_told_yet(server):
    async with Client(server) as client:
        game = await call(client, "new_game", game="cthulhu-dice", players=["Ann", "Bob", "Cy"], seed=9)
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll")
        while (await call(client, "get_state", game_id=game_id))["to_move"] == [0]:
            await call(client, "apply_move", game_id=game_id, token=tokens[0], move="retreat")
        assert (await call(client, "get_state", game_id=game_id))["to_move"] == [1]
        played = await text_of(client, "apply_move", game_id=game_id, token=tokens[1], move="roll")
        assert played.startswith(HEAD) and "Ann" in played.split("\n")[1], "Bob had not been told Ann's turn"
        second = await text_of(client, "wait_for_turn", game_id=game_id, token=tokens[1], timeout_seconds=0)
        assert not second.startswith(HEAD), "Bob's own roll is not news to Bob, and Ann's turn was told"
