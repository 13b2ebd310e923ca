"""The Sleeper (rules_text ``cthulhu-wars/sleeper``): Death from Below, Tsathoggua, Lethargy and six spellbooks.

Decisions put to another seat (Demand Sacrifice's choice, the owner's pick for Capture Monster) carry
``"faction": "sleeper"`` where this module answers them. Ancient Sorcery borrows another faction's unique
ability (its :attr:`~.base.Faction.unique_ability`); the borrowed effects live here, one per faction.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board, turn_actions
from tabletop.games.cthulhu_wars.actions import Action, Move, shared
from tabletop.games.cthulhu_wars.factions.ancients import Dematerialize, dematerialize, dematerialize_options
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType
from tabletop.games.cthulhu_wars.factions.crawling_chaos import flight_reach
from tabletop.games.cthulhu_wars.factions.opener_of_the_way import (BeyondOne, beyond_one, beyond_one_options,
                                                                    beyond_one_refusal)
from tabletop.games.cthulhu_wars.factions.windwalker import Hibernate, hibernate, hibernation_income
from tabletop.games.cthulhu_wars.power import ExtraIncome
from tabletop.games.cthulhu_wars.state import HELD, POOL, GameState, Pending
from tabletop.games.cthulhu_wars import words as words_of

NAME = "sleeper"
TSATHOGGUA, FORMLESS, SERPENT, WIZARD = "tsathoggua", "formless-spawn", "serpent-man", "wizard"
AWAKEN_COST, IMMORTAL_COST = 8, 4
PAY_COST, PAY_GIFT = 3, 3
SORCERY_COST = CAPTURE_MONSTER_COST = SLUMBER_COST = 1
SIX_DICE = 6
TSATHOGGUA_MIN_COMBAT = 2
NEXUS = "sl-nexus"
#: Each faction's unique ability, as Ancient Sorcery borrows it.
UNIQUE_ABILITIES = {
    "great-cthulhu": "Immortal", "crawling-chaos": "Flight", "black-goat": "Fertility Cult",
    "yellow-sign": "Feast", "windwalker": "Hibernate", "opener-of-the-way": "The Beyond One",
    "ancients": "Dematerialization",
}  # fmt: skip
#: flags: [the Doom phase under way, the factions borrowed until its end] (a Doom-phase ability stays until then)
BORROWED_DOOM = "borrowed-doom"


class GiveThree(Action):
    """Action (requirement, 3 Power): ``faction`` gains 3 Power."""

    kind: Literal["sl-give-three"] = "sl-give-three"
    faction: str


class AllGainOne(Action):
    """Action (requirement, 3 Power): every other faction gains 1 Power."""

    kind: Literal["sl-all-gain-one"] = "sl-all-gain-one"


class AllLoseOne(Action):
    """Action (requirement, 3 Power): every other faction with Power loses 1."""

    kind: Literal["sl-all-lose-one"] = "sl-all-lose-one"


class Lethargy(Action):
    """Action (Lethargy, 0 Power, Tsathoggua in play): do nothing; it is your action."""

    kind: Literal["sl-lethargy"] = "sl-lethargy"


class DeathFromBelow(Action):
    """Doom phase (Death from Below): place ``unit``, your cheapest Monster in the pool, in ``area``."""

    kind: Literal["sl-death-from-below"] = "sl-death-from-below"
    unit: str
    area: str


class AncientSorcery(Action):
    """Action (Ancient Sorcery, 1 Power): a Serpent Man from ``source`` goes onto ``enemy``'s card; you use its
    unique ability until the end of the next Doom phase."""

    kind: Literal["sl-ancient-sorcery"] = "sl-ancient-sorcery"
    source: str
    enemy: str


class SorceryReturn(Action):
    """Doom phase (Ancient Sorcery ends): a Serpent Man comes back to ``area`` and you gain 1 Power."""

    kind: Literal["sl-sorcery-return"] = "sl-sorcery-return"
    area: str


class CaptureMonster(Action):
    """Action (Capture Monster, 1 Power): Tsathoggua in ``area`` captures a Monster of ``enemy`` (no enemy Great
    Old One there); the owner picks which."""

    kind: Literal["sl-capture-monster"] = "sl-capture-monster"
    area: str
    enemy: str


class DemandSacrifice(Action):
    """Pre-battle (Demand Sacrifice, Tsathoggua in play): the enemy chooses what it gives."""

    kind: Literal["sl-demand-sacrifice"] = "sl-demand-sacrifice"


class Sacrifice(Action):
    """The enemy's answer to Demand Sacrifice: the Sleeper takes an Elder Sign, or its Kills this battle are Pains."""

    kind: Literal["sl-sacrifice"] = "sl-sacrifice"
    choice: Literal["elder-sign", "kills-to-pains"]


class CursedSlumber(Action):
    """Action (Cursed Slumber, 1 Power): your Gate in ``source`` and its Cultist go onto your card."""

    kind: Literal["sl-cursed-slumber"] = "sl-cursed-slumber"
    source: str


class SlumberReturn(Action):
    """Action (Cursed Slumber, 1 Power): the Gate on your card and its Cultist return to ``area`` (no Gate there)."""

    kind: Literal["sl-slumber-return"] = "sl-slumber-return"
    area: str


class Sleeper(Faction):
    name = NAME
    title = "The Sleeper"
    description = "Tsathoggua and the serpent folk; Death from Below places a Monster each Doom phase"
    start_symbol = "sleeper"
    default_rank = 1
    rules_section = "sleeper"
    units = (
        UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist"),
        UnitType(WIZARD, "Wizard", 2, 1, 0, "monster"),
        UnitType(SERPENT, "Serpent Man", 3, 2, 1, "monster"),
        UnitType(FORMLESS, "Formless Spawn", 4, 3, 0, "monster"),
        UnitType(TSATHOGGUA, "Tsathoggua", 1, AWAKEN_COST, 0, "goo"),
    )
    requirements = (
        Requirement("give-three", "As your action, pay 3: another faction of your choice gains 3 Power."),
        Requirement("all-gain-one", "As your action, pay 3: every other faction gains 1 Power."),
        Requirement("all-lose-one", "As your action, pay 3: every other faction loses 1 Power."),
        Requirement("six-dice", "Roll 6 or more combat dice in one battle."),
        Requirement("ritual", "Perform a Ritual of Annihilation."),
        Requirement("awaken-tsathoggua", "Awaken Tsathoggua."),
    )
    spellbooks = (
        Spellbook("burrow", "Burrow", "ongoing", "After a Move action that cost 2 or more, regain 1 Power."),
        Spellbook("energy-nexus", "Energy Nexus", "ongoing", "Before a battle where your Wizard is, take an action there."),
        Spellbook("ancient-sorcery", "Ancient Sorcery", "action", "1 Power: a Serpent Man borrows an enemy's unique ability."),
        Spellbook("capture-monster", "Capture Monster", "action", "1 Power: Tsathoggua captures an enemy Monster."),
        Spellbook("demand-sacrifice", "Demand Sacrifice", "pre-battle", "The enemy gives an Elder Sign or its Kills become Pains."),
        Spellbook("cursed-slumber", "Cursed Slumber", "action", "1 Power: a Gate of yours leaves the map, still counted, or comes back."),
    )
    action_models = (GiveThree, AllGainOne, AllLoseOne, Lethargy, DeathFromBelow, AncientSorcery, SorceryReturn,
                     CaptureMonster, DemandSacrifice, Sacrifice, CursedSlumber, SlumberReturn)  # fmt: skip
    action_costs = {
        "sl-give-three": PAY_COST, "sl-all-gain-one": PAY_COST, "sl-all-lose-one": PAY_COST,
        "sl-ancient-sorcery": SORCERY_COST, "sl-capture-monster": CAPTURE_MONSTER_COST,
        "sl-cursed-slumber": SLUMBER_COST, "sl-slumber-return": SLUMBER_COST,
        "ow-beyond-one": 1,
    }  # fmt: skip
    action_decisions = frozenset({NEXUS})
    rules_by_kind = {
        "sl-ancient-sorcery": "sleeper-ancient-sorcery", "sl-sorcery-return": "sleeper-ancient-sorcery",
        "sl-capture-monster": "sleeper-capture-monster", "sl-demand-sacrifice": "sleeper-demand-sacrifice",
        "sl-sacrifice": "sleeper-demand-sacrifice", "sl-cursed-slumber": "sleeper-cursed-slumber",
        "sl-slumber-return": "sleeper-cursed-slumber",
    }  # fmt: skip

    # ---- small queries ----------------------------------------------------------------------
    @staticmethod
    def has(state: GameState, seat: int, book: str) -> bool:
        return book in state.seats[seat].spellbooks

    @staticmethod
    def borrows(state: GameState, seat: int, faction: str) -> bool:
        """Whether a Serpent Man sits on ``faction``'s card (Ancient Sorcery)."""
        return faction in state.seats[seat].flags.get("borrowed", [])

    @staticmethod
    def borrows_this_doom_phase(state: GameState, seat: int, faction: str) -> bool:
        """Whether ``faction``'s unique ability, borrowed before this Doom phase began, still serves in it: a borrowed
        ability lasts until the end of the next Doom phase (``cthulhu-wars/sleeper-ancient-sorcery``)."""
        held = state.seats[seat].flags.get(BORROWED_DOOM)
        return state.phase == "doom" and bool(held) and held[0] == state.doom_phases and faction in held[1]

    @staticmethod
    def tsathoggua_area(state: GameState, seat: int) -> str | None:
        place = state.seats[seat].units[TSATHOGGUA][0]
        return place if board.on_map(place) else None

    def tsathoggua_in_play(self, state: GameState, seat: int) -> bool:
        return board.in_play(state, state.seats[seat].units[TSATHOGGUA][0])

    # ---- Combat -------------------------------------------------------------------------------
    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int:
        """Formless Spawn: each rolls the Formless Spawn in play, +1 with Tsathoggua in play. Tsathoggua: the
        Power of the faction he battles, at least 2."""
        if unit == FORMLESS:
            spawn = sum(1 for p in state.seats[seat].units[FORMLESS] if board.in_play(state, p))
            return count * (spawn + self.tsathoggua_in_play(state, seat))
        if unit == TSATHOGGUA:
            if "attacker" not in battle:
                return count * TSATHOGGUA_MIN_COMBAT
            return count * max(TSATHOGGUA_MIN_COMBAT, battles.enemy_power(state, battle, seat))
        return super().unit_combat(state, seat, unit, battle, count)

    # ---- Awakening (and a borrowed Immortal) -------------------------------------------------------
    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Tsathoggua: 8 Power in an Area with your Formless Spawn (4 after the first time with Immortal)."""
        fs = state.seats[seat]
        if POOL not in fs.units[TSATHOGGUA]:
            return []
        cost = IMMORTAL_COST if fs.flags.get("awakened") and self.borrows(state, seat, "great-cthulhu") else AWAKEN_COST
        return [(TSATHOGGUA, a, cost) for a in sorted({p for p in fs.units[FORMLESS] if board.on_map(p)})]

    def on_awaken(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        state.seats[seat].flags["awakened"] = True
        if self.borrows(state, seat, "great-cthulhu"):
            log.append("Immortal (borrowed): Tsathoggua's Awakening gives an Elder Sign.")
            board.draw_elder_sign(state, seat, log)

    def independent_awakened(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """Immortal (borrowed): Awakening an Independent Great Old One gives an Elder Sign too, as it does Great
        Cthulhu (``cthulhu-wars/sleeper-ancient-sorcery``, ``cthulhu-wars/independent-great-old-ones``)."""
        if self.borrows(state, seat, "great-cthulhu"):
            log.append("Immortal (borrowed): Awakening an Independent Great Old One gives an Elder Sign.")
            board.draw_elder_sign(state, seat, log)

    # ---- requirements -------------------------------------------------------------------------
    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        fs = state.seats[seat]
        paid = fs.flags.get("paid", [])
        checks = {
            "give-three": "give-three" in paid, "all-gain-one": "all-gain-one" in paid,
            "all-lose-one": "all-lose-one" in paid, "six-dice": bool(fs.flags.get("six-dice")),
            "ritual": fs.flags.get("rituals", 0) > 0, "awaken-tsathoggua": bool(fs.flags.get("awakened")),
        }  # fmt: skip
        return [name for name, ok in checks.items() if ok and name not in fs.requirements]

    # ---- actions ------------------------------------------------------------------------------
    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        paid = fs.flags.get("paid", [])
        options: list[BaseModel] = []
        if fs.power >= PAY_COST:
            if "give-three" not in paid:
                options += [GiveThree(faction=o.faction) for s, o in enumerate(state.seats) if s != seat]
            options += [m() for m, name in ((AllGainOne, "all-gain-one"), (AllLoseOne, "all-lose-one")) if name not in paid]
        if self.tsathoggua_in_play(state, seat) and self.enemy_still_acting(state, seat):
            options.append(Lethargy())
        options += self.sorcery_options(state, seat) + self.capture_monster_options(state, seat)
        options += self.slumber_options(state, seat)
        options += self.borrowed_actions(state, seat)
        return options

    @staticmethod
    def enemy_still_acting(state: GameState, seat: int) -> bool:
        """Lethargy's condition (``cthulhu-wars/sleeper``): an enemy still has Power *and* takes turns this Action
        phase; a hibernating enemy's kept Power does not count (``cthulhu-wars/windwalker``, Hibernate: it takes no
        more turns; the phase ends when every faction that is not hibernating is out of Power)."""
        return any(o.power > 0 and not board.faction_of(state, s).sits_out(state, s)
                   for s, o in enumerate(state.seats) if s != seat)

    def refusal(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        """A borrowed Beyond One named with a unit that cannot carry a Gate
        (``cthulhu-wars/sleeper-ancient-sorcery``)."""
        return beyond_one_refusal(state, seat, action) if self.borrows(state, seat, "opener-of-the-way") else None

    def borrowed_actions(self, state: GameState, seat: int) -> list[BaseModel]:
        options: list[BaseModel] = []
        if self.borrows(state, seat, "black-goat") and state.turn is not None and state.turn.acted:
            options += turn_actions.summon_options(state, seat)
        if self.borrows(state, seat, "windwalker") and not state.seats[seat].flags.get("hibernating"):
            options.append(Hibernate())
        if self.borrows(state, seat, "opener-of-the-way"):
            options += beyond_one_options(state, seat)
        return options

    def sorcery_options(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        if not self.has(state, seat, "ancient-sorcery") or fs.power < SORCERY_COST:
            return []
        sources = sorted({p for p in fs.units[SERPENT] if board.on_map(p)})
        enemies = [o.faction for s, o in enumerate(state.seats)
                   if s != seat and o.faction in UNIQUE_ABILITIES and not self.borrows(state, seat, o.faction)]  # fmt: skip
        return [AncientSorcery(source=a, enemy=e) for a in sources for e in enemies]

    def capture_monster_options(self, state: GameState, seat: int) -> list[BaseModel]:
        area = self.tsathoggua_area(state, seat)
        if not self.has(state, seat, "capture-monster") or area is None or state.seats[seat].power < CAPTURE_MONSTER_COST:
            return []
        options = []
        for enemy in board.enemies_in(state, seat, area):
            faction, theirs = board.faction_of(state, enemy), board.units_in(state, enemy, area)
            if any(k in theirs for k in faction.units_of("monster")) and not any(k in theirs for k in faction.goos()):
                options.append(CaptureMonster(area=area, enemy=state.seats[enemy].faction))
        return options

    def slumber_options(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        if not self.has(state, seat, "cursed-slumber") or fs.power < SLUMBER_COST:
            return []
        if fs.flags.get("slumber"):
            return [SlumberReturn(area=a.id) for a in state.layout.areas if a.id not in state.gates]
        return [CursedSlumber(source=a) for a, h in sorted(state.gates.items()) if h and h[0] == seat]

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        self.apply_decision(state, seat, action, {}, log)

    def apply_decision(self, state: GameState, seat: int, action: BaseModel, data: dict, log: list[str]) -> None:
        fs = state.seats[seat]
        if data.get("nexus"):
            self.nexus_action(state, seat, action, data, log)
        elif isinstance(action, GiveThree | AllGainOne | AllLoseOne):
            self.pay_requirement(state, seat, action, log)
        elif isinstance(action, Lethargy):
            log.append(f"Lethargy: {NAME} does nothing this turn.")
        elif isinstance(action, DeathFromBelow):
            board.place_figure(state, seat, action.unit, fs.units[action.unit].index(POOL), action.area)
            log.append(f"Death from Below: {words_of.a_unit(action.unit)} of {NAME} rises in {action.area}.")
        elif isinstance(action, AncientSorcery):
            self.ancient_sorcery(state, seat, action, log)
        elif isinstance(action, SorceryReturn):
            board.place_figure(state, seat, SERPENT, fs.units[SERPENT].index(HELD), action.area)
            fs.power += 1
            log.append(f"Ancient Sorcery ends: a Serpent Man returns to {action.area}; {NAME} gains 1 Power.")
        elif isinstance(action, CaptureMonster):
            fs.power -= CAPTURE_MONSTER_COST
            enemy = state.seat_of(action.enemy)
            kinds = [k for k in board.faction_of(state, enemy).units_of("monster") if state.seats[enemy].count(k, action.area)]
            log.append(f"Capture Monster: Tsathoggua seizes one of {action.enemy}'s Monsters in {action.area}.")
            board.take_unit(state, enemy, action.area, kinds, "capture-monster", seat, log)
        elif isinstance(action, DemandSacrifice):
            battle = state.battle
            battle["used"].append("sl-demand-sacrifice")
            enemy = battle["defender"] if seat == battle["attacker"] else battle["attacker"]
            state.pending.insert(0, Pending(enemy, "sl-sacrifice", {"faction": NAME, "mandatory": True}))
        elif isinstance(action, Sacrifice):
            self.sacrifice(state, seat, action, log)
        elif isinstance(action, CursedSlumber):
            self.cursed_slumber(state, seat, action, log)
        elif isinstance(action, SlumberReturn):
            self.slumber_return(state, seat, action, log)
        elif isinstance(action, Hibernate):
            hibernate(state, seat, log)
        elif isinstance(action, BeyondOne):
            beyond_one(state, seat, action, log)
        elif isinstance(action, Dematerialize):
            dematerialize(state, seat, action, log)

    def pay_requirement(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        """The three 'pay 3' requirements (rule ``cthulhu-wars/sleeper``)."""
        fs = state.seats[seat]
        fs.power -= PAY_COST
        others = [s for s in range(len(state.seats)) if s != seat]
        if isinstance(action, GiveThree):
            state.seats[state.seat_of(action.faction)].power += PAY_GIFT
            fs.flags.setdefault("paid", []).append("give-three")
            log.append(f"{NAME} pays {PAY_COST} Power: {action.faction} gains {PAY_GIFT}.")
        elif isinstance(action, AllGainOne):
            for s in others:
                state.seats[s].power += 1
            fs.flags.setdefault("paid", []).append("all-gain-one")
            log.append(f"{NAME} pays {PAY_COST} Power: every other faction gains 1.")
        else:
            for s in others:
                state.seats[s].power = max(0, state.seats[s].power - 1)
            fs.flags.setdefault("paid", []).append("all-lose-one")
            log.append(f"{NAME} pays {PAY_COST} Power: every other faction with Power loses 1.")

    # ---- Lethargy, Burrow, borrowed abilities ----------------------------------------------------
    def after_action(self, state: GameState, seat: int, actor: int, log: list[str]) -> None:
        """Burrow: a Move action of yours that cost 2 or more gives 1 Power back."""
        turn = state.turn
        if actor == seat and self.has(state, seat, "burrow") and turn.last_action == "move" and turn.move_paid >= 2:
            state.seats[seat].power += 1
            log.append(f"Burrow: {NAME} regains 1 Power.")

    def move_targets(self, state: GameState, seat: int, unit: str, source: str) -> list[str]:
        """Flight (borrowed from Crawling Chaos): up to two Areas."""
        if self.borrows(state, seat, "crawling-chaos"):
            return list(flight_reach(state.layout_name, source))
        return super().move_targets(state, seat, unit, source)

    def unlimited(self, state: GameState, seat: int) -> frozenset[str]:
        """Fertility Cult (borrowed from Black Goat): Summon is unlimited."""
        return frozenset({"summon"}) if self.borrows(state, seat, "black-goat") else self.unlimited_kinds

    def sits_out(self, state: GameState, seat: int) -> bool:
        return bool(state.seats[seat].flags.get("hibernating"))

    def gather_extras(self, state: GameState, seat: int) -> list[ExtraIncome]:
        """A borrowed Hibernate's kept Power; a borrowed Feast: Areas with a Yellow Sign Desecration token and your unit."""
        extras = hibernation_income(state, seat)
        if self.borrows(state, seat, "yellow-sign"):
            ys = state.seats[state.seat_of("yellow-sign")]
            count = sum(1 for a in ys.flags.get("desecrated", []) if board.has_units(state, seat, a))
            extras.append(ExtraIncome(source="Feast (borrowed): Desecrated Areas with your units", count=count))
        return extras

    def ancient_sorcery(self, state: GameState, seat: int, action: AncientSorcery, log: list[str]) -> None:
        fs = state.seats[seat]
        fs.power -= SORCERY_COST
        board.place_figure(state, seat, SERPENT, board.pick_figure(state, seat, SERPENT, action.source), HELD)
        fs.flags.setdefault("borrowed", []).append(action.enemy)
        log.append(f"Ancient Sorcery: a Serpent Man goes onto {action.enemy}'s card; {NAME} uses "
                   f"{UNIQUE_ABILITIES[action.enemy]} until the end of the next Doom phase.")  # fmt: skip

    # ---- Doom phase: Death from Below and the end of Ancient Sorcery -----------------------------------
    def doom_phase(self, state: GameState, seat: int, log: list[str]) -> None:
        """Hibernation ends; borrowed abilities end (but one used in the Doom phase, Dematerialization, which serves
        until its end: :meth:`borrows_this_doom_phase`) and each Serpent Man on a card comes back (+1 Power each);
        then Death from Below may place your cheapest Monster."""
        fs = state.seats[seat]
        fs.flags.pop("hibernating", None)
        fs.flags[BORROWED_DOOM] = [state.doom_phases, fs.flags.get("borrowed", [])]
        fs.flags["borrowed"] = []
        state.pending += [Pending(seat, "sl-sorcery-return", {"mandatory": True}) for _ in range(fs.units[SERPENT].count(HELD))]
        if self.death_from_below_options(state, seat):
            state.pending.append(Pending(seat, "sl-death-from-below"))

    def doom_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Dematerialization (borrowed from The Ancients), in your Doom-phase turn, as The Ancients play it."""
        if self.borrows_this_doom_phase(state, seat, "ancients"):
            return dematerialize_options(state, seat)
        return []

    def death_from_below_options(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        pool = [u for u in self.units if u.role == "monster" and POOL in fs.units[u.name]]
        if not pool:
            return []
        cheapest = min(u.cost for u in pool)
        areas = sorted(board.occupied_areas(state, seat)) or [a.id for a in state.layout.areas]
        return [shared(DeathFromBelow, unit=u.name, area=a) for u in pool if u.cost == cheapest for a in areas]

    # ---- Cursed Slumber -------------------------------------------------------------------------
    def cursed_slumber(self, state: GameState, seat: int, action: CursedSlumber, log: list[str]) -> None:
        """The Gate leaves the map with its Cultist; both stay in play and count for Power and Doom."""
        fs = state.seats[seat]
        fs.power -= SLUMBER_COST
        _, kind, index = state.gates.pop(action.source)
        fs.units[kind][index] = HELD
        fs.flags["slumber"] = [kind, index]
        log.append(f"Cursed Slumber: {NAME}'s Gate in {action.source} and its {words_of.unit_title(kind)} sink onto its card.")

    def slumber_return(self, state: GameState, seat: int, action: SlumberReturn, log: list[str]) -> None:
        """The Gate comes back with its Cultist, or Abandoned when its Cultist left the card (a High Priest's Oath)."""
        fs = state.seats[seat]
        fs.power -= SLUMBER_COST
        kind, index = fs.flags.pop("slumber")
        if kind is None:
            state.gates[action.area] = None
            log.append(f"Cursed Slumber: {NAME}'s Abandoned Gate returns in {action.area}.")
            return
        fs.units[kind][index] = action.area
        state.gates[action.area] = (seat, kind, index)
        log.append(f"Cursed Slumber: {NAME}'s Gate and its {words_of.unit_title(kind)} return in {action.area}.")

    def off_map_gates(self, state: GameState, seat: int) -> int:
        held = state.seats[seat].flags.get("slumber")
        return 1 if held and held[0] is not None else 0

    def figure_left_by_choice(self, state: GameState, seat: int, unit: str, log: list[str]) -> None:
        """The Cultist on the Gate in Cursed Slumber left the card by its owner's choice (a High Priest's Oath): the
        Gate is Abandoned (official FAQ) and gives nothing. With the option ``high_priest_slumber_gate`` stays-on-card
        it stays on the card until returned; with leaves-play it is gone and the card is free (ruling
        ``high-priest-slumber``, rules_text ``cthulhu-wars/sleeper-cursed-slumber``)."""
        fs = state.seats[seat]
        held = fs.flags.get("slumber")
        if not held or held[0] is None or fs.units[held[0]][held[1]] == HELD:
            return
        if state.options.high_priest_slumber_gate == "leaves-play":
            del fs.flags["slumber"]
            log.append(f"Cursed Slumber: {NAME}'s Gate on its card is Abandoned and leaves play.")
        else:
            fs.flags["slumber"] = [None, None]
            log.append(f"Cursed Slumber: {NAME}'s Gate stays on its card, Abandoned: it gives nothing until it "
                       "returns.")

    def notes(self, state: GameState, seat: int) -> list[str]:
        fs = state.seats[seat]
        notes = []
        if fs.flags.get("slumber") and fs.flags["slumber"][0] is None:
            notes.append(f"{NAME} holds an Abandoned Gate in Cursed Slumber, off the map (it gives nothing).")
        elif fs.flags.get("slumber"):
            notes.append(f"{NAME} holds a Gate and its {fs.flags['slumber'][0]} in Cursed Slumber, off the map (it still "
                         "counts for Power and Doom).")  # fmt: skip
        for enemy in fs.flags.get("borrowed", []):
            notes.append(f"A Serpent Man of {NAME} sits on {enemy}'s card: {NAME} uses {UNIQUE_ABILITIES[enemy]}.")
        if self.borrows_this_doom_phase(state, seat, "ancients"):
            notes.append(f"{NAME} may still use Dematerialization (borrowed) until this Doom phase ends.")
        if self.sits_out(state, seat):
            notes.append(f"{NAME} hibernates: it takes no more turns this Action phase.")
        return notes

    # ---- battle: six dice, Demand Sacrifice, Energy Nexus ------------------------------------------
    def after_roll(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        if len(battle["rolls"].get(seat, [])) >= SIX_DICE:
            state.seats[seat].flags["six-dice"] = True

    def pre_battle_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        """Demand Sacrifice, against a faction only: the map's creatures have no Elder Signs to give and no Kills to
        turn into Pains (rules_text ``cthulhu-wars/dreamlands-bhole``)."""
        if (not self.has(state, seat, "demand-sacrifice") or "sl-demand-sacrifice" in battle["used"]
                or battles.enemy_state(state, battle, seat) is None):
            return []
        if state.options.demand_sacrifice_needs_tsathoggua_in_battle:
            ready = TSATHOGGUA in board.in_battle(state, seat, battle)
        else:
            ready = self.tsathoggua_in_play(state, seat)
        return [DemandSacrifice()] if ready else []

    def sacrifice(self, state: GameState, seat: int, action: Sacrifice, log: list[str]) -> None:
        battle = state.battle
        sleeper = battle["defender"] if seat == battle["attacker"] else battle["attacker"]
        if action.choice == "elder-sign":
            log.append(f"Demand Sacrifice: {state.seats[seat].faction} gives {NAME} an Elder Sign.")
            board.draw_elder_sign(state, sleeper, log)
        else:
            battle["sl-kills-to-pains"] = True
            log.append(f"Demand Sacrifice: {state.seats[seat].faction}'s Kills this battle will be Pains.")

    def before_kills(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Demand Sacrifice answered with Kills to Pains: the enemy's Kills on you are Pains (after any rerolls)."""
        if battle.get("sl-kills-to-pains"):
            hits = battle["hits"].get(seat, {"kill": 0, "pain": 0})
            battle["hits"][seat] = {"kill": 0, "pain": hits["kill"] + hits["pain"]}

    def before_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Energy Nexus: before a battle in an Area with your Wizard, you may take one action there (once per turn;
        in your own turn only if you have not yet taken its action, and it is then that action)."""
        turn = state.turn
        if (not self.has(state, seat, "energy-nexus") or turn is None or WIZARD not in board.units_in(state, seat, battle["area"])
                or state.seats[seat].flags.get("nexus-turn") == turn.number or (turn.seat == seat and turn.acted)):
            return
        data = {"nexus": True, "area": battle["area"], "moved": []}
        if self.nexus_options(state, seat, data):
            state.pending.insert(0, Pending(seat, NEXUS, data))

    def nexus_options(self, state: GameState, seat: int, data: dict) -> list[BaseModel]:
        """Actions originating in the battle Area, at their normal cost (and any Ice Age extra): Move units out,
        Recruit, Build a Gate, Summon, Awaken, Capture there, and your own actions there; no Battle, no Lethargy."""
        area, fs = data["area"], state.seats[seat]
        taxed = turn_actions.taxes(state, seat)
        moved = {(k, i) for k, i in data["moved"]}
        moves = [
            Move(unit=k, source=area, target=t)
            for k, places in fs.units.items() if any(p == area and (k, i) not in moved for i, p in enumerate(places))
            for t in self.move_targets(state, seat, k, area)
            if fs.power >= 1 + (0 if any(fs.units[mk][mi] == t for mk, mi in moved) else taxed.get(t, 0))
        ]  # fmt: skip
        if data["moved"]:
            return moves
        here = [a for a in turn_actions.recruit_options(state, seat) + turn_actions.gate_options(state, seat)
                + turn_actions.summon_options(state, seat) + turn_actions.awaken_options(state, seat)
                + turn_actions.capture_options(state, seat) + self.actions(state, seat)
                if area in (getattr(a, "area", None), getattr(a, "source", None)) and a.kind not in ("sl-lethargy",)]  # fmt: skip
        here = [a for a in here
                if turn_actions.action_cost(state, seat, a) + taxed.get(turn_actions.action_area(a) or "", 0) <= fs.power]
        return moves + here

    def nexus_action(self, state: GameState, seat: int, action: BaseModel, data: dict, log: list[str]) -> None:
        fs = state.seats[seat]
        turn = state.turn
        fs.flags["nexus-turn"] = turn.number
        if turn.seat == seat:
            turn.acted = True
        if not data["moved"]:
            log.append(f"Energy Nexus: {NAME} acts before the battle in {data['area']}.")
        if isinstance(action, Move):
            taxed = turn_actions.taxes(state, seat)
            moved = [list(m) for m in data["moved"]]
            tax = 0 if any(fs.units[k][i] == action.target for k, i in moved) else taxed.get(action.target, 0)
            index = board.pick_figure(state, seat, action.unit, action.source, exclude=tuple((k, i) for k, i in moved))
            fs.power -= 1
            board.place_figure(state, seat, action.unit, index, action.target)
            turn_actions.pay_tax(state, seat, tax, log)
            log.append(f"{NAME} moves {words_of.a_unit(action.unit)} from {action.source} to {action.target}.")
            moved.append([action.unit, index])
            more = {**data, "moved": moved}
            if self.nexus_options(state, seat, more):
                state.pending.insert(0, Pending(seat, NEXUS, more))
            return
        tax = turn_actions.action_tax(state, seat, action)
        if action.kind in turn_actions.MAIN:
            turn_actions.MAIN[action.kind](state, seat, action, log)
        else:
            self.apply_decision(state, seat, action, {}, log)
        turn_actions.pay_tax(state, seat, tax, log)

    # ---- decisions ------------------------------------------------------------------------------
    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        if pending_kind == NEXUS:
            return self.nexus_options(state, seat, data)
        if pending_kind == "sl-sacrifice":
            return [Sacrifice(choice="elder-sign"), Sacrifice(choice="kills-to-pains")]
        if pending_kind == "sl-sorcery-return":
            return [SorceryReturn(area=a.id) for a in state.layout.areas]
        if pending_kind == "sl-death-from-below":
            return self.death_from_below_options(state, seat)
        return []


FACTION = Sleeper()
