"""The ./tabletop bootstrap picks a Python new enough, says so in one line when it cannot, and rebuilds a
.venv made by an interpreter that is too old (a first run with macOS's Python 3.9 no longer leaves a
.venv that stays broken).

An old interpreter is a real one where this machine has it (pyenv's 3.9/3.10), else a stand-in
script that answers the bootstrap's two questions (its version, whether it is 3.11+) as Python 3.9
would; the good interpreter is the one running these tests.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BOOTSTRAP = Path(__file__).resolve().parents[1] / "tabletop"

STAND_IN = """#!/bin/sh
# answers like Python 3.9: the version check fails, the version is 3.9
case "$2" in *"(3, 11)"*) exit 1 ;; *) echo 3.9 ;; esac
"""


def old_python(folder: Path) -> str:
    real = sorted(glob.glob("/root/.pyenv/versions/3.9*/bin/python3.9") + glob.glob("/usr/bin/python3.9"))
    if real:
        return real[0]
    path = folder / "python3.9"
    path.write_text(STAND_IN)
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def checkout(tmp_path):
    """A folder holding only the bootstrap script, and a bin folder to build PATH from."""
    shutil.copy(BOOTSTRAP, tmp_path / "tabletop")
    (tmp_path / "bin").mkdir()
    return tmp_path


def run(checkout: Path, *args: str, python: str | None, path_pythons: dict[str, str]) -> subprocess.CompletedProcess:
    for name, target in path_pythons.items():
        (checkout / "bin" / name).symlink_to(target)
    env = {"PATH": f"{checkout / 'bin'}:/usr/bin:/bin", "HOME": str(checkout)}
    if python:
        env["PYTHON"] = python
    # /usr/bin may hold a python3 of its own: hide it behind ours when the test wants none
    return subprocess.run(["bash", str(checkout / "tabletop"), *args], env=env, capture_output=True, text=True, timeout=60)


def test_with_only_an_old_python_it_says_so_in_one_line_and_stops(checkout):
    old = old_python(checkout)
    done = run(checkout, "doctor", python=old, path_pythons={"python3": old, "python3.13": old, "python3.12": old, "python3.11": old})
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines[-1].startswith("tabletop: Python 3.11 or newer is needed") and "Traceback" not in done.stderr
    assert not (checkout / ".venv").exists()


def test_a_too_old_python_given_falls_back_to_a_good_one_by_name(checkout):
    old = old_python(checkout)
    done = run(checkout, "doctor", python=old, path_pythons={"python3": old, "python3.11": sys.executable})
    assert done.returncode == 0, done.stderr
    assert "3.11 or newer is needed, trying python3.13, python3.12, python3.11" in done.stderr
    assert "using python3.11" in done.stdout


def test_a_venv_made_by_a_too_old_python_is_rebuilt(checkout):
    old = old_python(checkout)
    venv_bin = checkout / ".venv" / "bin"
    if old.endswith("python3.9") and Path(old).parent.name == "bin" and "pyenv" in old:
        subprocess.run([old, "-m", "venv", "--without-pip", str(checkout / ".venv")], check=True)
    else:
        venv_bin.mkdir(parents=True)
        os.symlink(old, venv_bin / "python")
    done = run(checkout, "doctor", python=sys.executable, path_pythons={})
    assert done.returncode == 0, done.stderr
    assert ".venv was made by Python 3.9; rebuilding it" in done.stderr
    assert not (checkout / ".venv").exists(), "the broken .venv is gone; the next command builds a good one"


# --- installing: uv when it is on PATH, what the server needs first, the test extras with the first `test` ------

UV_STAND_IN = """#!{python}
# records its arguments; `uv venv` makes a real (empty) virtual environment whose `tabletop` only says it ran
import os, subprocess, sys
from pathlib import Path

with open(os.environ["UV_LOG"], "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
if sys.argv[1] == "venv":
    target = Path(sys.argv[-1])
    subprocess.run([sys.argv[sys.argv.index("--python") + 1], "-m", "venv", "--without-pip", str(target)], check=True)
    (target / "bin" / "tabletop").write_text('#!/bin/sh\\necho served "$@"\\n')
    (target / "bin" / "tabletop").chmod(0o755)
"""


def test_with_uv_on_path_it_installs_with_uv_and_only_what_the_server_needs_until_the_first_test(checkout):
    uv = checkout / "bin" / "uv"
    uv.write_text(UV_STAND_IN.format(python=sys.executable))
    uv.chmod(0o755)
    (checkout / "bin" / "python3").symlink_to(sys.executable)
    log = checkout / "uv.log"
    env = {"PATH": f"{checkout / 'bin'}:/usr/bin:/bin", "HOME": str(checkout), "UV_LOG": str(log)}

    def tabletop(*args: str) -> subprocess.CompletedProcess:
        command = ["bash", str(checkout / "tabletop"), *args]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)

    served = tabletop("serve", "--db", "x.sqlite3")
    assert served.returncode == 0, served.stderr
    assert served.stdout == "served serve --db x.sqlite3\n"
    venv = checkout / ".venv"
    assert log.read_text().splitlines() == [
        f"venv --quiet --seed --python python3 {venv}",
        f"pip install --quiet --python {venv / 'bin' / 'python'} -e {checkout}",
    ]
    assert (venv / ".installed").exists() and not (venv / ".installed-test").exists()

    assert tabletop("serve").returncode == 0 and len(log.read_text().splitlines()) == 2, "installed once"

    tabletop("test", "--version")  # pytest is not in the stand-in environment: only the install is looked at
    python = venv / "bin" / "python"
    assert log.read_text().splitlines()[2:] == [f"pip install --quiet --python {python} -e {checkout}[test]"]
    assert (venv / ".installed-test").exists()
