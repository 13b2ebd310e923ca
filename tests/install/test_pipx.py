"""The README's pipx line for a checkout, `pipx run --spec <checkout> tabletop serve`, run as printed from another
folder with a pipx of its own (installed from PyPI into a scratch environment; pipx then installs the package and
its dependencies with pip): the server answers a real MCP client with the rules text, the maps and the dice tables."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from .helpers import PYPI, ROOT, clean_env, need, serves_everything

pytestmark = [pytest.mark.slow, pytest.mark.packaging, pytest.mark.anyio]


async def test_pipx_run_from_the_checkout_serves_rules_maps_and_tables(tmp_path):
    need(PYPI, "pipx (it installs the dependencies)")
    line = re.search(r"pipx run --spec (\S+) tabletop serve", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert line, "the README shows the pipx line"
    venv = tmp_path / "pipx-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "pipx"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    env = clean_env(tmp_path, PIPX_HOME=str(tmp_path / "pipx-home"), PIPX_BIN_DIR=str(tmp_path / "pipx-bin"))
    texts = await serves_everything(str(venv / "bin" / "pipx"), ["run", "--spec", str(ROOT), "tabletop", "serve"],
                                    tmp_path, env)
    assert "Exact: 2 players" in texts["advice 2p"]
