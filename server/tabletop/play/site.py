"""The play pages served beside ``/mcp`` by ``tabletop serve --http``: Starlette routes, one Jinja2 template.

``/play/<game>/<seat>`` is a seat's page: the board and the position as the seat sees them, whose turn it is, what
happened since the seat last moved, the log, the result, and the seat's legal moves as controls. Every click is a
dry run first (``apply_move`` with ``dry_run``: what the move would do, the odds of a roll); moves add up to a
sequence (a whole War turn, a Cthulhu Wars Move of several units) sent as one. The page follows the game through
server-sent events (``.../events``), woken by the sessions' own move signals.

Routes: the page (``?key=`` once, see gate.py), ``.../view`` (the page's data as JSON), ``.../legal?focus=`` (the
seat's moves through a place clicked on the board), ``.../events``, ``.../moves``
(POST ``{"moves": [...], "dry_run": bool, "expected": n}``) and ``.../advice`` (POST; Cthulhu Dice).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from ..core.errors import GameError
from ..sessions.live import LiveGame
from ..sessions.manager import GameSessions
from ..watch.site import PAGE_HEADERS, embedded
from . import PLAY_PATH
from .desk import Desk, ToolCaller, focused_moves, seat_view
from .gate import cookie_token, exchange, holds_seat, sent_by_the_page

HERE = Path(__file__).parent
#: Scripts shared with the watching site (picture.js: a wide picture seen full size).
SHARED_STATIC = HERE.parent / "render" / "static"
#: How long an event stream sleeps between checks that its page is still open (seconds); moves wake it at once.
WAIT = 20.0
#: Seconds between keep-alive comments on an idle event stream.
PING = 15
#: The longest focus read (a square, an area or a unit's name).
MAX_FOCUS = 40
#: A seat's answers are its own: never cached, never named to another site (and the sites' page headers).
HEADERS = {**PAGE_HEADERS, "cache-control": "no-store", "referrer-policy": "no-referrer"}

LOCKED = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tabletop: this seat's page</title></head>
<body><h1>This page belongs to a seat</h1><p>Open it from the seat's link (the link the game's host was given for
you). Spectators can follow the game on the watching site, <code>/watch</code>.</p></body></html>"""


class MoveRequest(BaseModel):
    """What the page sends: moves in notation, played in order as one, or only tried."""

    model_config = ConfigDict(extra="forbid")

    moves: list[str] = Field(min_length=1, max_length=50)
    dry_run: bool = True
    expected: int | None = Field(None, ge=1)


def play_app(sessions: GameSessions, call: ToolCaller, public_origins: list[str]) -> Any:
    """The pages' ASGI app, for paths under ``/play``. ``call`` runs this server's MCP tools in-process;
    ``public_origins``: the origins a browser may send moves from besides the request's own (behind a proxy)."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))

    async def seat_of(request: Request, token: str | None = None) -> tuple[LiveGame, int, str] | Response:
        """The game, the seat and its token, if ``token`` (by default the request's cookie) is the seat's; else the
        refusal."""
        seat, token = request.path_params["seat"], cookie_token(request) if token is None else token
        try:
            live = await sessions.io(lambda: sessions.get(request.path_params["game_id"]))
        except GameError:
            return locked()
        if not holds_seat(live, seat, token):
            return locked()
        return live, seat, token

    async def page(request: Request) -> Response:
        key = request.query_params.get("key")
        if key is not None:
            found = await seat_of(request, key)
            return found if isinstance(found, Response) else exchange(found[0], found[1], key)
        found = await seat_of(request)
        if isinstance(found, Response):
            return found
        live, seat, _ = found
        view = await sessions.io(lambda: seat_view(sessions, live, seat))
        response = templates.TemplateResponse(request, "seat.html", {"view": view, "view_json": embedded(view)})
        response.headers.update(HEADERS)
        return response

    async def view(request: Request) -> Response:
        found = await seat_of(request)
        if isinstance(found, Response):
            return found
        live, seat, _ = found
        return JSONResponse(await sessions.io(lambda: seat_view(sessions, live, seat)), headers=HEADERS)

    async def legal(request: Request) -> Response:
        """The seat's legal moves through one place or of one kind (``?focus=c3``), as the engine narrows them."""
        found = await seat_of(request)
        if isinstance(found, Response):
            return found
        live, seat, _ = found
        focus = request.query_params.get("focus", "")[:MAX_FOCUS]
        return JSONResponse(await sessions.io(partial(focused_moves, live, seat, focus)), headers=HEADERS)

    async def events(request: Request) -> Response:
        found = await seat_of(request)
        if isinstance(found, Response):
            return found
        live, seat, _ = found
        return EventSourceResponse(updates(live.id, seat), ping=PING, headers={"cache-control": "no-store"})

    async def updates(game_id: str, seat: int) -> AsyncIterator[dict[str, str]]:
        after, last = -1, None
        while True:
            live = await sessions.wait_for_moves(game_id, after, WAIT)
            after = live.ply
            shown = await sessions.io(partial(seat_view, sessions, live, seat))
            if shown != last:
                last = shown
                yield {"event": "seat", "data": json.dumps(shown)}
            if shown["over"]:
                return

    async def desk_of(request: Request) -> Desk | Response:
        """The seat's hands, if the request holds the seat's cookie and came from the seat's page; else the refusal."""
        found = await seat_of(request)
        if isinstance(found, Response):
            return found
        live, _, token = found
        why = sent_by_the_page(request, public_origins)
        if why is not None:
            return JSONResponse({"ok": False, "text": f"refused: {why}"}, 403, headers=HEADERS)
        return Desk(call, live.id, token)

    async def moves(request: Request) -> Response:
        desk = await desk_of(request)
        if isinstance(desk, Response):
            return desk
        try:
            asked = MoveRequest.model_validate_json(await request.body())
        except ValidationError as err:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in err.errors()[:3])
            return JSONResponse({"ok": False, "text": f"malformed_request: {problems}"}, 400, headers=HEADERS)
        return JSONResponse(await desk.send(asked.moves, asked.dry_run, asked.expected), headers=HEADERS)

    async def advice(request: Request) -> Response:
        desk = await desk_of(request)
        if isinstance(desk, Response):
            return desk
        return JSONResponse(await desk.advice(), headers=HEADERS)

    routes = [
        Route("/{game_id}/{seat:int}", page, name="seat"),
        Route("/{game_id}/{seat:int}/view", view, name="seat_view"),
        Route("/{game_id}/{seat:int}/legal", legal, name="seat_legal"),
        Route("/{game_id}/{seat:int}/events", events, name="seat_events"),
        Route("/{game_id}/{seat:int}/moves", moves, methods=["POST"], name="seat_moves"),
        Route("/{game_id}/{seat:int}/advice", advice, methods=["POST"], name="seat_advice"),
        Mount("/shared", app=StaticFiles(directory=str(SHARED_STATIC)), name="shared"),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    return Starlette(routes=[Mount(PLAY_PATH, routes=routes)])


def locked() -> Response:
    """What a request without the seat's cookie gets: nothing of the seat, the same for every game and seat."""
    return HTMLResponse(LOCKED, status_code=401, headers=HEADERS)

