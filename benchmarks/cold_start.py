"""Seconds from a cold first launch to the first MCP answer, as a desktop client sees it.

Each way of launching starts in a fresh temporary folder, a real MCP client (the official SDK over stdio)
launches the server, and the script prints how long the client waited for initialize and then tools/list:

- ``bootstrap``: a copy of this checkout without ``.venv`` (what a fresh clone is), launched as
  ``./tabletop serve``; the bootstrap script creates the virtual environment and installs first. Three
  times: with no uv on PATH (the bootstrap has pip fetch uv, and uv installs), with ``uv`` on PATH, and
  with ``TABLETOP_INSTALLER=pip`` (pip alone, as the bootstrap did before issue 35).
- ``uvx``: ``uvx --from <copy of the checkout> tabletop serve`` with an empty uv cache (``UV_CACHE_DIR``
  in the temporary folder): uv builds the project and installs its dependencies before the first answer.

Caches start empty (pip's, uv's) unless ``--warm`` is given, so the figures are those of a new user's first
launch; downloads come from the package index this machine's pip and uv are set up with. uv is taken from
PATH, else installed with pip into a scratch virtual environment (from PyPI). Target (issue 35): the
bootstrap's cold first launch answers within 30 s (the TypeScript SDK gives up on a request after 60 s).

    .venv/bin/python benchmarks/cold_start.py [--only bootstrap|bootstrap-default|bootstrap-uv|bootstrap-pip|uvx]
                                              [--warm]

Measured 2026-11-27 on this project's two-core machine (busy with other work), empty caches, seconds to tools/list
answered: before issue 35 (pip installing the project and its test extras) 52.5; after, in two runs, no uv on PATH
21.6 and 15.2, uv on PATH 12.4 and 7.4, pip alone (only what the server needs) 44.0, uvx 12.5 and 13.5.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]
WAYS = ("bootstrap-default", "bootstrap-uv", "bootstrap-pip", "uvx")
# what a fresh clone does not have: the virtual environment, caches, test output, local databases
NOT_IN_A_CLONE = shutil.ignore_patterns(
    ".venv", ".git", "__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", ".ruff_cache", "tests", "*.sqlite3*",
    "arena-reports", "build", "dist", "*.egg-info", ".coverage*", "node_modules", "*.mcpb",
)


def copy_checkout(target: Path) -> Path:
    """The working tree as a fresh clone has it (tests/ left out: it is not needed to serve)."""
    shutil.copytree(ROOT, target, ignore=NOT_IN_A_CLONE, symlinks=True)
    return target


def find_uv(scratch: Path) -> Path | None:
    """uv from PATH, else from PyPI into a scratch virtual environment; None when it cannot be had."""
    found = shutil.which("uv")
    if found:
        return Path(found)
    venv = scratch / "uv-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "uv"]
    done = subprocess.run(pip, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"uv could not be installed from the package index:\n{done.stderr.strip()[-400:]}", file=sys.stderr)
        return None
    return venv / "bin" / "uv"


async def first_answer(command: str, args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """(seconds to initialize, seconds to tools/list answered, number of tools), counted from the launch."""
    params = StdioServerParameters(command=command, args=args, env=env, cwd=str(cwd))
    started = time.perf_counter()
    async with Client(params, read_timeout_seconds=900) as client:
        initialized = time.perf_counter() - started
        tools = await client.list_tools()
        listed = time.perf_counter() - started
    return initialized, listed, len(tools.tools)


def measure(name: str, command: str, args: list[str], env: dict[str, str], cwd: Path) -> float:
    initialized, listed, tools = anyio.run(first_answer, command, args, env, cwd)
    print(f"{name:<34} initialize {initialized:6.1f} s   tools/list ({tools} tools) {listed:6.1f} s", flush=True)
    return listed


def environment(scratch: Path, warm: bool, path_extra: Path | None = None, hide_uv: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TABLETOP_INSTALLER", None)
    env["TABLETOP_DB"] = str(scratch / "games.sqlite3")
    if not warm:
        env["PIP_CACHE_DIR"] = str(scratch / "pip-cache")
        env["UV_CACHE_DIR"] = str(scratch / "uv-cache")
    path = env.get("PATH", "")
    if hide_uv:
        # a PATH without any folder holding uv (the bootstrap then installs with pip)
        path = os.pathsep.join(p for p in path.split(os.pathsep) if not (Path(p) / "uv").exists())
    if path_extra:
        path = f"{path_extra}{os.pathsep}{path}"
    env["PATH"] = path
    return env


def uv_only_bin(scratch: Path, uv: Path) -> Path:
    """A folder holding only uv and uvx (links), to put first on PATH."""
    folder = scratch / "uv-bin"
    folder.mkdir(exist_ok=True)
    for tool in ("uv", "uvx"):
        (folder / tool).symlink_to(uv.with_name(tool))
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["bootstrap", *WAYS])
    parser.add_argument("--warm", action="store_true", help="keep pip's and uv's usual caches (a second install)")
    args = parser.parse_args()
    wanted = {args.only} if args.only else set(WAYS)
    if "bootstrap" in wanted:
        wanted = {way for way in WAYS if way.startswith("bootstrap")}
    print(f"cold first launch to the first MCP answer ({'warm' if args.warm else 'empty'} package caches, "
          f"{os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory(prefix="tabletop-cold-") as tmp:
        tools = Path(tmp) / "tools"
        tools.mkdir()
        uv = find_uv(tools) if wanted & {"bootstrap-uv", "uvx"} else None
        for way in WAYS:
            if way not in wanted:
                continue
            if way in ("bootstrap-uv", "uvx") and uv is None:
                print(f"{way:<34} skipped: no uv")
                continue
            scratch = Path(tmp) / way
            scratch.mkdir()
            checkout = copy_checkout(scratch / "tabletop-mcp")
            if way == "bootstrap-default":
                env = environment(scratch, args.warm, hide_uv=True)
                measure("./tabletop serve (no uv on PATH)", str(checkout / "tabletop"), ["serve"], env, scratch)
            elif way == "bootstrap-pip":
                env = environment(scratch, args.warm, hide_uv=True) | {"TABLETOP_INSTALLER": "pip"}
                measure("./tabletop serve (pip only)", str(checkout / "tabletop"), ["serve"], env, scratch)
            elif way == "bootstrap-uv":
                env = environment(scratch, args.warm, path_extra=uv_only_bin(scratch, uv))
                measure("./tabletop serve (uv on PATH)", str(checkout / "tabletop"), ["serve"], env, scratch)
            else:
                env = environment(scratch, args.warm)
                measure("uvx --from <checkout> tabletop serve", str(uv.with_name("uvx")),
                        ["--from", str(checkout), "tabletop", "serve"], env, scratch)


if __name__ == "__main__":
    main()
