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
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from tabletop.games.cthulhu_wars import ENGINE
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


def random_game(players: int, seed: int, timings: list[float] | None = None, factions: list[str] | None = None,
                map_name: str = "earth", options: dict | None = None, firsts: list[float] | None = None,
                cpu: list[float] | None = None, cpu_firsts: list[float] | None = None) -> int:
    """Play one game of random legal moves (``options``: more game options); return the number of moves. With
    ``timings``, time ``legal_moves`` at every position in wall time (``firsts``: its first call there), and in CPU
    time into ``cpu`` and ``cpu_firsts`` if given."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(CthulhuWarsOptions(factions=factions, map=map_name, **(options or {})), players, seed)
    moves = 0
    while ENGINE.outcome(state) is None:
        seat = rnd.choice(ENGINE.to_move(state))
        if timings is not None:
            first, best, cpu_first, cpu_best = best_of_three(state, seat)
            timings.append(best)
            if firsts is not None:
                firsts.append(first)
            if cpu is not None and cpu_firsts is not None:
                cpu.append(cpu_best)
                cpu_firsts.append(cpu_first)
        action = rnd.choice(ENGINE.legal_actions(state, seat))
        state, _ = ENGINE.apply(state, seat, action)
        moves += 1
    return moves


def best_of_three(state, seat: int) -> tuple[float, float, float, float]:
    """legal_moves time for one position: the first run, and the best of three runs, to leave out scheduler noise
    (the later runs find every move's listing written out already: the first is what a new position costs); in wall
    time, then the same two in CPU time (see the module docstring)."""
    runs, cpu_runs = [], []
    for _ in range(3):
        start, cpu_start = time.perf_counter(), time.thread_time()
        ENGINE.legal_moves(state, seat)
        cpu_runs.append(time.thread_time() - cpu_start)
        runs.append(time.perf_counter() - start)
    return runs[0], min(runs), cpu_runs[0], min(cpu_runs)


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
    for players, factions, map_name in tables:
        timings: list[float] = []
        firsts: list[float] = []
        cpu_timings: list[float] = []
        cpu_firsts: list[float] = []
        for seed in range(games):
            random_game(players, seed, timings, factions, map_name, extra, firsts, cpu_timings, cpu_firsts)
        start, cpu = time.perf_counter(), time.process_time()
        moves = sum(random_game(players, 1000 + seed, None, factions, map_name, extra) for seed in range(games))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        label = (", ".join(factions) if factions else "default factions") + (f", options: {only}" if extra else "")
        print(
            f"{map_name}, {players} players ({label}): legal_moves wall median {statistics.median(timings) * 1000:.3f} "
            f"ms, p99 {statistics.quantiles(timings, n=100)[-1] * 1000:.3f} ms, "
            f"max {max(timings) * 1000:.3f} ms over {len(timings)} positions (first call: p99 "
            f"{statistics.quantiles(firsts, n=100)[-1] * 1000:.3f} ms, max {max(firsts) * 1000:.3f} ms); "
            f"CPU median {statistics.median(cpu_timings) * 1000:.3f} ms, "
            f"p99 {statistics.quantiles(cpu_timings, n=100)[-1] * 1000:.3f} ms, max {max(cpu_timings) * 1000:.3f} ms "
            f"(first call: p99 {statistics.quantiles(cpu_firsts, n=100)[-1] * 1000:.3f} ms, "
            f"max {max(cpu_firsts) * 1000:.3f} ms); "
            f"{games / elapsed:.1f} complete random games/s, {games / cpu:.1f} per CPU second "
            f"({moves / games:.0f} moves per game)"
        )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0)
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)  # then optionally a player count: only its tables
