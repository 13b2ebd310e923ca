"""Cthulhu Wars engine speed: legal-move generation time and complete random games per second.

Run: .venv/bin/python benchmarks/cthulhu_wars_bench.py [games per player count] [players | ancients | neutrals |
spellbooks | independents | everything]
(a player count measures only its tables; ``ancients`` only the tables seating The Ancients, at 3-6 players on Earth
and 3-5 on the Dreamlands; ``neutrals`` the other tables with every neutral option on: High Priests and the four
neutral monster cards; ``spellbooks`` those same tables with the neutral spellbooks on, rules_text
``cthulhu-wars/neutral-spellbooks``; ``independents`` those tables with the four Independent Great Old Ones on,
``cthulhu-wars/independent-great-old-ones``; ``everything`` every table, The Ancients' included, with all of that
material on at once).
Prints figures only (targets: legal moves under 2 ms at any point; at least 10 random 5-player games/s, the
expansion factions seated too), on Earth and on the Dreamlands map (tunnels, the Bhole, the Zoogs, the Citadel
check after every step), and six players on the 6-player Earth map (the same targets), each figure also per CPU
second (process time, as the machine may be shared).

legal_moves is timed two ways at every position, best of three calls and the first call: "wall" is elapsed time
(time.perf_counter), which on a shared machine also counts the time the process waited while another ran; "CPU" is
the CPU time of this thread during the call (time.thread_time, nanosecond clock; reading it costs about 1
microsecond), which leaves that waiting out.

The process is set up as the server sets itself up (``tabletop serve``): once everything is loaded, what is alive
is frozen out of the garbage collector's passes (server/tabletop/core/heap.py). A first call that a garbage
collection fell into is counted apart, with the longest such call and the longest collection: that pause is the
process's (it would fall into whatever ran then), not the work of listing the moves.

On a shared machine a burst of load can slow every call for a few milliseconds, so the best of three calls in a row
can still be slowed at the positions that set the max. The ten costliest positions of each table are therefore timed
again once the table's games are over, ten calls each taken in rounds over the ten (so no burst falls on all the
calls of one position): the "retimed max" is the max over them of the best of their thirteen calls, the listing's own
cost. A first call is one call, so a burst there is the figure; the ten positions of each table with the costliest
first calls are therefore timed again too, each call made as a first one: every cache the listing keeps (actions,
their notation, the listed moves, group layouts: ``LISTING_CACHES``) is emptied before it, so that it writes every
move out anew, a colder call than any in a game (where the moves listed at earlier positions are kept). The "first
call retimed" is the max over those positions of the best of their first call and ten such calls. (Emptying the
caches also leaves the garbage collector less to walk: the longest collection printed is shorter than in a process
that kept them, as a server does.) The complete random games are likewise played three times over; the rate printed
first is the best of the three runs (the run least slowed by other processes: the games are the same each time), then
the median one.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from tabletop.core.heap import freeze_startup_heap
from tabletop.games.cthulhu_wars import ENGINE, actions, engine, notation, turn_actions
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions


#: Tables measured besides the default factions: every expansion faction seated.
EXPANSION_TABLES = {
    6: ["great-cthulhu", "windwalker", "sleeper", "opener-of-the-way", "yellow-sign", "crawling-chaos"],
    5: ["great-cthulhu", "windwalker", "sleeper", "opener-of-the-way", "yellow-sign"],
    4: ["crawling-chaos", "windwalker", "sleeper", "opener-of-the-way"],
    3: ["windwalker", "sleeper", "opener-of-the-way"],
}
#: Every neutral option built (High Priests, each neutral monster card), for the ``neutrals`` tables.
NEUTRAL_OPTIONS = {
    "high_priests": True, "neutral_ghast": True, "neutral_gug": True, "neutral_shantak": True,
    "neutral_star_vampire": True,
}
#: The neutral spellbooks (``spellbooks`` tables) and the Independent Great Old Ones (``independents`` tables).
SPELLBOOK_OPTIONS = {"neutral_spellbooks": True}
INDEPENDENT_OPTIONS = {"igoo_byatis": True, "igoo_abhoth": True, "igoo_daoloth": True, "igoo_nyogtha": True}
#: Tables seating The Ancients (rules_text ``cthulhu-wars/ancients``) with core and expansion factions.
ANCIENTS_TABLES = {
    6: ["ancients", "great-cthulhu", "windwalker", "sleeper", "opener-of-the-way", "yellow-sign"],
    5: ["ancients", "great-cthulhu", "windwalker", "opener-of-the-way", "black-goat"],
    4: ["ancients", "crawling-chaos", "sleeper", "opener-of-the-way"],
    3: ["ancients", "great-cthulhu", "black-goat"],
}


@dataclass
class Timings:
    """``legal_moves`` times (seconds) over the positions of a table's games (see :func:`best_of_three`): best of
    three calls and the first call, in wall and in CPU time; a first call that a garbage collection fell into is kept
    apart in ``collected`` (wall time), the collection's pause being the process's and not the engine's."""

    best: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    cpu_best: list[float] = field(default_factory=list)
    cpu_first: list[float] = field(default_factory=list)
    collected: list[float] = field(default_factory=list)
    #: The costliest positions so far by their best-of-three CPU time: (time, state, seat), at most ``SLOWEST``
    slowest: list[tuple[float, Any, int]] = field(default_factory=list)
    #: The same for the first calls' CPU time (a first call with a garbage collection inside left out)
    slowest_first: list[tuple[float, Any, int]] = field(default_factory=list)


#: Positions of a table timed again at its end (``Timings.slowest``), calls for each, and runs of the timed games.
SLOWEST, RETIMES, GAME_RUNS = 10, 10, 3
#: What the listing keeps from one position to the next (actions, notations, listed moves, group layouts), emptied
#: before each first call timed again (:func:`retimed_max`, ``cold``).
LISTING_CACHES = (actions.shared, notation.to_text, turn_actions.move_action, turn_actions.moves_to,
                  engine.priced_option, engine.unit_move_parts, engine.group_layout)


#: Garbage collections run so far in this process, and the longest pause one took (seconds; :func:`note_collection`).
COLLECTIONS = {"count": 0, "started": 0.0, "longest": 0.0}


def note_collection(phase: str, info: dict) -> None:
    """A ``gc.callbacks`` hook: counts collections and times them, so a timed call can tell whether one ran inside."""
    if phase == "start":
        COLLECTIONS["count"] += 1
        COLLECTIONS["started"] = time.perf_counter()
    else:
        COLLECTIONS["longest"] = max(COLLECTIONS["longest"], time.perf_counter() - COLLECTIONS["started"])


def random_game(players: int, seed: int, timings: Timings | None = None, factions: list[str] | None = None,
                map_name: str = "earth", options: dict | None = None) -> int:
    """Play one game of random legal moves (``options``: more game options); return the number of moves. With
    ``timings``, time ``legal_moves`` at every position."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(CthulhuWarsOptions(factions=factions, map=map_name, **(options or {})), players, seed)
    moves = 0
    while ENGINE.outcome(state) is None:
        seat = rnd.choice(ENGINE.to_move(state))
        if timings is not None:
            best_of_three(state, seat, timings)
        action = rnd.choice(ENGINE.legal_actions(state, seat))
        state, _ = ENGINE.apply(state, seat, action)
        moves += 1
    return moves


def best_of_three(state, seat: int, timings: Timings) -> None:
    """Time ``legal_moves`` at one position into ``timings``: the first run, and the best of three runs, to leave out
    scheduler noise (the later runs find every move's listing written out already: the first is what a new position
    costs); in wall time and in CPU time (see the module docstring)."""
    runs = [timed_call(state, seat) for _ in range(3)]
    timings.best.append(min(wall for wall, _, _ in runs))
    timings.cpu_best.append(min(cpu for _, cpu, _ in runs))
    note_slowest(timings.slowest, timings.cpu_best[-1], state, seat)
    wall, cpu, collected = runs[0]
    if collected:
        timings.collected.append(wall)
    else:
        timings.first.append(wall)
        timings.cpu_first.append(cpu)
        note_slowest(timings.slowest_first, cpu, state, seat)


def note_slowest(slowest: list[tuple[float, Any, int]], cpu: float, state, seat: int) -> None:
    """Keep the position among the table's ``SLOWEST`` costliest so far (states are never changed once made)."""
    if len(slowest) < SLOWEST or cpu > slowest[-1][0]:
        slowest.append((cpu, state, seat))
        slowest.sort(key=lambda entry: -entry[0])
        del slowest[SLOWEST:]


def retimed_max(slowest: list[tuple[float, Any, int]], cold: bool = False) -> float:
    """The max over a table's costliest positions (``Timings.slowest`` or ``slowest_first``) of their best CPU time,
    the one noted or one of ``RETIMES`` calls more, made in rounds over them; ``cold``: every listing cache emptied
    before each call, so that each is made as a first call (see the module docstring)."""
    best = [cpu for cpu, _, _ in slowest]
    for _ in range(RETIMES):
        for i, (_, state, seat) in enumerate(slowest):
            if cold:
                for cache in LISTING_CACHES:
                    cache.cache_clear()
            best[i] = min(best[i], timed_call(state, seat)[1])
    return max(best)


def games_per_cpu_second(players: int, factions: list[str] | None, map_name: str, extra: dict | None,
                         games: int) -> tuple[list[float], int]:
    """The rate of each of ``GAME_RUNS`` runs of the same ``games`` complete random games (seeds 1000 on), fastest
    first, and the moves a game."""
    rates = []
    for _ in range(GAME_RUNS):
        cpu = time.process_time()
        moves = sum(random_game(players, 1000 + seed, None, factions, map_name, extra) for seed in range(games))
        rates.append(games / (time.process_time() - cpu))
    return sorted(rates, reverse=True), moves


def timed_call(state, seat: int) -> tuple[float, float, bool]:
    """One ``legal_moves`` call: its wall time, its CPU time, and whether a garbage collection ran inside it."""
    collections = COLLECTIONS["count"]
    start, cpu_start = time.perf_counter(), time.thread_time()
    ENGINE.legal_moves(state, seat)
    cpu = time.thread_time() - cpu_start
    return time.perf_counter() - start, cpu, COLLECTIONS["count"] != collections


def main(games: int) -> None:
    tables = [(p, None, m) for m in ("earth", "dreamlands") for p in (3, 4, 5)]
    tables += [(p, EXPANSION_TABLES[p], m) for m in ("earth", "dreamlands") for p in (3, 4, 5)]
    tables += [(6, None, "earth"), (6, EXPANSION_TABLES[6], "earth")]
    tables += [(p, ANCIENTS_TABLES[p], m) for m in ("earth", "dreamlands") for p in (3, 4, 5)]
    tables += [(6, ANCIENTS_TABLES[6], "earth")]
    only = sys.argv[2] if len(sys.argv) > 2 else None  # e.g. "6": only the tables of that many players
    extra = {"neutrals": NEUTRAL_OPTIONS, "spellbooks": SPELLBOOK_OPTIONS, "independents": INDEPENDENT_OPTIONS,
             "everything": NEUTRAL_OPTIONS | SPELLBOOK_OPTIONS | INDEPENDENT_OPTIONS}.get(only or "")
    if only == "ancients":
        tables = [t for t in tables if t[1] and "ancients" in t[1]]
    elif only in ("neutrals", "spellbooks", "independents"):
        tables = [t for t in tables if not (t[1] and "ancients" in t[1])]
    elif only != "everything":
        tables = [t for t in tables if only is None or str(t[0]) == only]
    freeze_startup_heap()  # as `tabletop serve` does once it has loaded (server/tabletop/core/heap.py)
    gc.callbacks.append(note_collection)
    worst = {"rate": float("inf"), "median": float("inf"), "best": 0.0, "retimed": 0.0, "first": 0.0,
             "first retimed": 0.0}
    for players, factions, map_name in tables:
        timings = Timings()
        for seed in range(games):
            random_game(players, seed, timings, factions, map_name, extra)
        retimed, first_retimed = retimed_max(timings.slowest), retimed_max(timings.slowest_first, cold=True)
        start = time.perf_counter()
        rates, moves = games_per_cpu_second(players, factions, map_name, extra, games)
        elapsed = (time.perf_counter() - start) / GAME_RUNS
        label = (", ".join(factions) if factions else "default factions") + (f", options: {only}" if extra else "")
        print(f"{map_name}, {players} players ({label}), {len(timings.best)} positions: legal_moves "
              f"{figures(timings.best, timings.first, 'wall')}; {figures(timings.cpu_best, timings.cpu_first, 'CPU')}; "
              f"{len(timings.collected)} first calls had a garbage collection inside"
              + (f" (the longest such call {max(timings.collected) * 1000:.2f} ms)" if timings.collected else "")
              + f"; CPU max retimed {retimed * 1000:.3f} ms, first call retimed {first_retimed * 1000:.3f} ms"
              + f"; {games / elapsed:.1f} complete random games/s, per CPU second {rates[0]:.1f} best of "
              f"{GAME_RUNS} runs, {rates[len(rates) // 2]:.1f} median ({moves / games:.0f} moves per game)")
        worst = {"rate": min(worst["rate"], rates[0]), "median": min(worst["median"], rates[len(rates) // 2]),
                 "best": max(worst["best"], max(timings.cpu_best)), "retimed": max(worst["retimed"], retimed),
                 "first": max(worst["first"], max(timings.cpu_first)),
                 "first retimed": max(worst["first retimed"], first_retimed)}
    print(f"worst table: {worst['rate']:.1f} random games per CPU second, best run (median run {worst['median']:.1f}; "
          f"target >= 10); legal_moves CPU max {worst['retimed'] * 1000:.2f} ms retimed, "
          f"{worst['best'] * 1000:.2f} ms best of three, {worst['first'] * 1000:.2f} ms first call, "
          f"{worst['first retimed'] * 1000:.2f} ms first call retimed with the listing's caches emptied (target < 2); "
          f"longest garbage collection {COLLECTIONS['longest'] * 1000:.2f} ms")


def figures(best: list[float], first: list[float], clock: str) -> str:
    """Median, p99 and max of the best-of-three times, then p99 and max of the first calls, in milliseconds."""
    def p99(times: list[float]) -> float:
        return statistics.quantiles(times, n=100)[-1] * 1000

    return (f"{clock} median {statistics.median(best) * 1000:.3f} ms, p99 {p99(best):.3f} ms, "
            f"max {max(best) * 1000:.3f} ms (first call: p99 {p99(first):.3f} ms, max {max(first) * 1000:.3f} ms)")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0)
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)  # then optionally a player count: only its tables
