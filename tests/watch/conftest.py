"""Fixtures of the watching site's tests: a real server process, and Debian's chromium driven by Selenium."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

#: Where the browser tests leave their screenshots (ignored by git).
OUTPUT = Path(__file__).resolve().parents[1] / "output" / "watch"
CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
INSTALL = "apt-get install -y chromium chromium-driver"
#: The lock the suite's workers take turns on to install chromium (apt-get allows one install at a time).
INSTALL_LOCK = Path(tempfile.gettempdir()) / "tabletop-tests-chromium.lock"


def ensure_chromium() -> None:
    """Debian's chromium and its driver, installed here if missing (as root); otherwise a failure naming them. The
    suite's workers (pytest-xdist) take turns: one installs while the others wait, then find it installed."""
    if os.path.exists(CHROMIUM) and os.path.exists(DRIVER):
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail(f"the browser tests need Debian's chromium and its driver: run `{INSTALL}` as root", pytrace=False)
    with open(INSTALL_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
            install_chromium()


def install_chromium() -> None:
    """`apt-get install` chromium and its driver, or fail saying why."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env, capture_output=True)
    done = subprocess.run(INSTALL.split(), env=env, capture_output=True, text=True)
    if done.returncode or not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        pytest.fail(f"`{INSTALL}` failed ({done.returncode}): {done.stderr[-500:]}", pytrace=False)


@pytest.fixture(scope="session")
def browser():
    """A headless chromium (the system's, never a downloaded one) driven by Selenium."""
    ensure_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000", "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(120)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


@pytest.fixture
def served(tmp_path):
    """`tabletop serve --http` as a real process with a token and a viewing token: (base URL, db path)."""
    db = tmp_path / "watch.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(db)]
        + ["--token", "s3cret", "--view-token", "look"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = proc.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+)/mcp", line)
    assert match, f"server printed {line!r}"
    yield match.group(1), db
    proc.terminate()
    proc.wait(timeout=30)
