"""A fast rule-based Cthulhu Wars policy: the default move of look-aheads and simulations.

It answers every decision the engine can ask (rules ``cthulhu-wars/turn``): the turn's action by a
short list of priorities (take free Gates, Awaken, Capture, Build Gates, favourable Battles,
Summon, Recruit, spread Cultists, Pass), and every pending decision by a cheap rule (the cheapest
figures take battle results, retreats go home, the first spellbook left, Rituals when they pay,
reveals only near the end, ``done`` in windows, the first answer to a compulsory faction decision).
It uses only public facts (its own Elder Signs aside) and its own generator.

It is not meant to play well on its own; the heuristic and search players call it to finish what
an action sets off (a battle's decisions, the rest of a turn) and to play out the future.
"""

from __future__ import annotations

from typing import Any

from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import read_figure
from tabletop.games.cthulhu_wars.battle import battle_preview
from tabletop.games.cthulhu_wars.state import GameState

from . import knowledge as kn


def kind_of(action: Any) -> str:
    return action.kind


class FastPolicy:
    """Cheap answers to any decision (see module docstring)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, state: GameState, seat: int, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        if state.pending:
            return self.decide(state, seat, legal, state.pending[0].kind)
        return self.turn(state, seat, legal)

    # ---- pending decisions ----------------------------------------------------------------
    def decide(self, state: GameState, seat: int, legal: list[Any], kind: str) -> Any:
        by_kind: dict[str, list[Any]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if kind == "ritual":
            return self.ritual(state, seat, by_kind)
        if kind == "first-player":
            mine = [a for a in legal if a.faction == state.seats[seat].faction]
            return mine[0] if mine else legal[0]
        if kind == "direction":
            return legal[0]
        if kind == "assign":
            return min(legal, key=lambda a: assignment_cost(state, a))
        if kind == "retreat":
            return max(legal, key=lambda a: retreat_score(state, seat, a))
        if kind == "lose":
            return min(legal, key=lambda a: loss_cost(state, state.pending[0].data["victim"], a))
        if kind == "negotiation":
            name = state.seats[seat].faction
            return min(legal, key=lambda a: dict(a.shares).get(name, 0))
        if kind == "window":
            if "reveal" in by_kind and ending_soon(state, seat):
                return by_kind["reveal"][0]
            if "oath" in by_kind and state.phase == "action" and state.seats[seat].power == 0:
                return by_kind["oath"][0]  # a High Priest's Oath brings the faction back into the Action phase
            return by_kind["done"][0] if "done" in by_kind else legal[0]
        if kind == "pre-battle":
            abilities = [a for a in legal if a.kind != "proceed"]
            if abilities and self.rng.below(2) == 0:
                return abilities[0]  # most pre-battle abilities hurt the enemy; the first listed is used half the time
            return by_kind["proceed"][0] if "proceed" in by_kind else legal[0]
        if kind == "spellbook":
            return legal[0]
        # A faction's own decision: the first real answer (most are gains), else done.
        real = [a for a in legal if a.kind != "done"]
        return real[0] if real else legal[0]

    def ritual(self, state: GameState, seat: int, by_kind: dict[str, list[Any]]) -> Any:
        fs = state.seats[seat]
        if "reveal" in by_kind and ending_soon(state, seat):
            return by_kind["reveal"][0]
        if "oath" in by_kind and "ritual" not in by_kind and fs.power + 2 >= state.ritual_cost:
            return by_kind["oath"][0]  # the High Priest's Oath pays for the Ritual (asked again afterwards)
        if "ritual" in by_kind:
            gates = len(board.controlled_gates(state, seat))
            goos = board.goos_in_play(state, seat)
            left = fs.power - state.ritual_cost
            if gates + 1.6 * goos >= 3 and (left >= 3 or kn.books(state, seat) >= 6 or state.instant_death):
                return by_kind["ritual"][0]
        return by_kind["no-ritual"][0]

    # ---- the turn -------------------------------------------------------------------------
    def turn(self, state: GameState, seat: int, legal: list[Any]) -> Any:
        by_kind: dict[str, list[Any]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        turn = state.turn
        fs = state.seats[seat]
        if "control" in by_kind:
            return by_kind["control"][0]
        if turn is not None and (turn.moving or turn.acted):
            return by_kind["done"][0] if "done" in by_kind else legal[0]
        if "reveal" in by_kind and ending_soon(state, seat):
            return by_kind["reveal"][0]
        if "awaken" in by_kind:
            return by_kind["awaken"][0]
        if "capture" in by_kind:
            return by_kind["capture"][0]
        if "gate" in by_kind:
            return self.rng.choice(by_kind["gate"])
        battles = [b for b in by_kind.get("battle", []) if favourable(state, seat, b)]
        if battles:
            return battles[0]
        own = [a for k, acts in by_kind.items() if k not in CORE_KINDS for a in acts]
        if own and self.rng.below(4) == 0:
            return self.rng.choice(own)
        if "summon" in by_kind and fs.power >= 3 and self.rng.below(2) == 0:
            return min(by_kind["summon"], key=lambda a: kn.faction(state, seat).summon_cost(state, seat, a.unit))
        if "recruit" in by_kind:
            safe = [a for a in by_kind["recruit"] if state.controller(a.area) == seat or kn.protectors(state, seat, a.area)]
            if safe and board.cultists_on_map(state, seat) < 6:
                return self.rng.choice(safe)
        spread = self.spreading_move(state, seat, by_kind.get("move", []))
        if spread is not None and fs.power >= 2:
            return spread
        if "summon" in by_kind:
            return by_kind["summon"][0]
        if "recruit" in by_kind:
            return self.rng.choice(by_kind["recruit"])
        if own:
            return self.rng.choice(own)
        return by_kind["pass"][0] if "pass" in by_kind else legal[0]

    def spreading_move(self, state: GameState, seat: int, moves: list[Any]) -> Any | None:
        """A Cultist leaving a crowded area for one without a Gate or enemies (to build one there later)."""
        fac = kn.faction(state, seat)
        options = []
        for m in moves:
            if fac.unit(m.unit).role != "cultist":
                continue
            if state.seats[seat].count(m.unit, m.source) < 2:
                continue
            if m.target in state.gates or board.enemies_in(state, seat, m.target):
                continue
            options.append(m)
        return self.rng.choice(options) if options else None


CORE_KINDS = frozenset({
    "move", "recruit", "gate", "summon", "awaken", "battle", "capture", "pass", "control", "abandon", "reveal", "done",
})  # fmt: skip


def ending_soon(state: GameState, seat: int) -> bool:
    """Whether the game may end at the next check: Instant Death reached, or someone near 30 Doom."""
    return state.ending or state.instant_death or any(fs.doom >= 24 for fs in state.seats)


def favourable(state: GameState, seat: int, battle: Any) -> bool:
    enemy = state.seat_of(battle.enemy)
    odds = battle_preview(state, seat, battle.area, enemy)
    return odds.attacker.expected_enemy_units_hit >= odds.defender.expected_enemy_units_hit + 0.5


def assignment_cost(state: GameState, assign: Any) -> float:
    owner = state.pending[0].data["owner"]
    fac = kn.faction(state, owner)
    cost = 0.0
    for entry in assign.units:
        unit, on_gate, _, load = read_figure(entry)
        worth = kn.unit_worth(fac, unit)
        cost += (worth if assign.result == "kill" else 0.3 * worth) * min(load, 1) + (2.0 if on_gate else 0.0)
    # Vengeance-like choices (assigning an enemy's results): the other way round
    return cost if state.pending[0].seat == owner else -cost


def loss_cost(state: GameState, victim: int, lose: Any) -> float:
    worth = kn.unit_worth(kn.faction(state, victim), lose.unit) + (2.0 if getattr(lose, "from_gate", False) else 0.0)
    return worth if state.pending[0].seat == victim else -worth


def retreat_score(state: GameState, seat: int, retreat: Any) -> float:
    owner = state.pending[0].data["owner"]
    area = retreat.target
    score = 0.0
    if state.controller(area) == owner:
        score += 3
    if board.has_units(state, owner, area):
        score += 1
    score -= len(board.enemies_in(state, owner, area))
    return score if seat == owner else -score
