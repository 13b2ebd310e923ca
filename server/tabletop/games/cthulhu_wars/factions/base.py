"""The faction framework (rules_text ``cthulhu-wars/factions``).

A faction is one module holding a :class:`Faction` subclass instance: its unit types, its
six requirements and six spellbooks, the action models it adds, and hooks the engine calls
at fixed timings. Every hook has a do-nothing default, so a faction overrides only what
its abilities need. Hooks receive the (already copied) state and may change it; they
append plain sentences to ``log``.

Timings, in the order a game meets them:

* Gather Power: :meth:`Faction.gather_extras` (extra income lines).
* Doom phase: :meth:`Faction.doom_phase` (after Doom for Gates, before the Rituals).
* Action phase: :meth:`Faction.actions` lists the faction's own actions (main or unlimited,
  see :attr:`Faction.unlimited_kinds`) and :meth:`Faction.apply_action` resolves them;
  :meth:`Faction.decision_options` lists the answers to the faction's own pending decisions;
  :meth:`Faction.move_targets` says where a Move may take a unit (Flight).
* After every action of anyone: :meth:`Faction.after_action` (ongoing abilities without a choice,
  e.g. Passion), then an out-of-turn window (windows.py) in which :meth:`Faction.window_options`
  lists what the faction may do then (e.g. Devolve). :meth:`Faction.met_requirements` is checked
  whenever an action is complete (the engine then offers a spellbook per new one).
* Battle: :meth:`Faction.pre_battle_options` (optional pre-battle abilities),
  :meth:`Faction.unit_combat` (variable combat), :meth:`Faction.result_capacity`
  (how many results a unit can absorb), :meth:`Faction.spares` (a unit escaping elimination
  by a Kill or for lack of a retreat), :meth:`Faction.chooses_for` (who assigns another
  side's results or retreats), :meth:`Faction.post_battle` (after results, before retreats),
  then :meth:`Faction.after_any_battle` for every faction, in the battle or not.
  The battle under way is ``state.battle`` (see battle.py for its keys).
* Awakening: :meth:`Faction.awaken_options` and :meth:`Faction.on_awaken`.

Hooks added with the expansion factions (Windwalker, Sleeper, Opener of the Way), each a general
timing the core calls from the one place where it happens:

* Set-up: :attr:`Faction.start_choice` (a fixed start symbol, a choice among the faction's symbols,
  or any Area without a Gate, chosen last) and :attr:`Faction.may_start_first`.
* Gates: :meth:`Faction.gate_areas` (Gates a faction holds without a Cultist, Yog-Sothoth),
  :meth:`Faction.gate_destroyed` (such a Gate destroyed: the Dreamlands' Bhole) and
  :meth:`Faction.off_map_gates` (Gates held off the map that still count for Power and Doom,
  Cursed Slumber).
* Action phase: :meth:`Faction.sits_out` (inactive for the rest of the phase, Hibernate),
  :meth:`Faction.taxed_areas` (extra Power an enemy's action ending in an Area costs, Ice Age),
  :meth:`Faction.unlimited` (unlimited action kinds now), :meth:`Faction.summon_areas`,
  :meth:`Faction.protects_cultists` (Ferox), :meth:`Faction.after_move` (Arctic Wind).
* Doom phase: :meth:`Faction.ritual_cost` (Herald of the Outer Gods) and
  :meth:`Faction.doom_options` (Dragon Descending).
* Battle: :meth:`Faction.before_battle` (every faction, before pre-battle: Energy Nexus),
  :meth:`Faction.after_roll` (both sides, after the dice: Channel Power),
  :meth:`Faction.before_kills` (both sides, before Kills are assigned: Demand Sacrifice),
  :meth:`Faction.before_pains` (both sides, after Kills and before Pains are assigned: Unholy Ground with
  the option ``unholy_ground_timing`` before-pains),
  :meth:`Faction.on_result` (a figure given a result, before it takes effect: Eternal) and
  :meth:`Faction.battle_over` (every faction, after retreats: Cannibalism, Million Favored Ones).
* End of the game: :meth:`Faction.game_end` (before the Elder Signs are revealed).
* What everyone sees: :meth:`Faction.area_markers`, :meth:`Faction.notes` and :meth:`Faction.line_notes`.

Hooks added with The Ancients (rules_text ``cthulhu-wars/ancients``), general timings as above:

* Set-up: :attr:`Faction.start_choice` "unmarked" (any Area without a faction's start symbol or a Citadel, chosen
  after the symbol choices and before "anywhere").
* Units: the role "terror" (a Terror is Summoned, captures and protects Cultists like a Monster, but abilities that
  name Monsters do not reach it: :meth:`Faction.units_of`); :meth:`Faction.eliminated_place` (where an eliminated
  figure goes: its pool, or out of the game, Extinction).
* Buildings that are not Gates: :meth:`Faction.buildings` (Cathedrals: never units, never controlled).
* Action phase: :meth:`Faction.after_summon` (Festival), :meth:`Faction.may_declare_battle` and the ``area`` of
  :meth:`Faction.can_capture` (Brainless).
* Gather Power: :meth:`Faction.gives_income` (Power this faction's abilities give another faction: Worship Services).
* Doom phase: :meth:`Faction.ritual_extra_elder_signs` (Consecration); :meth:`Faction.doom_options` also keeps a
  faction's Doom-phase turn when it can neither pay a Ritual nor reveal (Dematerialization).

Hooks added with the Independent Great Old Ones (rules_text ``cthulhu-wars/independent-great-old-ones``):
:meth:`Faction.independent_awakened` (Immortal) and :meth:`Faction.awakens_independents_without_goo` (Cathedrals).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars.maps import FactionSymbol, layout_cache
from tabletop.games.cthulhu_wars.power import ExtraIncome

if TYPE_CHECKING:
    from tabletop.games.cthulhu_wars.state import GameState

Role = Literal["cultist", "monster", "terror", "goo"]
#: Where a faction may start (rules_text ``cthulhu-wars/setup``), in the order the choices are made.
StartChoice = Literal["symbol", "symbol-choice", "unmarked", "anywhere"]


@layout_cache
def adjacent_areas(layout_name: str, area: str) -> tuple[str, ...]:
    """The ids of the Areas next to ``area`` on a layout, through tunnels too (read once per layout and Area)."""
    from tabletop.games.cthulhu_wars.maps import load_layout

    return tuple(load_layout(layout_name).area(area).adjacent)


@dataclass(frozen=True)
class UnitType:
    """A kind of figure: how many the faction owns, what it costs and its printed Combat."""

    name: str  # slug used in notation: "deep-one"
    title: str
    count: int
    cost: int
    combat: int
    role: Role

    @property
    def is_cultist(self) -> bool:
        return self.role == "cultist"


@dataclass(frozen=True)
class Requirement:
    """One of the six spellbook requirements; ``elder_sign`` marks those that also give one."""

    name: str
    text: str
    elder_sign: bool = False


@dataclass(frozen=True)
class Spellbook:
    """One of the six spellbooks; ``timing`` is one of pre-battle, post-battle, battle, ongoing, action, gather, doom."""

    name: str
    title: str
    timing: str
    text: str


class Faction:
    """Base class of every faction. Subclasses set the class attributes and override hooks."""

    name: str  # slug, e.g. "great-cthulhu"
    title: str
    start_symbol: FactionSymbol | None  # the start-area symbol on the map (None: no symbol)
    rules_section: str  # rules_text section id, e.g. "great-cthulhu"
    units: tuple[UnitType, ...]
    requirements: tuple[Requirement, ...]
    spellbooks: tuple[Spellbook, ...]
    #: Pydantic action models this faction adds (each with a unique ``kind`` literal).
    action_models: tuple[type[BaseModel], ...] = ()
    #: Kinds among action_models that are unlimited actions (do not use up the turn's action).
    unlimited_kinds: frozenset[str] = frozenset()
    #: Power each of this faction's action kinds costs, for move listings (0 if absent).
    action_costs: dict[str, int] = {}
    #: One line for list_games: who the faction is and its unique ability.
    description: str = ""
    #: Where the faction starts (rules_text ``cthulhu-wars/setup``): "symbol" on its start symbol,
    #: "symbol-choice" on one of its symbol Areas of its choice after the fixed starts, "anywhere" in
    #: any Area without a Gate, chosen last; "unmarked" in an Area without a start symbol or a Citadel, chosen before
    #: "anywhere".
    start_choice: StartChoice = "symbol"
    #: Whether the faction may be the First Player at the start of the game.
    may_start_first: bool = True
    #: Order among the factions a game seats by default (the four core factions first).
    default_rank: int = 0
    #: Kinds of this faction's pending decisions whose answers are actions taken at their normal cost (and any
    #: extra cost for where they end), e.g. a second action.
    action_decisions: frozenset[str] = frozenset()
    #: Rules sections of action kinds that have their own section (a spellbook), else ``rules_section``.
    rules_by_kind: dict[str, str] = {}

    # ---- unit data -----------------------------------------------------------------
    @functools.cached_property
    def units_by_name(self) -> dict[str, UnitType]:
        return {u.name: u for u in self.units}

    def unit(self, name: str) -> UnitType:
        try:
            return self.units_by_name[name]
        except KeyError:
            raise KeyError(f"{self.name} has no unit type {name!r}") from None

    def cultists(self) -> tuple[str, ...]:
        return self.units_of("cultist")

    def monsters(self) -> tuple[str, ...]:
        return self.units_of("monster", "terror")

    def goos(self) -> tuple[str, ...]:
        return self.units_of("goo")

    def units_of(self, *roles: Role) -> tuple[str, ...]:
        """Unit types of exactly these roles: an ability naming "Monster" reaches no Terror (``cthulhu-wars/ancients``).
        Worked out once per set of roles and kept with the unit types read (:attr:`units`, a tuple never changed in
        place): rules given other unit types (a variant with neutral units) work theirs out again."""
        known = self.__dict__.get("names_by_roles")
        if known is None or known[0] is not self.units:
            known = self.__dict__["names_by_roles"] = (self.units, {})
        found = known[1].get(roles)
        if found is None:
            found = known[1][roles] = tuple(u.name for u in self.units if u.role in roles)
        return found

    def action_cost(self, state: GameState, seat: int, action: BaseModel) -> int:
        """Power one of this faction's own actions costs now; default :attr:`action_costs` (0 if absent)."""
        return self.action_costs.get(action.kind, 0)  # type: ignore[attr-defined]

    def summon_cost(self, state: GameState, seat: int, unit: str) -> int:
        """Power to Summon one ``unit`` (a Monster); default its printed cost."""
        return self.unit(unit).cost

    def can_control_gates(self, state: GameState, seat: int, unit: str) -> bool:
        """Whether ``unit`` may build and control Gates; default Cultists only."""
        return self.unit(unit).is_cultist

    def can_capture(self, state: GameState, seat: int, unit: str, area: str | None = None) -> bool:
        """Whether ``unit`` (in ``area`` if given) can make a Capture; default Monsters, Terrors and GOOs."""
        return self.unit(unit).role != "cultist"

    def move_targets(self, state: GameState, seat: int, unit: str, source: str) -> list[str]:
        """Areas a figure of ``unit`` may Move to from ``source``; default the adjacent ones (Flight: further)."""
        return list(adjacent_areas(state.layout_name, source))

    def spares(self, state: GameState, seat: int, unit: str, battle: dict, cause: str) -> bool:
        """Whether a figure of ``unit`` escapes elimination in battle; default never.

        ``cause`` is ``"kill"`` (the Kill then counts as a Pain) or ``"no-retreat"`` (a Pained
        figure with nowhere to go stays where it is), e.g. for Emissary of the Outer Gods.
        """
        return False

    # ---- hooks ---------------------------------------------------------------------
    def gather_extras(self, state: GameState, seat: int) -> list[ExtraIncome]:
        """Extra Power lines at Gather Power (before the Minimum Power Rule)."""
        return []

    def doom_phase(self, state: GameState, seat: int, log: list[str]) -> None:
        """Doom-phase abilities, after Doom for Gates."""

    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Great Old Ones this faction may Awaken now: (unit, area, cost)."""
        return []

    def on_awaken(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """After a Great Old One of this faction is Awakened."""

    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        """This faction's own legal actions now (main and unlimited), in the Action phase."""
        return []

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        """Resolve one of this faction's actions or decision answers (already checked legal)."""
        raise NotImplementedError(action.kind)  # type: ignore[attr-defined]

    def apply_decision(self, state: GameState, seat: int, action: BaseModel, data: dict, log: list[str]) -> None:
        """Resolve an answer to one of this faction's pending decisions, whose ``data`` it may need; default
        :meth:`apply_action`."""
        self.apply_action(state, seat, action, log)

    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        """Answers to one of this faction's own pending decisions.

        A pending decision put to another seat names this faction in ``data["faction"]`` so that this
        hook (and :meth:`apply_action`) handle it; ``data["mandatory"]`` leaves out ``done`` while
        there is an answer.
        """
        return []

    def after_action(self, state: GameState, seat: int, actor: int, log: list[str]) -> None:
        """After any player's action (``actor``), or an event of the map itself that eliminated units (``actor`` -1,
        :data:`~.creatures.MAP_EVENT`: the Bhole's attack counts as an enemy's elimination): ongoing abilities that
        need no choice."""

    def figure_left_by_choice(self, state: GameState, seat: int, unit: str, log: list[str]) -> None:
        """A figure of this faction left the map by its owner's own choice, not an enemy's (a High Priest sacrificed:
        rules_text ``cthulhu-wars/high-priests``)."""

    def window_options(self, state: GameState, seat: int, window: dict) -> list[BaseModel]:
        """What this faction may do out of turn in a window (``cthulhu-wars/out-of-turn``); resolved by
        :meth:`apply_action`. ``window["actor"]`` is the seat whose action or Doom-phase decision opened it and
        ``window["context"]`` is ``"action"`` or ``"doom"``. Reveals are offered by the engine itself."""
        return []

    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        """Requirements (names) met now that are not yet recorded; checked after every action and step."""
        return []

    def pre_battle_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        """Optional pre-battle abilities this side may use now (the engine adds 'proceed')."""
        return []

    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int:
        """Total dice for ``count`` figures of ``unit`` in ``battle``; default printed Combat each."""
        return self.unit(unit).combat * count

    def result_capacity(self, state: GameState, seat: int, unit: str) -> int:
        """How many battle results one figure of ``unit`` can take (Regenerate: 2)."""
        return 1

    def chooses_for(self, state: GameState, seat: int, battle: dict, owner: int, step: str) -> bool:
        """Whether this faction decides ``owner``'s results or retreats (``step``: kill, pain, retreat).

        For abilities like Vengeance or Madness; it may answer True for battles it is not in.
        """
        return False

    def post_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """After Kills and Pains are applied, before retreats."""

    def after_any_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Every faction, in the battle or not, after both sides' post-battle abilities and before retreats
        (e.g. Necrophagy)."""

    # ---- hooks of the expansion factions (see the module docstring for their timings) -----
    def gate_areas(self, state: GameState, seat: int) -> list[str]:
        """Areas where this faction holds a Gate with no Cultist on it (Yog-Sothoth counts as one)."""
        return []

    def gate_destroyed(self, state: GameState, seat: int, area: str, log: list[str]) -> None:
        """Whatever Gate this faction holds in ``area`` without a Cultist (:meth:`gate_areas`) is destroyed (the
        Bhole's attack; rules_text ``cthulhu-wars/dreamlands-bhole``)."""

    def off_map_gates(self, state: GameState, seat: int) -> int:
        """Gates this faction holds off the map that still give Power and Doom (Cursed Slumber)."""
        return 0

    def sits_out(self, state: GameState, seat: int) -> bool:
        """Whether the faction takes no more turns this Action phase whatever its Power (Hibernate)."""
        return False

    def taxed_areas(self, state: GameState, seat: int, payer: int) -> dict[str, int]:
        """Extra Power an action of ``payer`` (an enemy) costs when it ends in each Area (Ice Age)."""
        return {}

    def unlimited(self, state: GameState, seat: int) -> frozenset[str]:
        """Action kinds that are unlimited for this faction now; default :attr:`unlimited_kinds`."""
        return self.unlimited_kinds

    def controlled_gates(self, state: GameState, seat: int) -> list[str]:
        """Areas of the Gates ``seat`` controls on the map: those its units hold, then :meth:`gate_areas` (an Area
        with both is listed twice, each Gate counting)."""
        return [area for area, holder in state.gates.items() if holder and holder[0] == seat] + self.gate_areas(state, seat)

    def summon_areas(self, state: GameState, seat: int) -> list[str]:
        """Areas where this faction may Summon; default the Gates it controls."""
        return sorted(set(self.controlled_gates(state, seat)))

    def protects_cultists(self, state: GameState, seat: int, area: str, captor: int, captor_has_goo: bool) -> bool:
        """Whether this faction's Cultists in ``area`` are safe from a Capture by ``captor`` (Ferox)."""
        return False

    def after_move(self, state: GameState, seat: int, unit: str, index: int, source: str, target: str, log: list[str]) -> None:
        """After one figure of this faction moved in a Move action (Arctic Wind)."""

    def ritual_cost(self, state: GameState, seat: int, cost: int) -> int:
        """What a Ritual costs this faction when the track says ``cost`` (Herald of the Outer Gods)."""
        return cost

    def doom_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Extra answers to this faction's Doom-phase decision, resolved by :meth:`apply_action`."""
        return []

    def before_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Every faction, once a battle is declared and before pre-battle abilities (Energy Nexus)."""

    def after_roll(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Each side of a battle, after both sides rolled (Channel Power; dice-count requirements)."""

    def before_kills(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Each side of a battle, after any rerolls and before Kills are assigned (Demand Sacrifice)."""

    def before_pains(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Each side of a battle, after Kills are applied and before Pains are assigned (Unholy Ground with the option
        ``unholy_ground_timing`` before-pains). A decision put in ``state.pending`` is answered first; the hook is
        then called again, so it must not ask twice."""

    def on_result(self, state: GameState, seat: int, unit: str, index: int, result: str, battle: dict) -> bool:
        """A figure of this faction was just given a battle result (``kill`` or ``pain``) that has not taken
        effect. Return True when the faction put a decision in ``state.pending`` that will apply the result
        itself (``battle.record_result`` with ``ask=False``) or cancel it (Eternal)."""
        return False

    def battle_over(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Every faction, after the retreats of a battle (Cannibalism, The Million Favored Ones)."""

    def game_end(self, state: GameState, seat: int, log: list[str]) -> None:
        """When the game ends, before everyone reveals Elder Signs."""

    def area_markers(self, state: GameState, seat: int) -> dict[str, list[str]]:
        """Public markers this faction has in Areas, e.g. ``{"europe": ["Ice Age"]}``."""
        return {}

    def notes(self, state: GameState, seat: int) -> list[str]:
        """Public facts about this faction's pieces off the map, one sentence each."""
        return []

    def line_notes(self, state: GameState, seat: int) -> list[str]:
        """Short public facts for this faction's own line in the position, e.g. "Cthulhu submerged (from
        south-pacific)"."""
        return []

    # ---- hooks of The Ancients (see the module docstring for their timings) ---------------------
    def buildings(self, state: GameState, seat: int) -> list[tuple[str, str]]:
        """Buildings of this faction that are not Gates, as (Area, kind), e.g. ``("europe", "cathedral")``."""
        return []

    def eliminated_place(self, state: GameState, seat: int, unit: str) -> str:
        """Where an eliminated figure of ``unit`` goes: its pool (``@pool``), or ``@gone``, out of the game."""
        return "@pool"

    def after_summon(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """After a figure of this faction is Summoned (by its own action or an ability letting it Summon)."""

    def may_declare_battle(self, state: GameState, seat: int, area: str) -> bool:
        """Whether this faction's units in ``area`` may declare a Battle (Combat aside); default yes."""
        return True

    def gives_income(self, state: GameState, seat: int, other: int) -> list[ExtraIncome]:
        """Extra Power lines this faction's abilities give the faction at seat ``other`` at Gather Power."""
        return []

    def ritual_extra_elder_signs(self, state: GameState, seat: int) -> int:
        """Elder Signs a Ritual of this faction draws besides one per Great Old One in play."""
        return 0

    # ---- hooks of the Independent Great Old Ones (rules_text ``cthulhu-wars/independent-great-old-ones``) -------
    def independent_awakened(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """This faction just Awakened an Independent Great Old One ``unit`` in ``area`` (Immortal's Elder Sign)."""

    def awakens_independents_without_goo(self, state: GameState, seat: int) -> bool:
        """Whether this faction may Awaken an Independent Great Old One at a Gate it controls with no Great Old One
        there (The Ancients with all 4 Cathedrals in play); default no."""
        return False

    def refusal(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        """Why an Action-phase action of this faction is not legal now, in players' words, when the faction's own
        rules are the reason (refusals.py asks it before the general reasons); None to leave it to them."""
        return None
