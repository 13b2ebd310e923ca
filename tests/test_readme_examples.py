"""The README's tool catalogue: every example runs as printed, through the real MCP client.

Example game ids and '…' tokens are replaced by those of real games: a Cthulhu Dice game, A Game of
War made with the default opening (seed 0: North moves first) and a 3-player Cthulhu Wars game.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mcp import Client

from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

README = Path(__file__).resolve().parents[1] / "README.md"
ROW = re.compile(r"^\| `(\w+)` \|.*\|(.*)\|$")

pytestmark = pytest.mark.anyio


def catalogue() -> list[tuple[str, dict]]:
    """(tool, arguments) for every example in the tool catalogue table."""
    examples = []
    for line in README.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found:
            for example in re.findall(r"`(\{.*?\})`(?= or |\s*\(|\s*$)", found.group(2).strip()):
                examples.append((found.group(1), json.loads(example)))
    return examples


def test_the_catalogue_has_an_example_for_every_tool():
    tools = {tool for tool, _ in catalogue()}
    assert len(tools) >= 18 and {"apply_move", "combat_preview", "cthulhu_dice_advice", "new_game"} <= tools


async def test_every_example_runs_as_printed(tmp_path):
    server = build_server(GameSessions(GameStore(tmp_path / "readme.sqlite3")))
    async with Client(server) as client:
        games = {}
        for prefix, args in (
            ("cthulhu-dice", {"game": "cthulhu-dice", "players": ["Ann", "Bob"]}),
            ("game-of-war", {"game": "game-of-war", "options": {"opening": "default"}, "seed": 0}),
            ("cthulhu-wars", {"game": "cthulhu-wars", "seats": 3}),
        ):
            made = (await client.call_tool("new_game", args)).structured_content
            games[prefix] = (made["game_id"], made["seats"][made["to_move"][0]]["token"])
        for tool, args in catalogue():
            text = json.dumps(args, ensure_ascii=False)
            for prefix, (game_id, token) in games.items():
                if re.search(rf'"{prefix}-[0-9a-f…]+', text):
                    text = re.sub(rf'"{prefix}-[0-9a-f…]+"', f'"{game_id}"', text).replace('"…"', f'"{token}"')
            result = await client.call_tool(tool, json.loads(text))
            assert not result.is_error, f"{tool} {text}: {result.content[0].text}"


def test_the_python_http_example_runs_as_printed(tmp_path):
    """The README's Python block, unchanged but for the port, against a real `tabletop serve --http`."""
    import subprocess
    import sys

    block = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(tmp_path / "g.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        url = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", proc.stdout.readline()).group(1)
        script = tmp_path / "example.py"
        script.write_text(block.replace("http://127.0.0.1:8000/mcp", url))
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    finally:
        proc.terminate()
        proc.wait()
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Started Cthulhu Dice as cthulhu-dice-") and "Ann: " in done.stdout
