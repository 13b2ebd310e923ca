"""An external agent for the arena's cmd: players (a program of its own, as anyone could bring): it plays Cthulhu
Dice over MCP with only what the arena gives it (TABLETOP_URL, TABLETOP_GAME_ID, TABLETOP_SEAT_TOKEN and the
server's bearer token TABLETOP_TOKEN), rolling once and then banking, and records what it was given and what the
server answered when it tried to act out of turn or to read the game with a token that is not its own."""

import json
import os
import sys

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


async def try_out_of_turn(c: Client, game_id: str, token: str, record: dict) -> None:
    """When the state shows another seat to move, play anyway: the server must refuse. ``expected_ply`` pins the
    attempt to the position seen, so a turn that came round in between is a conflict (tried again later), never a
    move played in turn that would pass for an out-of-turn move the server accepted."""
    state = (await c.call_tool("get_state", {"game_id": game_id, "token": token})).structured_content
    if state["your_turn"] or state["outcome"] is not None:
        return
    move = {"game_id": game_id, "token": token, "move": "roll", "expected_ply": state["ply"] + 1}
    tried = await c.call_tool("apply_move", move)
    if tried.is_error and tried.content[0].text.startswith("You expected"):
        return
    record["out_of_turn"].append(tried.content[0].text if tried.is_error else "accepted")


async def main(record_path: str) -> None:
    url, game_id, token = os.environ["TABLETOP_URL"], os.environ["TABLETOP_GAME_ID"], os.environ["TABLETOP_SEAT_TOKEN"]
    record = {"argv": sys.argv[1:], "env": {k: v for k, v in os.environ.items() if k.startswith("TABLETOP_")},
              "out_of_turn": [], "other_token": None}
    headers = {"Authorization": f"Bearer {os.environ['TABLETOP_TOKEN']}"} if os.environ.get("TABLETOP_TOKEN") else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http, Client(streamable_http_client(url, http_client=http)) as c:
        forged = await c.call_tool("get_state", {"game_id": game_id, "token": token[::-1]})
        record["other_token"] = forged.content[0].text if forged.is_error else "accepted"
        while True:
            if not record["out_of_turn"]:
                await try_out_of_turn(c, game_id, token, record)
            wait = (await c.call_tool("wait_for_turn", {"game_id": game_id, "token": token, "timeout_seconds": 20})).structured_content
            if wait["game_over"]:
                break
            if not wait["your_turn"]:
                continue
            moves = {m for g in wait["legal"] for m in g["moves"]}
            await c.call_tool("apply_move", {"game_id": game_id, "token": token, "move": "retreat" if "retreat" in moves else "roll"})
    with open(record_path, "w") as out:
        json.dump(record, out)


anyio.run(main, sys.argv[1])
