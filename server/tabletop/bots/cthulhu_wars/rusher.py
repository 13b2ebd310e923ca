"""Cthulhu Wars: a scripted "Great Old One rush" player, the plan a language model was seen to follow (issue 41).

It is a benchmark opponent, not a strong player: it plays the one plan below and leaves every other decision to
the heuristic player (``heuristic.py``), so every decision gets a legal answer.

The plan (rules ``cthulhu-wars/actions``, ``cthulhu-wars/battle``, ``cthulhu-wars/great-cthulhu``):

1. **Awaken early.** Whenever an Awaken action is legal (its condition met and its cost in hand) it is taken:
   for Great Cthulhu, Cthulhu in the South Pacific once a Gate stands there. Until then the heuristic plays
   (it builds that Gate and keeps Power for an Awakening that meets a requirement).
2. **March on the weakest enemy Gate.** With its Great Old One on the map (the one with the most Combat, if it
   has several), each turn's action goes to the nearest *weak* Gate: a Gate an enemy controls, or an Abandoned
   one, with no enemy Great Old One in its area and at most ``WEAK_COMBAT`` enemy Combat there (a lone Cultist,
   or a Cultist with a Monster or two). Ties go to the fewer enemy dice, then the Area's name.

   * An enemy Cultist it can capture where the Great Old One stands is captured first (a Great Old One ignores
     the enemy's Monsters, ``cthulhu-wars/actions``: Capture Cultist).
   * At the target: a Battle against the Gate's holder if its Cultist is guarded, Capture if not; an Abandoned
     Gate is taken with a Cultist of its own there (Control Gate, unlimited), else one is Recruited there first
     (the Great Old One is a unit of its own in the Area).
   * Away from it: Move the Great Old One one Area nearer (the shortest path on the map), and on the step that
     reaches the target one of its own Cultists from an Area next to it (not one holding a Gate) follows in the
     same Move action, so the Gate can be controlled as soon as it falls.
   * Control Gate is taken whenever it is legal after the action.
3. **Everything else** (battle decisions, retreats, Rituals, spellbooks, out-of-turn windows, Devour, Devolve,
   Submerge, a turn with no target or no Power for the script) is the heuristic's choice.

Seated as another faction it plays the nearest equivalent: it Awakens whichever Great Old One its faction can
(that faction's own ``awaken_options``) and marches the strongest at the weakest enemy Gate the same way; it knows
nothing of that faction's own abilities beyond what the heuristic does.

Information: the script reads only the map, Power and Gates (public, ``information.py``); the heuristic it falls
back on works on determinisations. Deterministic from its seed: the script has no randomness, and the heuristic is
seeded from it.
"""

from __future__ import annotations

from typing import Any

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import Battle, Capture, Recruit
from tabletop.games.cthulhu_wars.engine import ENGINE
from tabletop.games.cthulhu_wars.state import GameState

from ..base import Budget, Suggestion
from . import knowledge as kn
from .heuristic import CwHeuristicBot

#: Most enemy Combat (dice, all enemies together) in the Area of a Gate the rusher still counts as weak.
WEAK_COMBAT = 2


class CwRusherBot:
    """Awakens its Great Old One as soon as it can and marches it on the nearest weak enemy Gate (module docstring);
    every other decision is the heuristic's."""

    def __init__(self, seed: int = 0, name: str = "rusher") -> None:
        self.fallback = CwHeuristicBot(seed)
        self.name = name

    def choose(self, engine: Any, state: GameState, seat: int) -> Any:
        legal = ENGINE.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        action, _ = self.script(state, seat, legal)
        if action is None:
            return self.fallback.choose(engine, state, seat)
        return action

    def suggest(self, engine: Any, state: GameState, seat: int, budget: Budget | None = None) -> Suggestion:
        legal = ENGINE.legal_actions(state, seat)
        if len(legal) == 1:
            return Suggestion(legal[0], "The only legal answer now.")
        action, why = self.script(state, seat, legal)
        if action is None:
            found = self.fallback.suggest(engine, state, seat, budget)
            found.explanation = "No step of the rush applies; the heuristic's choice. " + found.explanation
            return found
        return Suggestion(action, f"The Great Old One rush: {why} ('{ENGINE.notation(action)}').")

    # ---- the script -------------------------------------------------------------------------
    def script(self, state: GameState, seat: int, legal: list[Any]) -> tuple[Any | None, str]:
        """The rush's answer to this decision and why, or (None, "") where it has none."""
        turn = state.turn
        if state.pending or turn is None or turn.seat != seat:
            return None, ""
        if turn.moving:
            return self.follow(state, seat, legal)
        if turn.acted:
            controls = [a for a in legal if a.kind == "control"]
            return (controls[0], "take control of the Gate") if controls else (None, "")
        awakens = [a for a in legal if a.kind == "awaken"]
        if awakens:
            fac = kn.faction(state, seat)
            best = max(awakens, key=lambda a: (fac.unit(a.unit).combat, a.unit, a.area))
            return best, "Awaken the Great Old One as soon as possible"
        goo = self.leader(state, seat)
        if goo is None:
            return None, ""
        here = goo[1]
        captures = [a for a in legal if a.kind == "capture" and a.area == here]
        if captures:
            return min(captures, key=lambda a: (state.controller(here) != state.seat_of(a.enemy), a.enemy)), \
                "capture the enemy Cultist where the Great Old One stands"
        target = self.target(state, seat, here)
        if target is None:
            return None, ""
        if target == here:
            return self.take(state, seat, here, legal)
        step_to = self.next_step(state, here, target)
        move = next((a for a in legal if a.kind == "move" and a.unit == goo[0] and a.source == here
                     and a.target == step_to), None)
        return (move, f"march the Great Old One on the weak Gate in {target}") if move else (None, "")

    def leader(self, state: GameState, seat: int) -> tuple[str, str] | None:
        """The Great Old One on the map with the most Combat (unit, area), if any."""
        fac = kn.faction(state, seat)
        found = [(fac.unit(kind).combat, kind, p) for kind in fac.goos() for p in state.seats[seat].units[kind]
                 if board.on_map(p)]
        if not found:
            return None
        strongest = max(f[0] for f in found)
        _, kind, area = min(f for f in found if f[0] == strongest)
        return kind, area

    @staticmethod
    def weak_gates(state: GameState, seat: int) -> dict[str, int]:
        """Weak Gates (module docstring): Area -> the enemy Combat there."""
        out = {}
        for area, holder in state.gates.items():
            if holder is not None and holder[0] == seat:
                continue
            enemies = board.enemies_in(state, seat, area)
            if any(k in board.units_in(state, e, area) for e in enemies for k in kn.faction(state, e).goos()):
                continue
            dice = sum(kn.combat_in(state, e, area) for e in enemies)
            if dice <= WEAK_COMBAT:
                out[area] = dice
        return out

    def target(self, state: GameState, seat: int, here: str) -> str | None:
        weak = self.weak_gates(state, seat)
        if not weak:
            return None
        dist = kn.distances(state.layout_name)[here]
        reachable = [a for a in weak if a in dist]
        if not reachable:
            return None
        return min(reachable, key=lambda a: (dist[a], weak[a], a))

    @staticmethod
    def next_step(state: GameState, here: str, target: str) -> str:
        """The first Area on a shortest path from ``here`` to ``target`` (the first by name among equals)."""
        dist = kn.distances(state.layout_name)
        near = kn.neighbours(state.layout_name)[here]
        return min(near, key=lambda a: (dist[a].get(target, 99), a))

    def take(self, state: GameState, seat: int, area: str, legal: list[Any]) -> tuple[Any | None, str]:
        """At the target: battle the Gate's guards, capture its Cultist, or get a Cultist there to control it."""
        holder = state.controller(area)
        if holder is not None and holder != seat:
            enemy = state.seats[holder].faction
            if Capture(area=area, enemy=enemy) in legal:
                return Capture(area=area, enemy=enemy), f"capture the Cultist holding the Gate in {area}"
            if Battle(area=area, enemy=enemy) in legal:
                return Battle(area=area, enemy=enemy), f"battle the guards of the Gate in {area}"
            return None, ""
        controls = [a for a in legal if a.kind == "control" and a.area == area]
        if controls:
            return controls[0], f"take control of the Abandoned Gate in {area}"
        recruits = [a for a in legal if isinstance(a, Recruit) and a.area == area]
        if holder is None and recruits:
            return recruits[0], f"recruit a Cultist to take the Abandoned Gate in {area}"
        return None, ""

    def follow(self, state: GameState, seat: int, legal: list[Any]) -> tuple[Any | None, str]:
        """More units of a Move action: a Cultist follows the Great Old One onto its target, then ``done``."""
        done = next((a for a in legal if a.kind == "done"), None)
        goo = self.leader(state, seat)
        if goo is None or not any(kind == goo[0] for kind, _ in state.turn.moved):
            return None, ""  # not the rush's Move: the heuristic finishes it
        fac = kn.faction(state, seat)
        area = goo[1]
        mine = board.units_in(state, seat, area)
        has_cultist = any(fac.can_control_gates(state, seat, k) for k in mine)
        if has_cultist or area not in self.weak_gates(state, seat):
            return done, "the Move is complete"
        fs = state.seats[seat]
        options = []
        for a in legal:
            if a.kind != "move" or a.target != area or not fac.can_control_gates(state, seat, a.unit):
                continue
            if state.controller(a.source) == seat and fs.count(a.unit, a.source) < 2:
                continue  # the only one there would leave its own Gate Abandoned
            options.append((a.source, a.unit, a))
        if not options:
            return done, "the Move is complete"
        pick = min(options, key=lambda o: o[:2])
        return pick[2], f"a Cultist follows the Great Old One to take the Gate in {area}"


__all__ = ["CwRusherBot", "WEAK_COMBAT"]
