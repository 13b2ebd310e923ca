"""What the core asks of the neutral material switched on by game options (rules_text ``cthulhu-wars/high-priests``,
``cthulhu-wars/neutral-monsters``).

Each piece of material is a :class:`~.base.NeutralRule` that registers itself here (:func:`register`; the modules
listed in :mod:`.catalogue` do so when imported, as the engine does). The core calls the functions below and never
names a piece of neutral material itself:

* set-up: :func:`starting_units` (figures every faction starts with in its pool);
* every rule that reads a seat's faction: :func:`variant`, through :func:`~..board.faction_of` (a seat holding
  neutral figures is played through its faction with those unit types added, so Recruit, Summon, Gather Power,
  capture and battle treat them by their role, and the material's own unit rules apply: :class:`NeutralUnits`);
* out-of-turn windows and the Doom-phase decision: :func:`window_options`, :func:`doom_options`;
* Awakening their Great Old Ones with the core ``awaken`` action: :func:`awaken_options`, :func:`awaken`; kills in
  battle (:func:`after_kill`), standing rules between steps (:func:`settle`) and units nothing may move
  (:func:`immovable`);
* their own actions and decisions: :func:`action_models`, :func:`handles`, :func:`apply_action`,
  :func:`decision_options`, :func:`rule_for`, :func:`why_not`.

This module imports no engine module, so every engine module may import it.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from pydantic import BaseModel

from tabletop.games.cthulhu_wars.neutrals.base import NeutralRule
from tabletop.games.cthulhu_wars.neutrals.units import UNIT_TYPES

if TYPE_CHECKING:
    from tabletop.games.cthulhu_wars.factions.base import Faction
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
    from tabletop.games.cthulhu_wars.state import GameState

#: Every piece of neutral material built, in the order its answers are listed.
RULES: list[NeutralRule] = []
#: Which piece of material each neutral unit type belongs to.
OWNERS: dict[str, NeutralRule] = {}
#: Which piece of material handles each of the material's action kinds, and each of its decision kinds.
BY_KIND: dict[str, NeutralRule] = {}
DECISIONS: dict[str, NeutralRule] = {}


def register(rule: NeutralRule) -> None:
    """Add a piece of neutral material (kinds and unit types must be new)."""
    kinds = [m.model_fields["kind"].default for m in rule.action_models]
    taken = [k for k in kinds if k in BY_KIND] + [u.name for u in rule.units if u.name in OWNERS]
    if taken:
        raise ValueError(f"neutral material {rule.name!r} reuses {taken}")
    RULES.append(rule)
    OWNERS.update({u.name: rule for u in rule.units})
    BY_KIND.update({k: rule for k in kinds})
    DECISIONS.update({k: rule for k in rule.decisions})


def action_models() -> tuple[type[BaseModel], ...]:
    """The action models of every piece of material registered."""
    return tuple(m for rule in RULES for m in rule.action_models)


#: The material each options object switches on, by the object's id (kept with it, so an id is never reused while
#: its entry stands), with the part of it that defines each hook (:func:`hooked`): asked for every listed move.
_ACTIVE: dict[int, tuple[CthulhuWarsOptions, list[NeutralRule], dict[str, list[NeutralRule]]]] = {}


def _switched_on(
    options: CthulhuWarsOptions,
) -> tuple[CthulhuWarsOptions, list[NeutralRule], dict[str, list[NeutralRule]]]:
    """The entry of :data:`_ACTIVE` for ``options`` (options are immutable: worked out once per options object)."""
    known = _ACTIVE.get(id(options))
    if known is None or known[0] is not options:
        if len(_ACTIVE) >= 512:
            _ACTIVE.clear()
        known = _ACTIVE[id(options)] = (options, [rule for rule in RULES if rule.enabled(options)], {})
    return known


def active(options: CthulhuWarsOptions) -> list[NeutralRule]:
    """The material this game's options switch on."""
    return _switched_on(options)[1]


def hooked(options: CthulhuWarsOptions, hook: str) -> list[NeutralRule]:
    """The material of :func:`active` whose class defines the hook ``hook`` itself, in the same order: the others
    keep :class:`NeutralRule`'s default, which does nothing (no options, no note, a cost or count unchanged), so
    asking them changes nothing."""
    known = _ACTIVE.get(id(options))
    if known is not None and known[0] is options and hook in known[2]:  # asked for every listed move: the quick way
        return known[2][hook]
    _, rules, by_hook = _switched_on(options)
    found = by_hook.get(hook)
    if found is None:
        default = getattr(NeutralRule, hook)
        found = by_hook[hook] = [rule for rule in rules if getattr(type(rule), hook) is not default]
    return found


def starting_units(options: CthulhuWarsOptions) -> dict[str, list[str]]:
    """Neutral figures each faction has from set-up (unit type -> place of each figure)."""
    found: dict[str, list[str]] = {}
    for rule in active(options):
        found.update(rule.starting_units(options))
    return found


def window_options(state: GameState, seat: int, window: dict) -> list[BaseModel]:
    return [a for rule in hooked(state.options, "window_options") for a in rule.window_options(state, seat, window)]


def doom_options(state: GameState, seat: int) -> list[BaseModel]:
    return [a for rule in hooked(state.options, "doom_options") for a in rule.doom_options(state, seat)]


def handles(action: BaseModel) -> bool:
    """Whether ``action`` is one of the neutral material's own actions."""
    return action.kind in BY_KIND  # type: ignore[attr-defined]


def apply_action(state: GameState, seat: int, action: BaseModel, log: list[str], data: dict | None = None) -> None:
    """Carry out a neutral action, or an answer to a neutral decision whose data is ``data``."""
    BY_KIND[action.kind].apply_action(state, seat, action, log, data)  # type: ignore[attr-defined]


def decision_options(state: GameState, seat: int, kind: str, data: dict) -> list[BaseModel] | None:
    """Answers to a pending decision of the neutral material, or None when ``kind`` is not one of theirs."""
    rule = DECISIONS.get(kind)
    return rule.decision_options(state, seat, kind, data) if rule else None


def odds_note(state: GameState, attacker: int, defender: int, area: str) -> str:
    """The material's notes on a battle's odds, both sides (battle_odds)."""
    rules = active(state.options)
    notes = [rule.odds_note(state, a, b, area) for a, b in ((attacker, defender), (defender, attacker)) for rule in rules]
    return " ".join(n for n in notes if n)


def spellbook_choices(state: GameState, seat: int) -> list[str]:
    """Spellbooks the material offers ``seat`` for a met requirement besides its faction's own."""
    return [b for rule in hooked(state.options, "spellbook_choices") for b in rule.spellbook_choices(state, seat)]


def gate_cost(state: GameState, seat: int, cost: int) -> int:
    """What Build Gate costs ``seat`` after the material's changes to ``cost``."""
    for rule in hooked(state.options, "gate_cost"):
        cost = rule.gate_cost(state, seat, cost)
    return cost


def after_reveal(state: GameState, seat: int, gained: int, log: list[str]) -> None:
    """``seat`` revealed Elder Signs worth ``gained`` Doom: the material's effects of that."""
    for rule in hooked(state.options, "after_reveal"):
        rule.after_reveal(state, seat, gained, log)


def pre_battle_options(state: GameState, seat: int, battle: dict) -> list[BaseModel]:
    """The material's pre-battle abilities for ``seat``, a side of ``battle``."""
    rules = hooked(state.options, "pre_battle_options")
    return [a for rule in rules for a in rule.pre_battle_options(state, seat, battle)]


def actions(state: GameState, seat: int) -> list[BaseModel]:
    """The material's Action-phase actions for ``seat`` now."""
    return [a for rule in hooked(state.options, "actions") for a in rule.actions(state, seat)]


def action_cost(state: GameState, seat: int, action: BaseModel) -> int | None:
    """Power one of the material's Action-phase actions costs, or None when ``action`` is not one of theirs."""
    rule = BY_KIND.get(action.kind)  # type: ignore[attr-defined]
    return rule.action_cost(state, seat, action) if rule else None




def awaken_options(state: GameState, seat: int) -> list[tuple[str, str, int]]:
    """Great Old Ones of the material ``seat`` may Awaken now: (unit, area, cost)
    (``cthulhu-wars/independent-great-old-ones``)."""
    return [o for rule in hooked(state.options, "awaken_options") for o in rule.awaken_options(state, seat)]


def owns(unit: str) -> bool:
    """Whether ``unit`` is one of the neutral material's unit types."""
    return unit in OWNERS


def awaken(state: GameState, seat: int, unit: str, area: str, cost: int, log: list[str]) -> None:
    OWNERS[unit].awaken(state, seat, unit, area, cost, log)


def immovable(state: GameState, seat: int, unit: str) -> bool:
    """Whether no Move and no ability may move ``seat``'s figures of ``unit`` (Byatis,
    ``cthulhu-wars/igoo-byatis``)."""
    rule = OWNERS.get(unit)
    return bool(rule and rule.immovable(state, seat, unit))


def summoned(unit: str) -> bool:
    """Whether ``unit`` is Summoned by the core Summon action (not Filth: ``cthulhu-wars/igoo-abhoth``)."""
    rule = OWNERS.get(unit)
    return rule is None or rule.summoned(unit)


def move_cost(state: GameState, seat: int, unit: str) -> int:
    """Power the next figure of ``unit`` costs in ``seat``'s Move action: 1, or 0 where the material says so (From
    Below, ``cthulhu-wars/igoo-nyogtha``)."""
    for rule in hooked(state.options, "free_move"):
        if rule.free_move(state, seat, unit):
            return 0
    return 1


def doom_gates(state: GameState, seat: int, count: int) -> int:
    """How many of ``seat``'s ``count`` Gates give it Doom in the Doom phase (The Brood, ``cthulhu-wars/igoo-abhoth``)."""
    for rule in hooked(state.options, "doom_gates"):
        count = rule.doom_gates(state, seat, count)
    return count


def area_markers(state: GameState) -> dict[str, list[str]]:
    """The material's markers that belong to no seat, by Area (ownerless Filth, ``cthulhu-wars/igoo-abhoth``)."""
    found: dict[str, list[str]] = {}
    for rule in hooked(state.options, "area_markers"):
        for area, names in rule.area_markers(state).items():
            found.setdefault(area, []).extend(names)
    return found


def after_kill(state: GameState, owner: int, unit: str, battle: dict | None, log: list[str]) -> None:
    """A figure of ``owner`` was eliminated by a Kill, in a battle or by Dread Curse (Daoloth's requirement)."""
    for rule in hooked(state.options, "after_kill"):
        rule.after_kill(state, owner, unit, battle, log)


def settle(state: GameState, log: list[str]) -> None:
    """The material's standing rules, between steps (no battle, no decision awaited)."""
    for rule in hooked(state.options, "settle"):
        rule.settle(state, log)


def rule_for(action: BaseModel) -> str | None:
    """The rules section of a neutral action, or of any action naming a neutral unit ("recruit high-priest ...",
    "summon gug ..."); None for the others."""
    kind = action.kind  # type: ignore[attr-defined]
    rule = BY_KIND.get(kind)
    if rule is not None:
        return f"cthulhu-wars/{rule.rules_by_kind.get(kind, rule.rules_section)}"
    unit = getattr(action, "unit", None)
    owner = OWNERS.get(unit) if isinstance(unit, str) else None
    if owner:
        return f"cthulhu-wars/{owner.unit_section(unit)}"
    section = next((s for rule in RULES if (s := rule.section_of(action))), None)
    return f"cthulhu-wars/{section}" if section else None


def why_not(state: GameState, seat: int, action: BaseModel) -> str | None:
    """A refusal's reason when it is the material's own (e.g. it is not in this game), else None."""
    unit = getattr(action, "unit", None)
    rule = BY_KIND.get(action.kind) or (OWNERS.get(unit) if isinstance(unit, str) else None)  # type: ignore[attr-defined]
    rule = rule or next((r for r in RULES if r.section_of(action)), None)
    return rule.why_not(state, seat, action) if rule else None


# ---- a faction with neutral units ---------------------------------------------------------------------
class NeutralUnits:
    """Put before a faction's class in a variant: its neutral units follow their material's rules where it has one,
    and the faction's own rules otherwise."""

    def can_capture(self, state: GameState, seat: int, unit: str, area: str | None = None) -> bool:
        rule = OWNERS.get(unit)
        said = rule.can_capture(state, seat, unit) if rule else None
        return super().can_capture(state, seat, unit, area) if said is None else said  # type: ignore[misc]

    def summon_cost(self, state: GameState, seat: int, unit: str) -> int:
        rule = OWNERS.get(unit)
        said = rule.summon_cost(state, seat, unit) if rule else None
        return super().summon_cost(state, seat, unit) if said is None else said  # type: ignore[misc]

    def move_targets(self, state: GameState, seat: int, unit: str, source: str) -> list[str]:
        rule = OWNERS.get(unit)
        said = rule.move_targets(state, seat, unit, source) if rule else None
        return super().move_targets(state, seat, unit, source) if said is None else said  # type: ignore[misc]

    def notes(self, state: GameState, seat: int) -> list[str]:
        faction_notes = super().notes(state, seat)  # type: ignore[misc]
        return faction_notes + [n for rule in hooked(state.options, "notes") for n in rule.notes(state, seat)]

    def after_summon(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        rule = OWNERS.get(unit)
        if rule is not None:
            rule.after_summon(state, seat, unit, area, log)
        super().after_summon(state, seat, unit, area, log)  # type: ignore[misc]

    def after_move(self, state: GameState, seat: int, unit: str, index: int, source: str, target: str,
                   log: list[str]) -> None:
        rule = OWNERS.get(unit)
        if rule is not None:
            rule.after_move(state, seat, unit, index, source, target, log)
        super().after_move(state, seat, unit, index, source, target, log)  # type: ignore[misc]

    def after_roll(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        for rule in hooked(state.options, "after_roll"):
            rule.after_roll(state, seat, battle, log)
        super().after_roll(state, seat, battle, log)  # type: ignore[misc]

    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int:
        rule = OWNERS.get(unit)
        said = rule.unit_combat(state, seat, unit, battle, count) if rule else None
        return super().unit_combat(state, seat, unit, battle, count) if said is None else said  # type: ignore[misc]

    def unlimited(self, state: GameState, seat: int) -> frozenset[str]:
        kinds = super().unlimited(state, seat)  # type: ignore[misc]
        for rule in hooked(state.options, "unlimited"):
            kinds = rule.unlimited(state, seat, kinds)
        return kinds

    def after_action(self, state: GameState, seat: int, actor: int, log: list[str]) -> None:
        super().after_action(state, seat, actor, log)  # type: ignore[misc]
        for rule in hooked(state.options, "after_action"):
            rule.after_action(state, seat, actor, log)

    def doom_phase(self, state: GameState, seat: int, log: list[str]) -> None:
        super().doom_phase(state, seat, log)  # type: ignore[misc]
        for rule in hooked(state.options, "doom_phase"):
            rule.doom_phase(state, seat, log)

    def after_any_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        super().after_any_battle(state, seat, battle, log)  # type: ignore[misc]
        for rule in hooked(state.options, "after_any_battle"):
            rule.after_any_battle(state, seat, battle, log)

    def battle_over(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        super().battle_over(state, seat, battle, log)  # type: ignore[misc]
        for rule in hooked(state.options, "battle_over"):
            rule.battle_over(state, seat, battle, log)


_CLASSES: dict[type, type] = {}
_VARIANTS: dict[tuple[str, tuple[str, ...]], Faction] = {}


def variant(faction: Faction, kinds: tuple[str, ...]) -> Faction:
    """``faction`` with the neutral unit types among ``kinds`` (a seat's unit types) added to its units; one shared
    instance per faction and set of types."""
    key = (faction.name, kinds)
    found = _VARIANTS.get(key)
    if found is None:
        cls = _CLASSES.get(type(faction))
        if cls is None:
            cls = _CLASSES[type(faction)] = type(f"{type(faction).__name__}WithNeutrals", (NeutralUnits, type(faction)), {})
        found = copy.copy(faction)
        found.__class__ = cls
        found.__dict__.pop("units_by_name", None)
        found.units = faction.units + tuple(UNIT_TYPES[k] for k in kinds if k in UNIT_TYPES and k not in faction.units_by_name)
        _VARIANTS[key] = found
    return found
