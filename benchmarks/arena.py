"""What playing over MCP costs: bots-only games per minute through the arena (a real `tabletop serve --http`
process, every seat an MCP client over HTTP) against the same bots at engine level (no server), per game, and the
wall time of a whole tournament.

    .venv/bin/python benchmarks/arena.py                       # Cthulhu Dice: a 40-game tournament, and 40 engine games
    .venv/bin/python benchmarks/arena.py --game game-of-war --games 2 --players bot:heuristic bot:random
    .venv/bin/python benchmarks/arena.py --game cthulhu-wars --games 6 --players bot:heuristic bot:random bot:random

Prints figures; asserts nothing. Each run uses a fresh database in a temporary folder.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabletop.arena.match import play_match
from tabletop.arena.spec import build
from tabletop.bots.registry import make_bot
from tabletop.games import ENGINES
from tabletop.sessions.store import GameStore


def engine_level(game: str, players: list[str], games: int) -> float:
    """Seconds for ``games`` games at engine level, seats rotated as the arena would."""
    engine = ENGINES[game]
    spec = build({"game": game, "players": players, "games": games})
    from tabletop.arena.spec import schedule

    start = time.perf_counter()
    for slot, seating in enumerate(schedule(spec)):
        bots = [make_bot(game, spec.players[[p.name for p in spec.players].index(name)].target, slot * 10 + seat)
                for seat, name in enumerate(seating)]
        play_match(engine, bots, seed=slot, options=engine.read_options({}))
    return time.perf_counter() - start


def through_arena(game: str, players: list[str], games: int, parallel: int) -> tuple[float, int]:
    """Wall seconds of ``tabletop arena`` (server start included) and the moves played."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.sqlite3"
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "tabletop", "arena", game, *players, "--games", str(games),
                               "--parallel", str(parallel), "--db", str(db), "--report", folder, "--quiet"],
                              capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        store = GameStore(db)
        (record,) = store.list_tournaments()
        moves = sum(g.outcome.get("moves") or 0 for g in store.tournament_games(record.id))
        store.close()
    return seconds, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cthulhu-dice")
    parser.add_argument("--players", nargs="+", default=["bot:optimal", "bot:random"])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    direct = engine_level(args.game, args.players, args.games)
    wall, moves = through_arena(args.game, args.players, args.games, args.parallel)
    print(f"{args.game}, {' vs '.join(args.players)}, {args.games} games")
    print(f"  engine level:  {direct:8.1f} s  {args.games / direct * 60:8.1f} games/min")
    print(f"  through arena: {wall:8.1f} s  {args.games / wall * 60:8.1f} games/min  ({moves} moves, "
          f"{moves / wall:.1f} moves/s, parallel {args.parallel}, server start included)")


if __name__ == "__main__":
    main()
