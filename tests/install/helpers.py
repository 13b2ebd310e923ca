"""What the packaging tests share: the project's root, the package registries they may need (a test that needs one
skips, saying so, only when it cannot be reached), and a check that a launched server really serves what an
installation must carry: the rules text, the Cthulhu Wars maps and the Cthulhu Dice tables."""

from __future__ import annotations

import os
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
PYPI = "https://pypi.org/simple/"
NPM = "https://registry.npmjs.org/"


def reachable(url: str) -> bool:
    try:
        urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=15)
    except urllib.error.HTTPError:
        return True  # it answered
    except OSError:
        return False
    return True


def need(url: str, what: str) -> None:
    if not reachable(url):
        pytest.skip(f"{url} cannot be reached from this machine, and {what} needs it")


def clean_env(tmp: Path, **extra: str) -> dict[str, str]:
    """This process's environment without what would lead a child to the checkout's own virtual environment, and
    a game database of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["TABLETOP_DB"] = str(tmp / "games.sqlite3")
    env.update(extra)
    return env


async def serves_everything(command: str, args: list[str], cwd: Path, env: dict[str, str]) -> dict[str, str]:
    """Launch the server over stdio with the official client and read what an installation must carry: a rules
    resource, Cthulhu Wars adjacency on both shipped maps, and exact Cthulhu Dice advice from the shipped 2- and
    3-player tables. Returns the texts read, by name."""
    params = StdioServerParameters(command=command, args=args, cwd=str(cwd), env=env)
    texts: dict[str, str] = {}
    async with Client(params, read_timeout_seconds=600) as client:
        rules = await client.read_resource("rules://cthulhu-dice")
        texts["rules"] = rules.contents[0].text
        assert texts["rules"].startswith("# Cthulhu Dice")

        earth = await client.call_tool("list_adjacent", {"layout": "earth_5p", "area": "new zealand"})
        assert not earth.is_error, earth.content[0].text
        assert {a["id"] for a in earth.structured_content["adjacent"]} >= {"australia", "south-pacific"}
        dreamlands = await client.call_tool("list_adjacent", {"layout": "dreamlands_5p", "area": "zura"})
        assert not dreamlands.is_error, dreamlands.content[0].text
        texts["maps"] = earth.content[0].text + "\n" + dreamlands.content[0].text

        for scores, seat in (([9, 11], 0), ([9, 11, 4], 2)):
            position = {"scores": scores, "seat": seat, "stash": 3, "tentacles": {"tomb": 2}}
            advice = await client.call_tool("cthulhu_dice_advice", {"position": position})
            assert not advice.is_error, advice.content[0].text
            answer = advice.structured_content
            assert answer["status"] == "ready" and answer["approximate"] is False, answer
            assert "(shipped table)" in answer["variant"], answer["variant"]
            texts[f"advice {len(scores)}p"] = advice.content[0].text
    return texts
