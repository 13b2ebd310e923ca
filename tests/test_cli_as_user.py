"""`tabletop schemas`, `tabletop solve` and `serve`'s argument errors, as a user runs them.

Each command runs twice: as a real process (``python -m tabletop ...``, what ``./tabletop``
executes) for what the user sees, and in-process through ``cli.main([...])`` so coverage sees
the same code.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.games.cthulhu_dice.model import DiceRules, GameRules
from tabletop.games.cthulhu_dice.solver import load_table, solve

ROOT = Path(__file__).resolve().parents[1]


def tabletop(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tabletop", *args], capture_output=True, text=True, timeout=300, cwd=cwd, env=dict(os.environ)
    )


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    """``tabletop ARGS`` in this process: (exit code, stdout, stderr)."""
    try:
        main(list(args))
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    out = capsys.readouterr()
    return code, out.out, out.err


def test_schemas_check_passes_on_the_shipped_folder(capsys):
    done = tabletop("schemas", "--check")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "schemas are up to date"
    assert run_main(capsys, "schemas", "--check", "--out", str(ROOT / "schemas"))[:2] == (0, "schemas are up to date\n")


def test_schemas_check_names_a_stale_file_and_fails_then_schemas_rewrites_it(tmp_path, capsys):
    folder = tmp_path / "schemas"
    shutil.copytree(ROOT / "schemas", folder)
    victim = sorted(folder.glob("*.json"))[0]
    victim.write_text(victim.read_text() + " ")
    (folder / "gone.json").write_text("{}")
    done = tabletop("schemas", "--check", "--out", str(folder))
    assert done.returncode == 1
    assert victim.name in done.stdout and "gone.json" in done.stdout and "run `tabletop schemas`" in done.stdout
    code, out, _ = run_main(capsys, "schemas", "--check", "--out", str(folder))
    assert code == 1 and victim.name in out

    code, out, _ = run_main(capsys, "schemas", "--out", str(folder))
    assert code == 0 and re.fullmatch(r"wrote \d+ schema files to .*\n", out)
    assert victim.read_text() == (ROOT / "schemas" / victim.name).read_text()
    assert not (folder / "gone.json").exists(), "a file no tool wants any more is removed"
    assert tabletop("schemas", "--check", "--out", str(folder)).returncode == 0


def probabilities(text: str) -> list[float]:
    line = next(line for line in text.splitlines() if line.startswith("win probability"))
    return [float(x) for x in line.split(":")[1].split(",")]


def test_solve_a_tiny_bag_writes_a_table_and_prints_the_odds(tmp_path, capsys):
    table = tmp_path / "tiny.npz"
    done = tabletop("solve", "cthulhu-dice", "--bag", "6,0,0", "--goal", "2", "--output", str(table), "--quiet")
    assert done.returncode == 0, done.stderr
    assert "goal 2, bag 6/0/0" in done.stdout and f"table written to {table}" in done.stdout
    odds = probabilities(done.stdout)
    assert len(odds) == 2 and sum(odds) == pytest.approx(1, abs=1e-6)
    expected = solve(GameRules(dice=DiceRules(counts=(6, 0, 0)), goal=2, cap=4), 2).value((0, (0, 0)))
    assert odds == pytest.approx(list(expected), abs=1e-6), "the command solved the game it was asked"
    assert list(load_table(table).value((0, (0, 0)))) == pytest.approx(odds, abs=1e-6)

    again = tmp_path / "again.npz"
    code, out, _ = run_main(capsys, "solve", "cthulhu-dice", "--bag", "6,0,0", "--goal", "2", "--output", str(again), "--quiet")
    assert code == 0 and probabilities(out) == odds and again.exists()


def test_solve_refuses_a_variant_without_an_output_and_touches_nothing(capsys):
    done = tabletop("solve", "cthulhu-dice", "--goal", "3")
    assert done.returncode == 2 and "give --output for a variant" in done.stderr and not done.stdout
    code, _, err = run_main(capsys, "solve", "cthulhu-dice", "--bag", "6,0,0")
    assert code == 2 and "give --output" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--port", "x"], "argument --port: invalid int value: 'x'"),
        (["serve", "--sync", "sometimes"], "argument --sync: invalid choice: 'sometimes'"),
        (["serve", "--colour"], "unrecognized arguments: --colour"),
        (["solve", "go"], "argument game: invalid choice: 'go'"),
        (["serve", "--log-level", "loud"], "argument --log-level: invalid choice: 'loud'"),
    ],
)
def test_argument_errors_exit_2_with_the_reason(args, message, capsys):
    done = tabletop(*args)
    assert done.returncode == 2 and message in done.stderr and not done.stdout
    code, out, err = run_main(capsys, *args)
    assert code == 2 and message in err and not out


def test_serve_refuses_an_open_address_without_a_token_before_listening(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("TABLETOP_TOKEN", raising=False)
    args = ["serve", "--http", "--host", "0.0.0.0", "--port", "0", "--db", str(tmp_path / "g.sqlite3")]
    code, out, err = run_main(capsys, *args)
    assert code == 2 and err.startswith("tabletop: ") and "token" in err and not out
    assert not (tmp_path / "g.sqlite3").exists(), "nothing is created"
