"""The desktop bundle: manifest.json is validated, and the bundle packed, by the official `mcpb` command from npm;
the bundle holds what uv needs to build and run the server and nothing else; unpacked, it runs as its manifest
says (`uv run --directory <bundle> tabletop serve`: the host's uv brings Python and the dependencies, so no Python
needs to be installed) and serves the rules text, the maps and the dice tables to a real MCP client."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

from .helpers import NPM, PROJECT, PYPI, ROOT, clean_env, need, serves_everything

pytestmark = [pytest.mark.slow, pytest.mark.packaging]

MANIFEST = json.loads((ROOT / "manifest.json").read_text(encoding="utf-8"))
MCPB_PACKAGE = "@anthropic-ai/mcpb@^2.1"


@pytest.fixture(scope="module")
def mcpb(tmp_path_factory) -> Path:
    """The mcpb command, installed from npm into a scratch folder."""
    need(NPM, "the mcpb command")
    npm = shutil.which("npm")
    assert npm, "npm is needed for the desktop bundle's tests (Debian: apt-get install npm)"
    prefix = tmp_path_factory.mktemp("mcpb")
    done = subprocess.run(
        [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--loglevel=error", MCPB_PACKAGE],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return prefix / "node_modules" / ".bin" / "mcpb"


@pytest.fixture(scope="module")
def bundle(mcpb, tmp_path_factory) -> tuple[Path, str]:
    """The bundle `mcpb pack` makes of this checkout, and what it printed."""
    out = tmp_path_factory.mktemp("bundle") / "tabletop.mcpb"
    done = subprocess.run([str(mcpb), "pack", str(ROOT), str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out, done.stdout


def test_mcpb_validates_the_manifest(mcpb):
    done = subprocess.run(
        [str(mcpb), "validate", str(ROOT / "manifest.json")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Manifest schema validation passes!" in done.stdout


def test_mcpb_refuses_a_broken_manifest(mcpb, tmp_path):
    broken = json.loads(json.dumps(MANIFEST))
    broken["server"]["type"] = "ruby"
    del broken["author"]
    (tmp_path / "manifest.json").write_text(json.dumps(broken))
    done = subprocess.run(
        [str(mcpb), "validate", str(tmp_path / "manifest.json")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0 and "passes" not in done.stdout


def test_the_manifest_agrees_with_the_project():
    assert MANIFEST["name"] == PROJECT["name"] and MANIFEST["version"] == PROJECT["version"]
    assert MANIFEST["license"] == PROJECT["license"]
    server = MANIFEST["server"]
    assert server["type"] == "uv", "the host brings Python and the dependencies: no Python needs to be installed"
    assert (ROOT / server["entry_point"]).is_file()
    assert server["mcp_config"]["args"][-2:] == ["tabletop", "serve"]

    async def tool_names() -> set[str]:
        async with Client(build_server(GameSessions(GameStore(":memory:")))) as client:
            return {tool.name for tool in (await client.list_tools()).tools}

    assert {tool["name"] for tool in MANIFEST["tools"]} == anyio.run(tool_names)


def test_the_bundle_holds_what_uv_needs_and_nothing_else(bundle):
    path, printed = bundle
    names = zipfile.ZipFile(path).namelist()
    assert {"manifest.json", "pyproject.toml", "README.md", "LICENSE", "server/tabletop/__init__.py"} <= set(names)
    assert {f"schemas/{p.name}" for p in (ROOT / "schemas").glob("*.json")} <= set(names)
    assert "rules_text/cthulhu-dice/10-overview.md" in names
    assert "server/tabletop/games/cthulhu_dice/data/optimal_3p_13.npz" in names
    tops = {name.split("/")[0] for name in names}
    assert tops == {"manifest.json", "pyproject.toml", "README.md", "LICENSE", "server", "rules_text", "schemas"}
    assert not any("__pycache__" in name or name.endswith((".pyc", ".sqlite3")) for name in names)
    assert "tabletop-mcp@" + PROJECT["version"] in printed


@pytest.mark.anyio
async def test_the_unpacked_bundle_runs_as_its_manifest_says(bundle, uv, tmp_path):
    need(PYPI, "running the bundle (uv installs its dependencies)")
    folder = tmp_path / "installed-bundle"
    zipfile.ZipFile(bundle[0]).extractall(folder)
    config = MANIFEST["server"]["mcp_config"]
    assert config["command"] == "uv"
    args = [arg.replace("${__dirname}", str(folder)) for arg in config["args"]]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    texts = await serves_everything(str(uv), args, elsewhere, clean_env(tmp_path))
    assert "rules://cthulhu-wars/maps" in texts["maps"]
