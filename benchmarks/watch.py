"""What a spectator costs the server: building one game's page data (the same for the first page and for every
event a move sends to each open page), and its size, along random games of each game.

Printed per game: moves played, median and worst milliseconds to build the page data (board SVG from the
spectator's scene, the public log, the position in words) and the bytes of one event at the end.

    .venv/bin/python benchmarks/watch.py [--moves N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from tabletop.games import ENGINES
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore
from tabletop.watch.public import game_view

SEATS = {"cthulhu-dice": 3, "game-of-war": 2, "cthulhu-wars": 4}


def measure(game: str, moves: int, seed: int, folder: Path) -> None:
    store = GameStore(folder / f"{game}.sqlite3")
    sessions = GameSessions(store)
    rnd = random.Random(seed)
    live, tokens = sessions.create(game, None, SEATS[game], seed=seed)
    times, size, played = [], 0, 0
    for _ in range(moves):
        start = time.perf_counter()
        view = game_view(sessions, live)
        times.append(1000 * (time.perf_counter() - start))
        size = len(json.dumps(view))
        if view["over"]:
            break
        seat = rnd.choice(live.engine.to_move(live.state))
        action = rnd.choice(live.engine.legal_actions(live.state, seat))
        sessions.play(live.id, tokens[seat], live.engine.notation(action))
        live = sessions.get(live.id)
        played += 1
    store.close()
    print(
        f"{game:13s} {played:5d} moves  page data: median {statistics.median(times):6.1f} ms, "
        f"worst {max(times):6.1f} ms; last event {size / 1000:6.1f} kB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="random moves per game (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for game in sorted(ENGINES):
            measure(game, args.moves, args.seed, Path(folder))


if __name__ == "__main__":
    main()
