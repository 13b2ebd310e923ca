"""The ``tabletop`` command: serve the MCP server, back up its games, solve, check map files, regenerate the JSON
Schemas.

A command that cannot start (a busy port, a database that cannot be opened) says why in one line on
stderr and exits with status 2; nothing prints a traceback at a user.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import logging
import os
import socket
import sys
from pathlib import Path

from . import __version__
from .commands import CommandError, open_store
from .core.heap import freeze_startup_heap
from .core.text import clip

TOKEN_ENV = "TABLETOP_TOKEN"
VIEW_TOKEN_ENV = "TABLETOP_VIEW_TOKEN"
PUBLIC_URL_ENV = "TABLETOP_PUBLIC_URL"
MAPS_ENV = "TABLETOP_MAPS"
LOG_LEVEL_ENV = "TABLETOP_LOG_LEVEL"
LOG_LEVELS = ("debug", "info", "warning", "error")
#: One plain line per record (the SDK would install a rich handler that boxes and wraps every record).
LOG_FORMAT = "tabletop %(levelname)s %(name)s: %(message)s"


def build(db: str | None, synchronous: str = "NORMAL", json_content: bool = False, output_schemas: bool = False):
    """The MCP server over the game store ``db`` names (the default when None)."""
    from .app.server import build_server
    from .sessions.manager import GameSessions

    store = open_store(db, synchronous)
    return build_server(GameSessions(store), json_content=json_content, output_schemas=output_schemas), store


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, or a CommandError saying why not (a busy port, an unknown host)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as err:
        reason = err.strerror or str(err)
        hint = "; another program (or another tabletop server) uses it: pick another with --port" if err.errno == 98 else ""
        raise CommandError(f"cannot listen on {host}:{port}: {reason}{hint}") from None
    return sock


def serve(args: argparse.Namespace) -> None:
    token = args.token or os.environ.get(TOKEN_ENV)
    if args.http and not token and not is_loopback(args.host) and not args.allow_no_token:
        raise CommandError(
            f"refusing to serve {args.host} without a token: anyone who can reach it could create and play games. "
            f"Set {TOKEN_ENV}, or pass --allow-no-token if the network is yours alone"
        )
    use_maps(args.maps or os.environ.get(MAPS_ENV))
    sock = listening_socket(args.host, args.port) if args.http else None
    level = log_level(args.log_level)
    mcp, store = build(args.db, args.sync, args.json_content, args.output_schemas)
    plain_logs(level)
    freeze_startup_heap()  # what is loaded by now lives as long as the process: no full collection walks it again
    try:
        if args.http:
            serve_http(args, mcp, store, sock, token)
        else:
            serve_stdio(mcp)
    finally:
        store.close()


def log_level(given: str | None) -> str:
    """The log level: --log-level, else $TABLETOP_LOG_LEVEL, else info (a CommandError for an unknown one)."""
    level = (given or os.environ.get(LOG_LEVEL_ENV) or "info").strip().lower()
    if level not in LOG_LEVELS:
        raise CommandError(f"{LOG_LEVEL_ENV}={clip(level, 40)!r} is not a log level; use one of {', '.join(LOG_LEVELS)}")
    return level


def plain_logs(level: str) -> None:
    """Log to stderr at ``level``, one plain line per record, replacing the handler the SDK installed.

    At info that is a line when an HTTP session starts or ends and nothing per request; refusals (illegal
    moves, bad arguments, unknown games) are logged at debug.
    """
    logging.basicConfig(level=level.upper(), stream=sys.stderr, format=LOG_FORMAT, force=True)


def serve_stdio(mcp) -> None:
    """The MCP server over stdio, beside the driver of the games' bot seats, until the client closes stdin.

    Started by hand in a terminal, it says on stderr what it waits for (a client speaks on stdin, not a person).
    """
    import anyio

    if sys.stdin.isatty():
        print("tabletop: serving MCP over stdio: waiting for an MCP client on stdin (Ctrl-D stops; "
              "`tabletop serve --http` serves HTTP)", file=sys.stderr, flush=True)

    async def run() -> None:
        async with anyio.create_task_group() as tg:
            await tg.start(mcp.driver.run)
            await tg.start(mcp.updates.run)
            await mcp.run_stdio_async()
            tg.cancel_scope.cancel()

    anyio.run(run)


def serve_http(args: argparse.Namespace, mcp, store, sock: socket.socket, token: str | None) -> None:
    import anyio
    import uvicorn

    from .app.header_deadline import header_deadline_protocol
    from .app.http import MCP_PATH, http_app
    from .play import PLAY_PATH
    from .watch import WATCH_PATH

    # On a shared (PostgreSQL) store the server is one of a fleet: no MCP session may live in one process,
    # so that a load balancer can send each request to any of them.
    view_token = args.view_token or os.environ.get(VIEW_TOKEN_ENV)
    host = f"[{args.host}]" if ":" in args.host else args.host
    public = (args.public_url or os.environ.get(PUBLIC_URL_ENV) or f"http://{host}:{sock.getsockname()[1]}").rstrip("/")
    if not public.startswith(("http://", "https://")):
        raise CommandError(f"--public-url is where people reach this server, starting with https:// or http://, not {public[:60]!r}")
    app = http_app(mcp, args.host, token, stateless=store.remote, view_token=view_token, public_url=public)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", http=header_deadline_protocol()))

    async def run() -> None:
        async with anyio.create_task_group() as tg:
            await tg.start(mcp.driver.run)
            await tg.start(mcp.updates.run)
            tg.start_soon(server.serve, [sock])
            while not server.started:
                await anyio.sleep(0.02)
            port = sock.getsockname()[1]
            announce(f"http://{host}:{port}{MCP_PATH}", token, store.location, stdio_command(args.db))
            key = " (open it once with ?key=<your token or viewing token>)" if token or view_token else ""
            print(f"Watch the games at {public}{WATCH_PATH}/{key}", flush=True)
            print(f"People play their seats at {public}{PLAY_PATH}/<game>/<seat> (new_game gives each person's link)",
                  flush=True)

    anyio.run(run)


def use_maps(folder: str | None) -> None:
    """Offer the Cthulhu Wars maps in ``folder`` beside the built-in ones (a line on stderr says which)."""
    if not folder:
        return
    from .games.cthulhu_wars.maps import MapFolderError, use_maps_folder

    try:
        added = use_maps_folder(folder)
    except MapFolderError as err:
        raise CommandError(str(err)) from None
    names = ", ".join(f"{m.id} ({', '.join(m.layouts)})" for m in added) or "none"
    print(f"tabletop: Cthulhu Wars maps from {folder}: {names}", file=sys.stderr)


def maps(args: argparse.Namespace) -> None:
    """``maps check FILE...``: every problem of each Cthulhu Wars map file, or what it offers."""
    from .games.cthulhu_wars.maps.check import read_map_file
    from .games.cthulhu_wars.maps.fileformat import provisional_items

    bad = 0
    for name in args.files:
        path = Path(name)
        mapfile, problems = read_map_file(path)
        if problems:
            bad += 1
            print(f"{path}: {len(problems)} problem{'s' if len(problems) > 1 else ''}")
            for problem in problems:
                print(f"  - {problem}")
            continue
        def described(e) -> str:
            own = ""
            if e.provenance is not None and e.provenance.status == "provisional":
                own = f", provisional: {len(provisional_items(mapfile, e.sides, e.provenance))} facts unconfirmed"
            return f"{e.name} ({e.players} players{'' if e.recommended else ', alternate'}{own})"

        layouts = ", ".join(described(e) for e in mapfile.layouts)
        status = mapfile.provenance.status
        if status == "provisional":
            status += f", {len(provisional_items(mapfile))} facts unconfirmed"
        print(f"{path}: ok: map {mapfile.map} ({status}); layouts {layouts}")
    if bad:
        raise CommandError(f"{bad} of {len(args.files)} map file{'s' if len(args.files) > 1 else ''} "
                           f"{'has' if bad == 1 else 'have'} problems")


def announce(url: str, token: str | None, db: str, stdio: dict) -> None:
    """Print where the server listens and how to add it to the common clients, each in its own form: Claude
    Desktop's configuration file starts servers over stdio only, so it is shown ``stdio`` (the same games)."""
    header = {"Authorization": "Bearer <your token>"} if token else {}
    headers = {"headers": header} if header else {}
    claude = f"claude mcp add --transport http tabletop {url}"
    if token:
        claude += f' --header "Authorization: Bearer ${TOKEN_ENV}"'
    lines = [
        f"Tabletop MCP {__version__} serving streamable HTTP at {url}",
        f"Games are stored in {db}",
        f"Claude Code: {claude}",
        "VS Code (.vscode/mcp.json): " + one_line({"servers": {"tabletop": {"type": "http", "url": url, **headers}}}),
        "Cursor (~/.cursor/mcp.json): " + one_line({"mcpServers": {"tabletop": {"url": url, **headers}}}),
        "Claude Desktop (claude_desktop_config.json; it starts its own server over stdio, same games): "
        + one_line({"mcpServers": {"tabletop": stdio}}),
    ]
    print("\n".join(lines), flush=True)


def one_line(config: dict) -> str:
    """A client's configuration block as one line of JSON."""
    return json.dumps(config, ensure_ascii=False)


def stdio_command(db: str | None) -> dict:
    """The stdio entry that starts this same server on the same games: this ``tabletop``'s full path (or this
    Python with ``-m tabletop`` when run that way)."""
    program = Path(sys.argv[0])
    serve = ["serve", *(["--db", db] if db else [])]
    if program.name == "__main__.py":
        return {"command": sys.executable, "args": ["-m", "tabletop", *serve]}
    command = str(program.resolve()) if program.name == "tabletop" and program.exists() else "tabletop"
    return {"command": command, "args": serve}


def backup(args: argparse.Namespace) -> None:
    """Copy the live game database consistently (SQLite's backup API), even while a server uses it."""
    from .sessions.store import StorageError

    store = open_store(args.db)
    try:
        store.backup(Path(args.file))
    except StorageError as err:
        raise CommandError(err.message) from None
    finally:
        store.close()
    print(f"backed up {store.location} to {args.file}")


def schemas(args: argparse.Namespace) -> None:
    from .schemas import check_schemas, schemas_dir, write_schemas

    if args.check:
        stale = check_schemas(Path(args.out) if args.out else schemas_dir())
        if stale:
            print("Stale or missing schemas (run `tabletop schemas`):\n  " + "\n  ".join(stale))
            raise SystemExit(1)
        print("schemas are up to date")
        return
    out = args.out or "schemas"
    written = write_schemas(Path(out))
    print(f"wrote {len(written)} schema files to {out}")


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
    run.add_argument(
        "--token", help=f"require this bearer token from HTTP clients; better set ${TOKEN_ENV}, which other users cannot see"
    )
    run.add_argument(
        "--view-token",
        help=f"a second token that opens only the watching site at /watch, read-only (better set ${VIEW_TOKEN_ENV})",
    )
    run.add_argument(
        "--public-url",
        help=f"where people reach this server, e.g. https://games.example.org behind a proxy (or ${PUBLIC_URL_ENV}); "
        "the seats' play links start with it (default: the address served)",
    )
    run.add_argument(
        "--allow-no-token", action="store_true", help="serve an address other than this machine's without a token"
    )
    run.add_argument(
        "--db",
        help="where games are kept: a SQLite file, or a postgresql://user@host/dbname URL shared by a fleet of servers "
        "(default: $TABLETOP_DB or ~/.local/share/tabletop-mcp/games.sqlite3)",
    )
    run.add_argument(
        "--sync", choices=["normal", "full"], default="normal",
        help="SQLite synchronous mode: normal survives a killed server, full also survives power loss "
        "(PostgreSQL commits durably by itself, as its synchronous_commit setting says)",
    )
    run.add_argument(
        "--json-content", action="store_true",
        help="also put each answer's structured result into its text as JSON (for clients that ignore structuredContent)",
    )
    run.add_argument(
        "--output-schemas", action="store_true",
        help="advertise every tool's output schema in tools/list (left out by default to keep it short for models)",
    )
    run.add_argument("--maps", help=f"a folder of Cthulhu Wars map files to offer beside the built-in maps (or ${MAPS_ENV})")
    run.add_argument(
        "--log-level", choices=LOG_LEVELS, type=str.lower,
        help=f"what goes to stderr (or ${LOG_LEVEL_ENV}; default info: a line per HTTP session, none per request; "
        "debug adds every refusal)",
    )
    run.set_defaults(func=serve)

    atlas = commands.add_parser("maps", help="Cthulhu Wars map files")
    atlas_commands = atlas.add_subparsers(dest="maps_command", required=True)
    check = atlas_commands.add_parser("check", help="name every problem of map files (symmetry, reachability, ...)")
    check.add_argument("files", nargs="+", metavar="FILE", help="map files (JSON, see schemas/cthulhu-wars-map.schema.json)")
    check.set_defaults(func=maps)

    exact = commands.add_parser(
        "solve", help="compute exact optimal play (writes the advisor's table; e.g. solve cthulhu-dice --players 3)"
    )
    exact.add_argument("game", choices=["cthulhu-dice"])
    exact.add_argument("solver_args", nargs=argparse.REMAINDER, help="options of the solver (see --help after the game)")
    exact.set_defaults(func=solve)

    copy = commands.add_parser("backup", help="copy the game database consistently, even while a server runs")
    copy.add_argument("file", help="the new file to write (refused if it exists)")
    copy.add_argument("--db", help="the game database (default: $TABLETOP_DB or ~/.local/share/tabletop-mcp/games.sqlite3)")
    copy.set_defaults(func=backup)

    gen = commands.add_parser("schemas", help="write every tool's input and output JSON Schema")
    gen.add_argument(
        "--out", help="folder to write to (default: ./schemas) or to check (default: the schemas this installation "
        "ships: the checkout's schemas/, or the copy inside the installed package)",
    )  # fmt: skip
    gen.add_argument("--check", action="store_true", help="only check that the folder is up to date")
    gen.set_defaults(func=schemas)

    from .arena.command import add_parsers as add_arena_parsers

    add_arena_parsers(commands)
    add_bootstrap_parsers(commands)
    return top


def add_bootstrap_parsers(commands) -> None:
    """``test`` and ``doctor``, which the checkout's ./tabletop script runs itself; listed here so that the help
    names them, and answered here when this command was installed without that script."""
    check = commands.add_parser("test", help="run the test suite (from a checkout: ./tabletop test [pytest args])")
    check.add_argument("pytest_args", nargs=argparse.REMAINDER, help="passed to pytest")
    check.set_defaults(func=run_tests)
    doctor = commands.add_parser("doctor", help="say which Python runs tabletop and where it is installed")
    doctor.set_defaults(func=diagnose)


def run_tests(args: argparse.Namespace) -> None:
    """Say where the tests run: the suite and its extras come with a checkout, not with the installed package."""
    raise CommandError("the tests run from a checkout of the repository: ./tabletop test [pytest args]")


def diagnose(args: argparse.Namespace) -> None:
    """Which Python runs this command and where the package is (./tabletop doctor also checks its .venv)."""
    version = ".".join(map(str, sys.version_info[:3]))
    print(f"tabletop {__version__}: Python {version} at {sys.executable}; package in {Path(__file__).resolve().parent}")


def main(argv: list[str] | None = None) -> None:
    """Run one command; with none, print the help (every command, ``test`` and ``doctor`` among them)."""
    commands = parser()
    if not (sys.argv[1:] if argv is None else argv):
        commands.print_help()
        return
    args = commands.parse_args(argv)
    try:
        args.func(args)
    except CommandError as err:
        print(f"tabletop: {err}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
