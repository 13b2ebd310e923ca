"""`tabletop serve` as a person meets it, with real processes: quiet on stderr (a line per HTTP session at most at
info, refusals only at debug), one line saying what a stdio server in a terminal waits for, the help when run
without a command, and an HTTP banner whose block for each client is that client's own form."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client, MCPError
from mcp.client.subscriptions import ResourceUpdated

LOG_LINE = re.compile(r"^tabletop (DEBUG|INFO|WARNING|ERROR) [\w.]+: ")


def start_http(tmp_path: Path, *extra: str, env: dict | None = None) -> tuple[subprocess.Popen, list[str]]:
    """A real `tabletop serve --http` on a free port; the process and its banner (stdout up to the play line)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(tmp_path / "g.db"), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})},
    )  # fmt: skip
    banner = []
    while not banner or not banner[-1].startswith("People play"):
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        banner.append(line.rstrip("\n"))
    return proc, banner


def stop(proc: subprocess.Popen) -> list[str]:
    """Stop the server as a service manager would (SIGTERM); its stderr lines."""
    proc.terminate()
    _, err = proc.communicate(timeout=30)
    return err.splitlines()


async def scripted_session(url: str) -> int:
    """What a client does in a short session, on both protocol eras: list, play, be refused; the requests made."""
    requests = 0
    for mode in ("legacy", "2026-07-28"):
        async with Client(url, mode=mode) as client:
            await client.list_tools()
            game = (await client.call_tool("new_game", {"game": "cthulhu-dice", "seed": 3})).structured_content
            game_id, token = game["game_id"], game["seats"][0]["token"]
            await client.call_tool("get_state", {"game_id": game_id, "token": token})
            assert (await client.call_tool("apply_move", {"game_id": game_id, "token": token, "move": "fly"})).is_error
            bad = await client.call_tool("apply_move", {"game_id": game_id, "token": token, "expected_ply": 0})
            assert bad.is_error and "bad_arguments" in bad.content[0].text
            for ask in (lambda: client.get_prompt("nope", {}), lambda: client.read_resource("game://nope")):
                with pytest.raises(MCPError):
                    await ask()
            await client.call_tool("apply_move", {"game_id": game_id, "token": token, "move": "roll"})
            requests += 9  # initialize (or discover) included
    return requests


def test_an_http_session_is_quiet_at_info_and_its_refusals_are_told_at_debug(tmp_path):
    proc, banner = start_http(tmp_path)
    try:
        url = re.search(r"(http://\S+/mcp)", banner[0]).group(1)
        requests = anyio.run(scripted_session, url)
    finally:
        lines = stop(proc)
    assert all(LOG_LINE.match(line) and len(line) < 160 for line in lines), lines
    assert len(lines) <= 2 + 2 * 2 < requests, lines  # start and stop, and a line as each HTTP session starts and ends
    assert not [line for line in lines if "refused" in line or "failed" in line or "DEBUG" in line], lines

    proc, banner = start_http(tmp_path, env={"TABLETOP_LOG_LEVEL": "debug"})
    try:
        anyio.run(scripted_session, re.search(r"(http://\S+/mcp)", banner[0]).group(1))
    finally:
        lines = stop(proc)
    refusals = [line for line in lines if "tabletop.refusals" in line]
    assert len(refusals) == 4 and all(line.startswith("tabletop DEBUG") for line in refusals), lines
    assert any("bad_arguments" in line for line in refusals) and not any("Traceback" in line for line in lines)


def test_a_2026_client_follows_a_game_over_http(tmp_path):
    proc, banner = start_http(tmp_path, "--log-level", "warning")

    async def follow(url: str) -> None:
        async with Client(url, mode="2026-07-28") as watcher, Client(url, mode="legacy") as player:
            game = (await player.call_tool("new_game", {"game": "cthulhu-dice", "seed": 3})).structured_content
            uri = f"game://{game['game_id']}"
            async with watcher.listen(resource_subscriptions=[uri]) as followed:
                await player.call_tool("apply_move", {"game_id": game["game_id"], "token": game["seats"][0]["token"],
                                                      "move": "roll"})  # fmt: skip
                with anyio.fail_after(10):
                    assert await anext(aiter(followed)) == ResourceUpdated(uri=uri)

    try:
        anyio.run(follow, re.search(r"(http://\S+/mcp)", banner[0]).group(1))
    finally:
        lines = stop(proc)
    assert lines == [], "nothing below warning is said at --log-level warning"


def test_the_banner_gives_each_client_its_own_form(tmp_path):
    proc, banner = start_http(tmp_path, env={"TABLETOP_TOKEN": "s3cret"})
    stop(proc)
    url = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", banner[0]).group(1)
    blocks = {line.split(":")[0].split(" (")[0]: line for line in banner}
    assert "s3cret" not in "\n".join(banner), "the token itself is never printed"
    assert blocks["Claude Code"] == (
        f'Claude Code: claude mcp add --transport http tabletop {url} --header "Authorization: Bearer $TABLETOP_TOKEN"'
    )
    config = {name: json.loads(line[line.index("{"):]) for name, line in blocks.items() if line.endswith("}")}
    header = {"Authorization": "Bearer <your token>"}
    assert config["VS Code"] == {"servers": {"tabletop": {"type": "http", "url": url, "headers": header}}}
    assert config["Cursor"] == {"mcpServers": {"tabletop": {"url": url, "headers": header}}}
    desktop = config["Claude Desktop"]["mcpServers"]["tabletop"]
    assert "url" not in desktop and "type" not in desktop, "Claude Desktop's file starts stdio servers only"
    assert desktop == {"command": sys.executable, "args": ["-m", "tabletop", "serve", "--db", str(tmp_path / "g.db")]}
    assert len(banner) <= 8 and all(len(line) < 400 for line in banner)


def test_stdio_in_a_terminal_says_what_it_waits_for_and_is_silent_for_a_client(tmp_path):
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--db", str(tmp_path / "g.db")],
        stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    os.close(slave)
    try:
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        assert ready, "a line on stderr within a minute"
        line = proc.stderr.readline()
        assert "waiting for an MCP client on stdin" in line and line.count("\n") == 1, line
        time.sleep(0.3)
        assert not select.select([proc.stderr], [], [], 0)[0], "one line only"
    finally:
        proc.kill()
        proc.communicate(timeout=30)
        os.close(master)
    piped = subprocess.run(
        [sys.executable, "-m", "tabletop", "serve", "--db", str(tmp_path / "g.db")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert piped.returncode == 0 and piped.stderr == "", piped.stderr


def test_no_command_prints_the_help_naming_test_and_doctor():
    done = subprocess.run([sys.executable, "-m", "tabletop"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    listed = {m.group(1) for m in re.finditer(r"^ {4}(\w+) ", done.stdout, re.M)}
    assert {"serve", "schemas", "test", "doctor"} <= listed, done.stdout
    assert "./tabletop test" in done.stdout
    doctor = subprocess.run([sys.executable, "-m", "tabletop", "doctor"], capture_output=True, text=True, timeout=60)
    assert doctor.returncode == 0 and "Python 3." in doctor.stdout


def test_an_unknown_log_level_is_one_clear_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "serve", "--db", str(tmp_path / "g.db")], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=60, env={**os.environ, "TABLETOP_LOG_LEVEL": "loud"},
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.startswith("tabletop: TABLETOP_LOG_LEVEL='loud' is not a log level")
    assert len(done.stderr.splitlines()) == 1
