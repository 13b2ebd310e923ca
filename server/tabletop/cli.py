"""The ``tabletop`` command: serve the MCP server, regenerate the JSON Schemas."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from . import __version__

TOKEN_ENV = "TABLETOP_TOKEN"


def build(db: str | None, synchronous: str = "NORMAL"):
    """The MCP server over the game store at ``db`` (the default path when None)."""
    from .app.server import build_server
    from .sessions.manager import GameSessions
    from .sessions.store import GameStore, default_db_path

    store = GameStore(db or default_db_path(), synchronous=synchronous.upper())
    return build_server(GameSessions(store)), store


def serve(args: argparse.Namespace) -> None:
    mcp, store = build(args.db, args.sync)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if not args.http:
        mcp.run()
        return
    import anyio
    import uvicorn

    from .app.http import MCP_PATH, http_app

    token = args.token or os.environ.get(TOKEN_ENV)
    app = http_app(mcp, args.host, token)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)

    async def run() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.serve)
            while not server.started:
                await anyio.sleep(0.02)
            port = server.servers[0].sockets[0].getsockname()[1]
            announce(f"http://{args.host}:{port}{MCP_PATH}", token, store.path)

    anyio.run(run)


def announce(url: str, token: str | None, db: Path) -> None:
    """Print where the server listens and a client configuration block to paste."""
    entry: dict = {"type": "http", "url": url}
    if token:
        entry["headers"] = {"Authorization": "Bearer <your token>"}
    print(f"Tabletop MCP {__version__} serving streamable HTTP at {url}", flush=True)
    print(f"Games are stored in {db}", flush=True)
    print("Client configuration:", flush=True)
    print(json.dumps({"mcpServers": {"tabletop": entry}}, indent=2), flush=True)


def schemas(args: argparse.Namespace) -> None:
    from .schemas import check_schemas, write_schemas

    if args.check:
        stale = check_schemas(Path(args.out))
        if stale:
            print("Stale or missing schemas (run `tabletop schemas`):\n  " + "\n  ".join(stale))
            raise SystemExit(1)
        print("schemas are up to date")
        return
    written = write_schemas(Path(args.out))
    print(f"wrote {len(written)} schema files to {args.out}")


def solve(args: argparse.Namespace) -> None:
    """Solve a game exactly; today Cthulhu Dice (two or three players), writing the advisor's table."""
    from .games.cthulhu_dice.solver import main as solve_cthulhu_dice

    raise SystemExit(solve_cthulhu_dice(args.solver_args))


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="tabletop", description="Tabletop MCP: board games for AI assistants.")
    top.add_argument("--version", action="version", version=__version__)
    commands = top.add_subparsers(dest="command", required=True)

    run = commands.add_parser("serve", help="run the MCP server (stdio by default)")
    run.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    run.add_argument("--host", default="127.0.0.1", help="HTTP address to bind (default 127.0.0.1, this machine only)")
    run.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000; 0 picks a free one)")
    run.add_argument("--token", help=f"require this bearer token from HTTP clients (or set ${TOKEN_ENV})")
    run.add_argument("--db", help="SQLite file for games (default: $TABLETOP_DB or ~/.local/share/tabletop-mcp/games.sqlite3)")
    run.add_argument(
        "--sync", choices=["normal", "full"], default="normal",
        help="SQLite synchronous mode: normal survives a killed server, full also survives power loss",
    )
    run.set_defaults(func=serve)

    exact = commands.add_parser(
        "solve", help="compute exact optimal play (writes the advisor's table; e.g. solve cthulhu-dice --players 3)"
    )
    exact.add_argument("game", choices=["cthulhu-dice"])
    exact.add_argument("solver_args", nargs=argparse.REMAINDER, help="options of the solver (see --help after the game)")
    exact.set_defaults(func=solve)

    gen = commands.add_parser("schemas", help="write every tool's input and output JSON Schema")
    gen.add_argument("--out", default="schemas", help="folder to write to (default: schemas)")
    gen.add_argument("--check", action="store_true", help="only check that the folder is up to date")
    gen.set_defaults(func=schemas)
    return top


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
