"""A Game of War: a search player that looks a whole turn ahead of its own (rules ``game-of-war/turn``).

A Game of War has no dice and, once play begins, no hidden information, so the search is a plain
two-ply look-ahead over *whole turns*:

1. **Candidate turns.** The heuristic's greedy plan, then plans that start with each of the next
   best first moves (by the evaluation) and are completed greedily, best first.
2. **Replies.** For each candidate, the opponent's whole reply is planned the same way (its own
   greedy turn: up to five moves and its best attack), and the position after it is evaluated for
   us with the static evaluation (``evaluation.py``): material, lines of communication, threats,
   our chances on the next turn, advance.
3. The candidate whose worst foreseen outcome is best is played. Candidates are examined until the
   budget runs out (by default 1.5 s per turn, spent on the turn's first decision; the plan is then
   kept for the turn's remaining moves), at least two of them.

With a budget in iterations (candidates examined) the search is exactly reproducible.
"""

from __future__ import annotations

import time
from typing import Any

from tabletop.core.rng import Rng
from tabletop.games.game_of_war.notation import action_of
from tabletop.games.game_of_war.state import OVER, SETUP, State

from ..base import Budget, Suggestion
from . import evaluation as ev
from .heuristic import TurnPlanner, explain, position_key, remember, setup_suggestion

DEFAULT_SECONDS = 1.5
#: The opponent model moves only units within this many squares of an enemy unit or an arsenal (relays always).
MODEL_FOCUS = 6


class WarSearchBot:
    """Two-ply whole-turn search with the heuristic as move ordering, opponent model and evaluation."""

    def __init__(self, seed: int = 0, seconds: float | None = DEFAULT_SECONDS, iterations: int | None = None,
                 width: int = 8, noise: float = 0.2, name: str = "search") -> None:
        self.rng = Rng(seed)
        self.name = name
        self.default = Budget(seconds, iterations)
        self.width = width
        self.noise = noise
        self.mine = TurnPlanner(self.rng, 0.0)
        self.model = TurnPlanner(self.rng, 0.0, focus=MODEL_FOCUS)  # the opponent's turn, as the heuristic plays it
        self._plans: dict[tuple, list[tuple]] = {}
        self.last: dict[str, Any] = {}

    def choose(self, engine: Any, state: State, seat: int) -> Any:
        if state.phase == SETUP:
            return setup_suggestion(state, seat).action
        return action_of(self.turn_plan(state, seat, None)[0], state)

    def suggest(self, engine: Any, state: State, seat: int, budget: Budget | None = None) -> Suggestion:
        if state.phase == SETUP:
            return setup_suggestion(state, seat)
        plays = self.turn_plan(state, seat, budget, fresh=budget is not None)
        info = self.last
        lead = (
            f"Searched {info.get('candidates', 0)} whole turns, each against the opponent's best reply as the "
            f"heuristic sees it; this one leaves {info.get('value', 0.0):+.1f} after that reply "
            f"(the plain greedy turn: {info.get('greedy', 0.0):+.1f})."
        )
        return explain(state, seat, plays, lead=lead, value=info.get("value"))

    def turn_plan(self, state: State, seat: int, budget: Budget | None, fresh: bool = False) -> list[tuple]:
        plays = None if fresh else self._plans.get(position_key(state))
        if plays is None:
            plays = self.search(state, seat, budget or self.default)
            self._plans = remember(state, plays)
        return plays

    def search(self, state: State, seat: int, budget: Budget) -> list[tuple]:
        begun = time.perf_counter()
        clock = budget.clock(DEFAULT_SECONDS, None)
        seconds = budget.seconds if (budget.seconds or budget.iterations) else DEFAULT_SECONDS
        cache: dict[tuple, float] = {}
        self.mine.cache = self.model.cache = cache
        self.mine.deadline = None
        self.model.deadline = None if seconds is None else begun + seconds
        greedy, end, _ = self.mine.plan(state, seat)
        first_moves = self.mine.ranked_moves(state, seat, limit=self.width, floor=False)
        candidates: list[list[tuple]] = [greedy] + [[m] for _, m, _ in first_moves if not greedy or m != greedy[0]]
        seen: set[tuple] = set()
        best_value, best_plays, examined, greedy_value = float("-inf"), greedy, 0, 0.0
        spent_each = 0.0
        for i, plays in enumerate(candidates):
            now = time.perf_counter()
            if i >= 2 and (not clock.more() or (seconds is not None and now + spent_each > begun + seconds)):
                break
            if i > 0:
                plays, end, _ = self.mine.plan(state, seat, first=plays[0])
            key = position_key(end)
            if key in seen:
                continue
            seen.add(key)
            value = self.reply_value(end, seat)
            spent_each = max(spent_each, time.perf_counter() - now)
            if i == 0:
                greedy_value = value
            value += self.noise * (self.rng.below(1 << 20) / (1 << 20) - 0.5)
            examined += 1
            if value > best_value:
                best_value, best_plays = value, plays
        self.mine.cache = self.model.cache = None
        self.model.deadline = None
        self.last = {"candidates": examined, "value": best_value, "greedy": greedy_value}
        return best_plays

    def reply_value(self, end: State, seat: int) -> float:
        """Our evaluation after the opponent's planned reply to a turn ending in ``end``."""
        if end.phase == OVER:
            return ev.score(end, seat)
        _, after, _ = self.model.plan(end, end.side)
        return self.model.score(after, seat)


__all__ = ["WarSearchBot"]
