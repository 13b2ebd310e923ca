"""Bot strength: seat-swapped matches, win rates with 95% intervals, time per decision.

Run: .venv/bin/python benchmarks/bots.py MATCH [--games N] [--first SEED] [--seconds S | --iterations I] [--jobs J]
                                               [--max-turns T] [--factions default|all|a,b,c,d]
                                               [--map earth|dreamlands|mixed]

The full samples of the issues: ``all`` with the defaults below (games per match; search budgets 1.5 s
per War turn and 1 s per Cthulhu Wars decision, raise --seconds up to 2 and 5).

Matches (issue "bots that play well"; the targets are in brackets):

  war-heuristic   A Game of War, heuristic vs random, 200 games       [heuristic wins >= 95%]
  war-search      A Game of War, search vs heuristic, 100 games,
                  at most 2 s per turn on one core                    [search wins >= 65%]
  war-raider      A Game of War, search vs the scripted raider (a cavalry raid on the weaker arsenal with a relay
                  behind, careful charges), 100 games                 [search wins >= 80% of decided games;
                                                                       no arsenal lost in >= 90% of games]
  war-raider-heuristic   the same with the heuristic under test (no target: a comparison)
  cw-heuristic    Cthulhu Wars, 4 players, heuristic vs 3 random,
                  200 games (a win needs six spellbooks)              [heuristic wins >= 70%]
  cw-search       Cthulhu Wars, 4 players, 2 search vs 2 heuristic,
                  50 games, at most 5 s per decision                  [search seats win >= 60% of decided games]
  cw-rush         Cthulhu Wars, 4 players, 2 heuristic vs 2 rushers
                  (one of them Great Cthulhu), 40 games               [heuristic seats win >= 60% of decided games]
  cw-rush-search  Cthulhu Wars, 4 players, 2 search vs 2 rushers,
                  20 games, at most 5 s per decision                  [search seats win >= 60% of decided games]
                  (issue 41: the rusher, ``bots/cthulhu_wars/rusher.py``, Awakens its Great Old One at once and
                  marches it on lone enemy Gates, as a model did; the seats under test are 0 and 2 or 1 and 3,
                  Great Cthulhu is always a rusher, the other factions rotated: ``rush_seats``)
  all             every match above, one after the other

Seats are swapped game by game: in A Game of War the bot under test plays North in even games and South
in odd ones; in Cthulhu Wars the heuristic sits at seat (game mod 4), so it plays each faction in turn,
and the two search seats are 0 and 2 or 1 and 3 with the factions rotated. With ``--factions all`` each group
of games (4 for cw-heuristic, 8 for cw-search) draws its four factions from every faction the engine has, and
``--map mixed`` alternates Earth and the Dreamlands by group. A Game of War games use
secret deployment (each bot deploys the default opening, the search as South with a guard by its far arsenal,
``bots/game_of_war/deployment.py``) and a turn cap (--max-turns, default 300:
a draw); they also print, for the bot under test, the turns in which an attack that destroys its target was
listed and how many of those it attacked in, and the arsenals it lost per game. A Cthulhu Wars search given
``--iterations`` plays that many futures a decision instead of a time budget: the same games come out whatever
else the machine runs, so two versions of the bots compare game for game (a budget in CPU seconds does not).
Cthulhu Wars matches also print the games each faction won, played by a seat under test and by another seat.
Every figure is printed; nothing is asserted. --jobs runs games in parallel processes (use 1 for timings on one
core).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field

# One core per game: numpy's BLAS would otherwise start a thread per core, whose spinning counts in the
# process's CPU time (the search's budget clock) without helping it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from tabletop.bots.base import RandomBot  # noqa: E402


@dataclass
class GameResult:
    score: float  # the bot under test's share of the win (0, 1, or a split)
    decided: bool  # somebody won
    length: int  # War: player turns; Cthulhu Wars: rounds
    actions: int
    times: list[float] = field(default_factory=list)  # seconds per decision of the bot under test
    turn_times: list[float] = field(default_factory=list)  # War: seconds per whole turn of the bot under test
    note: str = ""
    turn_cpu: list[float] = field(default_factory=list)  # the same in CPU seconds of the process (one core); Cthulhu Wars: per decision
    seats: list[tuple[str, bool, float]] = field(default_factory=list)  # Cthulhu Wars: (faction, under test, its share of the win)
    chances: int = 0  # War: turns of the bot under test in which an attack that destroys its target was listed
    taken: int = 0  # War: how many of those turns it attacked in
    arsenals_lost: int = 0  # War: arsenals of the bot under test destroyed


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# ---- A Game of War ---------------------------------------------------------------------------
def war_game(args: tuple) -> GameResult:
    from tabletop.bots.game_of_war.heuristic import WarHeuristicBot
    from tabletop.bots.game_of_war.raider import WarRaiderBot
    from tabletop.bots.game_of_war.search import WarSearchBot
    from tabletop.games.game_of_war.combat import CAPTURE
    from tabletop.games.game_of_war.board import square_name
    from tabletop.games.game_of_war.engine import GameOfWarEngine
    from tabletop.games.game_of_war.rules import attack_options

    match, seed, seconds, max_turns = args[:4]
    engine = GameOfWarEngine()
    me = seed % 2
    bots: list = [None, None]
    if match == "war-heuristic":
        bots[me], bots[1 - me] = WarHeuristicBot(seed), RandomBot(seed + 10_000)
    elif match == "war-raider-heuristic":
        bots[me], bots[1 - me] = WarHeuristicBot(seed), WarRaiderBot(seed + 10_000)
    elif match == "war-raider":
        bots[me], bots[1 - me] = WarSearchBot(seed, seconds=seconds, timer=time.process_time), WarRaiderBot(seed + 10_000)
    else:
        # The search's budget is counted in CPU seconds (one core), whatever else the machine is running.
        bots[me], bots[1 - me] = WarSearchBot(seed, seconds=seconds, timer=time.process_time), WarHeuristicBot(seed + 10_000)
    state = engine.new_game(engine.read_options({"max_turns": max_turns}), 2, seed)
    times, turn_times, turn_cpu = [], [], []
    turn_clock, cpu_clock, current_turn, actions = 0.0, 0.0, None, 0
    chance_turns: set[int] = set()
    attack_turns: set[int] = set()
    fallen: list[str] = []  # the arsenals of the bot under test destroyed, with the turn
    while engine.to_move(state):
        seat = engine.to_move(state)[0]
        if seat == me and state.phase == "play" and any(c.result == CAPTURE for c in attack_options(state)):
            chance_turns.add(state.turn)
        start, cpu = time.perf_counter(), time.process_time()
        action = bots[seat].choose(engine, state, seat)
        spent = time.perf_counter() - start
        if seat == me:
            times.append(spent)
            if state.phase == "play":
                if current_turn != state.turn:
                    if current_turn is not None:
                        turn_times.append(turn_clock)
                        turn_cpu.append(cpu_clock)
                    current_turn, turn_clock, cpu_clock = state.turn, 0.0, 0.0
                turn_clock += spent
                cpu_clock += time.process_time() - cpu
        if seat == me and getattr(action, "kind", None) == "attack":
            attack_turns.add(state.turn)
        standing = state.arsenals[me]
        state, _ = engine.apply(state, seat, action)
        actions += 1
        if state.arsenals[me] != standing:
            fallen.append(f"{square_name((standing & ~state.arsenals[me]).bit_length() - 1)} at turn {state.turn}")
    if current_turn is not None:
        turn_times.append(turn_clock)
        turn_cpu.append(cpu_clock)
    outcome = engine.outcome(state)
    lost = 2 - bin(state.arsenals[me]).count("1")
    note = f"{outcome.reason} (as {'North' if me == 0 else 'South'}{'; arsenals lost: ' + ', '.join(fallen) if fallen else ''})"
    return GameResult(float(outcome.winners == [me]), bool(outcome.winners), state.turn, actions, times, turn_times,
                      note, turn_cpu=turn_cpu, chances=len(chance_turns),
                      taken=len(chance_turns & attack_turns), arsenals_lost=lost)


# ---- Cthulhu Wars -------------------------------------------------------------------------------
def cw_factions(spec: str, seed: int, count: int = 4) -> list[str]:
    """The game's factions: the engine's default four (``default``), ``count`` drawn by the seed from every faction
    the engine has (``all``), or a comma-separated list."""
    from tabletop.core.rng import Rng
    from tabletop.games.cthulhu_wars.factions import FACTIONS, default_factions

    if spec == "default":
        return default_factions(count)
    if spec == "all":
        names, rng = sorted(FACTIONS), Rng(seed * 31 + 7)
        for i in range(len(names) - 1, 0, -1):
            j = rng.below(i + 1)
            names[i], names[j] = names[j], names[i]
        return names[:count]
    return spec.split(",")


def paired_seats(seed: int, factions: list[str]) -> tuple[set[int], list[str]]:
    """Two seats under test against two others: seats 0 and 2 in even games, 1 and 3 in odd ones, the factions
    rotated by one every second game."""
    shift = (seed // 2) % 4
    return ({0, 2} if seed % 2 == 0 else {1, 3}), factions[shift:] + factions[:shift]


def rush_seats(seed: int, factions: list[str]) -> tuple[set[int], int, list[str]]:
    """cw-rush: two seats under test (0 and 2 in even games, 1 and 3 in odd ones) against two rushers
    (``bots/cthulhu_wars/rusher.py``), one of which always plays Great Cthulhu (added in place of the last faction
    when it is not among ``factions``), the first or second rusher seat by turns; the other three factions are
    rotated over the remaining seats every fourth game. Returns the seats under test, the Great Cthulhu seat and
    the factions by seat."""
    mine = {0, 2} if seed % 2 == 0 else {1, 3}
    rushers = sorted({0, 1, 2, 3} - mine)
    cthulhu = rushers[(seed // 2) % 2]
    others = [f for f in factions if f != "great-cthulhu"][:3]
    shift = (seed // 4) % 3
    others = others[shift:] + others[:shift]
    seated = [others.pop(0) if s != cthulhu else "great-cthulhu" for s in range(4)]
    return mine, cthulhu, seated


def win_share(winners: list[int], mine: set[int]) -> float:
    """The seats under test's share of the win (0 when nobody won)."""
    return sum(1 for w in winners if w in mine) / len(winners) if winners else 0.0


def cw_game(args: tuple) -> GameResult:
    from tabletop.bots.cthulhu_wars.heuristic import CwHeuristicBot
    from tabletop.bots.cthulhu_wars.search import CwSearchBot
    from tabletop.games.cthulhu_wars import ENGINE
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

    match, seed, seconds, _, spec, map_name, iterations = args
    search = (lambda s: CwSearchBot(seed * 10 + s, seconds=None, iterations=iterations)) if iterations else (
        # the search's budget is counted in CPU seconds (one core), whatever else the machine is running
        lambda s: CwSearchBot(seed * 10 + s, seconds=seconds, timer=time.process_time))
    factions = cw_factions(spec, seed // 4 if match == "cw-heuristic" else seed // 8)
    if match == "cw-heuristic":
        mine = {seed % 4}
        bots = [CwHeuristicBot(seed) if s in mine else RandomBot(seed * 10 + s) for s in range(4)]
    elif match.startswith("cw-rush"):
        from tabletop.bots.cthulhu_wars.rusher import CwRusherBot

        mine, _, factions = rush_seats(seed, factions)
        tested = (lambda s: CwHeuristicBot(seed * 10 + s)) if match == "cw-rush" else search
        bots = [tested(s) if s in mine else CwRusherBot(seed * 10 + s) for s in range(4)]
    else:
        mine, factions = paired_seats(seed, factions)
        bots = [search(s) if s in mine else CwHeuristicBot(seed * 10 + s) for s in range(4)]
    if map_name == "mixed":
        map_name = "dreamlands" if (seed // 4) % 2 else "earth"
    state = ENGINE.new_game(CthulhuWarsOptions(factions=factions, map=map_name), 4, seed)
    times: list[float] = []
    cpu_times: list[float] = []
    actions = 0
    while ENGINE.to_move(state):
        seat = ENGINE.to_move(state)[0]
        start, cpu = time.perf_counter(), time.process_time()
        action = bots[seat].choose(ENGINE, state, seat)
        spent = time.perf_counter() - start
        if seat in mine:
            times.append(spent)
            cpu_times.append(time.process_time() - cpu)
        state, _ = ENGINE.apply(state, seat, action)
        actions += 1
    outcome = ENGINE.outcome(state)
    winners = outcome.winners
    score = win_share(winners, mine)
    books = [len(fs.spellbooks) for fs in state.seats]
    note = f"map {map_name}; factions {factions}; winners {[state.seats[w].faction for w in winners]}; books {books}"
    seats = [(fs.faction, s in mine, win_share(winners, {s})) for s, fs in enumerate(state.seats)]
    return GameResult(score, bool(winners), state.round, actions, times, [], note, turn_cpu=cpu_times, seats=seats)


# ---- reporting -----------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def report(match: str, results: list[GameResult], elapsed: float, budget: str | None) -> None:
    n = len(results)
    wins = sum(r.score for r in results)
    decided = [r for r in results if r.decided]
    times = [t for r in results for t in r.times]
    print(f"== {match}: {n} games in {elapsed:.0f} s" + (f" (search budget {budget})" if budget else ""))
    if match.startswith("war"):
        low, high = wilson(wins, n)
        draws = n - len(decided)
        print(f"bot under test wins {wins:.0f}/{n} = {wins / n:.1%} (95% interval {low:.1%}-{high:.1%}); "
              f"draws (turn cap) {draws}; losses {n - wins - draws:.0f}")
        print(f"game length: mean {statistics.mean(r.length for r in results):.1f} player turns "
              f"(median {statistics.median(r.length for r in results):.0f})")
        turns = [t for r in results for t in r.turn_times]
        print(f"time per whole turn: median {statistics.median(turns) * 1000:.0f} ms, p99 {percentile(turns, 0.99) * 1000:.0f} ms, "
              f"max {max(turns) * 1000:.0f} ms")
        cpu = [t for r in results for t in r.turn_cpu]
        print(f"CPU time per whole turn (one core): median {statistics.median(cpu) * 1000:.0f} ms, "
              f"p99 {percentile(cpu, 0.99) * 1000:.0f} ms, max {max(cpu) * 1000:.0f} ms")
        if decided:
            share = sum(r.score for r in decided)
            low, high = wilson(share, len(decided))
            print(f"bot under test wins {share:.0f}/{len(decided)} decided games = {share / len(decided):.1%} "
                  f"(95% interval {low:.1%}-{high:.1%})")
        chances, taken = sum(r.chances for r in results), sum(r.taken for r in results)
        print(f"turns with an attack that destroys its target listed: {chances}; attacked in {taken} "
              f"({taken / chances if chances else 0:.0%})")
        lost = [r.arsenals_lost for r in results]
        print(f"arsenals lost per game by the bot under test: mean {statistics.mean(lost):.2f}; none lost in "
              f"{sum(1 for x in lost if x == 0)}/{n} games ({sum(1 for x in lost if x == 0) / n:.0%})")
    elif match == "cw-heuristic":
        low, high = wilson(wins, n)
        print(f"heuristic wins {wins:.2f}/{n} = {wins / n:.1%} (95% interval {low:.1%}-{high:.1%})")
        print(f"games with nobody eligible (no six spellbooks): {n - len(decided)}")
    else:
        share = sum(r.score for r in decided)
        low, high = wilson(share, len(decided))
        tested = "heuristic seats'" if match == "cw-rush" else "search seats'"
        print(f"{tested} share of decided games {share:.2f}/{len(decided)} = "
              f"{(share / len(decided)) if decided else 0:.1%} (95% interval {low:.1%}-{high:.1%}); "
              f"of all games {wins / n:.1%}")
        print(f"games with nobody eligible (no six spellbooks): {n - len(decided)}")
    if match.startswith("cw"):
        print(wins_by_faction(results))
        print(f"game length: mean {statistics.mean(r.length for r in results):.1f} rounds, "
              f"{statistics.mean(r.actions for r in results):.0f} decisions")
        cpu = [t for r in results for t in r.turn_cpu]
        print(f"CPU time per decision of the bot under test (one core): median {statistics.median(cpu) * 1000:.1f} ms, "
              f"p99 {percentile(cpu, 0.99) * 1000:.0f} ms, max {max(cpu) * 1000:.0f} ms")
    print(f"time per decision of the bot under test: median {statistics.median(times) * 1000:.1f} ms, "
          f"p99 {percentile(times, 0.99) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms over {len(times)} decisions")
    sys.stdout.flush()


def wins_by_faction(results: list[GameResult]) -> str:
    """Games won by each faction, when a seat under test played it and when another seat did: which faction
    decides the match, and whether the bot under test plays it better."""
    won: dict[tuple[str, bool], float] = {}
    held: dict[tuple[str, bool], int] = {}
    for r in results:
        for faction, tested, share in r.seats:
            won[faction, tested] = won.get((faction, tested), 0.0) + share
            held[faction, tested] = held.get((faction, tested), 0) + 1
    parts = []
    for faction in sorted({f for f, _ in held}):
        mine, theirs = (faction, True), (faction, False)
        parts.append(f"{faction} {won.get(mine, 0):g}/{held.get(mine, 0)} and {won.get(theirs, 0):g}/{held.get(theirs, 0)}")
    return "games won by each faction, played by a seat under test and by another seat: " + "; ".join(parts)


MATCHES = {
    "war-heuristic": (war_game, 200, None),
    "war-search": (war_game, 100, 1.5),
    "war-raider": (war_game, 100, 1.5),
    "war-raider-heuristic": (war_game, 100, None),
    "cw-heuristic": (cw_game, 200, None),
    "cw-search": (cw_game, 50, 1.0),
    "cw-rush": (cw_game, 40, None),
    "cw-rush-search": (cw_game, 20, 1.0),
}


def run(match: str, games: int | None, seconds: float | None, jobs: int, max_turns: int, verbose: bool,
        factions: str = "default", map_name: str = "earth", iterations: int | None = None, first: int = 0) -> None:
    play, default_games, default_seconds = MATCHES[match]
    games = games or default_games
    seconds = seconds if seconds is not None else default_seconds
    tasks = [(match, seed, seconds, max_turns, factions, map_name, iterations) for seed in range(first, first + games)]
    start = time.perf_counter()
    results: list[GameResult] = []
    try:
        for seed, result in enumerate(played(play, tasks, jobs), start=first):
            results.append(result)
            if verbose:
                print(f"  game {seed}: score {result.score:.2f}, length {result.length}; {result.note}", flush=True)
    except KeyboardInterrupt:  # stopped early (SIGINT or SIGTERM): report the games finished
        print(f"  interrupted after {len(results)} of {games} games", flush=True)
        if not results:
            return
    report(match, results, time.perf_counter() - start, f"{iterations} futures" if iterations else
           f"{seconds} s" if seconds else None)


def played(play, tasks: list[tuple], jobs: int):
    """Each game's result in order, from ``jobs`` worker processes (or this one). Stopped, the workers are ended
    at once: the games finished so far are still reported."""
    if jobs <= 1:
        yield from map(play, tasks)
        return
    pool = multiprocessing.Pool(jobs, initializer=leave_stopping_to_the_parent)
    try:
        yield from pool.imap(play, tasks)
    finally:
        pool.terminate()
        pool.join()


def leave_stopping_to_the_parent() -> None:
    """A worker ignores Ctrl-C (the parent reports, then ends it) and dies at once on SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("match", choices=[*MATCHES, "all"])
    parser.add_argument("--games", type=int)
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's seed (games FIRST to FIRST+N-1: a sample continued where one ended)")
    parser.add_argument("--seconds", type=float, help="search budget per turn (War) or per decision (Cthulhu Wars)")
    parser.add_argument("--iterations", type=int,
                        help="Cthulhu Wars search: futures per decision instead of a time budget (reproducible)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--factions", default="default",
                        help="Cthulhu Wars: 'default' (the first four), 'all' (four of every faction, drawn per game "
                        "group), or a comma-separated list")
    parser.add_argument("--map", default="earth", help="Cthulhu Wars: earth, dreamlands, or mixed (alternating)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    # Stopping a run (SIGINT or SIGTERM, even when started in the background, where SIGINT is ignored) reports the
    # games finished so far.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.default_int_handler)
    for match in MATCHES if args.match == "all" else [args.match]:
        run(match, args.games, args.seconds, args.jobs, args.max_turns, args.verbose, args.factions, args.map,
            args.iterations, args.first)


if __name__ == "__main__":
    main()
