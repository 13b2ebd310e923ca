"""Who may open a seat's page: the holder of the seat's cookie, which the seat's link sets once.

A seat's link is ``/play/<game>/<seat>?key=<the seat's token>``. Opened once, the page checks the token against the
game's stored token hashes and answers with a redirect to itself without the key, setting an HttpOnly,
SameSite=Strict cookie whose path is that seat's page alone: the token leaves the address bar and never appears in
the page, scripts cannot read it, other sites' pages cannot send it, and no other seat's or game's page receives
it. A page asked for without a valid cookie shows nothing of the seat.

A move is sent by the page's own script as JSON with the page's origin: a request whose Origin is another site's,
or that is not JSON (which a plain form of another site could send without asking), is refused.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..sessions.live import LiveGame
from ..sessions.tokens import seat_of
from . import seat_path

COOKIE = "tabletop_seat"
#: How long the browser keeps a seat's cookie (seconds): thirty days, longer than any game.
COOKIE_AGE = 30 * 24 * 3600
#: The longest token read from a link or a cookie (tokens are 43 characters).
MAX_TOKEN = 100


def holds_seat(live: LiveGame, seat: int, token: str) -> bool:
    """Whether ``token`` is the token of ``seat`` of this game (a referee's token is not a seat's)."""
    if not token or len(token) > MAX_TOKEN or not 0 <= seat < len(live.record.seat_names):
        return False
    return seat_of(token, live.record.token_hashes) == seat


def cookie_token(request: Request) -> str:
    return request.cookies.get(COOKIE, "")[:MAX_TOKEN]


def exchange(live: LiveGame, seat: int, token: str) -> Response:
    """The answer to a seat's link: back to the page without the key, with the seat's cookie set."""
    path = seat_path(live.id, seat)
    response = RedirectResponse(path, status_code=303)
    response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, path=path, httponly=True, samesite="strict")
    response.headers["cache-control"] = "no-store"
    response.headers["referrer-policy"] = "no-referrer"
    return response


def sent_by_the_page(request: Request, public_origins: list[str]) -> str | None:
    """Why a move request did not come from the seat's own page, or None if it did."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return "moves are sent as JSON by the seat's page"
    origin = request.headers.get("origin")
    if origin is None:
        return None  # not a browser's cross-site request: those always carry an Origin on POST
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    if origin != own and origin not in public_origins:
        return "this request came from another site"
    return None
