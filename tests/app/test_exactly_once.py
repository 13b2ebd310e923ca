"""Exactly-once moves: a client that retries a move with its expected move number never plays it twice,
including after the server was killed between committing the move and answering. On both stores."""

from __future__ import annotations

import os
import signal

import anyio
import pytest
from mcp import Client

from tabletop.app.server import build_server

from .helpers import call, refused
from .test_transports import start_http_server

pytestmark = pytest.mark.anyio


@pytest.fixture
def server(stores):
    """The MCP server in this process, on a SQLite file and on PostgreSQL (replaces the SQLite-only one)."""
    return build_server(stores.sessions())


async def test_a_retry_is_answered_as_already_played_and_a_stale_number_is_a_conflict(client: Client):
    made = await call(client, "new_game", game="cthulhu-dice", players=["Ann", "Bob"], seed=4)
    game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    first = await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll", expected_ply=1)
    again = await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll", expected_ply=1)
    assert again["already_played"] is True and again["played"] == first["played"]
    assert (await call(client, "history", game_id=game_id))["ply"] == 1, "the retry played nothing"
    if first["to_move"] == [0]:
        assert "conflict" in await refused(client, "apply_move", game_id=game_id, token=tokens[0], move="retreat", expected_ply=1)
    assert "conflict" in await refused(client, "apply_move", game_id=game_id, token=tokens[0], move="roll", expected_ply=5)
    seat = first["to_move"][0]
    nxt = await call(client, "apply_move", game_id=game_id, token=tokens[seat], move="roll", expected_ply=2)
    assert nxt["already_played"] is False and nxt["played"][0]["ply"] == 2


async def test_a_whole_turn_retried_is_not_played_twice(client: Client):
    made = await call(client, "new_game", game="game-of-war", options={"opening": "default"}, seed=0)
    game_id, north = made["game_id"], made["seats"][0]["token"]
    turn = ["C d7-e5", "I f7-f6", "end"]
    played = await call(client, "apply_move", game_id=game_id, token=north, moves=turn, expected_ply=1)
    retried = await call(client, "apply_move", game_id=game_id, token=north, moves=turn, expected_ply=1)
    assert retried["already_played"] and [p["ply"] for p in retried["played"]] == [1, 2, 3] == [p["ply"] for p in played["played"]]
    assert (await call(client, "history", game_id=game_id))["ply"] == 3


async def test_a_move_retried_after_the_server_was_killed_between_commit_and_answer_is_played_once(stores):
    db = stores.target
    lost = 0
    proc, url = start_http_server(db)
    async with Client(url) as client:
        made = await call(client, "new_game", game="cthulhu-dice", players=["Ann", "Bob"], options={"goal": 100}, seed=1)
    game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    seat, ply, move = 0, 0, "roll"
    for _ in range(6):
        request = {"game_id": game_id, "token": tokens[seat], "move": move, "expected_ply": ply + 1}
        answer: list = []

        async def send() -> None:
            try:
                async with Client(url) as client:
                    answer.append(await client.call_tool("apply_move", request))
            except Exception:  # noqa: BLE001 - the server is killed under this call on purpose
                pass

        async with anyio.create_task_group() as tg:
            tg.start_soon(send)
            with anyio.fail_after(30):
                while stores.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()[0] <= ply:
                    await anyio.sleep(0)
            os.kill(proc.pid, signal.SIGKILL)  # the move is committed; its answer may not have gone out yet
        proc.wait()
        lost += not answer or answer[0].is_error
        proc, url = start_http_server(db)
        async with Client(url) as client:
            retry = await call(client, "apply_move", **request)
            state = await call(client, "get_state", game_id=game_id, detail="full")
        assert retry["already_played"] is True and retry["played"][0]["ply"] == ply + 1
        assert state["ply"] == ply + 1, "committed once, never twice"
        ply, seat = state["ply"], state["to_move"][0]
        move = "retreat" if state["view"]["phase"] == "decide" else "roll"
    proc.terminate()
    proc.wait()
    print(f"answers lost to the kill: {lost} of 6")
