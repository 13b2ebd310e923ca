"""Fixtures of the board app's tests: the play pages' real server process and MCP client, and Debian's chromium with
its console kept (a blocked network request shows there)."""

from __future__ import annotations

import pytest

from play.conftest import TOKEN, mcp_client, served  # noqa: F401 - the server fixture, shared
from watch.conftest import CHROMIUM, DRIVER, ensure_chromium

from .testhost import CACHE

#: Where the browser tests leave their screenshots (ignored by git).
OUTPUT = CACHE.parent


@pytest.fixture(scope="module")
def chromium():
    """A headless chromium (the system's) driven by Selenium, keeping the browser console."""
    ensure_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1000", "--disable-gpu"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(120)
    driver.set_script_timeout(120)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()
