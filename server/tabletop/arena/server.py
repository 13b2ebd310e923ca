"""The server a tournament plays on: one the arena starts (a real ``tabletop serve --http`` process on 127.0.0.1,
with a bearer token of its own) or one already running, by URL and token. Every participant, the arena included,
reaches it over HTTP as any agent would."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, contextmanager
from collections.abc import Iterator
from dataclasses import dataclass

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


@dataclass(frozen=True)
class Endpoint:
    url: str
    token: str | None  # the server's bearer token (not a seat's)


class ServerFailed(RuntimeError):
    """The arena's own server did not start."""


@contextmanager
def started_server(db: str) -> Iterator[Endpoint]:
    """``tabletop serve --http`` on a free port of 127.0.0.1 over ``db``, with a fresh bearer token; stopped after."""
    token = secrets.token_urlsafe(24)
    env = {**os.environ, "TABLETOP_TOKEN": token}
    command = [sys.executable, "-m", "tabletop", "serve", "--http", "--host", "127.0.0.1", "--port", "0", "--db", db]
    errors = tempfile.TemporaryFile("w+")
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=errors, text=True,
                               preexec_fn=die_with_parent if sys.platform == "linux" else None)
    try:
        first = process.stdout.readline()
        if "serving streamable HTTP at " not in first:
            process.wait(timeout=10)
            errors.seek(0)
            raise ServerFailed(f"the arena's server did not start: {errors.read().strip() or first.strip()}")
        url = first.rsplit(" ", 1)[1].strip()
        yield Endpoint(url, token)
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stdout.close()
        errors.close()


def die_with_parent() -> None:
    """In the server's process, before it starts (Linux): be sent SIGTERM when the arena dies, even by SIGKILL, so
    that a killed arena leaves no server behind."""
    import ctypes
    import signal

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


@asynccontextmanager
async def connect(endpoint: Endpoint) -> AsyncIterator[Client]:
    """An MCP client of its own on the server (one per participant: nothing is shared between seats)."""
    headers = {"Authorization": f"Bearer {endpoint.token}"} if endpoint.token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=120)) as http:
        async with Client(streamable_http_client(endpoint.url, http_client=http)) as client:
            yield client


__all__ = ["Endpoint", "ServerFailed", "connect", "started_server"]
