"""Who may watch: the holders of the server's bearer token or of the read-only viewing token.

A program sends ``Authorization: Bearer <token>``. A browser cannot, so it opens any page once with
``?key=<token>``: the site answers with a cookie and sends it to the same page without the key. The cookie
holds a keyed digest of the token, never the token itself, and opens only the site (``/mcp`` still asks for
the server's token), so a viewing token or cookie passed around lets people watch, never play.
"""

from __future__ import annotations

import hashlib
import hmac

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

COOKIE = "tabletop_watch"
#: How long the browser keeps the viewing cookie (seconds): a day.
COOKIE_AGE = 24 * 3600

LOCKED = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tabletop: watching needs a key</title></head>
<body><h1>Watching needs a key</h1><p>This server is protected by a token. Open this page once with
<code>?key=</code> followed by the server's token or its viewing token (<code>--view-token</code>).</p></body></html>"""


def cookie_value(token: str) -> str:
    return hmac.new(token.encode(), b"tabletop-mcp watching", hashlib.sha256).hexdigest()


class ViewerGate:
    """Let through requests carrying one of ``tokens`` (as a bearer header, the site's cookie or ``?key=``)."""

    def __init__(self, app: ASGIApp, tokens: list[str]) -> None:
        self.app = app
        self.bearers = [f"Bearer {t}".encode() for t in tokens]
        self.tokens = [t.encode() for t in tokens]
        self.cookies = [cookie_value(t).encode() for t in tokens]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        headers = request.headers.getlist("authorization")
        if len(headers) == 1 and any_matches(headers[0].encode(), self.bearers):
            await self.app(scope, receive, send)
            return
        if any_matches(request.cookies.get(COOKIE, "").encode(), self.cookies):
            await self.app(scope, receive, send)
            return
        key = request.query_params.get("key", "")
        if key and any_matches(key.encode(), self.tokens):
            response = RedirectResponse(request.url.path, status_code=303)  # the key leaves the address bar
            response.set_cookie(
                COOKIE, cookie_value(key), max_age=COOKIE_AGE, path="/watch", httponly=True, samesite="strict"
            )
            await response(scope, receive, send)
            return
        response = HTMLResponse(LOCKED, status_code=401, headers={"www-authenticate": 'Bearer realm="tabletop-mcp"'})
        await response(scope, receive, send)


def any_matches(given: bytes, expected: list[bytes]) -> bool:
    """Whether ``given`` equals one of ``expected`` (every one compared, each in constant time)."""
    found = False
    for value in expected:
        found |= hmac.compare_digest(given, value)
    return found
