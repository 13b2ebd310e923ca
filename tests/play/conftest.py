"""Fixtures of the play pages' tests: a real `tabletop serve --http` process, an MCP client on it, and Debian's
chromium driven by Selenium (the watching site's fixture)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from watch.conftest import browser, ensure_chromium  # noqa: F401 - the browser fixture, shared

#: Where the browser tests leave their screenshots (ignored by git).
OUTPUT = Path(__file__).resolve().parents[1] / "output" / "play"
TOKEN = "s3cret"


@pytest.fixture
def served(tmp_path):
    """`tabletop serve --http` as a real process with a token (bots are played by its driver): its base URL."""
    db = tmp_path / "play.sqlite3"
    OUTPUT.mkdir(parents=True, exist_ok=True)
    errors = (OUTPUT / "server-stderr.log").open("w")  # kept as an artefact: what the server said
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(db), "--token", TOKEN],
        stdout=subprocess.PIPE,
        stderr=errors,
        text=True,
    )
    line = proc.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+)/mcp", line)
    assert match, f"server printed {line!r}"
    yield match.group(1)
    proc.terminate()
    proc.wait(timeout=30)
    errors.close()


def mcp_client(base: str) -> tuple[httpx2.AsyncClient, Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120)
    return http, Client(streamable_http_client(f"{base}/mcp", http_client=http))
