"""The `tabletop` command as a user runs it: real processes, one clear line on every failure to start."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import stat
import subprocess
import sys

import pytest

from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore


def tabletop(*args: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tabletop", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def one_clear_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("tabletop: ") and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def test_a_busy_port_is_one_line_and_a_non_zero_exit(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        line = one_clear_line(tabletop("serve", "--http", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")))
    finally:
        taken.close()
    assert f"cannot listen on 127.0.0.1:{port}" in line and "--port" in line


@pytest.mark.parametrize("case", ["not sqlite", "unwritable folder", "damaged"])
def test_a_database_that_cannot_be_used_is_one_line_and_a_non_zero_exit(tmp_path, case):
    db = tmp_path / "games.sqlite3"
    if case == "not sqlite":
        db.write_text("these are my notes, not a database\n" * 200)
        expected = "is not a usable SQLite game database"
    elif case == "unwritable folder":
        db = tmp_path / "locked" / "inner" / "games.sqlite3"
        (tmp_path / "locked").mkdir(mode=0o500)
        expected = "folder"
        if os.geteuid() == 0:  # root writes anywhere: use a path no one can create instead
            db = tmp_path / "file-not-folder" / "games.sqlite3"
            (tmp_path / "file-not-folder").write_text("x")
    else:
        store = GameStore(db)
        sessions = GameSessions(store)
        for _ in range(30):
            sessions.create("cthulhu-dice", {}, 2)
        store.close()
        raw = bytearray(db.read_bytes())
        raw[4096 : 4096 + 8] = b"\xff" * 8  # the second page's header: no valid b-tree page starts like this
        db.write_bytes(bytes(raw))
        for extra in ("-wal", "-shm"):
            (tmp_path / f"games.sqlite3{extra}").unlink(missing_ok=True)
        expected = ""
    line = one_clear_line(tabletop("serve", "--db", str(db)))
    assert expected in line and (case != "damaged" or re.search(r"damaged|not a usable", line)), line


def test_another_address_than_loopback_needs_a_token_unless_allowed(tmp_path):
    line = one_clear_line(tabletop("serve", "--http", "--host", "0.0.0.0", "--port", "0", "--db", str(tmp_path / "g.db")))
    assert "without a token" in line and "TABLETOP_TOKEN" in line and "--allow-no-token" in line
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--http", "--host", "0.0.0.0", "--port", "0", "--allow-no-token",
         "--db", str(tmp_path / "g.db")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert "serving streamable HTTP at http://0.0.0.0:" in proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_serve_http_prints_how_to_add_it_to_claude_code_and_vs_code(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(tmp_path / "g.db")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, "TABLETOP_TOKEN": "s3cret"},
    )  # fmt: skip
    try:
        lines = [proc.stdout.readline() for _ in range(6)]
    finally:
        proc.terminate()
        proc.wait()
    url = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", lines[0]).group(1)
    assert f'claude mcp add --transport http tabletop {url} --header "Authorization: Bearer $TABLETOP_TOKEN"' in lines[2]
    assert "s3cret" not in "".join(lines), "the token itself is never printed"
    assert lines[3].startswith("VS Code (.vscode/mcp.json)") and '"servers"' in lines[3]  # more in test_cli_quiet.py


def test_the_database_and_its_new_folders_are_readable_by_their_owner_only(tmp_path):
    db = tmp_path / "new" / "deeper" / "games.sqlite3"
    GameStore(db).close()
    for path in (db, db.parent, db.parent.parent):
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, (path, oct(mode))


def test_backup_copies_a_live_database_consistently(tmp_path):
    db = tmp_path / "live.sqlite3"
    sessions = GameSessions(GameStore(db))  # this process keeps the database open and writing
    live, tokens = sessions.create("cthulhu-dice", {}, ["Ann", "Bob"], seed=4)
    for move in ("roll", "roll"):
        if live.to_move() == [0]:
            sessions.play(live.id, tokens[0], move)
    done = tabletop("backup", str(tmp_path / "copy.sqlite3"), "--db", str(db))
    assert done.returncode == 0, done.stderr
    copy = GameSessions(GameStore(tmp_path / "copy.sqlite3"))
    assert copy.get(live.id).ply == live.ply and copy.store.moves(live.id) == sessions.store.moves(live.id)
    assert stat.S_IMODE((tmp_path / "copy.sqlite3").stat().st_mode) == 0o600
    again = one_clear_line(tabletop("backup", str(tmp_path / "copy.sqlite3"), "--db", str(db)))
    assert "already exists" in again
    raw = sqlite3.connect(tmp_path / "copy.sqlite3")
    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_version_and_help_run():
    assert tabletop("--version").stdout.strip()
    assert "backup" in tabletop("--help").stdout


def test_a_postgresql_database_is_chosen_by_url_or_environment_and_shown_without_its_password(postgres_url):
    with_password = postgres_url.replace("postgres@", "postgres:pw-not-shown@")  # trust authentication ignores it
    for args, env in (
        (["--db", with_password], {}),
        ([], {"TABLETOP_DB": with_password}),
    ):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, **env},
        )  # fmt: skip
        try:
            lines = [proc.stdout.readline() for _ in range(2)]
        finally:
            proc.terminate()
            proc.wait()
        assert lines[1].strip() == f"Games are stored in {postgres_url.replace('postgres@', 'postgres:***@')}", lines
        assert "pw-not-shown" not in "".join(lines)


def test_a_postgresql_database_that_cannot_be_used_is_one_line_and_a_non_zero_exit(postgres_cluster):
    missing = postgres_cluster.url("no_such_db").replace("postgres@", "postgres:pw-not-shown@")
    line = one_clear_line(tabletop("serve", "--db", missing))
    assert "no_such_db" in line and "does not exist" in line and "pw-not-shown" not in line
    line = one_clear_line(tabletop("backup", "copy.sqlite3", "--db", postgres_cluster.create_database()))
    assert "pg_dump" in line


def test_serve_freezes_what_it_has_loaded_once_the_server_is_built(tmp_path, monkeypatch):
    """`tabletop serve` builds the server, then freezes the objects alive (server/tabletop/core/heap.py), so that later
    full garbage collections walk only what games and sessions made since; the collector then tracks a small part
    of what it did. Driven through the real command with the stdio loop itself replaced (it would wait on stdin)."""
    import gc

    from tabletop import cli

    seen: dict[str, int] = {}

    def stdio_loop(mcp) -> None:
        seen["tracked"] = len(gc.get_objects())
        seen["frozen"] = gc.get_freeze_count()

    monkeypatch.setattr(cli, "serve_stdio", stdio_loop)
    try:
        cli.main(["serve", "--db", str(tmp_path / "games.db")])
    finally:
        gc.unfreeze()  # the rest of the test session collects as before
    # what was alive is frozen (the garbage among it was collected first, so not all that was tracked before)
    assert seen["frozen"] > 50_000
    assert seen["tracked"] < seen["frozen"] / 10
