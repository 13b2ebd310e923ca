"""Why a well-formed action is not legal now, in players' words (rules_text ``cthulhu-wars/actions``).

The engine decides legality by listing the legal actions; this module only explains a refusal: it
looks for the first reason a player would name (wrong phase, not enough Power, no such unit there,
not adjacent, unit already moved...) and falls back to a plain "not legal now".
"""

from __future__ import annotations

from typing import Any

from tabletop.games.cthulhu_wars import board, creatures
from tabletop.games.cthulhu_wars.battle import side_combat
from tabletop.games.cthulhu_wars.neutrals import registry as neutrals
from tabletop.games.cthulhu_wars.state import POOL, GameState
from tabletop.games.cthulhu_wars.words import a_unit, capital, unit_title

#: Actions that answer a pending decision rather than act in the Action phase.
DECISION_KINDS = {
    "ritual", "no-ritual", "first-player", "direction", "spellbook", "proceed", "assign", "retreat", "lose", "offer",
}  # fmt: skip
#: Actions of the Action phase that cost Power, with what they cost when the faction does not say otherwise.
FIXED_COSTS = {"move": 1, "battle": 1, "capture": 1, "gate": 3}


def why_not(state: GameState, seat: int, action: Any, cost: int, pending_words: dict[str, str]) -> str:
    """The first reason ``action`` of ``seat`` is refused; ``cost`` is what it would cost in Power."""
    kind = action.kind
    own = neutrals.why_not(state, seat, action)
    if own:
        return own
    if kind == "done":
        return done_reason(state, seat, pending_words)
    if state.pending:
        asked = pending_words.get(state.pending[0].kind, state.pending[0].kind)
        return f"the game is waiting for a decision first: you are asked to {asked}"
    if kind in DECISION_KINDS:
        return f"no decision that '{kind}' answers is pending now (it is the {state.phase} phase)"
    if state.phase != "action" or state.turn is None:
        return f"actions are taken in the Action phase; this is the {state.phase} phase"
    reason = board.faction_of(state, seat).refusal(state, seat, action) or CHECKS.get(kind, lambda *_: None)(state, seat, action)
    if reason:
        return reason
    power = state.seats[seat].power
    if cost > power:
        return f"it costs {cost} Power and you have {power}"
    if state.turn.moving and kind not in ("move", "done"):
        return "a Move action is under way: move more units, or say 'done' to finish it first"
    if state.turn.acted and kind not in ("control", "abandon", "reveal", "done"):
        return "you have already taken this turn's action; only unlimited actions or 'done' remain"
    return "it is not among the moves legal now"


def done_reason(state: GameState, seat: int, pending_words: dict[str, str]) -> str:
    """Why ``done`` is refused: it ends a Move, the free actions after the turn's action, an optional decision or
    passes a window (``cthulhu-wars/turn``), so it is refused while the turn's action is still owed or while a
    decision that cannot be declined is asked."""
    if state.pending:
        kind = state.pending[0].kind
        if kind == "ritual":
            return "in your Doom-phase decision you decline the Ritual with 'no-ritual'"
        asked = pending_words.get(kind, f"answer '{kind}'")
        return f"you are asked to {asked}, and that cannot be declined"
    turn = state.turn
    if state.phase == "action" and turn is not None and turn.seat == seat and not turn.acted:
        return (f"you still owe your turn's action ({state.seats[seat].power} Power left): take one, or say 'pass' to "
                "give up your remaining Power")
    return "there is nothing under way that 'done' would finish"


def unit_reason(state: GameState, seat: int, unit: str) -> str | None:
    faction = board.faction_of(state, seat)
    if unit not in state.seats[seat].units:
        names = ", ".join(u.name for u in faction.units)
        return f"{faction.name} has no unit called '{unit}' (its units: {names})"
    return None


def move_reason(state: GameState, seat: int, action: Any) -> str | None:
    if (reason := unit_reason(state, seat, action.unit)) is not None:
        return reason
    places = state.seats[seat].units[action.unit]
    here = [i for i, p in enumerate(places) if p == action.source]
    if not here:
        where = sorted({p for p in places if board.on_map(p)})
        return f"you have no {unit_title(action.unit)} in {action.source}" + (f" (yours are in {', '.join(where)})" if where else "")
    if state.turn.acted and not state.turn.moving:
        return "you have already taken this turn's action; a Move can only go on while it is under way"
    if all((action.unit, i) in state.turn.moved for i in here):
        return f"every {unit_title(action.unit)} of yours in {action.source} has already moved in this Move action"
    targets = board.faction_of(state, seat).move_targets(state, seat, action.unit, action.source)
    if action.target not in targets:
        return f"{capital(a_unit(action.unit))} in {action.source} cannot move to {action.target}; it can reach {', '.join(targets)}"
    return None


def recruit_reason(state: GameState, seat: int, action: Any) -> str | None:
    faction = board.faction_of(state, seat)
    if (reason := unit_reason(state, seat, action.unit)) is not None:
        return reason
    if action.unit not in faction.cultists():
        return f"only Cultists are recruited; {a_unit(action.unit)} is not one"
    if POOL not in state.seats[seat].units[action.unit]:
        return f"every {unit_title(action.unit)} of yours is already in play"
    occupied = board.occupied_areas(state, seat)
    if occupied and action.area not in occupied:
        return f"you recruit only where you have a unit, and you have none in {action.area}"
    return None


def gate_reason(state: GameState, seat: int, action: Any) -> str | None:
    if action.area in state.gates:
        return f"{action.area} already has a Gate"
    if creatures.blocks_gate_control(state, action.area) and state.options.gate_in_zoog_area == "forbidden":
        return f"Zoogs in {action.area} keep anyone from controlling a Gate there, so none can be built (option gate_in_zoog_area)"
    faction = board.faction_of(state, seat)
    if not any(faction.can_control_gates(state, seat, k) for k in board.units_in(state, seat, action.area)):
        return f"building a Gate needs a unit of yours in {action.area} that can control it (a Cultist)"
    return None


def summon_reason(state: GameState, seat: int, action: Any) -> str | None:
    faction = board.faction_of(state, seat)
    if (reason := unit_reason(state, seat, action.unit)) is not None:
        return reason
    if action.unit not in faction.monsters():
        return f"{unit_title(action.unit)} is not a Monster: Monsters are summoned, Great Old Ones awakened"
    if state.controller(action.area) != seat:
        return f"Monsters are summoned at a Gate you control, and you control none in {action.area}"
    if POOL not in state.seats[seat].units[action.unit]:
        return f"every {unit_title(action.unit)} of yours is already in play"
    return None


def not_playing(state: GameState, faction: str) -> str | None:
    """Why a faction named as a target cannot be one: it does not play in this game (or it is no faction)."""
    playing = [s.faction for s in state.seats]
    if faction in playing:
        return None
    return f"{faction[:40]!r} does not play in this game; the factions here are {', '.join(playing)}"


def battle_reason(state: GameState, seat: int, action: Any) -> str | None:
    if action.area in state.turn.battled:
        return f"there has already been a battle in {action.area} this turn"
    if not board.has_units(state, seat, action.area):
        return f"you have no units in {action.area}"
    if action.enemy in creatures.NEUTRALS:
        if not creatures.NEUTRALS[action.enemy].present(state, action.area):
            return f"{creatures.NEUTRALS[action.enemy].title} {'are' if action.enemy == 'zoogs' else 'is'} not in {action.area}"
        return None
    if (absent := not_playing(state, action.enemy)) is not None:
        return absent
    enemy = state.seat_of(action.enemy)
    if not board.has_units(state, enemy, action.area):
        return f"{action.enemy} has no units in {action.area}"
    if side_combat(state, seat, {"area": action.area, "attacker": seat, "defender": enemy}, action.area) < 1:
        return f"your units in {action.area} have no Combat (they would roll no dice), so they cannot battle"
    return None


def capture_reason(state: GameState, seat: int, action: Any) -> str | None:
    if not board.has_units(state, seat, action.area):
        return f"you have no units in {action.area}"
    if (absent := not_playing(state, action.enemy)) is not None:
        return absent
    enemy = state.seat_of(action.enemy)
    enemy_faction = board.faction_of(state, enemy)
    theirs = board.units_in(state, enemy, action.area)
    if not any(k in theirs for k in enemy_faction.cultists()):
        return f"{action.enemy} has no Cultist in {action.area}"
    if any(k in theirs for k in enemy_faction.goos()):
        return f"{action.enemy}'s Great Old One in {action.area} protects its Cultists"
    mine = board.units_in(state, seat, action.area)
    if any(k in theirs for k in enemy_faction.monsters()) and not any(k in mine for k in board.faction_of(state, seat).goos()):
        return f"{action.enemy}'s Monsters in {action.area} protect its Cultists (only a Great Old One captures past them)"
    return None


def control_reason(state: GameState, seat: int, action: Any) -> str | None:
    if action.area not in state.gates:
        return f"there is no Gate in {action.area}"
    if state.gates[action.area] is not None:
        return f"the Gate in {action.area} is not Abandoned"
    if creatures.blocks_gate_control(state, action.area):
        return f"nobody controls a Gate in an Area with Zoogs: rid {action.area} of them first"
    if not board.units_in(state, seat, action.area).get(action.unit):
        return f"you have no {unit_title(action.unit)} in {action.area} to put on the Gate"
    return None


def abandon_reason(state: GameState, seat: int, action: Any) -> str | None:
    if state.controller(action.area) != seat:
        return f"you do not control a Gate in {action.area}"
    return None


def reveal_reason(state: GameState, seat: int, action: Any) -> str | None:
    return None if state.seats[seat].elder_signs else "you hold no Elder Signs"


CHECKS = {
    "move": move_reason, "recruit": recruit_reason, "gate": gate_reason, "summon": summon_reason,
    "battle": battle_reason, "capture": capture_reason, "control": control_reason, "abandon": abandon_reason,
    "reveal": reveal_reason,
}  # fmt: skip
