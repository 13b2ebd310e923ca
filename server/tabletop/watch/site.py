"""The spectator site served beside ``/mcp`` by ``tabletop serve --http``: Starlette routes and Jinja2 templates.

Pages: ``/watch/`` (recent games and tournaments), ``/watch/games/<id>`` (board, whose turn, the log in words,
the result; a replay control once the game is over), ``/watch/tournaments/<id>`` (standings, ratings, games).
Each page follows its game or tournament live through server-sent events (``.../events``), woken by the
sessions' own move signals (``GameSessions.wait_for_moves``), which hear other processes on both stores.
Everything shown is built by ``public.py`` from the spectator's view (no seat).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.errors import GameError
from ..sessions.manager import GameSessions
from . import WATCH_PATH, tournaments
from .gate import ViewerGate
from .public import Replays, game_view

HERE = Path(__file__).parent
#: Scripts shared with the seat's page (picture.js: a wide picture seen full size).
SHARED_STATIC = HERE.parent / "render" / "static"
#: How long an event stream sleeps between checks that its page is still open (seconds); moves wake it at once.
WAIT = 20.0
#: Seconds between keep-alive comments on an idle event stream (so proxies do not close it).
PING = 15
#: Recent games listed on the index page.
RECENT = 50


def watch_app(sessions: GameSessions, tokens: list[str]) -> Any:
    """The site's ASGI app, for paths under ``/watch``; ``tokens``: the bearer tokens that may watch (none: open)."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    replays = Replays(sessions)

    async def read(function, *args):
        return await anyio.to_thread.run_sync(function, *args)

    async def index(request: Request) -> Response:
        games = await read(sessions.list, RECENT)
        listed = await read(tournaments.recent, sessions.store)
        rows = [
            {"id": r.id, "game": r.game, "players": r.seat_names, "moves": n, "created_at": r.created_at}
            for r, n in games
        ]
        return templates.TemplateResponse(request, "index.html", {"games": rows, "tournaments": listed})

    async def game_page(request: Request) -> Response:
        try:
            live = await read(sessions.get, request.path_params["game_id"])
            view = await read(game_view, sessions, live)
        except GameError as err:
            return missing(request, err.message)
        return templates.TemplateResponse(request, "game.html", {"view": view, "view_json": embedded(view)})

    async def game_events(request: Request) -> Response:
        try:
            live = await read(sessions.get, request.path_params["game_id"])
        except GameError as err:
            return JSONResponse({"error": err.kind, "message": err.message}, 404)
        return EventSourceResponse(game_updates(live.id), ping=PING)

    async def game_updates(game_id: str) -> AsyncIterator[dict[str, str]]:
        after, last = -1, None
        while True:
            live = await sessions.wait_for_moves(game_id, after, WAIT)
            after = live.ply
            view = await read(game_view, sessions, live)
            if view != last:
                last = view
                yield {"event": "game", "data": json.dumps(view)}
            if view["over"]:
                return

    async def replay(request: Request) -> Response:
        try:
            live = await read(sessions.get, request.path_params["game_id"])
        except GameError as err:
            return JSONResponse({"error": err.kind, "message": err.message}, 404)
        if live.engine.outcome(live.state) is None:
            return JSONResponse({"error": "not_over", "message": "A game is replayed once it is over"}, 409)
        return JSONResponse(await read(replays.frame, live, request.path_params["ply"]))

    async def tournament_page(request: Request) -> Response:
        found = await read(tournaments.view, sessions.store, request.path_params["tournament_id"])
        if found is None:
            return missing(request, f"No tournament has the id '{request.path_params['tournament_id'][:40]}'")
        return templates.TemplateResponse(request, "tournament.html", {"view": found, "view_json": embedded(found)})

    async def tournament_events(request: Request) -> Response:
        tid = request.path_params["tournament_id"]
        if await read(tournaments.view, sessions.store, tid) is None:
            return JSONResponse({"error": "unknown_tournament", "message": f"No tournament has the id '{tid[:40]}'"}, 404)
        return EventSourceResponse(tournament_updates(tid), ping=PING)

    async def tournament_updates(tid: str) -> AsyncIterator[dict[str, str]]:
        last = None
        while True:
            found = await read(tournaments.view, sessions.store, tid)
            if found is None:
                return
            if found != last:
                last = found
                yield {"event": "tournament", "data": json.dumps(found)}
            if found["finished"]:
                return
            await tournaments.wait_for_change(sessions, found, WAIT)

    def missing(request: Request, message: str) -> Response:
        return templates.TemplateResponse(request, "missing.html", {"message": message}, status_code=404)

    routes = [
        Route("/", index, name="index"),
        Route("/games/{game_id}", game_page, name="game"),
        Route("/games/{game_id}/events", game_events, name="game_events"),
        Route("/games/{game_id}/replay/{ply:int}", replay, name="replay"),
        Route("/tournaments/{tournament_id}", tournament_page, name="tournament"),
        Route("/tournaments/{tournament_id}/events", tournament_events, name="tournament_events"),
        Mount("/shared", app=StaticFiles(directory=str(SHARED_STATIC)), name="shared"),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = PageHeaders(Starlette(routes=[Mount(WATCH_PATH, routes=routes)]))
    return ViewerGate(app, tokens) if tokens else app


#: What every page of the sites may load: their own scripts and styles only (nothing from other sites, no inline
#: script, no framing by another site), and no guessing of content types.
PAGE_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
    "x-content-type-options": "nosniff",
}


class PageHeaders:
    """Add ``PAGE_HEADERS`` to every HTTP response of the wrapped app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).update(PAGE_HEADERS)
            await send(message)

        await self.app(scope, receive, with_headers)


def embedded(data: Any) -> str:
    """JSON to put inside a page's <script> element: no character of it can end the element or start markup."""
    return json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
