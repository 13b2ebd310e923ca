"""A Game of War: a heuristic player that plans a whole turn (rules ``game-of-war/turn``).

The turn is planned greedily: among all legal moves the one that most improves the evaluation
(``evaluation.py``) is played, then the next, up to five (stopping as soon as no move helps),
then the best attack (each attack is played on a copy and the positions compared) or ``end``.
A forced retreat is settled first, to the best square. The plan is kept between the engine's
questions, one move at a time, and made again whenever the position is not the one it foresaw.

Set-up (``game-of-war/setup``): the bot deploys its side of the default opening and commits. It
never looks at the other side's deployment (hidden during set-up), nor at the game's generator.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from tabletop.core.rng import Rng
from tabletop.games.game_of_war.board import dilate, square_name
from tabletop.games.game_of_war.combat import assess
from tabletop.games.game_of_war.notation import action_of
from tabletop.games.game_of_war.rules import ATTACK, END, MOVE, attack_options, legal_plays, play
from tabletop.games.game_of_war.setup import COMMIT, OPENING, setup_plays
from tabletop.games.game_of_war.state import NO_SQUARE, OVER, PLAY, SETUP, State
from tabletop.games.game_of_war.units import STATS

from ..base import Budget, Suggestion
from . import evaluation as ev
from .deployment import default_deployment

#: A plan: the plays of the rest of the turn and the value the planner gave its end.
Plan = tuple[list[tuple], float]


def position_key(state: State) -> tuple:
    """What identifies a position within a turn (for reusing a plan)."""
    return (state.turn, state.side, state.moves_made, state.attack_used, state.retreat, state.arsenals,
            tuple(sorted(state.pieces.items())))


class TurnPlanner:
    """Greedy whole-turn planning with a static evaluation; ``noise`` breaks near-ties at random."""

    def __init__(self, rng: Rng, noise: float = 0.0, max_moves: int = 5, focus: int | None = None,
                 evaluator: Callable[[list[State], int], np.ndarray] = ev.score_many) -> None:
        self.rng = rng
        self.evaluator = evaluator  # batched scores of positions for a side (the search passes its own)
        self.noise = noise
        self.max_moves = max_moves
        self.focus = focus  # only units within this distance of an enemy unit or an arsenal move (None: all)
        self.deadline: float | None = None  # stop adding moves once the clock passes this (perf_counter)
        self.cache: dict[tuple, float] | None = None  # evaluations already made, by position

    def score(self, state: State, side: int) -> float:
        return float(self.score_all([state], side)[0])

    def score_all(self, states: list[State], side: int) -> list[float]:
        """The evaluation of each state for ``side`` (batched; remembered by position while ``cache`` is set)."""
        if self.cache is None:
            return self.evaluator(states, side).tolist()
        keys = [(side, s.side, s.phase, s.attack_used, s.arsenals, frozenset(s.pieces.items())) for s in states]
        missing = [i for i, k in enumerate(keys) if k not in self.cache]
        if missing:
            for i, value in zip(missing, self.evaluator([states[i] for i in missing], side).tolist()):
                self.cache[keys[i]] = value
        return [self.cache[k] for k in keys]

    def late(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def jitter(self) -> float:
        return self.noise * (self.rng.below(1 << 20) / (1 << 20) - 0.5) if self.noise else 0.0

    def plan(self, state: State, side: int, first: tuple | None = None) -> tuple[list[tuple], State, float]:
        """The plays of the rest of ``side``'s turn, the position after them and its value.

        ``first``: a move to play before planning the rest (used by the search to vary plans).
        """
        plays: list[tuple] = []
        s = state
        if first is not None:
            s, _ = play(s, first)
            plays.append(first)
        moved = 0
        while s.phase == PLAY and s.side == side and moved < self.max_moves:
            if self.late() and s.retreat == NO_SQUARE:
                break
            ranked = self.ranked_moves(s, side)
            if not ranked:
                break
            value, p, after = ranked[0]
            if value == float("-inf"):
                break
            plays.append(p)
            s = after
            moved += 1
        if s.phase == PLAY and s.side == side:
            finish, s = self.finish(s, side)
            plays.append(finish)
        return plays, s, self.score(s, side)

    def ranked_moves(self, state: State, side: int, limit: int = 1, floor: bool = True) -> list[tuple[float, tuple, State]]:
        """The ``limit`` best single moves by the evaluation, best first, each with the position after it; with
        ``floor`` only moves that beat not moving at all (unless a retreat forces a move)."""
        legal = legal_plays(state)
        moves = [p for p in legal if p[0] == MOVE]
        forced = (END,) not in legal and not any(p[0] == ATTACK for p in legal)
        if self.focus is not None and not forced:
            zone = state.units[1 - side] | state.arsenals[0] | state.arsenals[1]
            for _ in range(self.focus):
                zone = dilate(zone)
            moves = [p for p in moves if zone >> p[1] & 1 or state.relays[side] >> p[1] & 1]
        if not moves:
            return []
        least = float("-inf") if forced or not floor else self.score(state, side) + 0.05
        afters = [play(state, p)[0] for p in moves]
        scored = []
        for p, after, value in zip(moves, afters, self.score_all(afters, side)):
            value += self.jitter()
            if value > least:
                scored.append((value, p, after))
        scored.sort(key=lambda t: -t[0])
        return scored[:limit]

    def finish(self, state: State, side: int) -> tuple[tuple, State]:
        """The best attack, or ``end`` (when it is allowed and no attack does better)."""
        legal = legal_plays(state)
        options = [(END,)] if (END,) in legal else []
        options += [(ATTACK, c.target) for c in attack_options(state)]
        if not options:  # nothing but moves (cannot happen at the end of a plan; kept for safety)
            options = legal[:1]
        best_value, best = float("-inf"), None
        afters = [play(state, p)[0] for p in options]
        for p, after, value in zip(options, afters, self.score_all(afters, side)):
            value += self.jitter()
            if value > best_value:
                best_value, best = value, (p, after)
        return best


class WarHeuristicBot:
    """Plans each turn greedily with the static evaluation (see module docstring)."""

    def __init__(self, seed: int = 0, noise: float = 0.3, name: str = "heuristic") -> None:
        self.rng = Rng(seed)
        self.name = name
        self.planner = TurnPlanner(self.rng, noise)
        self._plans: dict[tuple, list[tuple]] = {}

    def choose(self, engine: Any, state: State, seat: int) -> Any:
        if state.phase == SETUP:
            return setup_suggestion(state, seat).action
        return action_of(self.turn_plan(state, seat)[0], state)

    def suggest(self, engine: Any, state: State, seat: int, budget: Budget | None = None) -> Suggestion:
        if state.phase == SETUP:
            return setup_suggestion(state, seat)
        return explain(state, seat, self.turn_plan(state, seat))

    def turn_plan(self, state: State, seat: int) -> list[tuple]:
        plays = self._plans.get(position_key(state))
        if plays is None:
            plays, _, _ = self.planner.plan(state, seat)
            self._plans = remember(state, plays)
        return plays


def remember(state: State, plays: list[tuple]) -> dict[tuple, list[tuple]]:
    """The rest of the plan from each position it passes through, so later questions of the same turn reuse it."""
    plans = {}
    s = state
    for i, p in enumerate(plays):
        if s.phase != PLAY:
            break
        plans[position_key(s)] = plays[i:]
        s, _ = play(s, p)
    return plans


def setup_suggestion(state: State, seat: int) -> Suggestion:
    """Deploy the default opening, then commit (never reading the other side's hidden deployment)."""
    plays = setup_plays(state, seat)
    if (COMMIT,) in plays and _is_opening_deployed(state, seat):
        return Suggestion(action_of((COMMIT,), state), "Commit the deployment (the default opening).")
    opening = next((p for p in plays if p[0] == OPENING), None)
    if opening is not None:
        return Suggestion(action_of(opening, state), "Deploy the default opening: every unit starts online.")
    return Suggestion(action_of(plays[0], state), "The only set-up play open.")


def _is_opening_deployed(state: State, side: int) -> bool:
    mine = {sq: code for sq, code in state.pieces.items() if code >> 3 == side}
    return mine == default_deployment(side)


def play_words(state: State, p: tuple) -> str:
    if p[0] == MOVE:
        code = state.pieces[p[1]]
        return f"{STATS[code & 7].title.lower()} {square_name(p[1])}-{square_name(p[2])}"
    if p[0] == ATTACK:
        c = assess(state, p[1])
        return f"attack {square_name(p[1])} ({c.attack} against {c.defence}: {c.result})"
    return "end the turn"


def explain(state: State, seat: int, plays: list[tuple], lead: str | None = None,
            value: float | None = None, extra_odds: list[str] | None = None) -> Suggestion:
    """The first play of ``plays`` with the plan's words, its end position's main terms and the combats it counts on."""
    first = plays[0]
    s = state
    words = []
    odds: list[str] = []
    for p in plays:
        if s.phase != PLAY:
            break
        words.append(play_words(s, p))
        if p[0] == ATTACK:
            c = assess(s, p[1])
            odds.append(f"attack on {square_name(p[1])}: {c.attack} against {c.defence}, {c.result} (no dice: combat is certain)")
        s, _ = play(s, p)
    terms = ev.evaluate(s, seat)
    named = terms.named()
    main = sorted(named.items(), key=lambda kv: -abs(kv[1]))[:3]
    plan_text = "; ".join(words)
    summary = (lead + " " if lead else "") + f"Plan for the turn: {plan_text}. "
    summary += "After it: " + ", ".join(f"{k} {v:+.1f}" for k, v in main) + "."
    if s.phase == OVER:
        summary += f" This wins: {s.reason}" if s.winner == seat else ""
    target = terms.threat_square
    if target >= 0 and s.side != seat:
        c = assess(s, target)
        odds.append(f"the enemy could then take the unit on {square_name(target)} ({c.attack} against {c.defence})")
    return Suggestion(
        action_of(first, state),
        summary,
        terms=named,
        odds=odds + (extra_odds or []),
        value=round(terms.total if value is None else value, 2),
    )


__all__ = ["TurnPlanner", "WarHeuristicBot", "position_key", "setup_suggestion"]
