"""uv for the packaging tests: from PATH, from .venv, else from PyPI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import PYPI, need


@pytest.fixture(scope="session")
def uv(tmp_path_factory) -> Path:
    """uv from PATH or beside this Python (the bootstrap script may have put it into .venv), else installed from
    PyPI with pip into a scratch virtual environment."""
    found = shutil.which("uv")
    if found:
        return Path(found)
    beside = Path(sys.executable).with_name("uv")
    if beside.is_file() and beside.with_name("uvx").is_file():
        return beside
    need(PYPI, "installing uv")
    venv = tmp_path_factory.mktemp("uv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet", "uv"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return venv / "bin" / "uv"
