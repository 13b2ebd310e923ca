"""The built wheel carries everything: installed into a fresh virtual environment and run from another folder, the
server serves the rules text, both Cthulhu Wars maps and the Cthulhu Dice tables over stdio, and
`tabletop schemas --check` finds every JSON Schema.

The wheel is built here with the project's own build backend (hatchling, in the test extras), so nothing is
fetched; it is installed without its dependencies, which the new environment borrows from this one through a
path file (its own site-packages comes first, so `tabletop` is the wheel's, never the checkout's).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from .helpers import PROJECT, ROOT, clean_env, serves_everything

pytestmark = [pytest.mark.slow, pytest.mark.packaging]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # with the backend at hand nothing is fetched; without it (an older .venv) pip fetches hatchling as usual
    isolation = ["--no-build-isolation"] if importlib.util.find_spec("hatchling") else []
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", *isolation, "--wheel-dir", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (built,) = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment holding the wheel; the folder it is used from is another one."""
    venv = tmp_path_factory.mktemp("installed") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = subprocess.run([str(python), "-c", where], capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


def test_the_wheel_holds_the_rules_text_maps_tables_schemas_and_licence(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    schemas = {p.name for p in (ROOT / "schemas").glob("*.json")}
    assert {f"tabletop/_schemas/{name}" for name in schemas} <= names
    rules = {p.relative_to(ROOT / "rules_text").as_posix() for p in (ROOT / "rules_text").rglob("*") if p.is_file()}
    assert {f"tabletop/_rules_text/{name}" for name in rules} <= names
    assert {f"tabletop/games/cthulhu_wars/maps/data/{name}.json" for name in ("earth", "dreamlands")} <= names
    assert {f"tabletop/games/cthulhu_dice/data/optimal_{n}p_13.npz" for n in (2, 3)} <= names
    assert f"tabletop_mcp-{PROJECT['version']}.dist-info/licenses/LICENSE" in names
    assert not any("__pycache__" in name or name.startswith(("tests/", "benchmarks/")) for name in names)


def test_the_installed_package_is_the_wheel_not_the_checkout(installed, tmp_path):
    done = subprocess.run(
        [str(installed / "bin" / "python"), "-c",
         "import tabletop; from tabletop.rulebook import rules_dir; from tabletop.schemas import schemas_dir; "
         "print(tabletop.__file__); print(rules_dir()); print(schemas_dir())"],
        capture_output=True, text=True, cwd=tmp_path, env=clean_env(tmp_path), timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    package, rules, schemas = (Path(line) for line in done.stdout.split())
    assert installed in package.parents and ROOT not in package.parents
    assert rules == package.parent / "_rules_text" and schemas == package.parent / "_schemas"


def test_schemas_check_outside_the_checkout_finds_every_schema(installed, tmp_path):
    done = subprocess.run(
        [str(installed / "bin" / "tabletop"), "schemas", "--check"],
        capture_output=True, text=True, cwd=tmp_path, env=clean_env(tmp_path), timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "schemas are up to date"


@pytest.mark.anyio
async def test_the_installed_server_serves_rules_maps_and_tables_over_stdio(installed, tmp_path):
    texts = await serves_everything(str(installed / "bin" / "tabletop"), ["serve"], tmp_path, clean_env(tmp_path))
    assert "Exact: 3 players" in texts["advice 3p"] and "Zura" in texts["maps"]
    assert (tmp_path / "games.sqlite3").exists(), "the game database is where TABLETOP_DB says"


def test_the_package_name_is_a_command_too(installed, tmp_path):
    """`uvx tabletop-mcp serve` and `pipx run tabletop-mcp serve` (the registry's `runtimeHint`) need a command named
    like the package."""
    done = subprocess.run(
        [str(installed / "bin" / "tabletop-mcp"), "--version"], capture_output=True, text=True, cwd=tmp_path,
        env=clean_env(tmp_path), timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert PROJECT["version"] in done.stdout
