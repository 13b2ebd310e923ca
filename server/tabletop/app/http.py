"""Streamable HTTP: the ASGI app, with an optional static bearer token in front of it."""

from __future__ import annotations

import hmac
import json
import re

from mcp.server.mcpserver import MCPServer
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ..play import PLAY_PATH
from ..watch import WATCH_PATH

MCP_PATH = "/mcp"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class BearerToken:
    """Refuse every HTTP request that lacks ``Authorization: Bearer <token>`` (compared in constant time)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = [value for name, value in scope["headers"] if name.lower() == b"authorization"]
            if len(given) > 1:  # a proxy checking the first and this server the last would disagree: refuse both
                await refuse(send, "more than one Authorization header")
                return
            if not given or not hmac.compare_digest(given[0], self.expected):
                await refuse(send, "missing or wrong bearer token" if given else "a bearer token is required")
                return
        await self.app(scope, receive, send)


async def refuse(send: Send, reason: str) -> None:
    body = json.dumps({"error": "unauthorized", "error_description": reason}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"www-authenticate", b'Bearer realm="tabletop-mcp", error="invalid_token"'),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class LoopbackHostOnly:
    """A server on a loopback address answers only requests that name a loopback host, and whose Origin, if they
    carry one, is exactly that host (scheme, host and port): a page of another site cannot reach it through DNS
    rebinding, nor pass with an Origin that only starts like this server's (``http://127.0.0.1:8000.evil.example``).
    It stands in front of ``/mcp`` (before the SDK's own check) and of every page."""

    HOST = re.compile(r"(127\.0\.0\.1|localhost|\[::1\])(:[0-9]{1,5})?")

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            why = self.refused(Headers(scope=scope))
            if why is not None:
                await PlainTextResponse(why, status_code=421 if why.startswith("Host") else 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @classmethod
    def refused(cls, headers: Headers) -> str | None:
        hosts, origins = headers.getlist("host"), headers.getlist("origin")
        if len(hosts) != 1 or cls.HOST.fullmatch(hosts[0]) is None:
            return "Host header refused: this server answers only to its loopback address"
        if len(origins) > 1 or (origins and origins[0] != f"http://{hosts[0]}"):
            return "Origin header refused: requests come only from this server's own pages"
        return None


class BesideMcp:
    """Requests for the watching site (``/watch`` and below) and the play pages (``/play``) go to them; everything
    else (``/mcp``, the server's lifespan) to the MCP app. The site checks its own tokens (the server's and the
    viewing token); a play page, its seat's cookie."""

    def __init__(self, mcp_app: ASGIApp, sites: dict[str, ASGIApp]) -> None:
        self.mcp_app = mcp_app
        self.sites = sites

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        for prefix, site in self.sites.items():
            if path == prefix or path.startswith(prefix + "/"):
                await site(scope, receive, send)
                return
        await self.mcp_app(scope, receive, send)


def http_app(
    mcp: MCPServer, host: str, token: str | None, stateless: bool = False, view_token: str | None = None,
    public_url: str | None = None,
) -> ASGIApp:
    """The streamable HTTP app at ``/mcp`` and, for a Tabletop server, the watching site at ``/watch`` (open to
    the server's token and to ``view_token``) and the seats' play pages at ``/play``; all with DNS-rebinding
    protection on loopback hosts.

    ``stateless``: keep no MCP session between requests, even for clients of the older protocol versions that
    open one with ``initialize`` (newer ones never do), so that any server of a fleet can answer any request.
    ``public_url``: where people reach this server (``https://games.example.org``, behind a proxy); the seats'
    links start with it, and the play pages accept moves sent from it.
    """
    app = mcp.streamable_http_app(streamable_http_path=MCP_PATH, host=host, stateless_http=stateless)
    guarded = BearerToken(app, token) if token else app
    sessions = getattr(mcp, "sessions", None)
    if sessions is None:
        return LoopbackHostOnly(guarded) if host in LOOPBACK else guarded
    from ..play.site import play_app
    from ..watch.site import watch_app

    if public_url:
        mcp.play_url = public_url.rstrip("/")
    origins = [origin_of(public_url)] if public_url else []
    sites = {
        WATCH_PATH: watch_app(sessions, [t for t in (token, view_token) if t]),
        PLAY_PATH: play_app(sessions, mcp.call_tool, origins),
    }
    both = BesideMcp(guarded, sites)
    return LoopbackHostOnly(both) if host in LOOPBACK else both


def origin_of(url: str) -> str:
    """``https://games.example.org/x`` -> ``https://games.example.org``."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/')[0]}"
