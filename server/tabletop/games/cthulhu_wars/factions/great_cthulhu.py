"""Great Cthulhu (rules_text ``cthulhu-wars/great-cthulhu``): Immortal, Devour and six spellbooks."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import Action
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType
from tabletop.games.cthulhu_wars.maps import layout_cache, load_layout
from tabletop.games.cthulhu_wars.power import ExtraIncome
from tabletop.games.cthulhu_wars.state import CARD, POOL, GameState, Pending
from tabletop.games.cthulhu_wars import words as words_of

NAME = "great-cthulhu"
CTHULHU = "cthulhu"
FIRST_AWAKEN_COST, LATER_AWAKEN_COST = 10, 4
DREAMS_COST, SUBMERGE_COST = 2, 1
SUBMERGE_WITH = "submerge-with"
ABSORB_DICE = 3


class Devour(Action):
    """Pre-battle, Cthulhu present: the enemy eliminates one of its Monsters or Cultists in the battle."""

    kind: Literal["devour"] = "devour"


class Absorb(Action):
    """Pre-battle (Absorb), a Shoggoth present: eliminate one of your own units there for +3 dice."""

    kind: Literal["absorb"] = "absorb"
    unit: str


class Dreams(Action):
    """Action (Dreams, 2 Power): the enemy loses an Acolyte in the area and yours takes its place."""

    kind: Literal["dreams"] = "dreams"
    area: str
    enemy: str


class Submerge(Action):
    """Action (Submerge, 1 Power): Cthulhu in an ocean goes to your card; then any of your units there may follow."""

    kind: Literal["submerge"] = "submerge"


class SubmergeWith(Action):
    """Decision after Submerge: one more of your units in the area Cthulhu left goes with him (``done`` stops)."""

    kind: Literal["submerge-with"] = "submerge-with"
    unit: str


class Emerge(Action):
    """Action (0 Power): place every Submerged unit in one area."""

    kind: Literal["emerge"] = "emerge"
    area: str


class Devolve(Action):
    """Out of turn, after any action (Devolve): replace one of your Acolytes in the area with a Deep One."""

    kind: Literal["devolve"] = "devolve"
    area: str


class GreatCthulhu(Faction):
    name = NAME
    title = "Great Cthulhu"
    description = "Cthulhu of the South Pacific; Immortal, Devour, Submerge and Devolve from the sea"
    start_symbol = "great-cthulhu"
    rules_section = "great-cthulhu"
    units = (
        UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist"),
        UnitType("deep-one", "Deep One", 4, 1, 1, "monster"),
        UnitType("shoggoth", "Shoggoth", 2, 2, 2, "monster"),
        UnitType("starspawn", "Starspawn", 2, 3, 3, "monster"),
        UnitType(CTHULHU, "Cthulhu", 1, FIRST_AWAKEN_COST, 6, "goo"),
    )
    requirements = (
        Requirement("first-doom-phase", "Receive a spellbook in the first Doom phase.", elder_sign=True),
        Requirement("kill-one", "Kill and/or Devour 1 enemy unit in a battle."),
        Requirement("kill-two", "Kill and/or Devour 2 enemy units in a battle (3+ earns both)."),
        Requirement("awaken-cthulhu", "Awaken Cthulhu."),
        Requirement("ocean-gates", "Control 3 Gates in ocean areas, or 4 Gates exist in ocean areas."),
        Requirement("five-spellbooks", "The last one: taken in a Doom phase while holding five spellbooks.", elder_sign=True),
    )
    spellbooks = (
        Spellbook("devolve", "Devolve", "ongoing", "After any player's action, replace Acolytes with Deep Ones."),
        Spellbook("absorb", "Absorb", "pre-battle", "Eliminate own units beside a Shoggoth for +3 dice each."),
        Spellbook("regenerate", "Regenerate", "battle", "A Starspawn can take two results; only two Kills kill it."),
        Spellbook("dreams", "Dreams", "action", "2 Power: swap an enemy Acolyte for yours."),
        Spellbook("submerge", "Submerge", "action", "1 Power: Cthulhu (and units with him) leave an ocean for your card."),
        Spellbook("yha-nthlei", "Y'ha Nthlei", "gather", "+1 Power per enemy-controlled ocean Gate while Cthulhu is in play."),
    )
    action_models = (Devour, Absorb, Dreams, Submerge, SubmergeWith, Emerge, Devolve)
    action_costs = {"dreams": DREAMS_COST, "submerge": SUBMERGE_COST}

    # ---- Awakening and Immortal ----------------------------------------------------------
    def start_area(self, state: GameState) -> str:
        """Where Great Cthulhu started (its symbol, or where it chose to with the option ``start_areas``)."""
        seat = state.seat_of(NAME)
        return state.seats[seat].flags.get("start-area") or state.layout.start_areas(self.start_symbol)[0].id

    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Cthulhu: a Gate (anyone's or abandoned) in the start area; 10 Power, then 4 after the first time."""
        fs = state.seats[seat]
        area = self.start_area(state)
        if POOL not in fs.units[CTHULHU] or not board.has_gate(state, area):
            return []
        return [(CTHULHU, area, LATER_AWAKEN_COST if fs.flags.get("awakened") else FIRST_AWAKEN_COST)]

    def on_awaken(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """Immortal: every Awakening gives an Elder Sign."""
        state.seats[seat].flags["awakened"] = True
        board.draw_elder_sign(state, seat, log)

    def independent_awakened(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """Immortal: Awakening an Independent Great Old One gives an Elder Sign too
        (``cthulhu-wars/independent-great-old-ones``)."""
        log.append("Immortal: Awakening an Independent Great Old One gives an Elder Sign.")
        board.draw_elder_sign(state, seat, log)

    # ---- requirements --------------------------------------------------------------------
    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        fs = state.seats[seat]
        met = list(fs.flags.get("battle-requirements", []))
        if state.phase == "doom" and state.doom_phases == 1:
            met.append("first-doom-phase")
        if fs.flags.get("awakened"):
            met.append("awaken-cthulhu")
        if "ocean-gates" not in fs.requirements and self.ocean_gates_met(state, seat):
            met.append("ocean-gates")
        if state.phase == "doom" and len(fs.spellbooks) == 5 and self.others_recorded(fs.requirements):
            met.append("five-spellbooks")
        return [m for m in met if m not in fs.requirements]

    def others_recorded(self, recorded: list[str]) -> bool:
        """Whether every requirement but the five-spellbooks one is recorded."""
        return all(r.name in recorded for r in self.requirements if r.name != "five-spellbooks")

    def ocean_gates_met(self, state: GameState, seat: int) -> bool:
        seas = ocean_areas(state.layout_name)
        oceans = [s for a, s in board.gate_holders(state) if a in seas]
        return len(oceans) >= 4 or oceans.count(seat) >= 3

    def post_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Count enemy units Killed or Devoured for the kill requirements (3+ earns both)."""
        n = battle["killed"][seat] + battle["devoured"][seat]
        fs = state.seats[seat]
        earned = fs.flags.setdefault("battle-requirements", [])
        have = set(fs.requirements) | set(earned)
        if n >= 3:
            new = ["kill-one", "kill-two"]
        elif n == 2:
            new = ["kill-two"] if "kill-two" not in have else ["kill-one"]
        elif n == 1:
            new = ["kill-one"]
        else:
            new = []
        earned.extend(r for r in new if r not in have)

    # ---- income and battle ---------------------------------------------------------------
    def gather_extras(self, state: GameState, seat: int) -> list[ExtraIncome]:
        """Y'ha Nthlei: +1 per enemy-controlled Gate in an ocean while Cthulhu is in play (Submerged counts, option
        ``submerged_units_in_play``)."""
        fs = state.seats[seat]
        if "yha-nthlei" not in fs.spellbooks or not board.in_play(state, fs.units[CTHULHU][0]):
            return []
        count = sum(
            1 for area, holder in board.gate_holders(state)
            if holder is not None and holder != seat and area in ocean_areas(state.layout_name)
        )  # fmt: skip
        return [ExtraIncome(source="Y'ha Nthlei: enemy-controlled ocean Gates", count=count)]

    def result_capacity(self, state: GameState, seat: int, unit: str) -> int:
        return 2 if unit == "starspawn" and "regenerate" in state.seats[seat].spellbooks else 1

    def pre_battle_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        mine = board.in_battle(state, seat, battle)
        options: list[BaseModel] = []
        if CTHULHU in mine and "devour" not in battle["used"] and battles.enemy_losable(state, battle, seat):
            options.append(Devour())
        if "absorb" in state.seats[seat].spellbooks and "shoggoth" in mine:
            options.extend(
                Absorb(unit=k) for k in sorted(mine)
                if k != CTHULHU and (k != "shoggoth" or mine[k] > 1)
            )  # fmt: skip
        return options

    # ---- actions -------------------------------------------------------------------------
    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        options: list[BaseModel] = []
        if "dreams" in fs.spellbooks and fs.power >= DREAMS_COST and POOL in fs.units["acolyte"]:
            options.extend(
                Dreams(area=area, enemy=state.seats[enemy].faction)
                for enemy in range(len(state.seats)) if enemy != seat and "acolyte" in state.seats[enemy].units
                for area in sorted({p for p in state.seats[enemy].units["acolyte"] if board.on_map(p)})
            )  # fmt: skip
        place = fs.units[CTHULHU][0]
        if "submerge" in fs.spellbooks and fs.power >= SUBMERGE_COST and board.on_map(place) and state.layout.area(place).type == "ocean":
            options.append(Submerge())
        if any(CARD in places for places in fs.units.values()):
            options.extend(Emerge(area=a.id) for a in state.layout.areas)
        return options

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        fs = state.seats[seat]
        if isinstance(action, Devour):
            self.devour(state, seat, log)
        elif isinstance(action, Absorb):
            index = board.pick_figure(state, seat, action.unit, state.battle["area"], exclude=board.exempt_in(state.battle, seat))
            board.eliminate(state, seat, action.unit, index)
            state.battle["bonus"][seat] = state.battle["bonus"].get(seat, 0) + ABSORB_DICE
            log.append(f"Absorb: {words_of.a_unit(action.unit)} is absorbed into a Shoggoth (+{ABSORB_DICE} dice).")
        elif isinstance(action, Dreams):
            fs.power -= DREAMS_COST
            board.take_unit(state, state.seat_of(action.enemy), action.area, ["acolyte"], "eliminate", seat, log)
            board.place_figure(state, seat, "acolyte", fs.units["acolyte"].index(POOL), action.area)
            log.append(f"Dreams: a {NAME} Acolyte appears in {action.area}.")
        elif isinstance(action, Submerge):
            self.submerge(state, seat, log)
        elif isinstance(action, SubmergeWith):
            self.submerge_with(state, seat, action, log)
        elif isinstance(action, Emerge):
            rising = submerged(state, seat)
            for kind, places in fs.units.items():
                for i, p in enumerate(places):
                    if p == CARD:
                        board.place_figure(state, seat, kind, i, action.area)
            log.append(f"The Submerged units of {NAME} ({words_of.unit_list(rising)}) rise in {action.area}.")
        elif isinstance(action, Devolve):
            board.place_figure(state, seat, "acolyte", board.pick_figure(state, seat, "acolyte", action.area), POOL)
            board.place_figure(state, seat, "deep-one", fs.units["deep-one"].index(POOL), action.area)
            log.append(f"Devolve: an Acolyte in {action.area} becomes a Deep One.")

    def devour(self, state: GameState, seat: int, log: list[str]) -> None:
        """Devour: the enemy eliminates one of its Monsters or Cultists in the battle (a Zoog, against Zoogs; never
        the Bhole)."""
        battle = state.battle
        battle["used"].append("devour")
        battle["devoured"][seat] += 1
        log.append("Cthulhu devours: the enemy must eliminate one of its Monsters or Cultists.")
        battles.enemy_loses_unit(state, battle, seat, log)

    def submerge(self, state: GameState, seat: int, log: list[str]) -> None:
        """Submerge: Cthulhu goes onto the card; then any chosen subset of your units in his area follows, one
        figure at a time (rule ``cthulhu-wars/great-cthulhu``)."""
        fs = state.seats[seat]
        fs.power -= SUBMERGE_COST
        area = fs.units[CTHULHU][0]
        board.place_figure(state, seat, CTHULHU, 0, CARD)
        fs.flags["submerged-from"] = area
        log.append(f"Cthulhu submerges from {area}.")
        self.offer_submerge_with(state, seat)

    def offer_submerge_with(self, state: GameState, seat: int) -> None:
        if board.movable(state, seat, list(board.units_in(state, seat, state.seats[seat].flags["submerged-from"]))):
            state.pending.insert(0, Pending(seat, SUBMERGE_WITH))

    def submerge_with(self, state: GameState, seat: int, action: SubmergeWith, log: list[str]) -> None:
        """One figure follows Cthulhu onto the card (one off the Gate while there is one)."""
        area = state.seats[seat].flags["submerged-from"]
        board.place_figure(state, seat, action.unit, board.pick_figure(state, seat, action.unit, area), CARD)
        log.append(f"{words_of.capital(words_of.a_unit(action.unit))} submerges with Cthulhu.")
        self.offer_submerge_with(state, seat)

    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        if pending_kind == SUBMERGE_WITH:
            area = state.seats[seat].flags["submerged-from"]
            return [SubmergeWith(unit=k) for k in board.movable(state, seat, sorted(board.units_in(state, seat, area)))]
        return []

    def line_notes(self, state: GameState, seat: int) -> list[str]:
        """Submerged units, on the faction card and so in no Area: "Cthulhu submerged (from south-pacific) with 2
        Deep Ones" (rule ``cthulhu-wars/great-cthulhu``)."""
        down = submerged(state, seat)
        if not down:
            return []
        where = state.seats[seat].flags.get("submerged-from")
        goo = down.pop(CTHULHU, 0)
        head = "Cthulhu submerged" if goo else "submerged"
        head += f" (from {where})" if where else ""
        return [head + (f" with {words_of.unit_list(down)}" if goo and down else f": {words_of.unit_list(down)}" if down else "")]

    # ---- Devolve -------------------------------------------------------------------------
    def window_options(self, state: GameState, seat: int, window: dict) -> list[BaseModel]:
        """Devolve, in the window after any faction's action (option ``devolve_after_every_action``; else only
        after your own), one Acolyte at a time (rule ``cthulhu-wars/great-cthulhu``)."""
        if window["context"] != "action":
            return []
        if not (state.options.devolve_after_every_action or window["actor"] == seat):
            return []
        return [Devolve(area=a) for a in self.devolve_areas(state, seat)]

    def devolve_areas(self, state: GameState, seat: int) -> list[str]:
        fs = state.seats[seat]
        if "devolve" not in fs.spellbooks or POOL not in fs.units["deep-one"]:
            return []
        return sorted({p for p in fs.units["acolyte"] if board.on_map(p)})



def submerged(state: GameState, seat: int) -> dict[str, int]:
    """Great Cthulhu's Submerged figures (on its card) by unit type."""
    return {kind: places.count(CARD) for kind, places in state.seats[seat].units.items() if CARD in places}


@layout_cache
def ocean_areas(layout_name: str) -> frozenset[str]:
    """The ocean Areas of a layout."""
    return frozenset(a.id for a in load_layout(layout_name).areas if a.type == "ocean")


FACTION = GreatCthulhu()
