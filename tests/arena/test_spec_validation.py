"""Tournament files checked completely when read (issue 37, finding 6): sizes and kinds of numbers, unknown keys,
the games' own options (before the first game), `cmd:` templates that may name only the documented fields, deep or
huge files and files that are not regular files; every problem one line and exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.arena.checks import CMD_FIELDS, expand
from tabletop.arena.players import command_line
from tabletop.arena.server import Endpoint
from tabletop.arena.spec import MAX_DEPTH, MAX_GAMES, PlayerSpec, SpecError, build, load_file, try_first_game

DICE = 'game = "cthulhu-dice"\nplayers = ["bot:optimal", "bot:random"]\n'
#: Where the arena is documented (the README, and the page it points to).
DOCS = [Path(__file__).parents[2] / name for name in ("README.md", "docs/arena.md")]


def spec_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cup.toml"
    path.write_text(text, encoding="utf-8")
    return path


def refused(tmp_path: Path, text: str) -> str:
    """The one-line reason ``text`` (a tournament file) is refused."""
    with pytest.raises(SpecError) as err:
        load_file(spec_file(tmp_path, text))
    message = str(err.value)
    assert "\n" not in message and len(message) < 1000, message
    return message


@pytest.mark.parametrize("games", ["-4", "0", "2.5", "1_000_000_000_000", "true", '"4"', "nan", str(MAX_GAMES + 2)])
def test_games_is_a_whole_number_from_one_to_the_maximum(tmp_path, games):
    assert f"games is a whole number from 1 to {MAX_GAMES:,}" in refused(tmp_path, DICE + f"games = {games}\n")


def test_good_numbers_of_games_pass(tmp_path):
    assert load_file(spec_file(tmp_path, DICE + "games = 2\n")).games == 2
    assert load_file(spec_file(tmp_path, DICE + f"games = {MAX_GAMES}\n")).games == MAX_GAMES
    assert load_file(spec_file(tmp_path, DICE)).games == 2, "the default: one rotation"


@pytest.mark.parametrize(
    "text, key",
    [
        (DICE + 'colour = "red"\n', "'colour'"),
        (DICE + "[limits]\nturn_secs = 5\n", "'limits.turn_secs'"),
        ('game = "cthulhu-dice"\n[[players]]\nspec = "bot:random"\n[[players]]\nspec = "bot:random"\nmodel = "x"\n',
         "'player 2.model'"),
    ],
)
def test_unknown_keys_are_refused_by_name(tmp_path, text, key):
    assert f"unknown key {key}" in refused(tmp_path, text)


@pytest.mark.parametrize(
    "line, says",
    [
        ("parallel = 0", "parallel is a whole number from 1 to 64"),
        ("parallel = 1.5", "parallel is a whole number"),
        ("seats = 9", "seats: cthulhu-dice is for 2-6 players, not 9"),
        ("legal_moves = 1", "legal_moves is true or false"),
        ('name = "bell\\u0007"', "name is one line of text"),
        ("options = 3", "options is a table"),
        ("[limits]\nturn_seconds = -1", "limits.turn_seconds is a number of seconds above 0"),
        ("[limits]\ngame_seconds = nan", "limits.game_seconds is a number of seconds above 0"),
        ("[limits]\ngame_moves = 0", "limits.game_moves is a whole number from 1"),
        ('[limits]\non_limit = "shrug"', "limits.on_limit is"),
    ],
)
def test_every_value_has_its_kind_and_bounds(tmp_path, line, says):
    assert says in refused(tmp_path, DICE + line + "\n")


def test_options_are_read_by_the_game_before_the_first_game(tmp_path):
    assert "goal: Input should be greater than or equal to 1" in refused(tmp_path, DICE + "[options]\ngoal = -1\n")
    assert "options:" in refused(tmp_path, DICE + "[options]\nno_such_option = 1\n")
    assert "chance" in refused(tmp_path, DICE + '[options]\nchance = "table"\n')
    four = build({"game": "cthulhu-wars", "players": ["bot:random"] * 4,
                  "options": {"factions": ["great-cthulhu", "black-goat", "crawling-chaos"]}})
    with pytest.raises(SpecError, match="Choose 4 different factions"):
        try_first_game(four)
    try_first_game(build({"game": "cthulhu-wars", "players": ["bot:random"] * 3}))


@pytest.mark.parametrize(
    "argument",
    ["{nope}", "{url.__class__.__mro__}", "{seat[0]}", "{url!r}", "{token:>99}", "{}", "{0}", "x{", "}{url}"],
)
def test_cmd_templates_may_name_only_the_documented_fields(tmp_path, argument):
    message = refused(tmp_path, f"game = \"cthulhu-dice\"\nplayers = ['bot:random', 'cmd:/bin/echo {argument}']\n")
    assert f"cmd argument {argument!r}" in message


def test_cmd_templates_that_name_the_fields_are_expanded_and_nothing_else(tmp_path):
    spec = load_file(spec_file(tmp_path, "game = \"cthulhu-dice\"\n"
                               "players = ['bot:random', 'cmd:agent --url={url} {game_id} {seat} {token} {{x}} a}b']\n"))
    argv, env = command_line(spec.players[1], Endpoint("http://127.0.0.1:1/mcp", None), "g-1", 1, "t0k")
    assert argv == ["agent", "--url=http://127.0.0.1:1/mcp", "g-1", "1", "t0k", "{x}", "a}b"]
    assert env["TABLETOP_SEAT_TOKEN"] == "t0k"
    bad = PlayerSpec(name="x", spec="cmd:agent {url.__class__}")  # even a spec that skipped the checks
    with pytest.raises(SpecError):
        command_line(bad, Endpoint("http://127.0.0.1:1/mcp", None), "g-1", 1, "t0k")
    assert expand("{seat}", dict.fromkeys(CMD_FIELDS, "7")) == "7"


def test_the_docs_give_the_cmd_fields_and_the_limits():
    text = " ".join(" ".join(path.read_text(encoding="utf-8").split()) for path in DOCS if path.exists())
    assert ", ".join(f"`{{{name}}}`" for name in CMD_FIELDS) + ", and nothing else in braces" in text
    assert f"`games` outside 1–{MAX_GAMES:,}" in text and "`parallel` outside 1–64" in text


@pytest.mark.parametrize("deep", [5_000, MAX_DEPTH + 1])
def test_deep_files_are_refused_in_one_line(tmp_path, deep):
    text = DICE + "[options]\nx = " + "[" * deep + "]" * deep + "\n"
    assert f"more than {MAX_DEPTH} deep" in refused(tmp_path, text)


def test_only_regular_files_of_bounded_size_are_read(tmp_path):
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo.toml")
    (tmp_path / "big.toml").write_text(DICE + "#" * (1 << 20))
    for name, says in (("zero.toml", "not a regular file"), ("fifo.toml", "not a regular file"), ("big.toml", "larger than 1 MiB")):
        with pytest.raises(SpecError, match=says):
            load_file(tmp_path / name)


def arena(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "tabletop", "arena", *args, "--db", str(tmp_path / "games.sqlite3"), "--quiet",
               "--report", str(tmp_path / "reports")]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)


@pytest.mark.parametrize(
    "args, says",
    [
        (["--file", "cup.toml"], "games is a whole number"),
        (["--file", "deep.toml"], f"more than {MAX_DEPTH} deep"),
        (["--file", "zero.toml"], "not a regular file"),
        (["--file", "wars.toml"], "Choose 4 different factions"),
        (["cthulhu-dice", "bot:random", "bot:random", "--games", "0"], "games is a whole number"),
    ],
)
def test_the_arena_stops_before_any_game_with_one_line_and_exit_code_2(tmp_path, args, says):
    spec_file(tmp_path, DICE + "games = -4\n")
    (tmp_path / "deep.toml").write_text(DICE + "x = " + "[" * 5000 + "]" * 5000 + "\n")
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    (tmp_path / "wars.toml").write_text('game = "cthulhu-wars"\nplayers = ["bot:random", "bot:random", "bot:random", '
                                        '"bot:random"]\n[options]\nfactions = ["great-cthulhu", "black-goat", "sleeper"]\n')
    done = arena(tmp_path, *args)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and says in lines[0] and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "games.sqlite3").exists(), "nothing was started"
