"""What a piece of neutral material is to the engine (rules_text ``cthulhu-wars/high-priests``).

A :class:`NeutralRule` is switched on by a game option and adds to every faction: unit types (figures a seat has
from set-up or gains later), answers in out-of-turn windows and in the Doom-phase decision, its own actions, and
rules for its own units (:class:`NeutralUnits`). A seat holding neutral figures is played through a *variant* of
its faction (:func:`~.variant`) whose unit list includes them; everything else stays the faction's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from tabletop.games.cthulhu_wars.factions.base import UnitType

if TYPE_CHECKING:
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
    from tabletop.games.cthulhu_wars.state import GameState


class NeutralRule:
    """One piece of neutral material. Subclasses set the attributes and override the hooks they need."""

    name: str  # e.g. "high-priests"
    option: str  # the CthulhuWarsOptions field that switches it on
    rules_section: str  # rules_text section id, e.g. "high-priests"
    title: str  # in refusals: "High Priests are not in this game"
    units: tuple[UnitType, ...] = ()
    action_models: tuple[type[BaseModel], ...] = ()

    def unit_section(self, unit: str) -> str:
        """The rules section of one of this material's unit types; default :attr:`rules_section`."""
        return self.rules_section

    def enabled(self, options: CthulhuWarsOptions) -> bool:
        return bool(getattr(options, self.option))

    def starting_units(self, options: CthulhuWarsOptions) -> dict[str, list[str]]:
        """Figures every faction has from set-up (all in its pool); default none."""
        return {}

    def window_options(self, state: GameState, seat: int, window: dict) -> list[BaseModel]:
        """What ``seat`` may do with this material in an out-of-turn window (``cthulhu-wars/out-of-turn``);
        ``window["context"]`` is ``"action"``, ``"doom"`` or ``"gather"``."""
        return []

    def doom_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Extra answers to ``seat``'s Doom-phase decision (``cthulhu-wars/doom``)."""
        return []

    #: Rules sections of action kinds that have their own section (a card), else ``rules_section``.
    rules_by_kind: dict[str, str] = {}
    #: Kinds of this material's own pending decisions (answered through :meth:`decision_options`).
    decisions: frozenset[str] = frozenset()

    def decision_options(self, state: GameState, seat: int, kind: str, data: dict) -> list[BaseModel]:
        """Answers to one of this material's pending decisions (no ``done``: they are compulsory)."""
        return []

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str], data: dict | None = None) -> None:
        """Carry out one of this material's actions or decision answers (``data``: the decision's, if any)."""
        raise NotImplementedError(action.kind)  # type: ignore[attr-defined]

    def why_not(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        """Why one of this material's actions is refused, when the reason is this material's own (e.g. it is not
        in the game); None otherwise."""
        if not self.enabled(state.options):
            return f"{self.title} are not in this game (game option {self.option})"
        return None

    # ---- rules of its own units (NeutralUnits asks these; None: the faction's own rule applies) ----
    def can_capture(self, state: GameState, seat: int, unit: str) -> bool | None:
        return None

    def summon_cost(self, state: GameState, seat: int, unit: str) -> int | None:
        return None

    def move_targets(self, state: GameState, seat: int, unit: str, source: str) -> list[str] | None:
        return None

    def notes(self, state: GameState, seat: int) -> list[str]:
        """Public facts about ``seat``'s holding of this material, one sentence each (the position, the picture)."""
        return []

    def odds_note(self, state: GameState, seat: int, enemy: int, area: str) -> str:
        """What this material adds to the odds of a battle ``seat`` fights against ``enemy`` in ``area`` (one
        sentence, or empty)."""
        return ""

    # ---- events of the seat's faction with this material's units (every piece of material is told) ----
    def after_summon(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """After ``seat`` Summoned one ``unit`` in ``area`` (paid)."""

    def after_move(self, state: GameState, seat: int, unit: str, index: int, source: str, target: str,
                   log: list[str]) -> None:
        """After one figure ``unit`` of ``seat`` moved in a Move action."""

    def after_roll(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """After both sides of a battle ``seat`` fights rolled (before its faction's own after-roll abilities)."""

    # ---- general timings any seat meets (rules_text ``cthulhu-wars/neutral-spellbooks``) ----
    def section_of(self, action: BaseModel) -> str | None:
        """The rules section of a core action that names this material (``spellbook <neutral book>``), so that its
        refusal cites it; None for the others."""
        return None

    def spellbook_choices(self, state: GameState, seat: int) -> list[str]:
        """Spellbooks this material lets ``seat`` take, instead of one of its faction's own, when it meets a
        requirement (besides its faction's books left)."""
        return []

    def gate_cost(self, state: GameState, seat: int, cost: int) -> int:
        """What Build Gate costs ``seat`` when it would otherwise cost ``cost``."""
        return cost

    def after_reveal(self, state: GameState, seat: int, gained: int, log: list[str]) -> None:
        """After ``seat`` revealed Elder Signs worth ``gained`` Doom (in any phase; ``state.phase`` says which)."""

    def pre_battle_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        """Pre-battle abilities this material gives ``seat``, a side of ``battle`` (asked beside its faction's own)."""
        return []

    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        """Action-phase actions this material gives ``seat`` now (main actions, taking the turn's action; each
        resolved by :meth:`apply_action`, which pays its cost)."""
        return []

    def action_cost(self, state: GameState, seat: int, action: BaseModel) -> int:
        """Power one of this material's Action-phase actions costs (for listings and refusals)."""
        return 0

    # ---- hooks added with the Independent Great Old Ones (``cthulhu-wars/independent-great-old-ones``) ----------
    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Great Old Ones of this material ``seat`` may Awaken now with the core ``awaken`` action: (unit, area,
        cost)."""
        return []

    def awaken(self, state: GameState, seat: int, unit: str, area: str, cost: int, log: list[str]) -> None:
        """Carry out the Awakening of one of this material's Great Old Ones (the cost is not paid yet)."""
        raise NotImplementedError(unit)

    def immovable(self, state: GameState, seat: int, unit: str) -> bool:
        """Whether no Move and no ability may move ``seat``'s figures of ``unit`` (Byatis); default False."""
        return False

    def doom_phase(self, state: GameState, seat: int, log: list[str]) -> None:
        """At the start of the Doom phase, after Doom for Gates, for a seat holding this material's units."""

    def battle_over(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """After the retreats of a battle, for every seat holding this material's units, in the battle or not."""

    def after_any_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """After the results of a battle and before retreats, for every seat holding this material's units."""

    def after_kill(self, state: GameState, owner: int, unit: str, battle: dict | None, log: list[str]) -> None:
        """A figure of ``unit`` of ``owner`` was just eliminated by a Kill: in ``battle``, or by an ability rolling
        Kills outside a battle (Dread Curse, ``battle`` None). Every material is told."""

    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int | None:
        """Dice of ``count`` figures of this material's ``unit`` in a battle when not their printed Combat (Abhoth)."""
        return None

    def unlimited(self, state: GameState, seat: int, kinds: frozenset[str]) -> frozenset[str]:
        """The action kinds unlimited for ``seat`` now, given its faction's ``kinds`` (Filth with Fertility Cult)."""
        return kinds

    def summoned(self, unit: str) -> bool:
        """Whether this material's ``unit`` is Summoned by the core action (Filth is placed by its own action)."""
        return True

    def doom_gates(self, state: GameState, seat: int, count: int) -> int:
        """How many of ``seat``'s ``count`` Gates give it Doom in the Doom phase (The Brood)."""
        return count

    def free_move(self, state: GameState, seat: int, unit: str) -> bool:
        """Whether the next figure of ``unit`` ``seat`` moves in the Move action under way moves for no Power (From
        Below)."""
        return False

    def after_action(self, state: GameState, seat: int, actor: int, log: list[str]) -> None:
        """After any action of the Action phase (``actor``'s), for every seat holding this material's units."""

    def area_markers(self, state: GameState) -> dict[str, list[str]]:
        """Public markers of this material that belong to no seat, by Area (ownerless Filth)."""
        return {}

    def settle(self, state: GameState, log: list[str]) -> None:
        """Between steps, when no battle is being fought and no decision is awaited: this material's standing rules
        (a card whose figures all died goes back to the pool, Interdimensional)."""
