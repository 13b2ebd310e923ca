"""Fixtures of the board app's tests: the play pages' real server process and MCP client, and Debian's chromium."""

from __future__ import annotations

import pytest

from play.conftest import TOKEN, mcp_client, served  # noqa: F401 - the server fixture, shared
from watch.conftest import browser  # noqa: F401 - the browser fixture, shared

from .testhost import CACHE

#: Where the browser tests leave their screenshots (ignored by git).
OUTPUT = CACHE.parent


@pytest.fixture
def chromium(browser):  # noqa: F811 - the shared fixture, asked for by name
    """The browser tests' shared headless chromium (watch/conftest.py), with this folder's screenshots' place made."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return browser
