"""Cthulhu Wars: a heuristic player for any faction (rules ``cthulhu-wars/turn`` and the faction sections).

For every decision with more than one answer, each legal answer is tried on a determinised copy of
the game (``information.py``: other factions' Elder Signs and the dice drawn from the bot's own
generator), whatever it sets off is finished by the fast policy (a battle's decisions, the rest of
the turn: ``sim.settle``), and the position is scored by the evaluation (``evaluation.py``):
spellbooks, Doom and Elder Signs, Gates, units, Power, exposure to capture, progress towards the
requirements, against the strongest rival. Answers that roll dice or draw Elder Signs (a Battle, a
Ritual, a pre-battle ability) are tried on several determinisations and their scores averaged.

So Power economy, Gates, spellbook requirements (an action that meets one earns a spellbook in the
look-ahead), Rituals (their Doom against their cost, and Power kept for an Awakening), battles (won
or lost on the sampled dice, the exact odds reported), and the safety of Cultists and Great Old
Ones all come out of one comparison. Faction knowledge is what the faction framework exposes, so
factions added later play without changes here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars.battle import battle_preview
from tabletop.games.cthulhu_wars.engine import ENGINE
from tabletop.games.cthulhu_wars.state import GameState

from ..base import Budget, Suggestion
from . import evaluation as ev
from .information import determinise, public_key
from .policy import FastPolicy
from .sim import settle, step

CHANCE_SAMPLES = 6
#: The random tie-break added to each answer's value (at most half of it either way): answers closer than this
#: are equal as far as the evaluation can see.
NOISE = 0.05
#: Answers never worth considering when there are others: abandoning one's own Gate gives nothing the evaluation
#: can see (and would be re-controlled at once, an endless loop of free actions).
NEVER = frozenset({"abandon"})
#: Most answers examined for one decision (the rest, past this many, are Move targets of the same units).
MAX_CANDIDATES = 80


@dataclass
class Scored:
    action: Any
    value: float
    samples: int
    chance: bool


class CwHeuristicBot:
    """One-step look-ahead with the evaluation (see module docstring)."""

    def __init__(self, seed: int = 0, samples: int = CHANCE_SAMPLES, noise: float = NOISE, name: str = "heuristic",
                 weights: ev.Weights = ev.DEFAULT) -> None:
        self.rng = Rng(seed)
        self.weights = weights
        self.policy = FastPolicy(Rng(seed * 7919 + 17))
        self.samples = samples
        self.noise = noise
        self.name = name
        self.guard = RepeatGuard()

    def choose(self, engine: Any, state: GameState, seat: int) -> Any:
        legal = ENGINE.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        legal = self.guard.fresh(state, seat, legal)
        return self.guard.chose(state, seat, self.rank(state, seat, legal)[0].action)

    def suggest(self, engine: Any, state: GameState, seat: int, budget: Budget | None = None) -> Suggestion:
        legal = ENGINE.legal_actions(state, seat)
        if len(legal) == 1:
            return Suggestion(legal[0], "The only legal answer now.")
        ranked = self.rank(state, seat, legal)
        return explain(state, seat, ranked, "Compared every legal answer one step ahead", self.weights)

    # ---- the look-ahead -------------------------------------------------------------------
    def rank(self, state: GameState, seat: int, legal: list[Any]) -> list[Scored]:
        """Every candidate answer with its averaged evaluation, best first."""
        candidates = [a for a in legal if a.kind not in NEVER] or legal
        if len(candidates) > MAX_CANDIDATES:
            candidates = prune(state, seat, candidates)
        base = determinise(state, seat, self.rng)
        scored = []
        for action in candidates:
            value, chance = self.look(base, seat, action)
            samples = 1
            if chance:
                for _ in range(self.samples - 1):
                    more, _ = self.look(determinise(state, seat, self.rng), seat, action)
                    value += more
                    samples += 1
                value /= samples
            jitter = self.noise * (self.rng.below(1 << 16) / (1 << 16) - 0.5)
            scored.append(Scored(action, value + jitter, samples, chance))
        scored.sort(key=lambda s: -s.value)
        return scored

    def look(self, base: GameState, seat: int, action: Any) -> tuple[float, bool]:
        """Value after ``action`` and what it sets off; whether any die or Elder Sign was drawn."""
        draws = base.rng.draws
        after = settle(step(base, seat, action), seat, self.policy, start=(base.round, base.phase))
        return ev.value(after, seat, base.round, self.weights), after.rng.draws != draws


class RepeatGuard:
    """No endless loops of turn actions that change nothing (e.g. the Sleeper's Lethargy when every other faction
    has passed or hibernates, ``cthulhu-wars/sleeper``): a turn action already chosen in the very same public
    position is not chosen there again while another answer exists, so the position moves on."""

    def __init__(self) -> None:
        self.chosen: dict[tuple, set[str]] = {}

    @staticmethod
    def key(state: GameState, seat: int) -> tuple | None:
        return None if state.pending else public_key(state, seat)

    def fresh(self, state: GameState, seat: int, legal: list[Any]) -> list[Any]:
        key = self.key(state, seat)
        done = self.chosen.get(key, set()) if key is not None else set()
        return [a for a in legal if str(a) not in done] or legal

    def chose(self, state: GameState, seat: int, action: Any) -> Any:
        key = self.key(state, seat)
        if key is not None:
            if len(self.chosen) > 5000:
                self.chosen.clear()
            self.chosen.setdefault(key, set()).add(str(action))
        return action


def prune(state: GameState, seat: int, legal: list[Any]) -> list[Any]:
    """Keep every answer that is not a Move, and Moves up to the limit (one per unit type, source and target)."""
    others = [a for a in legal if a.kind != "move"]
    moves = [a for a in legal if a.kind == "move"]
    room = max(MAX_CANDIDATES - len(others), 10)
    if len(moves) > room:
        step_ = len(moves) / room
        moves = [moves[int(i * step_)] for i in range(room)]
    return others + moves


def explain(state: GameState, seat: int, ranked: list[Scored], lead: str, weights: ev.Weights = ev.DEFAULT,
            tie: float | None = NOISE) -> Suggestion:
    """The best answer, the main terms of the position it leads to, and the odds it relied on; with ``tie`` (the
    ranking is the heuristic's own), the answers it cannot tell from the best (closer than its tie-break)."""
    best = ranked[0]
    action = best.action
    text = ENGINE.notation(action)
    probe = step(state.copy(), seat, action) if not best.chance else None
    evaluation = ev.evaluate(probe if probe is not None else state, seat, w=weights)
    main = sorted(evaluation.terms.items(), key=lambda kv: -abs(kv[1]))[:4]
    words = f"{lead}: '{text}' scores {best.value:+.1f}"
    tied = [] if tie is None or best.chance else [s for s in ranked[1:] if not s.chance and best.value - s.value <= tie]
    if tied:
        names = [f"'{ENGINE.notation(s.action)}'" for s in [best, *tied]]
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        words += (f"; it cannot tell {shown} apart (they differ by less than its random tie-break): any of them is "
                  "as good as far as it sees")
    elif len(ranked) > 1:
        words += f", the next best ('{ENGINE.notation(ranked[1].action)}') {ranked[1].value:+.1f}"
    words += ". " + ("After it" if probe is not None else "Now") + ": " + ", ".join(f"{k} {v:+.1f}" for k, v in main) + "."
    odds = []
    if action.kind == "battle":
        enemy = state.seat_of(action.enemy)
        o = battle_preview(state, seat, action.area, enemy)
        odds.append(
            f"battle in {action.area}: our {o.attacker.dice} dice against {o.defender.dice}; we expect to kill "
            f"{o.attacker.expected_enemy_units_eliminated:.2f} and hit {o.attacker.expected_enemy_units_hit:.2f} of theirs, "
            f"they {o.defender.expected_enemy_units_eliminated:.2f} and {o.defender.expected_enemy_units_hit:.2f} of ours "
            f"(exact odds; chance of at least one Kill {o.attacker.chance_of_a_kill:.0%} against {o.defender.chance_of_a_kill:.0%})"
        )
    if best.chance:
        odds.append(f"its value is the mean over {best.samples} sampled dice and Elder Sign draws")
    return Suggestion(action, words, terms=evaluation.terms, odds=odds, value=round(best.value, 2))


__all__ = ["CwHeuristicBot", "RepeatGuard", "Scored", "explain"]
