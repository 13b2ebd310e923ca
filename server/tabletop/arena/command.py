"""``tabletop arena`` and ``tabletop replay``: the command lines (cli.py registers them)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..commands import CommandError, open_store

TOKEN_ENV = "TABLETOP_TOKEN"
MAPS_ENV = "TABLETOP_MAPS"


def add_parsers(commands: Any) -> None:
    arena = commands.add_parser(
        "arena",
        help="run a tournament over MCP: tabletop arena cthulhu-dice bot:optimal bot:random --games 40, or --file cup.toml",
    )
    arena.add_argument("game", nargs="?", help="the game (quick form), e.g. cthulhu-dice")
    arena.add_argument("players", nargs="*", help="bot:NAME, cmd:PROGRAM, openai:MODEL or anthropic:MODEL")
    arena.add_argument("--file", help="a tournament file (TOML); see tabletop.arena.spec")
    arena.add_argument("--games", type=int, help="games in all (a multiple of the seat rotation)")
    arena.add_argument("--seats", type=int, help="players per game (default: every player, within the game's range)")
    arena.add_argument("--parallel", type=int, help="games at once (default 2)")
    arena.add_argument("--no-legal-moves", action="store_true", help="model players may not call legal_moves")
    arena.add_argument("--db", help="where games and tournaments are kept (as serve's --db)")
    arena.add_argument("--url", help="play on a running server (its /mcp URL) instead of starting one")
    arena.add_argument("--token", help=f"that server's bearer token (better: ${TOKEN_ENV})")
    arena.add_argument("--report", default="arena-reports", help="folder for the Markdown and JSON reports (default arena-reports)")
    arena.add_argument("--quiet", action="store_true", help="no live display (the report is still written)")
    arena.set_defaults(func=run_arena)

    replay = commands.add_parser("replay", help="a stored game move by move, with what each move caused")
    replay.add_argument("game_id")
    replay.add_argument("--db", help="the game database (as serve's --db)")
    replay.add_argument("--pictures", metavar="FOLDER", help="also write a picture of the position after every move")
    replay.set_defaults(func=run_replay)


def tournament_spec(args: argparse.Namespace):
    from .spec import build, load_file

    if args.file:
        spec = load_file(Path(args.file))
        given = {"games": args.games, "parallel": args.parallel, "seats": args.seats}
        overrides = {k: v for k, v in given.items() if v is not None}
        if overrides or args.no_legal_moves:
            data = spec.as_json()
            data["players"] = [{k: v for k, v in p.items() if v is not None} for p in data["players"]]
            data.update(overrides)
            if args.no_legal_moves:
                data["legal_moves"] = False
            spec = build(data)
        return spec
    if not args.game or not args.players:
        raise ValueError("name the game and its players (tabletop arena cthulhu-dice bot:optimal bot:random), or --file")
    data: dict[str, Any] = {"game": args.game, "players": args.players, "legal_moves": not args.no_legal_moves}
    for key in ("games", "seats", "parallel"):
        if getattr(args, key) is not None:
            data[key] = getattr(args, key)
    return build(data)


def try_first_game(spec, maps: str | None) -> None:
    """Every option of the tournament's games checked before the first one starts (``spec.try_first_game``), with
    the Cthulhu Wars maps of the folder ``maps`` offered as the arena's server will offer them."""
    from .spec import SpecError
    from .spec import try_first_game as try_one

    if maps and spec.game == "cthulhu-wars":
        from ..games.cthulhu_wars.maps import MapFolderError, use_maps_folder

        try:
            use_maps_folder(maps)
        except MapFolderError as err:
            raise SpecError(str(err)) from None
    try_one(spec)


def run_arena(args: argparse.Namespace) -> None:
    import anyio

    from ..sessions.store import default_db_target
    from .report import as_json, as_markdown, report
    from .runner import run
    from .server import Endpoint, ServerFailed, started_server
    from .spec import SpecError

    try:
        spec = tournament_spec(args)
        if not args.url:  # the arena's own server: try one game here first, with the maps that server will offer
            try_first_game(spec, os.environ.get(MAPS_ENV))
    except (SpecError, ValueError) as err:
        raise CommandError(" ".join(str(err).split())) from None
    db = args.db or default_db_target()
    store = open_store(db)
    folder = Path(args.report)
    logs = folder / spec.id / "logs"
    try:
        from .display import LiveDisplay

        with LiveDisplay(store, spec, quiet=args.quiet) as display:
            if args.url:
                endpoint = Endpoint(args.url, args.token or os.environ.get(TOKEN_ENV))
                anyio.run(run, store, spec, endpoint, logs, display.progress)
            else:
                try:
                    with started_server(db) as endpoint:
                        anyio.run(run, store, spec, endpoint, logs, display.progress)
                except ServerFailed as err:
                    raise CommandError(str(err)) from None
        data = report(store, spec.id)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{spec.id}.json").write_text(as_json(data))
        (folder / f"{spec.id}.md").write_text(as_markdown(data))
        print(f"tournament {spec.id}: report in {folder / (spec.id + '.md')} and {folder / (spec.id + '.json')}", file=sys.stderr)
    finally:
        store.close()


def run_replay(args: argparse.Namespace) -> None:
    from .replay import replay_lines

    store = open_store(args.db)
    try:
        for line in replay_lines(store, args.game_id, Path(args.pictures) if args.pictures else None):
            print(line)
    except KeyError:
        raise CommandError(f"no game {args.game_id} in {store.location}") from None
    finally:
        store.close()
