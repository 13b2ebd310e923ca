"""Where solved games come from: the shipped tables, a cache folder, or a solve on first use.

The standard game (goal 13, the 8/4/3 bag, default rulings) ships solved for two and three players
(package data, written by ``tabletop solve cthulhu-dice``). Any other variant is solved the first
time it is asked for, in a background thread (one at a time), and written to a cache folder so the
solve is paid once; the folder is created readable by its owner only. Without a folder (an
in-memory game store) solutions are kept in memory only. Nothing here knows about MCP.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

from .model import CTHULHU_DICE, HAND_SIZE, TENTACLES_TO_DOWN, GameRules
from .solver import Solution, read_solution, save_solution, solve, table_path

#: Calibration of ``estimate``: seconds per (dice state x solver context x total) on the reference
#: machine, measured from the standard two- and three-player solves (benchmarks/cthulhu_dice_solver.py).
SECONDS_PER_UNIT = {2: 1.3e-7, 3: 1.6e-7}
#: Largest solve started on demand: estimated seconds (two hours covers every goal with the standard bag
#: for two players) and dice states of a turn (memory: the turn graph is built in Python).
MAX_SECONDS = 2 * 60 * 60
MAX_STATES = 400_000
#: Largest number of players solved exactly (more: the duel approximation, see ``advice``).
MAX_EXACT_PLAYERS = 3


def dice_states(counts: tuple[int, ...]) -> int:
    """Dice states of a turn, counted without enumerating them (an upper bound on those reachable)."""
    kinds = len(counts)
    tentacles = [t for t in product(range(TENTACLES_TO_DOWN), repeat=kinds) if sum(t) < TENTACLES_TO_DOWN]
    clues = [c for c in product(range(HAND_SIZE + 1), repeat=kinds) if sum(c) <= HAND_SIZE]
    total = 0
    for t in tentacles:
        for c in clues:
            ways = 1
            for n, a, b in zip(counts, t, c):
                ways *= max(0, n - a - b + 1)
            total += ways
    return total


def estimate(rules: GameRules, players: int) -> float:
    """Seconds a solve is expected to take here (a rough model: dice states x contexts x totals)."""
    contexts = rules.goal**players
    return SECONDS_PER_UNIT.get(players, 2e-7) * dice_states(rules.dice.counts) * contexts * (rules.cap + 1)


class TooLarge(Exception):
    """The variant is too large to solve on demand."""


@dataclass
class SolveJob:
    """A solve in progress (or finished): progress for the client, the result or the error."""

    rules: GameRules
    players: int
    estimate: float
    started: float = field(default_factory=time.monotonic)
    fraction: float = 0.0
    message: str = "waiting for another solve to finish"
    running: bool = False
    done: threading.Event = field(default_factory=threading.Event)
    solution: Solution | None = None
    error: str | None = None
    began: float | None = None

    def update(self, fraction: float, message: str) -> None:
        self.fraction, self.message = fraction, message or self.message

    def seconds_left(self) -> float:
        """Remaining time: from the progress so far once it means something, else the estimate."""
        if self.began is None:
            return self.estimate
        spent = time.monotonic() - self.began
        if self.fraction >= 0.05 and spent > 1.0:
            return max(0.0, spent * (1.0 - self.fraction) / self.fraction)
        return max(0.0, self.estimate - spent)


class Tables:
    """Solved games by (rules, players): memory, then the shipped tables, then the cache folder, else a
    background solve (``request``)."""

    def __init__(self, folder: Path | str | None = None, shipped: dict | None = None):
        self.folder = Path(folder) if folder is not None else None
        self.shipped = shipped if shipped is not None else {(CTHULHU_DICE, 2): table_path(2), (CTHULHU_DICE, 3): table_path(3)}
        self.memory: dict[tuple[GameRules, int], Solution] = {}
        self.jobs: dict[tuple[GameRules, int], SolveJob] = {}
        self.lock = threading.Lock()
        self.queue_lock = threading.Lock()  # one solve at a time

    # --- finding a solution ----------------------------------------------------------------
    def path(self, rules: GameRules, players: int) -> Path | None:
        if self.folder is None:
            return None
        return self.folder / f"{players}p-{rules.fingerprint()}.npz"

    def source(self, rules: GameRules, players: int) -> str:
        """Where the solution for these rules comes (or will come) from, in words."""
        if (rules, players) in self.shipped:
            return "shipped table"
        return "solved on first use, cached" if self.folder is not None else "solved on first use, kept in memory"

    def lookup(self, rules: GameRules, players: int) -> Solution | None:
        """The solution if it is at hand (memory, shipped, cached on disk); None if it must be solved."""
        key = (rules, players)
        with self.lock:
            if key in self.memory:
                return self.memory[key]
        found = None
        if key in self.shipped:
            found = read_solution(self.shipped[key])
        else:
            path = self.path(rules, players)
            if path is not None and path.exists():
                try:
                    found = read_solution(path)
                except Exception:  # a damaged cache file is solved again
                    found = None
                if found is not None and (found.rules != rules or found.players != players):
                    found = None
        if found is not None:
            with self.lock:
                self.memory[key] = found
        return found

    def check_size(self, rules: GameRules, players: int) -> None:
        if players > MAX_EXACT_PLAYERS:
            raise TooLarge(f"exact solutions are for up to {MAX_EXACT_PLAYERS} players")
        states = dice_states(rules.dice.counts)
        seconds = estimate(rules, players)
        if states > MAX_STATES or seconds > MAX_SECONDS:
            raise TooLarge(
                f"this variant is too large to solve here on demand (about {states:,} dice states per turn and "
                f"an estimated {seconds / 60:.0f} minutes for {players} players; the limit is {MAX_STATES:,} states "
                f"and {MAX_SECONDS // 60} minutes)"
            )

    def seconds_left(self, job: SolveJob) -> float:
        """Time until ``job`` is done, including the solves queued before it (one runs at a time)."""
        if job.done.is_set():
            return 0.0
        left = job.seconds_left()
        if job.began is None:
            with self.lock:
                ahead = [j for j in self.jobs.values() if j is not job and not j.done.is_set() and j.started <= job.started]
            left += sum(j.seconds_left() for j in ahead)
        return left

    # --- solving on demand -----------------------------------------------------------------
    def request(self, rules: GameRules, players: int) -> SolveJob:
        """The (possibly finished) job that provides this solution, starting a background solve if needed.

        Raises ``TooLarge`` for variants beyond the on-demand limits."""
        key = (rules, players)
        with self.lock:
            job = self.jobs.get(key)
            if job is not None and not (job.done.is_set() and job.error):
                return job
        found = self.lookup(rules, players)
        with self.lock:
            if found is not None:
                job = SolveJob(rules, players, 0.0, fraction=1.0, message="ready", solution=found)
                job.done.set()
                return job
            if key in self.jobs and not self.jobs[key].error:
                return self.jobs[key]
            self.check_size(rules, players)
            job = SolveJob(rules, players, estimate(rules, players))
            self.jobs[key] = job
        threading.Thread(target=self.run, args=(job,), name=f"cthulhu-dice-solve-{players}p", daemon=True).start()
        return job

    def run(self, job: SolveJob) -> None:
        key = (job.rules, job.players)
        with self.queue_lock:
            job.running, job.began, job.message = True, time.monotonic(), "solving"
            try:
                subgames = {}
                if job.players > 2 and job.rules.tie_rule == "tiebreak_rounds":
                    two = self.lookup(job.rules, 2)
                    if two is not None:
                        subgames[2] = two
                solution = solve(job.rules, job.players, progress=job.update, subgames=subgames)
                path = self.path(job.rules, job.players)
                if path is not None:
                    self.write(solution, path)
                with self.lock:
                    self.memory[key] = solution
                job.solution, job.fraction, job.message = solution, 1.0, "ready"
            except Exception as err:  # reported to whoever asks next
                job.error = f"{type(err).__name__}: {err}"
            finally:
                job.running = False
                job.done.set()

    def write(self, solution: Solution, path: Path) -> None:
        """Write atomically into a folder only the owner can read (the folder is created so)."""
        make_private_folder(path.parent)
        handle, temporary = tempfile.mkstemp(prefix=".solving-", suffix=".npz", dir=path.parent)
        os.close(handle)
        try:
            os.chmod(temporary, 0o600)
            save_solution(solution, temporary)
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)


def make_private_folder(folder: Path) -> None:
    """Create ``folder`` (and missing parents) readable and writable by the owner only."""
    missing = []
    at = folder
    while not at.exists():
        missing.append(at)
        at = at.parent
    for path in reversed(missing):
        path.mkdir(mode=0o700, exist_ok=True)
        os.chmod(path, 0o700)
    os.chmod(folder, 0o700)
