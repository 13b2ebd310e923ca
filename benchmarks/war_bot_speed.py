"""Speed of the A Game of War bots' parts: the static evaluation one position at a time against the batched one
(``evaluation.score_many``), the search's own batched evaluation (``press.search_score_many``: reachable raids
and its extra terms), a greedy whole-turn plan, and candidates a search examines in its budget.

Run: .venv/bin/python benchmarks/war_bot_speed.py [--games G] [--seconds S]

Positions come from heuristic self-play (seeds 0..G-1), at turns 10, 30 and 60. Times are CPU seconds of this
process (one core). Every figure is printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tabletop.bots.base import Budget
from tabletop.bots.game_of_war import evaluation as ev
from tabletop.bots.game_of_war.heuristic import TurnPlanner, WarHeuristicBot
from tabletop.bots.game_of_war.press import search_score_many
from tabletop.bots.game_of_war.search import WarSearchBot
from tabletop.core.rng import Rng
from tabletop.games.game_of_war import ENGINE as WAR
from tabletop.games.game_of_war.rules import legal_plays, play

MARKS = (10, 30, 60)


def positions(games: int) -> list:
    found = []
    for seed in range(games):
        state = WAR.new_game(WAR.read_options({"max_turns": 300}), 2, seed)
        bots = [WarHeuristicBot(seed), WarHeuristicBot(seed + 1)]
        marks = list(MARKS)
        while WAR.to_move(state) and marks:
            if state.phase == "play" and state.turn >= marks[0] and state.moves_made == 0:
                found.append(state)
                marks.pop(0)
            seat = WAR.to_move(state)[0]
            state, _ = WAR.apply(state, seat, bots[seat].choose(WAR, state, seat))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    found = positions(args.games)
    one, batch, searching, count, plans, examined, spent = 0.0, 0.0, 0.0, 0, [], [], []
    for state in found:
        afters = [play(state, p)[0] for p in legal_plays(state)]
        start = time.process_time()
        for after in afters:
            ev.evaluate(after, state.side)
        one += time.process_time() - start
        start = time.process_time()
        ev.score_many(afters, state.side)
        batch += time.process_time() - start
        start = time.process_time()
        search_score_many(afters, state.side)
        searching += time.process_time() - start
        count += len(afters)
        start = time.process_time()
        TurnPlanner(Rng(0)).plan(state, state.side)
        plans.append(time.process_time() - start)
        bot = WarSearchBot(0, timer=time.process_time)
        start = time.process_time()
        bot.search(state, state.side, Budget(seconds=args.seconds))
        spent.append(time.process_time() - start)
        examined.append(bot.last["candidates"])
    print(f"{len(found)} positions (turns {MARKS}), {count} next positions scored")
    print(f"evaluation: one at a time {one / count * 1e6:.0f} us per position, batched {batch / count * 1e6:.0f} us, "
          f"the search's batched {searching / count * 1e6:.0f} us")
    print(f"greedy whole-turn plan: median {statistics.median(plans) * 1000:.0f} ms, max {max(plans) * 1000:.0f} ms")
    print(f"search at {args.seconds} s: candidates played out median {statistics.median(examined):.0f} "
          f"(min {min(examined)}, max {max(examined)}); CPU per turn median {statistics.median(spent) * 1000:.0f} ms, "
          f"max {max(spent) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
