"""The Ancients (rules_text ``cthulhu-wars/ancients`` and its spellbook sections ``ancients-*``).

A faction without a Great Old One: Acolytes, Un-Men, Reanimated and the Yothans, its Terrors; its buildings are the
Cathedrals (:meth:`Ancients.buildings`), which are not Gates, never fight and cannot be taken; Dematerialization moves
its units across the map in its Doom-phase turn.

Decisions put to another seat (the free Summons of its two requirements, the enemy's pick of a Great Old One for
Unholy Ground) carry ``"faction": "ancients"`` so that this module answers them. Where the published texts and HRF
differ or say nothing, the game options of ``cthulhu-wars/rulings`` choose (``cathedral_glyph_classes``,
``ancients_free_summon_gates``, ``ancients_free_summon_cost``, ``unholy_ground_without_goo``,
``unholy_ground_timing``, ``unholy_ground_both_nyogtha``,
``worship_services_abandoned_gates``, ``worship_services_counts_yog_sothoth``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import Action, shared
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType, adjacent_areas
from tabletop.games.cthulhu_wars.power import ExtraIncome
from tabletop.games.cthulhu_wars.state import GONE, POOL, GameState, Pending
from tabletop.games.cthulhu_wars import words as words_of

NAME = "ancients"
UN_MAN, REANIMATED, YOTHAN = "un-man", "reanimated", "yothan"
CATHEDRAL = "cathedral"
CATHEDRALS = 4
CATHEDRAL_COST, CATHEDRAL_COST_ALONE = 3, 1
FESTIVAL_COST, BRAINLESS_COST, EXTINCTION_COST = 0, 1, 3
#: The glyph classes of the Cathedrals: the map's three glyphs and Areas with none of them.
UNMARKED, OCEAN = "unmarked", "ocean"
CLASS_REQUIREMENTS = {"arrow": "cathedral-arrow", "snake": "cathedral-snake", "claw": "cathedral-claw",
                      UNMARKED: "cathedral-unmarked", OCEAN: "cathedral-unmarked"}  # fmt: skip
DEMAT_UNITS, DEMAT_TARGET = "an-demat-units", "an-demat-target"
FREE_SUMMON = "an-free-summon"
UNHOLY = "an-unholy-ground"
UNHOLY_LOSS = "an-unholy-loss"
FESTIVAL = "an-festival"


class BuildCathedral(Action):
    """Action (instead of Build Gate): a Cathedral in ``area``, where your Acolyte stands (1 Power, 3 next to a
    Cathedral)."""

    kind: Literal["an-cathedral"] = "an-cathedral"
    area: str


class SummonCheapest(Action):
    """Action (requirement, 0 Power): each enemy Summons its cheapest Monster for free at one of its Gates."""

    kind: Literal["an-summon-cheapest"] = "an-summon-cheapest"


class SummonCostliest(Action):
    """Action (requirement, 0 Power): each enemy Summons its costliest Monster for free at one of its Gates."""

    kind: Literal["an-summon-costliest"] = "an-summon-costliest"


class FreeSummon(Action):
    """An enemy's answer to a free Summon of the Ancients' requirement: ``unit`` at the Gate in ``area``."""

    kind: Literal["an-free-summon"] = "an-free-summon"
    unit: str
    area: str


class Dematerialize(Action):
    """Doom phase (Dematerialization, once): your units in ``source`` may go to one other Area, anywhere."""

    kind: Literal["an-dematerialize"] = "an-dematerialize"
    source: str


class DematTarget(Action):
    """Dematerialization: the Area the units go to."""

    kind: Literal["an-demat-to"] = "an-demat-to"
    area: str


class DematUnit(Action):
    """One more figure of ``unit`` dematerializes (``from-gate``: the one holding the Gate)."""

    kind: Literal["an-demat-unit"] = "an-demat-unit"
    unit: str
    from_gate: bool = False


class FestivalGift(Action):
    """Festival: the enemy ``faction`` gains 1 Power for the Un-Man you just Summoned."""

    kind: Literal["an-festival"] = "an-festival"
    faction: str


class UnholyGround(Action):
    """Post-battle (Unholy Ground): remove your Cathedral in ``area``; the enemy eliminates a Great Old One of its own
    in the battle."""

    kind: Literal["an-unholy-ground"] = "an-unholy-ground"
    area: str


class UnholyLoss(Action):
    """Unholy Ground, the enemy's answer: its Great Old One ``unit`` in the battle is eliminated."""

    kind: Literal["an-unholy-loss"] = "an-unholy-loss"
    unit: str


class Ancients(Faction):
    name = NAME
    title = "The Ancients"
    description = "no Great Old One; Cathedrals, Yothans (Terrors) and Dematerialization across the map"
    start_symbol = None
    start_choice = "unmarked"
    default_rank = 4
    rules_section = "ancients"
    units = (
        UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist"),
        UnitType(UN_MAN, "Un-Man", 3, 3, 0, "monster"),
        UnitType(REANIMATED, "Reanimated", 3, 4, 2, "monster"),
        UnitType(YOTHAN, "Yothan", 3, 6, 7, "terror"),
    )
    requirements = (
        Requirement("cathedral-arrow", "Build a Cathedral in an Area with the arrow glyph."),
        Requirement("cathedral-snake", "Build a Cathedral in an Area with the snake glyph."),
        Requirement("cathedral-claw", "Build a Cathedral in an Area with the claw glyph."),
        Requirement("cathedral-unmarked", "Build a Cathedral in an Area with none of the three glyphs."),
        Requirement("summon-cheapest", "As your action: each enemy Summons its cheapest Monster for free."),
        Requirement("summon-costliest", "As your action: each enemy Summons its costliest Monster for free."),
    )
    spellbooks = (
        Spellbook("festival", "Festival", "ongoing", "Un-Men cost 0; each one Summoned gives an enemy of your choice 1 Power."),
        Spellbook("brainless", "Brainless", "ongoing", "Reanimated cost 1; alone they cannot Move, Capture or declare Battle."),
        Spellbook("extinction", "Extinction", "ongoing", "Yothans cost 3; a Yothan eliminated leaves the game."),
        Spellbook("unholy-ground", "Unholy Ground", "post-battle", "Remove a Cathedral: an enemy Great Old One in the battle is eliminated."),
        Spellbook("consecration", "Consecration", "doom", "Your Ritual: +1 Elder Sign with a Cathedral in play, +2 with all four."),
        Spellbook("worship-services", "Worship Services", "gather", "+1 Power per Cathedral at an enemy Gate; that enemy +1 too."),
    )
    action_models = (BuildCathedral, SummonCheapest, SummonCostliest, FreeSummon, Dematerialize, DematTarget, DematUnit,
                     FestivalGift, UnholyGround, UnholyLoss)  # fmt: skip
    rules_by_kind = {
        "an-free-summon": "ancients", "an-festival": "ancients-festival", "an-unholy-ground": "ancients-unholy-ground",
        "an-unholy-loss": "ancients-unholy-ground",
    }  # fmt: skip

    # ---- small queries ----------------------------------------------------------------------
    @staticmethod
    def has(state: GameState, seat: int, book: str) -> bool:
        return book in state.seats[seat].spellbooks

    @staticmethod
    def cathedrals(state: GameState, seat: int) -> list[str]:
        """Areas holding a Cathedral of this faction (at most one per Area)."""
        return state.seats[seat].flags.get("cathedrals", [])

    def buildings(self, state: GameState, seat: int) -> list[tuple[str, str]]:
        return [(area, CATHEDRAL) for area in self.cathedrals(state, seat)]

    def awakens_independents_without_goo(self, state: GameState, seat: int) -> bool:
        """With all 4 Cathedrals in play, an Independent Great Old One is Awakened at a Gate The Ancients control
        without a Great Old One there (``cthulhu-wars/independent-great-old-ones``)."""
        return len(self.cathedrals(state, seat)) >= CATHEDRALS

    # ---- unit costs and Brainless --------------------------------------------------------------
    def summon_cost(self, state: GameState, seat: int, unit: str) -> int:
        """Festival: Un-Men 0; Brainless: Reanimated 1; Extinction: Yothans 3 (``cthulhu-wars/ancients``)."""
        cheaper = {UN_MAN: ("festival", FESTIVAL_COST), REANIMATED: ("brainless", BRAINLESS_COST),
                   YOTHAN: ("extinction", EXTINCTION_COST)}.get(unit)  # fmt: skip
        if cheaper and self.has(state, seat, cheaper[0]):
            return cheaper[1]
        return super().summon_cost(state, seat, unit)

    def escorted(self, state: GameState, seat: int, area: str) -> bool:
        """Brainless: a unit of yours that is not a Reanimated is in ``area`` (one that was there when a Move action
        began counts even if it has left; one that arrived during it does not)."""
        fs = state.seats[seat]
        turn = state.turn
        moved = set(turn.moved) if turn is not None and turn.moving else set()
        if any(p == area and (k, i) not in moved for k, places in fs.units.items() if k != REANIMATED
               for i, p in enumerate(places)):
            return True
        left = fs.flags.get("escort-left")
        return bool(left and turn is not None and turn.moving and left[0] == turn.number and area in left[1])

    def brainless_alone(self, state: GameState, seat: int, unit: str, area: str) -> bool:
        return unit == REANIMATED and self.has(state, seat, "brainless") and not self.escorted(state, seat, area)

    def move_targets(self, state: GameState, seat: int, unit: str, source: str) -> list[str]:
        """Brainless: a lone Reanimated does not Move."""
        if self.brainless_alone(state, seat, unit, source):
            return []
        return super().move_targets(state, seat, unit, source)

    def after_move(self, state: GameState, seat: int, unit: str, index: int, source: str, target: str, log: list[str]) -> None:
        """Remember the Areas a non-Reanimated unit left in this Move action: a Reanimated that started with it may
        still follow (Brainless)."""
        if unit == REANIMATED or not self.has(state, seat, "brainless"):
            return
        fs = state.seats[seat]
        number = state.turn.number
        left = fs.flags.get("escort-left")
        areas = left[1] if left and left[0] == number else []
        fs.flags["escort-left"] = [number, sorted({*areas, source})]

    def can_capture(self, state: GameState, seat: int, unit: str, area: str | None = None) -> bool:
        """Brainless: a lone Reanimated does not Capture."""
        if area is not None and self.brainless_alone(state, seat, unit, area):
            return False
        return super().can_capture(state, seat, unit, area)

    def may_declare_battle(self, state: GameState, seat: int, area: str) -> bool:
        """Brainless: Reanimated alone do not declare a Battle (they still defend)."""
        if not self.has(state, seat, "brainless"):
            return True
        return any(k != REANIMATED for k in board.units_in(state, seat, area))

    # ---- Extinction --------------------------------------------------------------------------
    def eliminated_place(self, state: GameState, seat: int, unit: str) -> str:
        """Extinction: an eliminated Yothan leaves the game."""
        if unit == YOTHAN and self.has(state, seat, "extinction"):
            return GONE
        return POOL

    # ---- Cathedrals ------------------------------------------------------------------------------
    @staticmethod
    def glyph_class(state: GameState, area: str) -> str:
        """An Area's Cathedral class: its glyph, or none of them; with option ``cathedral_glyph_classes``
        "ocean-apart" (HRF) Oceans without a glyph are a class of their own."""
        info = state.layout.area(area)
        if info.glyph is not None:
            return info.glyph
        if state.options.cathedral_glyph_classes == "ocean-apart" and info.type == "ocean":
            return OCEAN
        return UNMARKED

    def cathedral_cost(self, state: GameState, seat: int, area: str) -> int:
        """3 Power next to an Area holding a Cathedral, else 1."""
        near = set(adjacent_areas(state.layout_name, area))
        return CATHEDRAL_COST if near & set(self.cathedrals(state, seat)) else CATHEDRAL_COST_ALONE

    def cathedral_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Where a Cathedral may go: an Area with a unit of yours that can control a Gate, no Cathedral, and whose
        glyph class holds none yet; at most four in play."""
        built = self.cathedrals(state, seat)
        if len(built) >= CATHEDRALS:
            return []
        taken = {self.glyph_class(state, a) for a in built}
        fs = state.seats[seat]
        return [
            shared(BuildCathedral, area=area) for area in sorted(board.occupied_areas(state, seat))
            if area not in built and self.glyph_class(state, area) not in taken
            and any(self.can_control_gates(state, seat, k) for k in board.units_in(state, seat, area))
            and self.cathedral_cost(state, seat, area) <= fs.power
        ]  # fmt: skip

    def build_cathedral(self, state: GameState, seat: int, action: BuildCathedral, log: list[str]) -> None:
        fs = state.seats[seat]
        cost = self.cathedral_cost(state, seat, action.area)
        fs.power -= cost
        fs.flags["cathedrals"] = sorted([*self.cathedrals(state, seat), action.area])
        fs.flags.setdefault("built", []).append(CLASS_REQUIREMENTS[self.glyph_class(state, action.area)])
        log.append(f"{NAME} builds a Cathedral in {action.area} for {cost} Power.")

    def action_cost(self, state: GameState, seat: int, action: BaseModel) -> int:
        if isinstance(action, BuildCathedral):
            return self.cathedral_cost(state, seat, action.area)
        return super().action_cost(state, seat, action)

    # ---- requirements -------------------------------------------------------------------------
    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        """The four Cathedral requirements are met when a Cathedral is built in the class; the two free-Summon ones
        when the action is taken, whatever the enemies could place."""
        fs = state.seats[seat]
        done = set(fs.flags.get("built", [])) | set(fs.flags.get("gave", []))
        return [r.name for r in self.requirements if r.name in done and r.name not in fs.requirements]

    # ---- actions ------------------------------------------------------------------------------
    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        gave = state.seats[seat].flags.get("gave", [])
        options = self.cathedral_options(state, seat)
        options += [m() for m, name in ((SummonCheapest, "summon-cheapest"), (SummonCostliest, "summon-costliest"))
                    if name not in gave]  # fmt: skip
        return options

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        self.apply_decision(state, seat, action, {}, log)

    def apply_decision(self, state: GameState, seat: int, action: BaseModel, data: dict, log: list[str]) -> None:
        if isinstance(action, BuildCathedral):
            self.build_cathedral(state, seat, action, log)
        elif isinstance(action, SummonCheapest | SummonCostliest):
            self.give_summons(state, seat, "cheapest" if isinstance(action, SummonCheapest) else "costliest", log)
        elif isinstance(action, FreeSummon):
            self.free_summon(state, seat, action, log)
        elif isinstance(action, Dematerialize):
            self.dematerialize(state, seat, action, log)
        elif isinstance(action, DematTarget):
            self.demat_target(state, seat, action, data, log)
        elif isinstance(action, DematUnit):
            self.demat_unit(state, seat, action, data, log)
        elif isinstance(action, FestivalGift):
            state.seats[state.seat_of(action.faction)].power += 1
            log.append(f"Festival: {action.faction} gains 1 Power.")
        elif isinstance(action, UnholyGround):
            self.unholy_ground(state, seat, action, log)
        elif isinstance(action, UnholyLoss):
            unholy_loss(state, seat, action.unit, log)

    # ---- the free Summons of the requirements --------------------------------------------------------
    def give_summons(self, state: GameState, seat: int, which: str, log: list[str]) -> None:
        """Each enemy in turn order Summons its cheapest (or costliest) Monster in its pool for free at a Gate where
        it may Summon; an enemy with none, or no such Gate, places nothing (``cthulhu-wars/ancients``)."""
        state.seats[seat].flags.setdefault("gave", []).append(f"summon-{which}")
        log.append(f"{NAME}: each enemy Summons its {which} Monster for free.")
        asked = [Pending(enemy, FREE_SUMMON, {"faction": NAME, "mandatory": True, "which": which})
                 for enemy in state.order_from(seat)[1:] if free_summon_options(state, enemy, which)]  # fmt: skip
        state.pending[0:0] = asked

    def free_summon(self, state: GameState, seat: int, action: FreeSummon, log: list[str]) -> None:
        fs = state.seats[seat]
        board.place_figure(state, seat, action.unit, fs.units[action.unit].index(POOL), action.area)
        log.append(f"{fs.faction} summons {words_of.a_unit(action.unit)} in {action.area} for free.")
        board.faction_of(state, seat).after_summon(state, seat, action.unit, action.area, log)

    # ---- Festival ---------------------------------------------------------------------------
    def after_summon(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """Festival: an Un-Man Summoned gives an enemy of your choice 1 Power."""
        if unit == UN_MAN and self.has(state, seat, "festival"):
            state.pending.insert(0, Pending(seat, FESTIVAL, {"mandatory": True}))

    # ---- Dematerialization ----------------------------------------------------------------------
    def doom_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Once per Doom phase, in your Doom-phase turn: an Area with your units (then where they go, then which)."""
        return dematerialize_options(state, seat)

    def dematerialize(self, state: GameState, seat: int, action: Dematerialize, log: list[str]) -> None:
        dematerialize(state, seat, action, log)

    def demat_target(self, state: GameState, seat: int, action: DematTarget, data: dict, log: list[str]) -> None:
        state.pending.insert(0, Pending(seat, DEMAT_UNITS, {**data, "target": action.area}))

    def demat_options(self, state: GameState, seat: int, data: dict) -> list[BaseModel]:
        source = data["source"]
        return [DematUnit(unit=lose.unit, from_gate=lose.from_gate)
                for lose in board.loss_options(state, seat, source, demat_kinds(state, seat, source))]

    def demat_unit(self, state: GameState, seat: int, action: DematUnit, data: dict, log: list[str]) -> None:
        """The figure leaves its Gate (free, not an action: no Ice Age cost)."""
        source, target = data["source"], data["target"]
        index = board.pick_figure(state, seat, action.unit, source, from_gate=action.from_gate)
        board.place_figure(state, seat, action.unit, index, target)
        log.append(f"Dematerialization: {words_of.a_unit(action.unit)} of {state.seats[seat].faction} goes from "
                   f"{source} to {target}.")  # fmt: skip
        more = {**data, "mandatory": False}
        if self.demat_options(state, seat, more):
            state.pending.insert(0, Pending(seat, DEMAT_UNITS, more))

    # ---- Consecration and Worship Services ----------------------------------------------------------
    def ritual_extra_elder_signs(self, state: GameState, seat: int) -> int:
        """Consecration: a Ritual of yours draws 1 more Elder Sign with a Cathedral in play, 2 with all four."""
        if not self.has(state, seat, "consecration"):
            return 0
        built = len(self.cathedrals(state, seat))
        return 2 if built >= CATHEDRALS else 1 if built else 0

    def worship_areas(self, state: GameState, seat: int) -> list[tuple[str, int | None]]:
        """Worship Services: (Cathedral Area, the enemy controlling a Gate there) for each Gate an enemy controls in a
        Cathedral's Area, Yog-Sothoth included unless option ``worship_services_counts_yog_sothoth`` is false; with
        option ``worship_services_abandoned_gates``, Abandoned Gates too (their enemy None)."""
        if not self.has(state, seat, "worship-services"):
            return []
        cathedrals = set(self.cathedrals(state, seat))
        abandoned = state.options.worship_services_abandoned_gates
        gates = board.gate_holders(state) if state.options.worship_services_counts_yog_sothoth else [
            (area, holder[0] if holder else None) for area, holder in state.gates.items()]
        return [(area, holder) for area, holder in gates
                if area in cathedrals and holder != seat and (holder is not None or abandoned)]  # fmt: skip

    def gather_extras(self, state: GameState, seat: int) -> list[ExtraIncome]:
        """Worship Services: 1 Power per Cathedral sharing its Area with an enemy Gate (once, whatever the Gates)."""
        found = {area for area, _ in self.worship_areas(state, seat)}
        return [ExtraIncome(source="Worship Services: Cathedrals at enemy Gates", count=len(found))] if found else []

    def gives_income(self, state: GameState, seat: int, other: int) -> list[ExtraIncome]:
        """Worship Services: each enemy gains 1 Power per Cathedral at a Gate it controls."""
        count = len({area for area, holder in self.worship_areas(state, seat) if holder == other})
        return [ExtraIncome(source=f"Worship Services ({NAME}'s Cathedrals at your Gates)", count=count)] if count else []

    # ---- Unholy Ground --------------------------------------------------------------------------
    def unholy_targets(self, state: GameState, seat: int, battle: dict) -> list[str]:
        """The enemy's Great Old Ones in the battle (not exempt), which Unholy Ground can eliminate."""
        enemy = battles.opponent(battle, seat)
        if not isinstance(enemy, int):
            return []
        return [k for k in board.faction_of(state, enemy).goos() if k in board.in_battle(state, enemy, battle)]

    def unholy_options(self, state: GameState, seat: int) -> list[BaseModel]:
        battle = state.battle
        if (battle is None or not self.has(state, seat, "unholy-ground") or battle["area"] not in self.cathedrals(state, seat)
                or not (self.unholy_targets(state, seat, battle) or state.options.unholy_ground_without_goo)):
            return []
        return [UnholyGround(area=a) for a in self.cathedrals(state, seat)]

    def post_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Unholy Ground, with a Cathedral in the battle's Area (attacking or defending): post-battle, after Kills and
        Pains are given out (option ``unholy_ground_timing`` after-pains, the card)."""
        if state.options.unholy_ground_timing == "after-pains":
            self.offer_unholy(state, seat, battle)

    def before_pains(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Unholy Ground after Kills and before Pains are given out (option ``unholy_ground_timing`` before-pains,
        HRF): the Pains then fall on the units left (ruling ``ancients-unholy-ground``)."""
        if state.options.unholy_ground_timing == "before-pains":
            self.offer_unholy(state, seat, battle)

    def offer_unholy(self, state: GameState, seat: int, battle: dict) -> None:
        """Ask once per battle (further uses follow from :meth:`unholy_ground` itself)."""
        mark = f"unholy-ground:{seat}"
        if mark not in battle.get("used", ()) and self.unholy_options(state, seat):
            battle.setdefault("used", []).append(mark)
            state.pending.append(Pending(seat, UNHOLY))

    def unholy_ground(self, state: GameState, seat: int, action: UnholyGround, log: list[str]) -> None:
        """Remove the Cathedral (it may be built again); the enemy eliminates one of its Great Old Ones in the battle,
        its choice, an Elimination and not a Kill; then again while a Cathedral stands in the battle's Area."""
        battle = state.battle
        fs = state.seats[seat]
        fs.flags["cathedrals"] = [a for a in self.cathedrals(state, seat) if a != action.area]
        log.append(f"Unholy Ground: {NAME} removes its Cathedral in {action.area}.")
        targets = self.unholy_targets(state, seat, battle)
        again = battle["area"] in self.cathedrals(state, seat) and (len(targets) > 1 or state.options.unholy_ground_without_goo)
        if again:  # asked after the enemy's pick below (inserted before it)
            state.pending.insert(0, Pending(seat, UNHOLY))
        enemy = battles.opponent(battle, seat)
        if len(targets) == 1 and isinstance(enemy, int):
            unholy_loss(state, enemy, targets[0], log)
        elif targets:  # the enemy's choice, answered here (UnholyLoss), so that its Nyogtha reading applies
            data = {"faction": NAME, "mandatory": True, "targets": targets}
            state.pending.insert(0, Pending(enemy, UNHOLY_LOSS, data))

    # ---- decisions ------------------------------------------------------------------------------
    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        if pending_kind == DEMAT_TARGET:
            return [shared(DematTarget, area=a.id) for a in state.layout.areas if a.id != data["source"]]
        if pending_kind == DEMAT_UNITS:
            return self.demat_options(state, seat, data)
        if pending_kind == FREE_SUMMON:
            return free_summon_options(state, seat, data["which"])
        if pending_kind == FESTIVAL:
            return [FestivalGift(faction=o.faction) for s, o in enumerate(state.seats) if s != seat]
        if pending_kind == UNHOLY:
            return self.unholy_options(state, seat)
        if pending_kind == UNHOLY_LOSS:
            return [UnholyLoss(unit=k) for k in data["targets"]]
        return []

    # ---- refusals ---------------------------------------------------------------------------------
    def refusal(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        """A Cathedral's placement rules; Brainless (``cthulhu-wars/ancients``, ``cthulhu-wars/ancients-brainless``)."""
        kind = action.kind  # type: ignore[attr-defined]
        if isinstance(action, BuildCathedral):
            return self.cathedral_refusal(state, seat, action.area)
        if kind == "move" and self.brainless_alone(state, seat, action.unit, action.source):
            return "Brainless: a Reanimated moves only from an Area where a unit of yours that is not a Reanimated was"
        if kind in ("capture", "battle") and self.has(state, seat, "brainless") and not self.may_declare_battle(
                state, seat, action.area):
            return f"Brainless: Reanimated alone in {action.area} cannot {kind}"
        return None

    def cathedral_refusal(self, state: GameState, seat: int, area: str) -> str | None:
        built = self.cathedrals(state, seat)
        if len(built) >= CATHEDRALS:
            return "all four Cathedrals are in play"
        if area in built:
            return f"{area} already holds a Cathedral"
        if not any(self.can_control_gates(state, seat, k) for k in board.units_in(state, seat, area)):
            return f"a Cathedral needs an Acolyte of yours in {area}"
        klass = self.glyph_class(state, area)
        other = next((a for a in built if self.glyph_class(state, a) == klass), None)
        if other is not None:
            return f"one Cathedral per glyph class: {other} already has the {klass} one"
        return None

    # ---- what everyone sees ------------------------------------------------------------------------
    def line_notes(self, state: GameState, seat: int) -> list[str]:
        notes = [f"Cathedrals {len(self.cathedrals(state, seat))}/{CATHEDRALS}"]
        gone = state.seats[seat].units[YOTHAN].count(GONE)
        if gone:
            notes.append(f"{gone} Yothan{'s' if gone > 1 else ''} extinct")
        return notes


# ---- Dematerialization, shared with a Sleeper who borrows it (Ancient Sorcery) ----------------------------------
def demat_kinds(state: GameState, seat: int, source: str) -> list[str]:
    """``seat``'s unit types in ``source`` that Dematerialization can take: every one an ability may move (not Byatis,
    ``cthulhu-wars/igoo-byatis``)."""
    return board.movable(state, seat, sorted(board.units_in(state, seat, source)))


def dematerialize_options(state: GameState, seat: int) -> list[BaseModel]:
    """Dematerialization (``cthulhu-wars/ancients``), once per Doom phase in ``seat``'s Doom-phase turn: each Area
    holding a unit of ``seat`` that can go; an Area where nothing could go (Byatis alone) is not offered."""
    if state.seats[seat].flags.get("dematerialized") == state.doom_phases:
        return []
    return [shared(Dematerialize, source=s) for s in sorted(board.occupied_areas(state, seat))
            if demat_kinds(state, seat, s)]


def dematerialize(state: GameState, seat: int, action: Dematerialize, log: list[str]) -> None:
    """Then the Area they go to, the first figure (it must go), any more one at a time until 'done'; then the
    Doom-phase turn goes on. The decisions are The Ancients' (``"faction"``) whoever dematerializes."""
    state.seats[seat].flags["dematerialized"] = state.doom_phases
    log.append(f"Dematerialization: {state.seats[seat].faction}'s units in {action.source} may go to one other Area.")
    data = {"faction": NAME, "source": action.source, "mandatory": True}
    state.pending[0:0] = [Pending(seat, DEMAT_TARGET, data), Pending(seat, "ritual")]


def unholy_loss(state: GameState, victim: int, unit: str, log: list[str]) -> None:
    """Unholy Ground: ``victim``'s figure of ``unit`` in the battle is eliminated, not Killed
    (``cthulhu-wars/ancients-unholy-ground``). Nyogtha's other figure stays unless the option
    ``unholy_ground_both_nyogtha`` (HRF) takes every figure of the type wherever it stands (ruling
    ``unholy-ground-nyogtha``, ``cthulhu-wars/igoo-nyogtha``)."""
    battle = state.battle
    area = battle["area"]
    index = board.pick_figure(state, victim, unit, area, exclude=board.exempt_in(battle, victim))
    board.eliminate(state, victim, unit, index)
    log.append(f"Unholy Ground: {state.seats[victim].faction} loses {words_of.a_unit(unit)} in {area}.")
    if not state.options.unholy_ground_both_nyogtha:
        return
    for other, place in enumerate(state.seats[victim].units[unit]):
        if board.in_play(state, place):
            board.eliminate(state, victim, unit, other)
            log.append(f"Unholy Ground: {state.seats[victim].faction}'s other {words_of.unit_title(unit)} figure, in "
                       f"{place}, goes too.")


def free_summon_cost(state: GameState, seat: int, unit: str) -> int:
    """The cost that ranks an enemy's Monsters for the free Summons: the printed one, or with option
    ``ancients_free_summon_cost`` "current" what a Summon would cost it now."""
    faction = board.faction_of(state, seat)
    if state.options.ancients_free_summon_cost == "current":
        return faction.summon_cost(state, seat, unit)
    return faction.unit(unit).cost


def free_summon_options(state: GameState, seat: int, which: str) -> list[BaseModel]:
    """An enemy's Monsters (not Terrors) in its pool of the lowest (or highest) cost, at each Gate where it may
    Summon (option ``ancients_free_summon_gates``: every Area its Summons may use, They Break Through included, or
    only the Gates it controls, as HRF)."""
    faction = board.faction_of(state, seat)
    fs = state.seats[seat]
    pool = [k for k in faction.units_of("monster") if POOL in fs.units[k]]
    if not pool:
        return []
    costs = {k: free_summon_cost(state, seat, k) for k in pool}
    best = (min if which == "cheapest" else max)(costs.values())
    if state.options.ancients_free_summon_gates == "controlled-gates":
        gates = sorted(set(faction.controlled_gates(state, seat)))
    else:
        gates = faction.summon_areas(state, seat)
    return [FreeSummon(unit=k, area=a) for k in pool if costs[k] == best for a in gates]


FACTION = Ancients()
