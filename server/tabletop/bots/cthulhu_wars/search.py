"""Cthulhu Wars: a search player that handles hidden Elder Signs and dice (rules ``cthulhu-wars/turn``).

Information-set Monte Carlo search over the seat's own information (``information.py``): every
iteration draws a fresh *determinisation*, a copy of the game in which the other factions' Elder
Signs are dealt at random from the tokens the seat has not seen and the dice come from the bot's
own generator, so the real hidden values and the game's real future dice are never read.

1. The heuristic (``heuristic.py``), judging by the hand-made evaluation alone, ranks every legal
   answer one step ahead; the best few (and any close to the best) are the candidates. A decision
   where the heuristic's best is far ahead, or that is not one of the seat's main choices (its
   turn's action, a Ritual, a battle's pre-battle abilities), is left to the heuristic.
2. Each iteration picks a candidate by UCB1, plays it on a new determinisation, and plays the game
   on until the seat's next turn begins or the phase changes, every seat's turn action chosen by a
   light greedy look-ahead (``GreedyPolicy``: the evaluation one step ahead over a few answers, as
   each faction would judge it) and every other decision by the fast policy (``policy.py``); then the
   position is scored by the search's evaluation: the heuristic's, plus ``WIN_CHANCE`` points times the
   chance of winning from there by a model learned from games between heuristic players (``win_model.py``).
   Dice are thus sampled, enemy replies included. The model was fitted to positions at the start of a turn,
   which is where a future ends; it is not used one step ahead, in the middle of a round (see ``__init__``).
3. The heuristic's own value of a candidate counts as ``PRIOR`` samples of its mean, so a few noisy
   futures do not overturn a clear one-step judgement; the candidate with the best mean is played
   (ties: the heuristic's order). The budget is kept: no rollout starts once it is spent (the
   heuristic's ranking counts against it), and a candidate never played out keeps its prior.

The budget is wall-clock seconds per decision (default 1 s; a tournament may allow up to 5 s; a benchmark may
count the process's CPU time instead, with ``timer``) or a number of iterations (exactly reproducible).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars.engine import ENGINE
from tabletop.games.cthulhu_wars.state import GameState

from ..base import Budget, Suggestion
from . import evaluation as ev
from .heuristic import NEVER, CwHeuristicBot, Scored, explain
from .information import determinise
from .policy import FastPolicy
from .sim import playout, settle, step

DEFAULT_SECONDS = 1.0
#: Candidates searched, and how far behind the heuristic's best a candidate may be.
WIDTH = 5
MARGIN = 12.0
#: Most decisions played out after the candidate in one iteration.
HORIZON = 80
EXPLORATION = 6.0
#: The heuristic's one-step value counts as this many samples of a candidate's mean.
PRIOR = 4
#: Answers the rollouts' greedy look-ahead compares for a turn action.
GREEDY_WIDTH = 12
#: What a certain win by the learned model (``win_model.py``) adds to the search's evaluation, in points.
WIN_CHANCE = 165.0
#: The search's evaluation: the heuristic's, plus the learned chance of winning.
WEIGHTS = replace(ev.DEFAULT, win_chance=WIN_CHANCE)


class CwSearchBot:
    """Determinised Monte Carlo search over the heuristic's best candidates (see module docstring)."""

    def __init__(self, seed: int = 0, seconds: float | None = DEFAULT_SECONDS, iterations: int | None = None,
                 width: int = WIDTH, name: str = "search", timer: Callable[[], float] = time.perf_counter,
                 weights: ev.Weights = WEIGHTS) -> None:
        self.rng = Rng(seed * 2654435761 + 3)
        self.weights = weights
        self.timer = timer  # the budget's clock: wall time by default; benchmarks may pass the process's CPU time
        # The learned chance judges only where a future ends, at the start of a turn of ours, the kind of position it
        # was fitted to. One step ahead, in the middle of a round, it sees what an action takes before anyone has
        # answered it (a capture beside an enemy Great Old One, say): the one-step ranking, the decisions left to
        # it and every seat's moves in the futures use the hand-made evaluation alone, as the heuristic players do.
        hand_made = replace(weights, win_chance=0.0)
        self.heuristic = CwHeuristicBot(seed, weights=hand_made)
        self.rollout_policy = GreedyPolicy(Rng(seed * 40503 + 11), weights=hand_made)
        self.default = Budget(seconds, iterations)
        self.width = width
        self.name = name
        self.last: dict[str, Any] = {}

    def choose(self, engine: Any, state: GameState, seat: int) -> Any:
        guard = self.heuristic.guard
        return guard.chose(state, seat, self.decide(state, seat, self.default, guard.fresh)[0][0].action)

    def suggest(self, engine: Any, state: GameState, seat: int, budget: Budget | None = None) -> Suggestion:
        legal = ENGINE.legal_actions(state, seat)
        if len(legal) == 1:
            return Suggestion(legal[0], "The only legal answer now.")
        ranked, searched = self.decide(state, seat, budget or self.default)
        if not searched:
            return explain(state, seat, ranked, "Left to the heuristic (one step ahead, every legal answer)",
                           self.heuristic.weights)
        info = self.last
        lead = (
            f"Searched {info['iterations']} sampled futures (other factions' Elder Signs and the dice drawn at random, "
            f"every faction played on until our next turn) over {info['candidates']} candidates"
        )
        suggestion = explain(state, seat, ranked, lead, self.weights, tie=None)  # means of futures, not one-step values
        suggestion.odds.append(
            "mean outcome per candidate: "
            + "; ".join(f"'{ENGINE.notation(a)}' {m:+.1f} over {n}" for a, m, n in info["table"])
        )
        return suggestion

    # ---- deciding -------------------------------------------------------------------------
    def decide(self, state: GameState, seat: int, budget: Budget, narrow: Any = None) -> tuple[list[Scored], bool]:
        """The answers best first, and whether the search (rather than the heuristic alone) chose; ``narrow``
        filters the legal answers (the repeat guard)."""
        legal = ENGINE.legal_actions(state, seat)
        if narrow is not None and len(legal) > 1:
            legal = narrow(state, seat, legal)
        if len(legal) == 1:
            return [Scored(legal[0], 0.0, 1, False)], False
        clock = budget.clock(DEFAULT_SECONDS, None, self.timer)  # the heuristic's ranking counts against the budget too
        ranked = self.heuristic.rank(state, seat, legal)
        if not main_choice(state, seat) or len(ranked) == 1:
            return ranked, False
        best = ranked[0].value
        candidates = [s for s in ranked[: self.width] if s.value >= best - MARGIN]
        if len(candidates) == 1:
            return ranked, False
        prior = [c.value for c in candidates]
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        iterations = 0
        while clock.more():  # the ranking above counts against the budget: out of time, the heuristic's order
            iterations += 1
            unseen = [k for k in range(len(candidates)) if not counts[k]]
            if unseen:
                i = unseen[0]
            else:
                means = blended(prior, totals, counts)
                log_n = math.log(iterations + PRIOR * len(candidates))
                i = max(range(len(candidates)),
                        key=lambda k: means[k] + EXPLORATION * math.sqrt(log_n / (counts[k] + PRIOR)))
            totals[i] += self.rollout(state, seat, candidates[i].action)
            counts[i] += 1
        means = [(m, -k) for k, m in enumerate(blended(prior, totals, counts))]
        order = sorted(range(len(candidates)), key=lambda k: means[k], reverse=True)
        chosen = [Scored(candidates[k].action, means[k][0], counts[k], True) for k in order]
        rest = [s for s in ranked if all(s.action != c.action for c in chosen)]
        self.last = {
            "iterations": iterations,
            "candidates": len(candidates),
            "table": [(candidates[k].action, means[k][0], counts[k]) for k in order],
        }
        return chosen + rest, True

    def rollout(self, state: GameState, seat: int, action: Any) -> float:
        """One sampled future: a new determinisation, the candidate, then every seat by the greedy policy until
        our next turn begins or the phase changes; the evaluation of where it ends."""
        world = determinise(state, seat, self.rng)
        start = (world.round, world.phase)
        world = settle(step(world, seat, action), seat, self.rollout_policy.fast, start=start)
        acted = {"ours": False}

        def stop(s: GameState) -> bool:
            if (s.round, s.phase) != start:
                return True
            turn = s.turn
            if not s.pending and turn is not None and turn.seat == seat and not turn.acted and not turn.moving:
                return acted["ours"]
            if turn is not None and turn.seat != seat:
                acted["ours"] = True
            return False

        world = playout(world, lambda _: self.rollout_policy, HORIZON, stop)
        return ev.value(world, seat, start[0], self.weights)


def blended(prior: list[float], totals: list[float], counts: list[int]) -> list[float]:
    """Each candidate's mean: its rollouts' values, with the heuristic's one-step value counted as ``PRIOR``
    samples. The one-step values are first moved onto the rollouts' scale (the rollouts end later, after the
    other factions' turns) by the mean gap between the two over every rollout made."""
    n = sum(counts)
    gap = sum(totals[k] - counts[k] * prior[k] for k in range(len(prior))) / n if n else 0.0
    return [(PRIOR * (prior[k] + gap) + totals[k]) / (PRIOR + counts[k]) for k in range(len(prior))]


class GreedyPolicy:
    """The rollouts' policy: a seat's turn action by the evaluation one step ahead (for that seat) over at most
    ``width`` answers (Moves thinned out first, as in the heuristic's pruning), every other decision by the fast
    policy. Cheaper than the heuristic (one sample, fewer answers), much stronger than the fast policy."""

    def __init__(self, rng: Rng, width: int = GREEDY_WIDTH, weights: ev.Weights = ev.DEFAULT) -> None:
        self.fast = FastPolicy(rng)
        self.weights = weights
        self.rng = rng
        self.width = width

    def choose(self, state: GameState, seat: int, legal: list[Any]) -> Any:
        if len(legal) == 1 or not main_choice(state, seat) or state.pending:
            return self.fast.choose(state, seat, legal)
        candidates = thin([a for a in legal if a.kind not in NEVER] or legal, self.width, self.rng)
        start = (state.round, state.phase)
        best, best_value = candidates[0], float("-inf")
        for action in candidates:
            after = settle(step(state, seat, action), seat, self.fast, start=start)
            value = ev.value(after, seat, start[0], self.weights)
            if value > best_value:
                best, best_value = action, value
        return best


def thin(legal: list[Any], width: int, rng: Rng) -> list[Any]:
    """At most ``width`` answers: every answer that is not a Move first, then Moves drawn at random."""
    if len(legal) <= width:
        return legal
    others = [a for a in legal if a.kind != "move"]
    moves = [a for a in legal if a.kind == "move"]
    if len(others) >= width:
        picked = list(others)
        for i in range(len(picked) - 1, 0, -1):
            j = rng.below(i + 1)
            picked[i], picked[j] = picked[j], picked[i]
        return picked[:width]
    for i in range(len(moves) - 1, 0, -1):
        j = rng.below(i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    return others + moves[: width - len(others)]


def main_choice(state: GameState, seat: int) -> bool:
    """The decisions worth searching: the turn's action (not the further units of a Move), a Ritual, pre-battle."""
    if state.pending:
        return state.pending[0].kind in ("ritual", "pre-battle")
    turn = state.turn
    return turn is not None and turn.seat == seat and not turn.acted and not turn.moving


__all__ = ["CwSearchBot", "main_choice"]
