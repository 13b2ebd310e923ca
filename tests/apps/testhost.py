"""The test host of the board app's browser tests: the official MCP Apps host bridge (``@modelcontextprotocol/ext-apps``
from npm, bundled with esbuild) in a page served by a relay in the test process, whose MCP client (advertising the
Apps extension) is connected to a real ``tabletop serve --http`` process. The relay records what the host does for
the model (``model``: every tool answer the model gets), for the apps (``app``: their calls) and what the apps send
towards the model (``told``: ``ui/update-model-context`` and ``ui/message``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn
from mcp import Client, StdioServerParameters
from mcp.client.extension import advertise
from mcp.client.streamable_http import streamable_http_client
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

HERE = Path(__file__).parent
#: The official host bridge, and the bundler, as the npm registry has them.
EXT_APPS, ESBUILD = "@modelcontextprotocol/ext-apps@2.0.4", "esbuild@0.28.2"
#: Where npm installs them and the bundle is built (ignored by git; kept between runs).
CACHE = HERE.parents[0] / "output" / "apps" / "host-npm"
APPS = advertise("io.modelcontextprotocol/ui", {"mimeTypes": ["text/html;profile=mcp-app"]})

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title>
<style>body{font-family:sans-serif;margin:8px} iframe{display:block;border:1px solid #888;margin:0 0 12px}</style>
</head><body><div id="views"></div><script src="/host.js"></script></body></html>"""


def host_bundle() -> Path:
    """The test host's script with the official bridge inside: npm-installed and bundled once (skips the test if
    npm's registry cannot be reached)."""
    bundle = CACHE / "host.bundle.js"
    source = (HERE / "host" / "host.js").read_text()
    stamp = CACHE / "host.source.js"
    if bundle.exists() and stamp.exists() and stamp.read_text() == source:
        return bundle
    if shutil.which("npm") is None:
        pytest.skip("the board app's browser tests need npm, to install the official MCP Apps host bridge")
    CACHE.mkdir(parents=True, exist_ok=True)
    if not (CACHE / "node_modules" / "@modelcontextprotocol" / "ext-apps").is_dir():
        (CACHE / "package.json").write_text(json.dumps({"name": "tabletop-apps-test-host", "private": True}))
        done = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", EXT_APPS, ESBUILD],
            cwd=CACHE, capture_output=True, text=True, timeout=600, env={**os.environ, "npm_config_update_notifier": "false"},
        )
        if done.returncode:
            pytest.skip(f"npm could not install {EXT_APPS} (is the npm registry reachable?): {done.stderr.strip()[-400:]}")
    (CACHE / "host.js").write_text(source)
    done = subprocess.run(
        [str(CACHE / "node_modules" / ".bin" / "esbuild"), "host.js", "--bundle", "--format=iife", "--platform=browser",
         "--log-level=error", "--outfile=host.bundle.js"],
        cwd=CACHE, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, f"esbuild failed: {done.stderr[-1000:]}"
    stamp.write_text(source)
    return bundle


def model_visible(result: dict[str, Any]) -> str:
    """What of a tool's answer a host puts before the model: its content (texts, embedded resources) and its
    structured content; ``_meta`` is for the app (the MCP Apps spec: not for the model's context)."""
    parts = []
    for block in result.get("content", []):
        if block.get("type") == "text":
            parts.append(block["text"])
        elif block.get("type") == "resource":
            parts.append(block["resource"].get("text", ""))
        elif block.get("type") == "image":
            parts.append(block.get("data", ""))
    parts.append(json.dumps(result.get("structuredContent"), ensure_ascii=False))
    return "\n".join(parts)


@dataclass
class Relay:
    client: Client
    bundle: Path
    model: list[tuple[str, dict, dict]] = field(default_factory=list)
    app: list[tuple[int, str, dict, dict]] = field(default_factory=list)
    told: list[dict] = field(default_factory=list)
    url: str = ""

    def site(self) -> Starlette:
        async def page(request: Request) -> Response:
            return HTMLResponse(PAGE)

        async def script(request: Request) -> Response:
            return Response(self.bundle.read_text(), media_type="text/javascript")

        async def rpc(request: Request) -> Response:
            body = await request.json()
            op = request.path_params["op"]
            try:
                if op == "list_tools":
                    listing = await self.client.list_tools()
                    return JSONResponse(listing.model_dump(by_alias=True, mode="json", exclude_none=True))
                if op == "read":
                    read = await self.client.read_resource(body["uri"])
                    return JSONResponse(read.model_dump(by_alias=True, mode="json", exclude_none=True))
                if op == "call":
                    result = await self.client.call_tool(body["name"], body["arguments"])
                    answer = result.model_dump(by_alias=True, mode="json", exclude_none=True)
                    if body["caller"] == "model":
                        self.model.append((body["name"], body["arguments"], answer))
                    else:
                        self.app.append((body["view"], body["name"], body["arguments"], answer))
                    return JSONResponse({"result": answer})
                if op == "told":
                    self.told.append(body)
                    return JSONResponse({})
            except Exception as err:  # the page shows it; the test fails on what the page shows
                return JSONResponse({"error": f"{type(err).__name__}: {err}"}, 500)
            return JSONResponse({"error": f"no op {op}"}, 404)

        return Starlette(routes=[Route("/", page), Route("/host.js", script), Route("/rpc/{op}", rpc, methods=["POST"])])

    def app_calls(self, view: int | None = None) -> list[str]:
        return [name for v, name, _, _ in self.app if view is None or v == view]


@asynccontextmanager
async def apps_host(base: str, token: str):
    """The relay serving the test host page, connected to the server at ``base`` (with its bearer ``token``)."""
    bundle = host_bundle()
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(120, read=300))
    async with http, Client(streamable_http_client(f"{base}/mcp", http_client=http), extensions=[APPS]) as client:
        async with relaying(client, bundle) as relay:
            yield relay


@asynccontextmanager
async def stdio_apps_host(server: StdioServerParameters):
    """The relay serving the test host page, its client connected to a ``tabletop serve`` process over stdio, as
    desktop hosts run it (no HTTP, no play pages)."""
    bundle = host_bundle()
    async with Client(server, extensions=[APPS]) as client, relaying(client, bundle) as relay:
        yield relay


@asynccontextmanager
async def relaying(client: Client, bundle: Path):
    """The relay of ``client`` (which advertises the Apps extension), serving the test host page (``bundle``)."""
    relay = Relay(client, bundle)
    server = uvicorn.Server(uvicorn.Config(relay.site(), host="127.0.0.1", port=0, log_level="warning", lifespan="off"))
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(server.serve)
        while not server.started:
            await anyio.sleep(0.05)
        relay.url = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}/"
        try:
            yield relay
        finally:
            server.should_exit = True
