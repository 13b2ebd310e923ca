"""A Game of War: a search player that looks whole turns ahead (rules ``game-of-war/turn``).

A Game of War has no dice and, once play begins, no hidden information, so the search weighs
*whole turns* by playing them out:

1. **Candidate turns** (``candidates``), most promising first: the greedy plan by the search's own
   evaluation, then the heuristic's greedy plan; the first one's moves closed another way (each open
   attack, or none); plans that leave the greedy line at its first, second or third move for one of
   the next best moves there (completed greedily); the greedy moves cut short. Interleaved, so that a
   short budget still sees variety.
2. **Play-out.** After each candidate the opponent replies as the heuristic plays (its greedy
   turn: up to five moves and its best attack, without its noise), then each side plays one more
   greedy turn (``ROLLOUT``); the position reached is scored for us. A rollout over whole turns sees
   losses the static terms only guess at: units cut off and picked off, a relay or an arsenal falling
   a turn later.
3. **The search's evaluation** (``press.py``) is the static one (``evaluation.py``: material, lines
   of communication, threats, chances, advance) with raids counted only where a unit can walk on, a
   pull on our nearest unit towards each enemy arsenal, and stranded units at less: so that it
   presses home an advantage instead of standing by a raid no unit can make until the turn cap. Our
   own turns (candidates and rollout) are planned with it; the opponent keeps the heuristic's.
4. The candidate with the best value is played (ties broken by a little noise). Candidates are
   examined until the budget would be overrun by one more (by default 1.5 s per turn, spent on the
   turn's first decision; the plan is kept for the turn's remaining moves); the greedy plan always.

Set-up: the default opening, with North's army east of its mountains and South's guard by its far arsenal
(``deployment.py``).

With a budget in iterations (candidates examined) the search is exactly reproducible. The clock is
wall time; a benchmark may pass the process's CPU time (``timer``) to count one core's seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from tabletop.core.rng import Rng
from tabletop.games.game_of_war.notation import action_of
from tabletop.games.game_of_war.rules import ATTACK, END, MOVE, attack_options, legal_plays, play
from tabletop.games.game_of_war.state import OVER, PLAY, SETUP, State

from ..base import Budget, Suggestion
from .deployment import deployment_suggestion
from .heuristic import TurnPlanner, explain, position_key, remember
from .press import search_score_many

DEFAULT_SECONDS = 1.5
#: Whole turns of each side played out greedily after the opponent's reply, before the static evaluation.
ROLLOUT = 1
#: One more candidate is examined only if this many times the longest so far still fits in the time budget.
SPARE = 1.5


class WarSearchBot:
    """Whole-turn search by play-out, with the heuristic as move ordering, opponent model and rollout policy."""

    def __init__(self, seed: int = 0, seconds: float | None = DEFAULT_SECONDS, iterations: int | None = None,
                 width: int = 8, noise: float = 0.05, rollout: int = ROLLOUT, name: str = "search",
                 timer: Callable[[], float] = time.perf_counter) -> None:
        self.rng = Rng(seed)
        self.name = name
        self.default = Budget(seconds, iterations)
        self.width = width
        self.rollout = rollout
        self.timer = timer  # the budget's clock: wall time by default; benchmarks may pass the thread's CPU time
        self.noise = noise
        self.mine = TurnPlanner(self.rng, 0.0, evaluator=search_score_many)  # our turns, by the search's evaluation
        self.model = TurnPlanner(self.rng, 0.0)  # the opponent's turn, as the heuristic plays it (without its noise)
        self._plans: dict[tuple, list[tuple]] = {}
        self.last: dict[str, Any] = {}

    def choose(self, engine: Any, state: State, seat: int) -> Any:
        if state.phase == SETUP:
            return deployment_suggestion(state, seat).action
        return action_of(self.turn_plan(state, seat, None)[0], state)

    def suggest(self, engine: Any, state: State, seat: int, budget: Budget | None = None) -> Suggestion:
        if state.phase == SETUP:
            return deployment_suggestion(state, seat)
        plays = self.turn_plan(state, seat, budget, fresh=budget is not None)
        info = self.last
        lead = (
            f"Searched {info.get('candidates', 0)} whole turns, each played on against the opponent's reply as the "
            f"heuristic sees it and one more turn of each side; this one leaves {info.get('value', 0.0):+.1f} "
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
        timer = self.timer
        begun = timer()
        if budget.seconds is None and budget.iterations is None:
            budget = Budget(DEFAULT_SECONDS, None)
        seconds, iterations = budget.seconds, budget.iterations
        self.mine.cache, self.model.cache = {}, {}  # apart: the two planners score positions differently
        seen: set[tuple] = set()
        best_value, best_plays, examined, greedy_value, spent_each = float("-inf"), None, 0, 0.0, 0.0
        last = begun
        for plays, end in self.candidates(state, seat):
            key = position_key(end)
            if key in seen:
                continue
            seen.add(key)
            if best_plays is None and seconds is not None and (timer() - begun) * (2 + 2 * self.rollout) > seconds:
                # The budget is too short to play out even the greedy turn: play it as is, valued as it stands.
                best_plays, best_value = plays, self.mine.score(end, seat)
                greedy_value = best_value
                break
            value = self.reply_value(end, seat)
            if best_plays is None:
                greedy_value = value
            value += self.noise * (self.rng.below(1 << 20) / (1 << 20) - 0.5)
            examined += 1
            if value > best_value:
                best_value, best_plays = value, plays
            # Stop when the iterations are spent, or when one more candidate (making it and playing it out, as long
            # as the longest so far, with half as much again to spare: a later one may take longer) would overrun the
            # time.
            now = timer()
            spent_each, last = max(spent_each, now - last), now
            if (iterations is not None and examined >= iterations) or (
                    seconds is not None and now + SPARE * spent_each > begun + seconds):
                break
        self.mine.cache = self.model.cache = None
        self.last = {"candidates": examined, "value": best_value, "greedy": greedy_value}
        return best_plays

    def candidates(self, state: State, seat: int) -> Iterator[tuple[list[tuple], State]]:
        """Whole turns worth examining, most promising first (made lazily: the budget decides how many).

        The greedy plan; its moves with another finish (each open attack, or none); then plans that leave the
        greedy line at its first, second... move for one of the next best moves there (completed greedily), and
        the greedy moves cut short, interleaved so that a short budget still sees variety.
        """
        greedy, end, _ = self.mine.plan(state, seat)
        yield greedy, end
        if end.phase == OVER and end.winner == seat:
            return  # the greedy plan wins
        plain, plain_end, _ = self.model.plan(state, seat)  # the heuristic's own turn, for comparison
        if plain != greedy:
            yield plain, plain_end
        moves = len(greedy) - (greedy[-1][0] != MOVE)
        path = [state]  # the position before each of the greedy plan's moves, then before its finish
        for p in greedy[:moves]:
            path.append(play(path[-1], p)[0])
        before_finish = path[-1]
        if moves < len(greedy) and before_finish.phase == PLAY and before_finish.side == seat:
            for option in finishes(before_finish):
                if option != greedy[-1]:
                    yield greedy[:moves] + [option], play(before_finish, option)[0]
        queues = [self.deviations(path, greedy, depth, seat) for depth in range(min(moves, 3) or 1)]
        queues.insert(1, self.truncations(path, greedy, seat))
        while queues:
            for queue in list(queues):
                item = next(queue, None)
                if item is None:
                    queues.remove(queue)
                else:
                    yield item

    def deviations(self, path: list[State], greedy: list[tuple], depth: int,
                   seat: int) -> Iterator[tuple[list[tuple], State]]:
        """Plans that follow the greedy one for ``depth`` moves, then play another good move and go on greedily."""
        at = path[depth]
        if at.phase != PLAY or at.side != seat:
            return
        for _, move, _ in self.mine.ranked_moves(at, seat, limit=self.width, floor=False):
            if depth < len(greedy) and move == greedy[depth]:
                continue
            plays, end, _ = self.mine.plan(at, seat, first=move)
            yield greedy[:depth] + plays, end

    def truncations(self, path: list[State], greedy: list[tuple], seat: int) -> Iterator[tuple[list[tuple], State]]:
        """The greedy moves cut short (latest cut first), then the best finish."""
        for k in range(len(path) - 2, -1, -1):
            at = path[k]
            if at.phase == PLAY and at.side == seat:
                finish, end = self.mine.finish(at, seat)
                yield greedy[:k] + [finish], end

    def reply_value(self, end: State, seat: int) -> float:
        """Our evaluation after the opponent's planned reply to a turn ending in ``end`` and ``rollout`` more
        greedy turns of each side (sooner if the game ends)."""
        s = end
        for _ in range(1 + 2 * self.rollout):
            if s.phase == OVER:
                break
            planner = self.mine if s.side == seat else self.model
            _, s, _ = planner.plan(s, s.side)
        return self.mine.score(s, seat)


def finishes(state: State) -> list[tuple]:
    """Every way to close the turn from ``state``: each open attack, and ending without one when allowed."""
    options = [(ATTACK, c.target) for c in attack_options(state)]
    return options + [(END,)] if (END,) in legal_plays(state) else options


__all__ = ["WarSearchBot"]
