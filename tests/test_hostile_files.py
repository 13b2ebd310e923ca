"""Hostile Cthulhu Wars map files (issue 37, finding 5): `tabletop maps check FILE` and `tabletop serve --maps DIR`
refuse each in one line with exit code 2 and no traceback, and never read a file that is not a regular one (a link
to /dev/zero, a FIFO) nor more than the size limit. The id-length rule is the same for both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from tabletop import cli
from tabletop.core.datafile import MAX_DIGITS
from tabletop.games.cthulhu_wars.maps import use_maps_folder
from tabletop.games.cthulhu_wars.maps.check import MAX_DEPTH, MAX_FILE_BYTES
from tabletop.games.cthulhu_wars.maps.model import MAX_ID

DATA = files("tabletop.games.cthulhu_wars.maps").joinpath("data")


def moon(**changes) -> dict:
    """A good map of its own (Earth's 3-player side as map 'moon'), with ``changes`` at its top level."""
    data = json.loads(DATA.joinpath("earth.json").read_text(encoding="utf-8"))
    data["map"], data["title"] = "moon", "Moon"
    data["boards"][0]["sides"] = [data["boards"][0]["sides"][0]]
    data["layouts"] = [dict(data["layouts"][0], name="moon_3p", title="Moon, 3 players")]
    return {**data, **changes}


def hostile_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """name -> (a hostile map file, words its one-line problem must hold)."""
    folder.mkdir()
    made = {
        "deep array": ("[" * 200_000 + "]" * 200_000, f"more than {MAX_DEPTH} deep"),
        "deep object": ('{"a":' * 100_000 + "1" + "}" * 100_000, f"more than {MAX_DEPTH} deep"),
        "long number": ('{"format": ' + "9" * 100_000 + "}", f"at most {MAX_DIGITS}"),
        "too large": (json.dumps(moon(title="x" * 50, filler=" " * MAX_FILE_BYTES)), "larger than 1 MiB"),
        "long id": (json.dumps(moon(map="a" * 10_000)), f"at most {MAX_ID} characters"),
        "NaN": (json.dumps(moon()).replace('"format": 1', '"format": NaN'), "NaN is not a JSON number"),
        "huge number": ('{"format": 1e400}', "the number 1e400 is too large"),
    }
    found = {}
    for name, (text, says) in made.items():
        path = folder / (name.replace(" ", "-") + ".json")
        path.write_text(text, encoding="utf-8")
        found[name] = (path, says)
    (folder / "zero.json").symlink_to("/dev/zero")
    os.mkfifo(folder / "fifo.json")
    found["link to /dev/zero"] = (folder / "zero.json", "not a regular file (a character device)")
    found["FIFO"] = (folder / "fifo.json", "not a regular file (a FIFO)")
    return found


def tabletop(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tabletop", *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def restore_maps():
    yield
    use_maps_folder(None)


def test_maps_check_refuses_every_hostile_file_in_one_line_each_without_reading_forever(tmp_path):
    hostile = hostile_files(tmp_path / "maps")
    done = tabletop("maps", "check", *(str(path) for path, _ in hostile.values()))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.stderr.strip() == f"tabletop: {len(hostile)} of {len(hostile)} map files have problems"
    for name, (path, says) in hostile.items():
        report = done.stdout.split(f"{path}: ", 1)[1].split("\n")
        assert report[0] == "1 problem" and says in report[1], (name, report[:2])
        assert len(report[1]) < 300, (name, "one short line")


@pytest.mark.parametrize("name", ["deep array", "deep object", "long number", "too large", "long id", "NaN", "huge number"])
def test_serve_refuses_a_maps_folder_holding_a_hostile_file_in_one_line(tmp_path, restore_maps, capsys, name):
    path, says = hostile_files(tmp_path / "all")[name]
    folder = tmp_path / "maps"
    folder.mkdir()
    path.rename(folder / path.name)
    with pytest.raises(SystemExit) as stop:
        cli.main(["serve", "--maps", str(folder)])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and err.startswith("tabletop: map file"), err[:500]
    assert says in err and len(err) < 600


@pytest.mark.parametrize("name", ["link to /dev/zero", "FIFO"])
def test_serve_never_reads_a_map_that_is_not_a_regular_file(tmp_path, name):
    path, says = hostile_files(tmp_path / "maps")[name]
    for other in (tmp_path / "maps").iterdir():
        if other != path:
            other.unlink()
    done = tabletop("serve", "--maps", str(tmp_path / "maps"), "--db", str(tmp_path / "games.sqlite3"))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and says in lines[0], done.stderr[-2000:]


def test_the_id_length_rule_is_the_same_for_check_and_serve(tmp_path, restore_maps, capsys):
    """A map id at the limit passes both `maps check` and a server's maps folder; one character more fails both."""
    for length in (MAX_ID, MAX_ID + 1):
        folder = tmp_path / str(length)
        folder.mkdir()
        (folder / "moon.json").write_text(json.dumps(moon(map="m" * length)))
    good, bad = (str(tmp_path / str(n)) for n in (MAX_ID, MAX_ID + 1))
    cli.main(["maps", "check", f"{good}/moon.json"])
    assert f"ok: map {'m' * MAX_ID} " in capsys.readouterr().out
    assert [m.id for m in use_maps_folder(good)] == ["m" * MAX_ID]
    for command in (["maps", "check", f"{bad}/moon.json"], ["serve", "--maps", bad]):
        with pytest.raises(SystemExit) as stop:
            cli.main(command)
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and f"map: String should have at most {MAX_ID} characters" in out + err, command


def test_the_limits_are_the_ones_the_rules_text_gives():
    text = " ".join(Path(__file__).parents[1].joinpath("rules_text/cthulhu-wars/62-map-files.md").read_text().split())
    assert MAX_FILE_BYTES == 1 << 20 and "at most 1 MiB" in text
    assert f"nested at most {MAX_DEPTH} deep" in text and f"integers of at most {MAX_DIGITS} digits" in text
    assert f"is at most {MAX_ID} characters" in text
