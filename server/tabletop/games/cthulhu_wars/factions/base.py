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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars.maps import FactionSymbol
from tabletop.games.cthulhu_wars.power import ExtraIncome

if TYPE_CHECKING:
    from tabletop.games.cthulhu_wars.state import GameState

Role = Literal["cultist", "monster", "terror", "goo"]


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
    start_symbol: FactionSymbol  # the start-area symbol on the map
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
    #: True for placeholder factions that only carry printed unit statistics.
    stand_in: bool = False

    # ---- unit data -----------------------------------------------------------------
    def unit(self, name: str) -> UnitType:
        return next(u for u in self.units if u.name == name)

    def cultists(self) -> tuple[str, ...]:
        return tuple(u.name for u in self.units if u.role == "cultist")

    def monsters(self) -> tuple[str, ...]:
        return tuple(u.name for u in self.units if u.role in ("monster", "terror"))

    def goos(self) -> tuple[str, ...]:
        return tuple(u.name for u in self.units if u.role == "goo")

    def action_cost(self, state: GameState, seat: int, action: BaseModel) -> int:
        """Power one of this faction's own actions costs now; default :attr:`action_costs` (0 if absent)."""
        return self.action_costs.get(action.kind, 0)  # type: ignore[attr-defined]

    def summon_cost(self, state: GameState, seat: int, unit: str) -> int:
        """Power to Summon one ``unit`` (a Monster); default its printed cost."""
        return self.unit(unit).cost

    def can_control_gates(self, state: GameState, seat: int, unit: str) -> bool:
        """Whether ``unit`` may build and control Gates; default Cultists only."""
        return self.unit(unit).is_cultist

    def can_capture(self, state: GameState, seat: int, unit: str) -> bool:
        """Whether ``unit`` can make a Capture; default Monsters, Terrors and GOOs."""
        return self.unit(unit).role != "cultist"

    def move_targets(self, state: GameState, seat: int, unit: str, source: str) -> list[str]:
        """Areas a figure of ``unit`` may Move to from ``source``; default the adjacent ones (Flight: further)."""
        return list(state.layout.area(source).adjacent)

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

    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        """Answers to one of this faction's own pending decisions.

        A pending decision put to another seat names this faction in ``data["faction"]`` so that this
        hook (and :meth:`apply_action`) handle it; ``data["mandatory"]`` leaves out ``done`` while
        there is an answer.
        """
        return []

    def after_action(self, state: GameState, seat: int, actor: int, log: list[str]) -> None:
        """After any player's action (``actor``): ongoing abilities that need no choice."""

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
