"""Exact optimal play of Cthulhu Dice for two or three players: every bag, goal, tie rule and bag ruling.

Solution concept (rules_text cthulhu-dice/advice): every player, at every decision, picks the
choice that maximises **their own** probability of winning the game, assuming everyone does the
same from then on; a player for whom retreating and rolling are worth exactly the same retreats.
With two players this is the usual optimal play of a zero-sum game. With three it is a
subgame-perfect equilibrium in stationary strategies (every player a best response to the
others at every position), the one backward induction over the scores reaches; the tie rule
makes every choice definite, and ``solve_rings`` certifies the decisions where they depend on
each other in a circle. A shared win counts as 1/k of a win for each of the k players sharing it.

Model
-----
* A *context* is a turn about to start: the seat to move and every banked score (capped at
  ``rules.cap``, twice the goal; players tied at the cap share the win). Its value is the vector
  of every player's win probability. Players who have already moved this round and cannot win
  any more (someone who moved is ahead of them at or above the goal) have their score written as
  0: it cannot matter, which makes many contexts one.
* Within a turn, ``turn.backward_pass`` finds the mover's decisions and every player's values
  for a whole batch of contexts at once.
* Scores never decrease, so contexts form an acyclic graph except for *rings*: when every player
  of the round banks nothing the round repeats (all below the goal, or all tied in a tie-break
  round). A ring's values solve a small linear system once the decisions are known; the
  decisions are found by Newton's method (policy iteration) on the downed value, and a step is
  exact once it stays where no decision changes (``PolicyRange``).
* Contexts of one seat whose scores differ only in the mover's own score, when that score no
  longer matters (it is below every total that could change the result), are a *race*: one turn
  solved from 0 gives all of them (the last seat chasing a leader at the goal, for instance).
* Tie-break rounds among k < players tied leaders are the k-player game from that tie; the
  solver solves those first (``tie_only``).
"""

from __future__ import annotations

import io
import json
import time
from functools import lru_cache
from itertools import product
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .model import (  # noqa: F401  (the rules are re-exported with the solver)
    CTHULHU_DICE,
    EXHAUSTION_RULINGS,
    NELLER_ZOMBIE_DICE_FIRST_PLAYER,
    ZOMBIE_DICE,
    DiceRules,
    GameRules,
)
from .turn import backward_pass, turn_graph

Scores = tuple[int, ...]
Key = tuple[int, Scores]  # (seat to move, banked scores)
Ref = tuple  # ("v", value vector) or ("c", context key): what banking a total leads to

#: Where ``build_table`` writes and ``load_table`` reads the shipped tables.
DATA_DIR = Path(__file__).with_name("data")
TABLE_FORMAT = "tabletop/cthulhu-dice/optimal/2"
#: Values kept per numpy pass of the turn solver (states x columns), so a batch's memory stays bounded.
PASS_CELLS = 1 << 24

Progress = Callable[[float, str], None]


def table_path(players: int) -> Path:
    """The shipped table for the standard game with ``players`` players."""
    return DATA_DIR / f"optimal_{players}p_13.npz"


# ---------------------------------------------------------------------------------------------
# The game between turns
# ---------------------------------------------------------------------------------------------


class Game:
    """Contexts of the ``players``-player game and what banking a total leads to (rules_text cthulhu-dice/end)."""

    def __init__(self, rules: GameRules, players: int, subgames: dict[int, Solution] | None = None):
        if players < 2:
            raise ValueError("a game needs at least two players")
        self.rules, self.players = rules, players
        self.subgames = subgames or {}

    def canonical(self, seat: int, scores: Scores) -> Key:
        """Scores of players who moved this round and can no longer win (someone who moved leads at or
        above the goal) do not matter: written as 0."""
        if seat == 0:
            return (0, scores)
        leader = max(scores[:seat])
        if leader < self.rules.goal:
            return (seat, scores)
        return (seat, tuple(0 if j < seat and s < leader else s for j, s in enumerate(scores)))

    def round_end(self, scores: Scores) -> Ref:
        """After the last seat's turn: play on, a winner, a shared win, or a tie-break among the leaders."""
        rules, n = self.rules, self.players
        best = max(scores)
        if best < rules.goal:
            return ("c", (0, scores))
        leaders = [j for j, s in enumerate(scores) if s == best]
        if len(leaders) == 1:
            return ("v", tuple(1.0 if j == leaders[0] else 0.0 for j in range(n)))
        if rules.tie_rule == "shared_win" or best >= rules.cap:
            share = 1.0 / len(leaders)
            return ("v", tuple(share if j in leaders else 0.0 for j in range(n)))
        if len(leaders) == n:
            return ("c", (0, scores))
        sub = self.subgames[len(leaders)].value((0, (best,) * len(leaders)))
        vec = [0.0] * n
        for k, j in enumerate(leaders):
            vec[j] = float(sub[k])
        return ("v", tuple(vec))

    def after(self, key: Key, total: int) -> Ref:
        """What the mover banking ``total`` (capped) leads to."""
        seat, scores = key
        banked = scores[:seat] + (min(total, self.rules.cap),) + scores[seat + 1 :]
        if seat + 1 < self.players:
            return ("c", self.canonical(seat + 1, banked))
        return self.round_end(banked)

    def starts(self, tie_only: bool) -> list[Key]:
        if not tie_only:
            return [(0, (0,) * self.players)]
        if self.rules.tie_rule != "tiebreak_rounds":
            return []
        return [(0, (t,) * self.players) for t in range(self.rules.goal, self.rules.cap)]


# ---------------------------------------------------------------------------------------------
# Solutions and their tables
# ---------------------------------------------------------------------------------------------


@dataclass
class Solution:
    """Win probabilities at every turn start, under the solution concept of this module.

    ``values[seat][scores]`` is the vector of every player's win probability when ``seat`` is about
    to start a turn with those banked scores (canonical, see ``Game.canonical``); NaN where no
    such turn can happen. ``subgames[k]``: the k-player tie-break values a tie among k leaders leads to.
    """

    rules: GameRules
    players: int
    values: np.ndarray
    subgames: dict[int, Solution] = field(default_factory=dict)
    tie_only: bool = False
    turn_solves: int = 0
    seconds: float = 0.0

    @property
    def game(self) -> Game:
        return Game(self.rules, self.players, self.subgames)

    def value(self, key: Key) -> np.ndarray:
        seat, scores = self.game.canonical(*key)
        found = self.values[(seat, *scores)]
        if np.isnan(found[0]):
            raise KeyError(f"no turn of seat {seat} starts at scores {scores} (goal {self.rules.goal})")
        return found

    def known(self, key: Key) -> bool:
        seat, scores = self.game.canonical(*key)
        return not np.isnan(self.values[(seat, *scores, 0)])

    def resolve(self, ref: Ref) -> np.ndarray:
        return np.asarray(ref[1], dtype=float) if ref[0] == "v" else self.value(ref[1])

    @property
    def first_player_win(self) -> float:
        """Probability that seat 0 wins from the start under the solution concept."""
        return float(self.value((0, (0,) * self.players))[0])

    @property
    def contexts(self) -> int:
        return int((~np.isnan(self.values[..., 0])).sum())

    # --- two players: the matrices of the first format ---------------------------------------
    @property
    def first_to_move(self) -> np.ndarray:
        """Two players: the first player's win probability when about to roll, ``[first, second]``."""
        return self.values[0][..., 0]

    @property
    def second_to_move(self) -> np.ndarray:
        """Two players: the second player's win probability when about to roll (their turn ends the round)."""
        return self.values[1][..., 1]


def empty_values(rules: GameRules, players: int) -> np.ndarray:
    return np.full((players,) + (rules.cap + 1,) * players + (players,), np.nan)


def save_solution(solution: Solution, path: Path | str) -> int:
    """Write ``solution`` as a compressed npz (float64, NaN where no turn starts); returns its size in bytes."""
    arrays = {"values": solution.values}
    meta = {
        "format": TABLE_FORMAT,
        "description": (
            "values[seat][s0, ..., s(n-1)] = every player's win probability when `seat` is about to start a "
            "turn with banked scores s (capped at rules.cap; scores of players who moved this round and can "
            "no longer win are written 0); NaN = no such turn. sub<k>: the same for k-player tie-breaks."
        ),
        "rules": solution.rules.to_json(),
        "players": solution.players,
        "tie_only": solution.tie_only,
        "first_player_win": None if solution.tie_only else solution.first_player_win,
        "subgames": sorted(solution.subgames),
    }
    for k, sub in solution.subgames.items():
        arrays[f"sub{k}"] = sub.values
    buffer = io.BytesIO()
    np.savez_compressed(buffer, meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8), **arrays)
    data = buffer.getvalue()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return len(data)


def read_solution(path: Path | str) -> Solution:
    with np.load(Path(path)) as data:
        meta = json.loads(bytes(data["meta"]).decode())
        if meta.get("format") != TABLE_FORMAT:
            raise ValueError(f"{path} is not a table of format {TABLE_FORMAT}")
        rules = GameRules.from_json(meta["rules"])
        subgames = {
            k: Solution(rules, k, np.array(data[f"sub{k}"]), tie_only=True) for k in meta["subgames"]
        }
        for k, sub in subgames.items():
            sub.subgames = {j: s for j, s in subgames.items() if j < k}
        return Solution(rules, meta["players"], np.array(data["values"]), subgames, tie_only=meta["tie_only"])


_loaded: dict[tuple[str, float], Solution] = {}


def load_table(path: Path | str | None = None, players: int = 2) -> Solution:
    """A table written by ``build_table`` (default: the shipped standard table for ``players``)."""
    path = Path(path) if path is not None else table_path(players)
    stamp = (str(path), path.stat().st_mtime)
    if stamp not in _loaded:
        _loaded[stamp] = read_solution(path)
    return _loaded[stamp]


def build_table(rules: GameRules = CTHULHU_DICE, players: int = 2, path: Path | str | None = None,
                progress: Progress | None = None) -> tuple[Solution, int]:
    """Solve and write the table (default path: the shipped one); returns the solution and the file size."""
    solution = solve(rules, players, progress=progress)
    size = save_solution(solution, path if path is not None else table_path(players))
    return solution, size


# ---------------------------------------------------------------------------------------------
# Solving
# ---------------------------------------------------------------------------------------------


@dataclass
class Job:
    """Contexts solved together: a ring (solved by Newton's method), a race (one turn from 0 gives every
    member) or a single context."""

    kind: str
    keys: list[Key]
    movers: list[int]  # the pass's banked score per column (0 for a race)
    refs: list[list[Ref]]  # per column: what banking each total T >= movers[c] leads to
    open_until: int = 0
    deps: set[int] = field(default_factory=set)


class Solver:
    """Solves one game (``solve`` is the entry point)."""

    def __init__(self, rules: GameRules, players: int, tie_only: bool, progress: Progress | None,
                 subgames: dict[int, Solution]):
        self.rules, self.players = rules, players
        self.game = Game(rules, players, subgames)
        self.solution = Solution(rules, players, empty_values(rules, players), subgames, tie_only)
        self.graph = turn_graph(rules.dice)
        self.progress = progress
        self.cap = rules.cap
        self.done_work = 0.0
        self.total_work = 1.0
        cells = (len(self.graph.states) + 1) * 5
        self.max_width = max(4, PASS_CELLS // cells)

    # --- the context graph -------------------------------------------------------------------
    def contexts(self, tie_only: bool) -> list[Key]:
        found = {}
        stack = list(self.game.starts(tie_only))
        for key in stack:
            found[key] = True
        while stack:
            key = stack.pop()
            for total in range(key[1][key[0]], self.cap + 1):
                ref = self.game.after(key, total)
                if ref[0] == "c" and ref[1] not in found:
                    found[ref[1]] = True
                    stack.append(ref[1])
        return sorted(found, key=lambda k: (-sum(k[1]), k))

    def rings(self, keys: list[Key]) -> list[list[Key]]:
        """Cycles of "bank nothing": each key has one such successor."""
        succ = {}
        for key in keys:
            ref = self.game.after(key, key[1][key[0]])
            succ[key] = ref[1] if ref[0] == "c" else None
        state: dict[Key, int] = {}
        found = []
        for key in keys:
            path = []
            at = key
            while at is not None and at not in state:
                state[at] = 1
                path.append(at)
                at = succ[at]
            if at is not None and state.get(at) == 1 and at in path:
                ring = path[path.index(at) :]
                first = min(range(len(ring)), key=lambda i: ring[i][0])
                found.append(ring[first:] + ring[:first])
            for p in path:
                state[p] = 2
        return found

    def jobs(self, keys: list[Key]) -> list[Job]:
        game, cap = self.game, self.cap
        rings = self.rings(keys)
        in_ring = {k for ring in rings for k in ring}
        jobs = [Job("ring", ring, [k[1][k[0]] for k in ring],
                    [[game.after(k, t) for t in range(k[1][k[0]], cap + 1)] for k in ring]) for ring in rings]
        groups: dict[tuple, list[Key]] = {}
        for key in keys:
            if key in in_ring:
                continue
            seat, scores = key
            groups.setdefault((seat, scores[:seat] + (None,) + scores[seat + 1 :]), []).append(key)
        for (seat, _), members in groups.items():
            members.sort(key=lambda k: k[1][seat])
            refs = [game.after(members[0], t) for t in range(cap + 1)]
            limit = next((t for t in range(1, cap + 1) if refs[t] != refs[0]), cap + 1)
            racing = [k for k in members if k[1][seat] < limit]
            if len(racing) >= 2:
                jobs.append(Job("race", racing, [0], [refs], open_until=racing[-1][1][seat]))
            else:
                racing = []
            for key in members:
                if key not in racing:
                    jobs.append(Job("single", [key], [key[1][seat]], [refs[key[1][seat] :]]))
        owner = {k: j for j, job in enumerate(jobs) for k in job.keys}
        for j, job in enumerate(jobs):
            for refs in job.refs:
                for ref in refs:
                    if ref[0] == "c":
                        other = owner[self.game.canonical(*ref[1])]
                        if other != j:
                            job.deps.add(other)
        return jobs

    @staticmethod
    def waves(jobs: list[Job]) -> list[list[int]]:
        """Jobs in rounds: each round depends only on earlier ones."""
        waiting = {j: len(job.deps) for j, job in enumerate(jobs)}
        users: dict[int, list[int]] = {}
        for j, job in enumerate(jobs):
            for d in job.deps:
                users.setdefault(d, []).append(j)
        ready = [j for j, n in waiting.items() if n == 0]
        waves = []
        while ready:
            waves.append(ready)
            nxt = []
            for j in ready:
                for u in users.get(j, []):
                    waiting[u] -= 1
                    if waiting[u] == 0:
                        nxt.append(u)
            ready = nxt
        if sum(map(len, waves)) != len(jobs):
            raise RuntimeError("the contexts of this game are not acyclic apart from their rings")
        return waves

    # --- values and channels -----------------------------------------------------------------
    @property
    def width(self) -> int:
        """Value channels of a turn: two players need only the mover's (the other's is 1 minus it); with more,
        every player's is carried, so that a probability that is exactly 0 stays exactly 0 (ties at 0 are
        broken by the tie rule, which decides between the others)."""
        return 1 if self.players == 2 else self.players

    def channels(self, vec: np.ndarray, seat: int) -> np.ndarray:
        """Channel order for a turn of ``seat``: the mover first, then the next seats."""
        n = self.players
        return np.array([vec[(seat + k) % n] for k in range(self.width)])

    def vector(self, channels: np.ndarray, seat: int) -> np.ndarray:
        n = self.players
        if n == 2:
            own = float(channels[0])
            return np.array([own, min(1.0, max(0.0, 1.0 - own))] if seat == 0 else [min(1.0, max(0.0, 1.0 - own)), own])
        vec = np.empty(n)
        for k in range(n):
            vec[(seat + k) % n] = channels[k]
        return vec

    def hold_rows(self, seat: int, refs: list[Ref], low: int, ring: bool) -> np.ndarray:
        """``hold[T, ch]`` for T >= low (rows below are zero); a ring's own successor row is filled per step."""
        w = self.width
        rows = np.zeros((self.cap + 1, w + (1 if ring else 0)))
        for offset, ref in enumerate(refs):
            if ring and offset == 0:
                continue
            rows[low + offset, :w] = self.channels(self.solution.resolve(ref), seat)
        return rows

    def run(self, columns: list[tuple[int, np.ndarray, int, int]], ring: bool, ranges: bool = True, rough: bool = False):
        """Solve the turns of ``columns`` (seat, hold rows, mover, open_until) in passes of bounded width.
        A ring's columns carry the derivative channel; ``ranges``: also find the ranges of unchanged decisions;
        ``rough``: single precision (for a first Newton step, which is only a guess)."""
        channels = self.width + (1 if ring else 0)
        per_pass = max(1, self.max_width // channels)
        starts, lowers, uppers = [], [], []
        for first in range(0, len(columns), per_pass):
            part = columns[first : first + per_pass]
            hold = np.stack([c[1] for c in part], axis=1)
            movers = np.array([c[2] for c in part], dtype=np.int64)
            bust = hold[movers, np.arange(len(part))]
            result = backward_pass(self.graph, self.cap, hold, bust, movers, with_ranges=ring and ranges,
                                   open_until=np.array([c[3] for c in part], dtype=np.int64),
                                   dtype=np.float32 if rough else np.float64)
            self.solution.turn_solves += 1
            starts.append(result.start)
            if ring:
                lowers.append(result.ranges.lower if ranges else np.zeros(len(part)))
                uppers.append(result.ranges.upper if ranges else np.zeros(len(part)))
            self.done_work += sum(self.cap + 1 - c[2] for c in part) * (1.5 if ring else 1.0)
            self.report()
        start = np.concatenate(starts, axis=1)
        if ring:
            return start, np.concatenate(lowers), np.concatenate(uppers)
        return start, None, None

    def report(self, message: str = "") -> None:
        if self.progress is not None:
            self.progress(min(0.99, self.done_work / self.total_work), message)

    def store(self, key: Key, vec: np.ndarray) -> None:
        seat, scores = key
        self.solution.values[(seat, *scores)] = vec

    # --- solving -----------------------------------------------------------------------------
    def solve(self) -> Solution:
        started = time.perf_counter()
        keys = self.contexts(self.solution.tie_only)
        jobs = self.jobs(keys)
        self.total_work = sum((self.cap + 1 - m) * (3.0 if job.kind == "ring" else 1.0)
                              for job in jobs for m in job.movers) or 1.0
        for wave in self.waves(jobs):
            plain = [jobs[j] for j in wave if jobs[j].kind != "ring"]
            if plain:
                self.solve_plain(plain)
            rings = [jobs[j] for j in wave if jobs[j].kind == "ring"]
            if rings:
                self.solve_rings(rings)
        self.solution.seconds = time.perf_counter() - started
        if self.progress is not None:
            self.progress(1.0, "solved")
        return self.solution

    def solve_plain(self, jobs: list[Job]) -> None:
        columns = []
        for job in jobs:
            seat = job.keys[0][0]
            columns.append((seat, self.hold_rows(seat, job.refs[0], job.movers[0], False), job.movers[0], job.open_until))
        start, _, _ = self.run(columns, ring=False)
        for c, job in enumerate(jobs):
            seat = job.keys[0][0]
            for key in job.keys:
                self.store(key, self.vector(start[key[1][seat], c], seat))

    def guess(self, key: Key) -> np.ndarray:
        """A starting point for a ring member's values, from the contexts already solved just above it: a
        quadratic fitted to the block of points 0..2 above in every score (a fixed stencil), else a
        bilinear extrapolation from the corner points, else the mean of the points one above."""
        seat, scores = key
        n = self.players
        stencil_points, weights = quadratic_stencil(n)
        found = self.nearby(seat, scores, stencil_points)
        if found is not None:
            vec = weights @ found
        else:
            corners = [tuple((mask >> j) & 1 for j in range(n)) for mask in range(1, 1 << n)]
            found = self.nearby(seat, scores, corners)
            if found is not None:
                signs = np.array([1.0 if sum(c) % 2 else -1.0 for c in corners])
                vec = signs @ found
            else:
                near = [self.solution.value((seat, up)) for up in self.above(scores, [tuple(int(i == j) for i in range(n)) for j in range(n)])
                        if up is not None and self.solution.known((seat, up))]
                vec = np.mean(near, axis=0) if near else np.full(n, 1.0 / n)
        vec = np.clip(vec, 0.0, 1.0)
        return vec / vec.sum() if vec.sum() > 0 else np.full(n, 1.0 / n)

    def above(self, scores: Scores, offsets) -> list[Scores | None]:
        return [None if any(s + o > self.cap for s, o in zip(scores, off)) else tuple(s + o for s, o in zip(scores, off))
                for off in offsets]

    def nearby(self, seat: int, scores: Scores, offsets) -> np.ndarray | None:
        """Values at ``scores + offset`` for every offset, or None if any is missing."""
        rows = []
        for up in self.above(scores, offsets):
            if up is None or not self.solution.known((seat, up)):
                return None
            rows.append(self.solution.value((seat, up)))
        return np.array(rows)

    def solve_rings(self, jobs: list[Job], tol: float = 1e-14, steps: int = 100) -> None:
        """Rings by Newton's method on the downed values (policy iteration).

        Member k's turn is ``U_k = beta_k * U_{k+1} + g_k`` (a vector per player) while its decisions
        stay put, beta_k the chance of banking nothing; around the ring that is one linear equation.
        Each step solves every unfinished ring's turns at the current guesses (with the derivative
        channel), solves the linear ring, and stops when the step stays inside every member's range of
        unchanged decisions (then exact: every member's decisions are best responses at the values
        found) or reproduces itself to ``tol``. The first step starts from a guess that is never close
        enough to be certified, so it only improves the guess: single precision, no ranges.
        """
        n, w = self.players, self.width
        static, guesses = {}, {}
        for r, job in enumerate(jobs):
            static[r] = [self.hold_rows(k[0], refs, m, True) for k, refs, m in zip(job.keys, job.refs, job.movers)]
            guesses[r] = [self.guess(k) for k in job.keys]
        for step in range(steps):
            if not guesses:
                return
            pending = list(guesses)
            columns, where = [], []
            for r in pending:
                job = jobs[r]
                size = len(job.keys)
                for k, key in enumerate(job.keys):
                    rows = static[r][k].copy()
                    nxt = guesses[r][(k + 1) % size]
                    rows[job.movers[k], :w] = self.channels(nxt, key[0])
                    rows[job.movers[k], w] = 1.0
                    columns.append((key[0], rows, job.movers[k], job.movers[k]))
                    where.append((r, k))
            first = step == 0
            start, lower, upper = self.run(columns, ring=True, ranges=not first, rough=first)
            results: dict[int, list] = {r: [None] * len(jobs[r].keys) for r in pending}
            for c, (r, k) in enumerate(where):
                job = jobs[r]
                seat, m = job.keys[k][0], job.movers[k]
                results[r][k] = (self.vector(start[m, c, :w], seat), float(start[m, c, w]), lower[c], upper[c])
            for r in pending:
                job = jobs[r]
                size = len(job.keys)
                x = guesses[r]
                beta = np.array([res[1] for res in results[r]])
                g = [results[r][k][0] - beta[k] * x[(k + 1) % size] for k in range(size)]
                total = np.zeros(n)
                weight = 1.0
                for k in range(size):
                    total += weight * g[k]
                    weight *= beta[k]
                u = [None] * size
                u[0] = total / (1.0 - weight)
                for k in range(size - 1, 0, -1):
                    u[k] = beta[k] * u[(k + 1) % size] + g[k]
                exact = all(
                    results[r][k][2] <= u[(k + 1) % size][job.keys[k][0]] - x[(k + 1) % size][job.keys[k][0]] <= results[r][k][3]
                    for k in range(size)
                )
                settled = max(np.abs(x[(k + 1) % size] - u[(k + 1) % size]).max() for k in range(size)) <= tol
                if not first and (exact or settled):
                    for k, key in enumerate(job.keys):
                        self.store(key, u[k])
                    del guesses[r]
                else:
                    guesses[r] = u
        raise RuntimeError(f"ring values did not converge at {[jobs[r].keys[0] for r in guesses]}")


def recompute(solution: Solution, slices: list[list[Key]]) -> list[Solution]:
    """For each slice (a list of turn starts), a copy of ``solution`` in which the contexts solved together
    with them (their rings, races or single turns) are cleared and solved again from the rest of the table:
    a table is exact only if every such slice reproduces itself."""
    solver = Solver(solution.rules, solution.players, solution.tie_only, None, solution.subgames)
    jobs = solver.jobs(solver.contexts(solution.tie_only))
    waves = solver.waves(jobs)
    owner = {k: j for j, job in enumerate(jobs) for k in job.keys}
    results = []
    for keys in slices:
        wanted = {solver.game.canonical(*k) for k in keys}
        missing = sorted(k for k in wanted if k not in owner)
        if missing:
            raise KeyError(f"not turn starts of this game: {missing}")
        chosen = {owner[k] for k in wanted}
        solver.solution.values = solution.values.copy()
        for j in chosen:
            for seat, scores in jobs[j].keys:
                solver.solution.values[(seat, *scores)] = np.nan
        for wave in waves:
            todo = [jobs[j] for j in wave if j in chosen]
            plain = [job for job in todo if job.kind != "ring"]
            if plain:
                solver.solve_plain(plain)
            rings = [job for job in todo if job.kind == "ring"]
            if rings:
                solver.solve_rings(rings)
        results.append(Solution(solution.rules, solution.players, solver.solution.values, solution.subgames,
                                solution.tie_only))
    return results


@lru_cache(maxsize=None)
def quadratic_stencil(players: int) -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
    """Offsets {0,1,2}^n without 0 and the weights that extrapolate a least-squares quadratic to 0."""
    points = tuple(p for p in product(range(3), repeat=players) if any(p))
    terms = [()] + [(i,) for i in range(players)] + [(i, j) for i in range(players) for j in range(i, players)]
    design = np.array([[np.prod([p[i] for i in term]) if term else 1.0 for term in terms] for p in points], dtype=float)
    return points, np.linalg.pinv(design)[0]


def solve(
    rules: GameRules = CTHULHU_DICE,
    players: int = 2,
    tie_only: bool = False,
    progress: Progress | None = None,
    subgames: dict[int, Solution] | None = None,
) -> Solution:
    """Exact values of every turn start (see the module's solution concept).

    ``tie_only``: only the tie-break rounds (all players tied at or above the goal), which larger
    games need. ``progress(fraction, message)`` is called as the solve goes.
    """
    started = time.perf_counter()
    subgames = dict(subgames or {})
    if rules.tie_rule == "tiebreak_rounds":
        for k in range(2, players):
            if k not in subgames:
                subgames[k] = solve(rules, k, tie_only=True, subgames={j: s for j, s in subgames.items() if j < k})
    solution = Solver(rules, players, tie_only, progress, subgames).solve()
    solution.seconds = time.perf_counter() - started
    return solution


# ---------------------------------------------------------------------------------------------
# Command entry point (wired by the CLI as `tabletop solve cthulhu-dice`)
# ---------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Solve Cthulhu Dice exactly and write the table; prints the time, the table's size and every
    player's win probability from the start."""
    import argparse
    import resource
    import sys

    parser = argparse.ArgumentParser(prog="tabletop solve cthulhu-dice", description=main.__doc__)
    parser.add_argument("--players", type=int, default=2, choices=[2, 3])
    parser.add_argument("--output", help="where to write the table (default: the shipped table of the standard game)")
    parser.add_argument("--bag", default="8,4,3", help="Library,Museum,Tomb dice in the bag (default 8,4,3)")
    parser.add_argument("--goal", type=int, default=13)
    parser.add_argument("--tie-rule", choices=["tiebreak_rounds", "shared_win"], default="tiebreak_rounds")
    parser.add_argument("--exhaustion", choices=list(EXHAUSTION_RULINGS), default="return_elder_signs")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    counts = tuple(int(x) for x in args.bag.split(","))
    rules = GameRules(
        dice=DiceRules(counts=counts, exhaustion=args.exhaustion), goal=args.goal, cap=2 * args.goal, tie_rule=args.tie_rule
    )
    if args.output is None and rules != CTHULHU_DICE:
        parser.error("give --output for a variant (the default path is the standard game's shipped table)")
    output = Path(args.output) if args.output else table_path(args.players)
    shown = [-1.0]

    def progress(fraction: float, message: str) -> None:
        if not args.quiet and fraction - shown[0] >= 0.1:
            shown[0] = fraction
            print(f"  {fraction:4.0%}", file=sys.stderr, flush=True)

    started = time.perf_counter()
    solution, size = build_table(rules, args.players, output, progress)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = solution.value((0, (0,) * args.players))
    print(f"{args.players} players, {rules.describe()}")
    print(f"solved in {time.perf_counter() - started:.1f} s ({solution.turn_solves} batched turn solves, "
          f"{solution.contexts} turn starts), peak memory {peak:.0f} MB")
    print("win probability from the start, by seat: " + ", ".join(f"{p:.7f}" for p in start))
    print(f"table written to {output} ({size / 1024:.0f} KiB)")
    return 0
