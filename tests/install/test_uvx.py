"""The README's one line for a checkout, `uvx --from <checkout> tabletop serve`, run as printed from another folder:
uv builds the package and installs its dependencies from PyPI (uv's usual cache, so a second run is quick), and the
server answers a real MCP client with the rules text, the maps and the dice tables."""

from __future__ import annotations

import re

import pytest

from .helpers import PYPI, ROOT, clean_env, need, serves_everything

pytestmark = [pytest.mark.slow, pytest.mark.packaging, pytest.mark.anyio]

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_gives_the_uvx_line_first():
    install = README.index("uvx --from")
    assert install < README.index("## How a game is played") and install < README.index("./tabletop serve")


async def test_uvx_from_the_checkout_serves_rules_maps_and_tables(uv, tmp_path):
    need(PYPI, "uvx (it installs the dependencies)")
    line = re.search(r"uvx --from (\S+) tabletop serve", README)
    assert line, "the README shows the uvx line"
    uvx = uv.with_name("uvx")
    texts = await serves_everything(str(uvx), ["--from", str(ROOT), "tabletop", "serve"], tmp_path, clean_env(tmp_path))
    assert "Exact: 2 players" in texts["advice 2p"]
