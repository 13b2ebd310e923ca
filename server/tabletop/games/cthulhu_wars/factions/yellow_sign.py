"""The Yellow Sign (rules_text ``cthulhu-wars/yellow-sign``): Feast, Desecrate, Vengeance and six spellbooks."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import Action, shared
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType
from tabletop.games.cthulhu_wars.power import ExtraIncome
from tabletop.games.cthulhu_wars.state import POOL, GameState, Pending
from tabletop.games.cthulhu_wars import words as words_of

NAME = "yellow-sign"
KING, HASTUR, UNDEAD, BYAKHEE = "king-in-yellow", "hastur", "undead", "byakhee"
KING_COST, HASTUR_COST = 4, 10
DESECRATE_COST, THIRD_EYE_DESECRATE_COST = 2, 1
ZINGAYA_COST = SHRIEK_COST = SCREAMING_DEAD_COST = UNNAMED_COST = 1
DOOM_GIFT = 3
DESECRATE_PLACE_MAX_COST = 2
#: The requirement met by placing a Desecration token on each glyph (the map's glyph names).
GLYPH_REQUIREMENTS = {"arrow": "desecrate-arrow", "snake": "desecrate-snake", "claw": "desecrate-claw"}
SECOND_ACTION = "ys-second-action"
SHRIEK_MORE = "ys-shriek-more"


class GiveDoom(Action):
    """Action (requirement, 0 Power): another faction gains 3 Doom."""

    kind: Literal["ys-give-doom"] = "ys-give-doom"
    faction: str


class Desecrate(Action):
    """Action (2 Power, 1 with The Third Eye): the King's area may gain a Desecration token; ``unit`` is then placed there."""

    kind: Literal["ys-desecrate"] = "ys-desecrate"
    unit: str | None = None


class Zingaya(Action):
    """Action (Zingaya, 1 Power): the enemy loses an Acolyte where your Undead are and an Undead joins them."""

    kind: Literal["ys-zingaya"] = "ys-zingaya"
    area: str
    enemy: str


class Shriek(Action):
    """Action (Shriek of the Byakhee, 1 Power): a Byakhee flies to any area; more may follow it."""

    kind: Literal["ys-shriek"] = "ys-shriek"
    source: str
    target: str


class ShriekMore(Action):
    """Decision after Shriek of the Byakhee: one more Byakhee from ``source`` joins the others."""

    kind: Literal["ys-shriek-more"] = "ys-shriek-more"
    source: str


class ScreamingDead(Action):
    """Action (The Screaming Dead, 1 Power): the King and ``undead`` Undead move to an adjacent area."""

    kind: Literal["ys-screaming-dead"] = "ys-screaming-dead"
    undead: int
    area: str


class Unnamed(Action):
    """Action (He Who Is Not to Be Named, 1 Power): Hastur goes to any area holding a Cultist."""

    kind: Literal["ys-unnamed"] = "ys-unnamed"
    area: str


class YellowSign(Faction):
    """Hastur and the King in Yellow (rules_text ``cthulhu-wars/yellow-sign``)."""

    name = NAME
    title = "The Yellow Sign"
    description = "Hastur and the King in Yellow; Desecration tokens feed the Feast"
    start_symbol = "yellow-sign"
    rules_section = "yellow-sign"
    units = (
        UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist"),
        UnitType(UNDEAD, "Undead", 6, 1, 1, "monster"),
        UnitType(BYAKHEE, "Byakhee", 4, 2, 1, "monster"),
        UnitType(KING, "King in Yellow", 1, KING_COST, 0, "goo"),
        UnitType(HASTUR, "Hastur", 1, HASTUR_COST, 0, "goo"),
    )
    requirements = (
        Requirement("give-doom", "As your action, give another faction 3 Doom."),
        Requirement("awaken-king", "Awaken the King in Yellow."),
        Requirement("desecrate-arrow", "Place a Desecration token in an area with the arrow glyph."),
        Requirement("desecrate-snake", "Place a Desecration token in an area with the snake glyph."),
        Requirement("desecrate-claw", "Place a Desecration token in an area with the claw glyph."),
        Requirement("awaken-hastur", "Awaken Hastur.", elder_sign=True),
    )
    spellbooks = (
        Spellbook("passion", "Passion", "ongoing", "+1 Power each time an enemy's action eliminates or captures your Cultists."),
        Spellbook("zingaya", "Zingaya", "action", "1 Power: an enemy Acolyte beside your Undead dies and an Undead takes its place."),
        Spellbook("shriek", "Shriek of the Byakhee", "action", "1 Power: move any of your Byakhee to one area."),
        Spellbook("screaming-dead", "The Screaming Dead", "action", "1 Power: the King and Undead move one area; a second action may follow."),
        Spellbook("unnamed", "He Who Is Not to Be Named", "action", "1 Power: Hastur goes to any area with a Cultist; a second action may follow."),
        Spellbook("third-eye", "The Third Eye", "ongoing", "With Hastur in play Desecrate costs 1 and a success gives an Elder Sign."),
    )
    action_models = (GiveDoom, Desecrate, Zingaya, Shriek, ShriekMore, ScreamingDead, Unnamed)
    action_decisions = frozenset({SECOND_ACTION})
    action_costs = {
        "ys-desecrate": DESECRATE_COST, "ys-zingaya": ZINGAYA_COST, "ys-shriek": SHRIEK_COST,
        "ys-screaming-dead": SCREAMING_DEAD_COST, "ys-unnamed": UNNAMED_COST,
    }  # fmt: skip

    # ---- where things are -----------------------------------------------------------------
    def goo_area(self, state: GameState, seat: int, goo: str) -> str | None:
        """The area of the King or Hastur, or None when he is not on the map."""
        place = state.seats[seat].units[goo][0]
        return place if board.on_map(place) else None

    def desecrated(self, state: GameState, seat: int) -> list[str]:
        """Areas holding one of this faction's Desecration tokens."""
        return state.seats[seat].flags.get("desecrated", [])

    def earn(self, state: GameState, seat: int, requirement: str) -> None:
        """Record a requirement met by an action or Awakening; the engine then offers a spellbook."""
        earned = state.seats[seat].flags.setdefault("earned", [])
        if requirement not in earned:
            earned.append(requirement)

    # ---- Awakening --------------------------------------------------------------------
    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """The King: in an area without a Gate holding your unit. Hastur: the King stands at a Gate you control."""
        fs = state.seats[seat]
        options = []
        if POOL in fs.units[KING]:
            options += [(KING, a, KING_COST) for a in sorted(board.occupied_areas(state, seat)) if not board.has_gate(state, a)]
        king = self.goo_area(state, seat, KING)
        if POOL in fs.units[HASTUR] and king is not None and state.controller(king) == seat:
            options.append((HASTUR, king, HASTUR_COST))
        return options

    def on_awaken(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """Either Awakening meets its requirement (``cthulhu-wars/yellow-sign``)."""
        self.earn(state, seat, "awaken-king" if unit == KING else "awaken-hastur")

    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        fs = state.seats[seat]
        return [r for r in fs.flags.get("earned", []) if r not in fs.requirements]

    # ---- Feast and Passion ------------------------------------------------------------
    def gather_extras(self, state: GameState, seat: int) -> list[ExtraIncome]:
        """Feast: +1 Power per Desecrated area holding at least one of your units."""
        count = sum(1 for a in self.desecrated(state, seat) if board.has_units(state, seat, a))
        return [ExtraIncome(source="Feast: Desecrated areas with your units", count=count)]

    def after_action(self, state: GameState, seat: int, actor: int, log: list[str]) -> None:
        """Passion: if the action just taken cost you Cultists on the map, +1 Power (once per action).

        Only an enemy can lower your number of Cultists on the map (your own actions never
        remove them), so a drop since the last action is a loss to an enemy.
        """
        fs = state.seats[seat]
        now = board.cultists_on_map(state, seat)
        before = fs.flags.get("cultists-on-map", self.unit("acolyte").count)
        fs.flags["cultists-on-map"] = now
        if now < before and "passion" in fs.spellbooks:
            fs.power += 1
            log.append(f"Passion: {NAME} lost Cultists and gains 1 Power.")

    def figure_left_by_choice(self, state: GameState, seat: int, unit: str, log: list[str]) -> None:
        """Passion counts only Cultists lost to an enemy: one its owner removed (a High Priest sacrificed) comes off
        the count at once (rules_text ``cthulhu-wars/high-priests``)."""
        fs = state.seats[seat]
        if "cultists-on-map" in fs.flags:
            fs.flags["cultists-on-map"] = board.cultists_on_map(state, seat)

    # ---- battle -------------------------------------------------------------------------
    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int:
        """Undead roll one die fewer than their number, Byakhee one more, Hastur the Ritual cost."""
        if unit == UNDEAD:
            return max(count - 1, 0)
        if unit == BYAKHEE:
            return count + 1 if count else 0
        if unit == HASTUR:
            return state.ritual_cost * count
        return super().unit_combat(state, seat, unit, battle, count)

    def chooses_for(self, state: GameState, seat: int, battle: dict, owner: int, step: str) -> bool:
        """Vengeance: with Hastur in the battle, you assign the enemy's Kills and Pains."""
        sides = (battle["attacker"], battle["defender"])
        if seat not in sides or owner == seat or owner not in sides or step not in ("kill", "pain"):
            return False
        hit = any(key.startswith(f"{HASTUR}#") for key in battle["taken"].get(seat, {}))
        return hit or self.goo_area(state, seat, HASTUR) == battle["area"]

    # ---- actions ------------------------------------------------------------------------
    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        return (
            self.give_doom_options(state, seat) + self.desecrate_options(state, seat)
            + self.zingaya_options(state, seat) + self.shriek_options(state, seat)
            + self.screaming_dead_options(state, seat) + self.unnamed_options(state, seat)
        )  # fmt: skip

    def give_doom_options(self, state: GameState, seat: int) -> list[BaseModel]:
        if "give-doom" in state.seats[seat].flags.get("earned", []):
            return []
        return [shared(GiveDoom, faction=fs.faction) for s, fs in enumerate(state.seats) if s != seat]

    def third_eye(self, state: GameState, seat: int) -> bool:
        """The Third Eye works while Hastur is on the map."""
        return "third-eye" in state.seats[seat].spellbooks and self.goo_area(state, seat, HASTUR) is not None

    def desecrate_cost(self, state: GameState, seat: int) -> int:
        """2 Power; 1 with The Third Eye."""
        return THIRD_EYE_DESECRATE_COST if self.third_eye(state, seat) else DESECRATE_COST

    def action_cost(self, state: GameState, seat: int, action: BaseModel) -> int:
        """Desecrate costs what The Third Eye makes it cost now; the rest cost their printed Power."""
        if isinstance(action, Desecrate):
            return self.desecrate_cost(state, seat)
        return super().action_cost(state, seat, action)

    def desecrate_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """The King's area without a token; one option per unit type (cost 2 or less) left in the pool."""
        fs = state.seats[seat]
        king = self.goo_area(state, seat, KING)
        if king is None or king in self.desecrated(state, seat) or fs.power < self.desecrate_cost(state, seat):
            return []
        kinds = [u.name for u in self.units if u.role != "goo" and u.cost <= DESECRATE_PLACE_MAX_COST and POOL in fs.units[u.name]]
        return [Desecrate(unit=k) for k in kinds] or [Desecrate()]

    def zingaya_options(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        if "zingaya" not in fs.spellbooks or fs.power < ZINGAYA_COST or POOL not in fs.units[UNDEAD]:
            return []
        return [
            Zingaya(area=area, enemy=state.seats[enemy].faction)
            for area in sorted({p for p in fs.units[UNDEAD] if board.on_map(p)})
            for enemy in board.enemies_in(state, seat, area)
            if "acolyte" in state.seats[enemy].units and state.seats[enemy].count("acolyte", area)
        ]  # fmt: skip

    def shriek_options(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        if "shriek" not in fs.spellbooks or fs.power < SHRIEK_COST:
            return []
        sources = sorted({p for p in fs.units[BYAKHEE] if board.on_map(p)})
        return [Shriek(source=s, target=a.id) for s in sources for a in state.layout.areas if a.id != s]

    def screaming_dead_options(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        king = self.goo_area(state, seat, KING)
        if "screaming-dead" not in fs.spellbooks or fs.power < SCREAMING_DEAD_COST or king is None:
            return []
        undead = fs.count(UNDEAD, king)
        return [ScreamingDead(undead=n, area=a.id) for a in state.layout.neighbours(king) for n in range(undead + 1)]

    def unnamed_options(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        hastur = self.goo_area(state, seat, HASTUR)
        if "unnamed" not in fs.spellbooks or fs.power < UNNAMED_COST or hastur is None:
            return []
        return [Unnamed(area=a) for a in self.cultist_areas(state) if a != hastur]

    def cultist_areas(self, state: GameState) -> list[str]:
        """Areas holding a Cultist of any faction."""
        areas = set()
        for s, fs in enumerate(state.seats):
            for kind in board.faction_of(state, s).cultists():
                areas.update(p for p in fs.units[kind] if board.on_map(p))
        return sorted(areas)

    # ---- resolving ----------------------------------------------------------------------
    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        handler = {
            GiveDoom: self.give_doom, Desecrate: self.desecrate, Zingaya: self.zingaya, Shriek: self.shriek,
            ShriekMore: self.shriek_more, ScreamingDead: self.screaming_dead, Unnamed: self.unnamed,
        }.get(type(action))  # fmt: skip
        if handler is None:
            self.second_action(state, seat, action, log)
        else:
            handler(state, seat, action, log)

    def give_doom(self, state: GameState, seat: int, action: GiveDoom, log: list[str]) -> None:
        state.seats[state.seat_of(action.faction)].doom += DOOM_GIFT
        self.earn(state, seat, "give-doom")
        log.append(f"{NAME} gives {action.faction} {DOOM_GIFT} Doom.")

    def desecrate(self, state: GameState, seat: int, action: Desecrate, log: list[str]) -> None:
        """Roll a die: at most your unit count there places a token; then the chosen unit is placed anyway."""
        fs = state.seats[seat]
        fs.power -= self.desecrate_cost(state, seat)
        area = self.goo_area(state, seat, KING)
        roll = state.rng.die(6, f"{NAME}'s Desecrate die in {area}")
        needed = sum(board.units_in(state, seat, area).values())
        if roll <= needed:
            state.seats[seat].flags["desecrated"] = self.desecrated(state, seat) + [area]
            log.append(f"{NAME} desecrates {area} (rolled {roll}, needed {needed} or less).")
            glyph = state.layout.area(area).glyph
            if glyph is not None:
                self.earn(state, seat, GLYPH_REQUIREMENTS[glyph])
            if self.third_eye(state, seat):
                board.draw_elder_sign(state, seat, log)
        else:
            log.append(f"{NAME} fails to desecrate {area} (rolled {roll}, needed {needed} or less).")
        if action.unit is not None:
            board.place_figure(state, seat, action.unit, fs.units[action.unit].index(POOL), area)
            log.append(f"{words_of.capital(words_of.a_unit(action.unit))} of {NAME} appears in {area}.")

    def zingaya(self, state: GameState, seat: int, action: Zingaya, log: list[str]) -> None:
        fs = state.seats[seat]
        fs.power -= ZINGAYA_COST
        board.take_unit(state, state.seat_of(action.enemy), action.area, ["acolyte"], "eliminate", seat, log)
        board.place_figure(state, seat, UNDEAD, fs.units[UNDEAD].index(POOL), action.area)
        log.append(f"Zingaya: an Undead of {NAME} rises in {action.area}.")

    def shriek(self, state: GameState, seat: int, action: Shriek, log: list[str]) -> None:
        state.seats[seat].power -= SHRIEK_COST
        self.fly_byakhee(state, seat, action.source, action.target, log)

    def shriek_more(self, state: GameState, seat: int, action: ShriekMore, log: list[str]) -> None:
        self.fly_byakhee(state, seat, action.source, state.seats[seat].flags["shriek-target"], log)

    def fly_byakhee(self, state: GameState, seat: int, source: str, target: str, log: list[str]) -> None:
        """Move one Byakhee and offer the next, if any Byakhee remain outside ``target``."""
        board.place_figure(state, seat, BYAKHEE, board.pick_figure(state, seat, BYAKHEE, source), target)
        log.append(f"Shriek of the Byakhee: a Byakhee flies from {source} to {target}.")
        state.seats[seat].flags["shriek-target"] = target
        if self.shriek_sources(state, seat):
            state.pending.insert(0, Pending(seat, SHRIEK_MORE))

    def shriek_sources(self, state: GameState, seat: int) -> list[str]:
        target = state.seats[seat].flags["shriek-target"]
        return sorted({p for p in state.seats[seat].units[BYAKHEE] if board.on_map(p) and p != target})

    def screaming_dead(self, state: GameState, seat: int, action: ScreamingDead, log: list[str]) -> None:
        fs = state.seats[seat]
        fs.power -= SCREAMING_DEAD_COST
        king = self.goo_area(state, seat, KING)
        for _ in range(action.undead):
            board.place_figure(state, seat, UNDEAD, board.pick_figure(state, seat, UNDEAD, king), action.area)
        board.place_figure(state, seat, KING, 0, action.area)
        log.append(f"The Screaming Dead: the King in Yellow and {action.undead} Undead move from {king} to {action.area}.")
        state.pending.append(Pending(seat, SECOND_ACTION))

    def unnamed(self, state: GameState, seat: int, action: Unnamed, log: list[str]) -> None:
        state.seats[seat].power -= UNNAMED_COST
        board.place_figure(state, seat, HASTUR, 0, action.area)
        log.append(f"He Who Is Not to Be Named: Hastur appears in {action.area}.")
        state.pending.append(Pending(seat, SECOND_ACTION))

    # ---- the second action of The Screaming Dead and He Who Is Not to Be Named ---------
    def second_action_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Any other action at its normal cost, except these two spellbooks (``done`` declines); none at 0 Power."""
        from tabletop.games.cthulhu_wars import turn_actions

        if state.seats[seat].power <= 0:
            return []
        own = [a for a in self.actions(state, seat) if not isinstance(a, (ScreamingDead, Unnamed))]
        return (
            turn_actions.move_options(state, seat) + turn_actions.recruit_options(state, seat)
            + turn_actions.gate_options(state, seat) + turn_actions.summon_options(state, seat)
            + turn_actions.awaken_options(state, seat) + turn_actions.battle_options(state, seat)
            + turn_actions.capture_options(state, seat) + own
        )  # fmt: skip

    def second_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        from tabletop.games.cthulhu_wars import turn_actions

        log.append(f"{NAME} takes a second action.")
        turn_actions.resolve_turn_action(state, seat, action, log)

    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        if pending_kind == SECOND_ACTION:
            return self.second_action_options(state, seat)
        if pending_kind == SHRIEK_MORE:
            return [ShriekMore(source=s) for s in self.shriek_sources(state, seat)]
        return []


FACTION = YellowSign()
