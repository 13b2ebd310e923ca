"""A game's event stream on both stores: a move made by another server process on the same database reaches
a spectator already following the game (PostgreSQL hears it at once; SQLite waiters re-read the log)."""

from __future__ import annotations

import json

import anyio
import httpx2
import pytest
import uvicorn

from tabletop.watch.site import watch_app

pytestmark = pytest.mark.anyio


async def next_event(lines) -> dict:
    """The data of the next event of a server-sent event stream."""
    async for line in lines:
        if line.startswith("data: "):
            return json.loads(line[len("data: "):])
    raise AssertionError("the stream ended")


async def test_a_spectator_stream_hears_a_move_made_by_another_process(stores):
    watching = stores.sessions()  # the server process with the site
    playing = stores.sessions()  # another server process, where the players' moves arrive
    live, tokens = playing.create("cthulhu-dice", None, ["Ann", "Bob"])
    server = uvicorn.Server(uvicorn.Config(watch_app(watching, ["look"]), host="127.0.0.1", port=0, log_level="warning"))
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve)
        while not server.started:
            await anyio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        url = f"http://127.0.0.1:{port}/watch/games/{live.id}/events"
        async with httpx2.AsyncClient(headers={"Authorization": "Bearer look"}, timeout=60) as http:
            async with http.stream("GET", url) as stream:
                lines = stream.aiter_lines()
                first = await next_event(lines)
                assert first["moves"] == 0 and first["to_move"] == ["Ann"]
                await anyio.to_thread.run_sync(playing.play, live.id, tokens[0], "roll")
                second = await next_event(lines)
                assert second["moves"] == 1 and second["log"][0]["who"] == "Ann" and second["log"][0]["move"] == "roll"
        server.should_exit = True
