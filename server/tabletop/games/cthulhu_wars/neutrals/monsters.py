"""The neutral monster cards, each a game option (rules_text ``cthulhu-wars/neutral-monsters`` and one section per
card).

* Taking a card (``buy-card <unit>``): in your Doom-phase decision, 2 Doom (you need 2), at most one card per Doom
  phase, any card no one holds. It does not use up your Ritual. The card's figures join your pool and you place its
  free figures at once at Gates you control (``place-monster <unit> <area>``, asked per figure when you control more
  than one Gate; with none, nothing is placed). You hold the card for the rest of the game.
* The figures are your Monsters in every respect: Summoned at your Gates for their printed cost (no faction ability
  lowers it), they capture and protect Cultists, abilities that take Monsters take them.
* Each card's ability: Ghast (Hordeling: a paid Summon of a Ghast by its holder's action brings every Ghast left in
  the pool, each to a Gate where it may Summon, an Ice Age Area's extra cost paid once per new Area), Gug (Clumsy:
  never Captures), Shantak (Horror Steed: it Moves to any Area, and may carry along for free one of the holder's
  Cultists that stood where it started and has not moved in this Move action: a decision after its move),
  Star Vampire (Vampirism: in a battle against a faction, its dice drain 1 Power per Pain and 1
  Doom per Kill from that faction at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board, turn_actions, windows, words
from tabletop.games.cthulhu_wars.actions import Action, Done
from tabletop.games.cthulhu_wars.factions.base import UnitType
from tabletop.games.cthulhu_wars.neutrals.base import NeutralRule
from tabletop.games.cthulhu_wars.neutrals.units import GHAST, GUG, SHANTAK, STAR_VAMPIRE, UNIT_TYPES
from tabletop.games.cthulhu_wars.state import POOL, Pending

if TYPE_CHECKING:
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
    from tabletop.games.cthulhu_wars.state import GameState

CARD_DOOM = 2
PLACE = "nm-place"
CARRY = "nm-carry"


@dataclass(frozen=True)
class MonsterCard:
    """One neutral monster card: its unit type, the option that puts it in the game, how many figures are placed
    free when it is taken, and its rules section."""

    unit: UnitType
    option: str
    free: int
    section: str

    @property
    def name(self) -> str:
        return self.unit.name


CARDS: dict[str, MonsterCard] = {
    c.name: c for c in (
        MonsterCard(UNIT_TYPES[GHAST], "neutral_ghast", 4, "neutral-ghast"),
        MonsterCard(UNIT_TYPES[GUG], "neutral_gug", 1, "neutral-gug"),
        MonsterCard(UNIT_TYPES[SHANTAK], "neutral_shantak", 1, "neutral-shantak"),
        MonsterCard(UNIT_TYPES[STAR_VAMPIRE], "neutral_star_vampire", 1, "neutral-star-vampire"),
    )
}  # fmt: skip


class BuyMonsterCard(Action):
    """Doom phase: pay 2 Doom for a neutral monster card no one holds (once per Doom phase; rules_text
    ``cthulhu-wars/neutral-monsters``)."""

    kind: Literal["buy-card"] = "buy-card"
    unit: str


class CarryCultist(Action):
    """Horror Steed: a Cultist of yours goes with the Shantak that just moved from ``source`` to ``target``, free."""

    kind: Literal["carry"] = "carry"
    unit: str
    source: str
    target: str


class PlaceMonster(Action):
    """Place a free figure of a neutral monster card you just took at a Gate you control."""

    kind: Literal["place-monster"] = "place-monster"
    unit: str
    area: str


def holder(state: GameState, unit: str) -> int | None:
    """The seat holding the card of ``unit`` (its figures are in that seat's units), if anyone does."""
    return next((s for s, fs in enumerate(state.seats) if unit in fs.units), None)


class NeutralMonsters(NeutralRule):
    """The four neutral monster cards (``cthulhu-wars/neutral-monsters``); each card has its own option."""

    name, option, rules_section, title = "neutral-monsters", "", "neutral-monsters", "Neutral monsters"
    units = tuple(c.unit for c in CARDS.values())
    action_models = (BuyMonsterCard, PlaceMonster, CarryCultist)
    decisions = frozenset({PLACE, CARRY})
    rules_by_kind = {"carry": "neutral-shantak"}

    def unit_section(self, unit: str) -> str:
        """Each card's own section (``neutral-gug``...)."""
        return CARDS[unit].section

    def enabled(self, options: CthulhuWarsOptions) -> bool:
        return any(getattr(options, c.option) for c in CARDS.values())

    def cards(self, options: CthulhuWarsOptions) -> list[MonsterCard]:
        """The cards this game's options put in it."""
        return [c for c in CARDS.values() if getattr(options, c.option)]

    # ---- taking a card ----------------------------------------------------------------------------------------
    def doom_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Any card no one holds, with 2 Doom, if the seat has not taken one this Doom phase."""
        fs = state.seats[seat]
        if fs.doom < CARD_DOOM or fs.flags.get("card-bought") == state.doom_phases:
            return []
        return [BuyMonsterCard(unit=c.name) for c in self.cards(state.options) if holder(state, c.name) is None]

    def decision_options(self, state: GameState, seat: int, kind: str, data: dict) -> list[BaseModel]:
        if kind == CARRY:
            return self.carry_options(state, seat, data["source"], data["target"]) + [Done()]
        return [PlaceMonster(unit=data["unit"], area=a) for a in self.gates(state, seat, data.get("paid"))]

    def gates(self, state: GameState, seat: int, paid: list[str] | None = None) -> list[str]:
        """Where free figures go: for a card just taken (``paid`` None) the Gates the seat controls (Yog-Sothoth
        counts); for Hordeling the Areas where it may Summon whose Ice Age extra cost (if any) it can pay, the Areas
        in ``paid`` being paid already."""
        if paid is None:
            return sorted(set(board.controlled_gates(state, seat)))
        power = state.seats[seat].power
        return [a for a in board.faction_of(state, seat).summon_areas(state, seat)
                if a in paid or self.extra_cost(state, seat, a) <= power]  # fmt: skip

    def extra_cost(self, state: GameState, seat: int, area: str) -> int:
        """An enemy's Ice Age extra cost for placing in ``area`` (``cthulhu-wars/windwalker-ice-age``), unless the
        option ``ghast_hordeling_ice_age`` is off (ruling ``ghast-hordeling``)."""
        if not state.options.ghast_hordeling_ice_age:
            return 0
        return turn_actions.taxes(state, seat).get(area, 0)

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str], data: dict | None = None) -> None:
        if isinstance(action, BuyMonsterCard):
            self.buy(state, seat, action.unit, log)
            return
        if isinstance(action, CarryCultist):
            self.carry(state, seat, action, log)
            return
        data = data or {}
        paid = data.get("paid")
        self.place(state, seat, action.unit, action.area, log, paid)  # type: ignore[attr-defined]
        self.ask_placement(state, seat, action.unit, data.get("left", 1) - 1, log, paid)  # type: ignore[attr-defined]

    def buy(self, state: GameState, seat: int, unit: str, log: list[str]) -> None:
        """2 Doom; the figures join the pool; the free ones are placed at once."""
        fs = state.seats[seat]
        card = CARDS[unit]
        fs.doom -= CARD_DOOM
        fs.flags["card-bought"] = state.doom_phases
        fs.units[unit] = [POOL] * card.unit.count
        log.append(f"{fs.faction} pays {CARD_DOOM} Doom for the {card.unit.title} card.")
        self.ask_placement(state, seat, unit, card.free, log)

    def ask_placement(self, state: GameState, seat: int, unit: str, left: int, log: list[str],
                      paid: list[str] | None = None) -> None:
        """Place ``left`` more free figures: at once with one place to go to, else asked one at a time (``paid``:
        see :meth:`gates`)."""
        gates = self.gates(state, seat, paid)
        left = min(left, state.seats[seat].units[unit].count(POOL))
        if left <= 0 or not gates:
            if left > 0:
                log.append(f"{state.seats[seat].faction} has no Gate to place it: no {UNIT_TYPES[unit].title} is placed.")
            return
        if len(gates) == 1:
            for _ in range(left):
                self.place(state, seat, unit, gates[0], log, paid)
            return
        data = {"unit": unit, "left": left, "mandatory": True} | ({"paid": paid} if paid is not None else {})
        state.pending.insert(0, Pending(seat, PLACE, data))

    def place(self, state: GameState, seat: int, unit: str, area: str, log: list[str], paid: list[str] | None = None) -> None:
        """One free figure to ``area``; for Hordeling an Ice Age extra cost is paid the first time an Area is used."""
        fs = state.seats[seat]
        if paid is not None and area not in paid:
            extra = self.extra_cost(state, seat, area)
            fs.power -= extra
            paid.append(area)
            if extra:
                log.append(f"{fs.faction} pays {extra} more Power for placing in an Ice Age Area.")
        board.place_figure(state, seat, unit, fs.units[unit].index(POOL), area)
        log.append(f"{fs.faction} places a free {UNIT_TYPES[unit].title} in {area}.")

    def why_not(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        card = CARDS.get(getattr(action, "unit", ""))
        if card is not None and not getattr(state.options, card.option):
            return f"the {card.unit.title} card is not in this game (game option {card.option})"
        if card is not None and not isinstance(action, BuyMonsterCard) and card.name not in state.seats[seat].units:
            return f"you do not hold the {card.unit.title} card (take it in your Doom-phase decision: buy-card {card.name})"
        if isinstance(action, BuyMonsterCard) and card is not None:
            owner = holder(state, card.name)
            fs = state.seats[seat]
            if owner is not None:
                return f"{state.seats[owner].faction} already holds the {card.unit.title} card"
            if fs.flags.get("card-bought") == state.doom_phases and state.phase == "doom":
                return "you have already taken a neutral card this Doom phase"
            if fs.doom < CARD_DOOM:
                return f"a card costs {CARD_DOOM} Doom and you have {fs.doom}"
            if state.phase != "doom":
                return "cards are taken in your Doom-phase decision"
        return None

    # ---- the monsters' own rules ------------------------------------------------------------------------------
    def summon_cost(self, state: GameState, seat: int, unit: str) -> int | None:
        """The printed cost: faction abilities that make Summons cheaper (The Thousand Young) concern the faction's
        own Monsters only."""
        return UNIT_TYPES[unit].cost

    def after_summon(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """Ghast, Hordeling: a Summon action paying for a Ghast brings every Ghast left in the pool, each to a Gate
        where the holder may Summon (``cthulhu-wars/neutral-ghast``). A placement by an ability (Death from Below,
        Desecration) is no Summon and brings only the one; an enemy's gift of a free Summon (the Ancients') brings the
        others only with the option ``ghast_hordeling_on_free_summon`` (ruling ``ghast-hordeling``)."""
        by_action = state.phase == "action" and state.turn is not None and state.turn.seat == seat
        if unit != GHAST or not (by_action or state.options.ghast_hordeling_on_free_summon):
            return
        left = state.seats[seat].units[GHAST].count(POOL)
        if left:
            log.append(f"Hordeling: every Ghast left in {state.seats[seat].faction}'s pool comes too.")
            self.ask_placement(state, seat, GHAST, left, log, [area])

    def after_roll(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Star Vampire, Vampirism: the first dice of the side's roll, one per Star Vampire in the battle, are theirs;
        each Pain among them moves 1 Power, each Kill 1 Doom, from the enemy faction to the holder, at once (as far as
        the enemy has any). They count as normal results too (``cthulhu-wars/neutral-star-vampire``)."""
        count = board.in_battle(state, seat, battle).get(STAR_VAMPIRE, 0)
        enemy = battles.opponent(battle, seat)
        if not count or not isinstance(enemy, int):
            return
        dice = battle["rolls"].get(seat, [])[:count]
        pains, kills = sum(1 for d in dice if d in (4, 5)), dice.count(6)
        if not pains and not kills:
            return
        mine, theirs = state.seats[seat], state.seats[enemy]
        power, doom = min(pains, theirs.power), min(kills, theirs.doom)
        theirs.power -= power
        mine.power += power
        theirs.doom -= doom
        mine.doom += doom
        log.append(f"Vampirism: {mine.faction}'s Star Vampire dice {dice} drain {power} Power and {doom} Doom from "
                   f"{theirs.faction}.")

    def move_targets(self, state: GameState, seat: int, unit: str, source: str) -> list[str] | None:
        """Shantak, Horror Steed: any Area of the map, across boards and tunnels (``cthulhu-wars/neutral-shantak``)."""
        if unit != SHANTAK:
            return None
        return [a.id for a in state.layout.areas if a.id != source]

    def after_move(self, state: GameState, seat: int, unit: str, index: int, source: str, target: str,
                   log: list[str]) -> None:
        """After a Shantak's move: may one of the holder's Cultists that stood where it started ride along?"""
        if unit == SHANTAK and self.carry_options(state, seat, source, target):
            state.pending.insert(0, Pending(seat, CARRY, {"source": source, "target": target}))

    def carry_options(self, state: GameState, seat: int, source: str, target: str) -> list[BaseModel]:
        """One of the seat's Cultist types with a figure in ``source`` that has not moved in this Move action."""
        moved = set(state.turn.moved) if state.turn else set()
        units = state.seats[seat].units
        return [CarryCultist(unit=kind, source=source, target=target) for kind in board.faction_of(state, seat).cultists()
                if any(p == source and (kind, i) not in moved for i, p in enumerate(units[kind]))]  # fmt: skip

    def carry(self, state: GameState, seat: int, action: CarryCultist, log: list[str]) -> None:
        """The Cultist goes with the Shantak for no Power; it has moved in this Move action."""
        turn = state.turn
        index = board.pick_figure(state, seat, action.unit, action.source, exclude=tuple(turn.moved))
        windows.note_move(state, seat, action.unit, action.target)
        board.place_figure(state, seat, action.unit, index, action.target)
        turn.moved.append((action.unit, index))
        log.append(f"Horror Steed: {state.seats[seat].faction}'s {words.unit_title(action.unit)} rides the Shantak from "
                   f"{action.source} to {action.target}.")

    def notes(self, state: GameState, seat: int) -> list[str]:
        """The cards the seat holds: "great-cthulhu holds the Gug card (neutral monster; 1 in its pool)"."""
        fs = state.seats[seat]
        return [f"{fs.faction} holds the {c.unit.title} card (neutral monster; {fs.units[c.name].count(POOL)} in its pool)."
                for c in CARDS.values() if c.name in fs.units]  # fmt: skip

    def odds_note(self, state: GameState, seat: int, enemy: int, area: str) -> str:
        """Vampirism's expected drain: each Star Vampire die takes 1 Power on a Pain (1 in 3) and 1 Doom on a Kill
        (1 in 6)."""
        count = state.seats[seat].units.get(STAR_VAMPIRE, []).count(area)
        if not count:
            return ""
        them = state.seats[enemy]
        power, doom = min(count / 3, them.power), min(count / 6, them.doom)
        return (f"Vampirism: {state.seats[seat].faction}'s {count} Star Vampire dice take 1 Power per Pain and 1 Doom "
                f"per Kill from {them.faction} (expect about {power:.2f} Power, {doom:.2f} Doom).")

    def can_capture(self, state: GameState, seat: int, unit: str) -> bool | None:
        """Gug, Clumsy: it never Captures a Cultist (it still protects yours; ``cthulhu-wars/neutral-gug``)."""
        return False if unit == GUG else None


RULE = NeutralMonsters()
