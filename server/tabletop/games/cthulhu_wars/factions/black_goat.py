"""Black Goat (rules_text ``cthulhu-wars/black-goat``): Fertility Cult, Avatar and six spellbooks.

Decisions this faction puts to other seats (Ghroth's victims, Avatar's owner) carry
``"faction": "black-goat"`` in their data so that this module lists and resolves the answers;
choices a rule makes compulsory carry ``"mandatory": True`` (no ``done`` is offered).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board, creatures, negotiation, turn_actions
from tabletop.games.cthulhu_wars.actions import Action, shared
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType
from tabletop.games.cthulhu_wars.power import ExtraIncome
from tabletop.games.cthulhu_wars.state import POOL, GameState, Pending
from tabletop.games.cthulhu_wars import words as words_of

NAME = "black-goat"
SHUB = "shub-niggurath"
AWAKEN_COST = 8
AWAKEN_CULTISTS = 2
AVATAR_COST, GHROTH_COST = 1, 2
AREA_REQUIREMENTS = {"units-in-4-areas": 4, "units-in-6-areas": 6, "units-in-8-areas": 8}


# ---- actions ------------------------------------------------------------------------------
class Avatar(Action):
    """Action (1 Power, Shub-Niggurath on the map): swap her with a Monster or Cultist of ``faction`` in ``target``."""

    kind: Literal["avatar"] = "avatar"
    faction: str
    target: str


class AvatarSwap(Action):
    """The owner's answer to Avatar: which of its units in ``source`` goes to Shub-Niggurath's old area ``target``."""

    kind: Literal["avatar-swap"] = "avatar-swap"
    unit: str
    source: str
    target: str


class Ghroth(Action):
    """Action (Ghroth, 2 Power): roll a die against the number of areas holding Fungi."""

    kind: Literal["ghroth"] = "ghroth"


class GhrothPick(Action):
    """Ghroth when the enemies do not agree: Black Goat picks an enemy Cultist to eliminate."""

    kind: Literal["ghroth-pick"] = "ghroth-pick"
    unit: str
    area: str
    enemy: str
    from_gate: bool = False


class GhrothPlace(Action):
    """Ghroth's other outcome: place an Acolyte from ``faction``'s pool in ``target``."""

    kind: Literal["ghroth-place"] = "ghroth-place"
    faction: str
    target: str


class SacrificeTwo(Action):
    """Action (a requirement): eliminate two of your own Cultists anywhere."""

    kind: Literal["bg-sacrifice"] = "bg-sacrifice"


class EliminateCultist(Action):
    """Eliminate one of your own Cultists (Awakening, the sacrifice requirement, Ghroth's victims)."""

    kind: Literal["bg-eliminate"] = "bg-eliminate"
    unit: str
    area: str
    from_gate: bool = False


class BloodSacrifice(Action):
    """Doom phase (Blood Sacrifice, Shub-Niggurath on the map): eliminate a Cultist of yours for an Elder Sign."""

    kind: Literal["blood-sacrifice"] = "blood-sacrifice"
    unit: str
    area: str
    from_gate: bool = False


class Necrophagy(Action):
    """After any battle (Necrophagy): a Ghoul from ``source`` joins; each side takes one more Pain."""

    kind: Literal["necrophagy"] = "necrophagy"
    source: str


class BlackGoat(Faction):
    name = NAME
    title = "Black Goat"
    description = "Shub-Niggurath; Fertility Cult summons Monsters as unlimited actions"
    start_symbol = "black-goat"
    rules_section = "black-goat"
    units = (
        UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist"),
        UnitType("ghoul", "Ghoul", 2, 1, 0, "monster"),
        UnitType("fungi", "Fungi from Yuggoth", 4, 2, 1, "monster"),
        UnitType("dark-young", "Dark Young", 3, 3, 2, "monster"),
        UnitType(SHUB, "Shub-Niggurath", 1, AWAKEN_COST, 0, "goo"),
    )
    requirements = (
        Requirement("units-in-4-areas", "Have units in 4 areas."),
        Requirement("units-in-6-areas", "Have units in 6 areas."),
        Requirement("units-in-8-areas", "Have units in 8 areas."),
        Requirement("share-areas", "Share areas with every enemy (any areas, even on another turn); +1 Power per enemy."),
        Requirement("sacrifice-two", "As your action, eliminate two of your own Cultists."),
        Requirement("awaken-shub", "Awaken Shub-Niggurath."),
    )
    spellbooks = (
        Spellbook("thousand-young", "The Thousand Young", "ongoing", "While Shub-Niggurath is on the map, Monsters cost 1 less."),
        Spellbook("frenzy", "Frenzy", "battle", "Your Cultists have Combat 1."),
        Spellbook("necrophagy", "Necrophagy", "post-battle", "After any battle, bring in Ghouls: each gives both sides a Pain."),
        Spellbook("ghroth", "Ghroth", "action", "2 Power: roll; enemies lose that many Cultists or an Acolyte is placed."),
        Spellbook("red-sign", "The Red Sign", "ongoing", "Dark Young control Gates, add 1 to Shub's Combat and 1 Power at Gather."),
        Spellbook("blood-sacrifice", "Blood Sacrifice", "doom", "Doom phase: eliminate a Cultist of yours for an Elder Sign."),
    )
    action_models = (Avatar, AvatarSwap, Ghroth, GhrothPick, GhrothPlace, SacrificeTwo, EliminateCultist, BloodSacrifice, Necrophagy)
    unlimited_kinds = frozenset({"summon"})
    action_costs = {"avatar": AVATAR_COST, "ghroth": GHROTH_COST}

    # ---- Fertility Cult and the spellbooks that change units ------------------------------
    def summon_cost(self, state: GameState, seat: int, unit: str) -> int:
        """The Thousand Young: 1 less while Shub-Niggurath is on the map (rule="cthulhu-wars/black-goat")."""
        cost = self.unit(unit).cost
        return max(0, cost - 1) if self.has(state, seat, "thousand-young") and self.shub_area(state, seat) else cost

    def can_control_gates(self, state: GameState, seat: int, unit: str) -> bool:
        """The Red Sign: Dark Young build and control Gates (rule="cthulhu-wars/black-goat")."""
        return self.unit(unit).is_cultist or (unit == "dark-young" and self.has(state, seat, "red-sign"))

    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int:
        """Frenzy: Cultists roll 1 each; Shub-Niggurath rolls controlled Gates + Cultists on the map
        (+ Dark Young on the map with the Red Sign) (rule="cthulhu-wars/black-goat")."""
        if self.unit(unit).is_cultist:  # a High Priest too (cthulhu-wars/high-priests)
            return count if self.has(state, seat, "frenzy") else 0
        if unit == SHUB:
            return count * self.shub_combat(state, seat)
        return self.unit(unit).combat * count

    def shub_combat(self, state: GameState, seat: int) -> int:
        dark_young = self.dark_young_on_map(state, seat) if self.has(state, seat, "red-sign") else 0
        return len(board.controlled_gates(state, seat)) + board.cultists_on_map(state, seat) + dark_young

    def gather_extras(self, state: GameState, seat: int) -> list[ExtraIncome]:
        """The Red Sign: +1 Power per Dark Young on the map (rule="cthulhu-wars/black-goat")."""
        if not self.has(state, seat, "red-sign"):
            return []
        return [ExtraIncome(source="The Red Sign: Dark Young on the map", count=self.dark_young_on_map(state, seat))]

    # ---- small queries ----------------------------------------------------------------------
    @staticmethod
    def has(state: GameState, seat: int, book: str) -> bool:
        return book in state.seats[seat].spellbooks

    @staticmethod
    def shub_area(state: GameState, seat: int) -> str | None:
        place = state.seats[seat].units[SHUB][0]
        return place if board.on_map(place) else None

    @staticmethod
    def dark_young_on_map(state: GameState, seat: int) -> int:
        return sum(1 for p in state.seats[seat].units["dark-young"] if board.on_map(p))

    # ---- Awakening ----------------------------------------------------------------------------
    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Shub-Niggurath: at a Gate you control, with two Cultists on the map to give up (rule="cthulhu-wars/black-goat")."""
        if POOL not in state.seats[seat].units[SHUB] or board.cultists_on_map(state, seat) < AWAKEN_CULTISTS:
            return []
        return [(SHUB, area, AWAKEN_COST) for area in sorted(board.controlled_gates(state, seat))]

    def on_awaken(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """Her Awakening costs two of your Cultists, which you choose (rule="cthulhu-wars/black-goat")."""
        state.seats[seat].flags["awakened"] = True
        log.append("Shub-Niggurath demands two Cultists.")
        self.ask_own_cultists(state, seat, AWAKEN_CULTISTS)

    def ask_own_cultists(self, state: GameState, seat: int, count: int) -> None:
        """Queue ``count`` compulsory choices of one of ``seat``'s own Cultists to eliminate."""
        state.pending[0:0] = [Pending(seat, "bg-eliminate", {"faction": NAME, "mandatory": True}) for _ in range(count)]

    # ---- requirements -------------------------------------------------------------------------
    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        """Area counts, sharing areas with every enemy, the sacrifice action and the Awakening
        (rule="cthulhu-wars/black-goat")."""
        fs = state.seats[seat]
        asked = any(name not in fs.requirements for name in (*AREA_REQUIREMENTS, "share-areas"))
        mine = board.occupied_areas(state, seat) if asked else set()  # all recorded: the Areas are not asked about
        met = [name for name, need in AREA_REQUIREMENTS.items() if len(mine) >= need]
        if "share-areas" not in fs.requirements and self.shares_with_all(state, seat, mine):
            self.reward_sharing(state, seat)
            met.append("share-areas")
        if fs.flags.get("sacrificed-two"):
            met.append("sacrifice-two")
        if fs.flags.get("awakened"):
            met.append("awaken-shub")
        return [m for m in met if m not in fs.requirements]

    @staticmethod
    def shares_with_all(state: GameState, seat: int, mine: set[str]) -> bool:
        """Whether every enemy has a figure in one of ``mine``, the Areas where ``seat`` has figures."""
        return all(any(not mine.isdisjoint(places) for places in state.seats[s].units.values())
                   for s in range(len(state.seats)) if s != seat)  # fmt: skip

    @staticmethod
    def reward_sharing(state: GameState, seat: int) -> None:
        """+1 Power per enemy, once, as the requirement is recorded (the engine records every name returned)."""
        state.seats[seat].power += len(state.seats) - 1

    # ---- actions ----------------------------------------------------------------------------
    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        """Avatar, Ghroth, the sacrifice requirement, and (after the turn's action) Fertility Cult Summons."""
        fs = state.seats[seat]
        options: list[BaseModel] = []
        if state.turn is not None and state.turn.acted:  # Fertility Cult: Summon stays available after the action
            options.extend(turn_actions.summon_options(state, seat))
        if fs.power >= AVATAR_COST:
            options.extend(self.avatar_options(state, seat))
        if self.has(state, seat, "ghroth") and fs.power >= GHROTH_COST:
            options.append(Ghroth())
        if "sacrifice-two" not in fs.requirements and board.cultists_on_map(state, seat) >= 2:
            options.append(SacrificeTwo())
        return options

    def avatar_options(self, state: GameState, seat: int) -> list[Avatar]:
        """Shub-Niggurath swaps with a Monster or Cultist anywhere (through tunnels too: the map is one), a Zoog
        included (rules_text ``cthulhu-wars/dreamlands-zoogs``)."""
        origin = self.shub_area(state, seat)
        if origin is None:
            return []
        options = [
            shared(Avatar, faction=state.seats[s].faction, target=area)
            for s in range(len(state.seats))
            for area in sorted(board.occupied_areas(state, s) - {origin})
            if self.swappable(state, s, area)
        ]
        if state.pieces:
            options += [shared(Avatar, faction="zoogs", target=area)
                        for area in sorted(creatures.zoog_areas(state) - {origin})]
        return options

    @staticmethod
    def swappable(state: GameState, owner: int, area: str) -> list[str]:
        """Unit types of ``owner`` in ``area`` that Avatar can swap: Monsters and Cultists (no Terror)."""
        faction = board.faction_of(state, owner)
        present = board.units_in(state, owner, area)
        return [k for k in faction.units_of("cultist", "monster") if k in present]

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        handler = getattr(self, "do_" + action.kind.replace("-", "_"))
        handler(state, seat, action, log)

    def do_avatar(self, state: GameState, seat: int, action: Avatar, log: list[str]) -> None:
        """Avatar: Shub-Niggurath goes to the area; the owner sends one of its units to where she was
        (rule="cthulhu-wars/black-goat")."""
        fs = state.seats[seat]
        fs.power -= AVATAR_COST
        origin = self.shub_area(state, seat)
        board.place_figure(state, seat, SHUB, 0, action.target)
        log.append(f"Avatar: Shub-Niggurath goes from {origin} to {action.target}.")
        if action.faction == "zoogs":  # a Zoog takes her place; outside a Citadel it is eliminated
            creatures.move_zoog(state, action.target, origin, log)
            return
        owner = state.seat_of(action.faction)
        swaps = self.avatar_swaps(state, owner, {"area": action.target, "origin": origin})
        if len(swaps) == 1:
            self.do_avatar_swap(state, owner, swaps[0], log)
        else:
            state.pending.insert(0, Pending(owner, "avatar-swap", {"faction": NAME, "mandatory": True,
                                                                   "area": action.target, "origin": origin}))

    def avatar_swaps(self, state: GameState, owner: int, data: dict) -> list[AvatarSwap]:
        return [AvatarSwap(unit=k, source=data["area"], target=data["origin"]) for k in self.swappable(state, owner, data["area"])]

    def do_avatar_swap(self, state: GameState, seat: int, action: AvatarSwap, log: list[str]) -> None:
        index = board.pick_figure(state, seat, action.unit, action.source)
        board.place_figure(state, seat, action.unit, index, action.target)
        log.append(f"{state.seats[seat].faction}'s {words_of.unit_title(action.unit)} goes from {action.source} to {action.target}, Shub-Niggurath's place.")

    def do_bg_sacrifice(self, state: GameState, seat: int, action: SacrificeTwo, log: list[str]) -> None:
        """The requirement: as the action, eliminate two of your Cultists (you choose which; rule="cthulhu-wars/black-goat")."""
        state.seats[seat].flags["sacrificed-two"] = True
        log.append("Black Goat sacrifices two of its Cultists.")
        self.ask_own_cultists(state, seat, 2)

    def do_bg_eliminate(self, state: GameState, seat: int, action: EliminateCultist, log: list[str]) -> None:
        index = board.pick_figure(state, seat, action.unit, action.area, from_gate=action.from_gate)
        board.eliminate(state, seat, action.unit, index)
        log.append(f"{state.seats[seat].faction} eliminates its own {words_of.unit_title(action.unit)} in {action.area}.")

    # ---- Ghroth ---------------------------------------------------------------------------
    def do_ghroth(self, state: GameState, seat: int, action: Ghroth, log: list[str]) -> None:
        """Ghroth: roll; at most the number of areas with Fungi, the enemies lose that many Cultists
        between them (negotiated); otherwise an Acolyte from any pool is placed (rule="cthulhu-wars/black-goat")."""
        state.seats[seat].power -= GHROTH_COST
        roll = state.rng.die(6, "Black Goat's Ghroth die")
        fungi_areas = len({p for p in state.seats[seat].units["fungi"] if board.on_map(p)})
        log.append(f"Ghroth: Black Goat rolls {roll} against {fungi_areas} areas with Fungi.")
        if roll <= fungi_areas:
            limits = {s: board.cultists_on_map(state, s) for s in range(len(state.seats)) if s != seat}
            negotiation.open_negotiation(state, topic="ghroth", owner=seat, amount=roll, limits=limits, log=log)
        elif self.placements(state):
            state.pending.insert(0, Pending(seat, "ghroth-place", {"mandatory": True}))

    def placements(self, state: GameState) -> list[GhrothPlace]:
        return [
            GhrothPlace(faction=fs.faction, target=area.id)
            for fs in state.seats if POOL in fs.units["acolyte"]
            for area in state.layout.areas
        ]  # fmt: skip

    def do_ghroth_place(self, state: GameState, seat: int, action: GhrothPlace, log: list[str]) -> None:
        owner = state.seats[state.seat_of(action.faction)]
        board.place_figure(state, state.seat_of(action.faction), "acolyte", owner.units["acolyte"].index(POOL), action.target)
        log.append(f"Ghroth: an Acolyte of {action.faction} appears in {action.target}.")

    def settle_ghroth(self, state: GameState, data: dict, agreed: dict[str, int] | None, log: list[str]) -> None:
        """Agreed: each enemy eliminates its share of Cultists (its choice); otherwise Black Goat chooses
        them all (rule="cthulhu-wars/black-goat")."""
        if agreed is None:
            state.pending[0:0] = [Pending(data["owner"], "ghroth-pick", {"mandatory": True}) for _ in range(data["amount"])]
            return
        for faction, share in reversed(list(agreed.items())):
            victim = state.seat_of(faction)
            state.pending[0:0] = [Pending(victim, "bg-eliminate", {"faction": NAME, "mandatory": True}) for _ in range(share)]

    def ghroth_picks(self, state: GameState, seat: int) -> list[GhrothPick]:
        return [
            GhrothPick(unit=lose.unit, area=area, enemy=state.seats[s].faction, from_gate=lose.from_gate)
            for s in range(len(state.seats)) if s != seat
            for area, lose in self.cultist_losses(state, s)
        ]  # fmt: skip

    def do_ghroth_pick(self, state: GameState, seat: int, action: GhrothPick, log: list[str]) -> None:
        victim = state.seat_of(action.enemy)
        board.eliminate(state, victim, action.unit, board.pick_figure(state, victim, action.unit, action.area, from_gate=action.from_gate))
        log.append(f"Ghroth: Black Goat eliminates {action.enemy}'s {words_of.unit_title(action.unit)} in {action.area}.")

    @staticmethod
    def cultist_losses(state: GameState, seat: int) -> list[tuple[str, BaseModel]]:
        """(area, Lose) for each way ``seat`` can give up one of its Cultists on the map."""
        kinds = list(board.faction_of(state, seat).cultists())
        areas = sorted({p for k in kinds for p in state.seats[seat].units[k] if board.on_map(p)})
        return [(area, lose) for area in areas for lose in board.loss_options(state, seat, area, kinds)]

    # ---- Doom phase: Blood Sacrifice ---------------------------------------------------------
    def doom_phase(self, state: GameState, seat: int, log: list[str]) -> None:
        """Blood Sacrifice: with Shub-Niggurath on the map, you may eliminate a Cultist for an Elder Sign
        (rule="cthulhu-wars/black-goat")."""
        if self.has(state, seat, "blood-sacrifice") and self.shub_area(state, seat) and board.cultists_on_map(state, seat):
            state.pending.append(Pending(seat, "blood-sacrifice"))

    def do_blood_sacrifice(self, state: GameState, seat: int, action: BloodSacrifice, log: list[str]) -> None:
        board.eliminate(state, seat, action.unit, board.pick_figure(state, seat, action.unit, action.area, from_gate=action.from_gate))
        log.append(f"Blood Sacrifice: Black Goat gives up {words_of.a_unit(action.unit)} in {action.area}.")
        board.draw_elder_sign(state, seat, log)

    # ---- Necrophagy ---------------------------------------------------------------------------
    def after_any_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Necrophagy: after any battle, offer to bring in Ghouls from elsewhere (rule="cthulhu-wars/black-goat")."""
        if self.has(state, seat, "necrophagy") and self.ghoul_sources(state, seat, battle):
            state.pending.append(Pending(seat, "necrophagy"))

    @staticmethod
    def ghoul_sources(state: GameState, seat: int, battle: dict) -> list[str]:
        return sorted({p for p in state.seats[seat].units["ghoul"] if board.on_map(p) and p != battle["area"]})

    def do_necrophagy(self, state: GameState, seat: int, action: Necrophagy, log: list[str]) -> None:
        """The Ghoul joins the battle area; each side then takes one more Pain, never on that Ghoul."""
        battle = state.battle
        index = board.pick_figure(state, seat, "ghoul", action.source)
        board.place_figure(state, seat, "ghoul", index, battle["area"])
        log.append(f"Necrophagy: a Ghoul comes from {action.source} to feed in {battle['area']}.")
        if seat in (battle["attacker"], battle["defender"]):
            battle["taken"].setdefault(seat, {})[f"ghoul#{index}"] = self.result_capacity(state, seat, "ghoul")
        for side in (battle["attacker"], battle["defender"]):
            if isinstance(side, str):
                self.feed_on_creature(state, battle, side, seat, index, log)
                continue
            battle["hits"][side] = {"kill": 0, "pain": 1}
            battles.ask_assignment(state, battle, side, "pain", log)
        self.after_any_battle(state, seat, battle, log)

    def feed_on_creature(self, state: GameState, battle: dict, side: str, seat: int, ghoul: int, log: list[str]) -> None:
        """Necrophagy against the map's creatures: the Bhole is untouched (abilities reach only a battle's factions'
        own units there); a Zoog takes the Pain, vanishes, and Pains the Ghoul that came instead of the attacker
        (rules_text ``cthulhu-wars/dreamlands-zoogs``)."""
        if side == "zoogs" and creatures.remove_zoogs(state, battle["area"], 1, log, "removed by Pain"):
            log.append("The Zoog's Pain falls on the Ghoul that came to feed.")
            battles.record_result(state, battle, seat, "ghoul", ghoul, "pain", self.result_capacity(state, seat, "ghoul"), ask=False)

    # ---- decisions ------------------------------------------------------------------------
    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        if pending_kind == "bg-eliminate":
            return [EliminateCultist(unit=lose.unit, area=area, from_gate=lose.from_gate) for area, lose in self.cultist_losses(state, seat)]
        if pending_kind == "blood-sacrifice":
            return [BloodSacrifice(unit=lose.unit, area=area, from_gate=lose.from_gate) for area, lose in self.cultist_losses(state, seat)]
        if pending_kind == "avatar-swap":
            return list(self.avatar_swaps(state, seat, data))
        if pending_kind == "ghroth-pick":
            return list(self.ghroth_picks(state, seat))
        if pending_kind == "ghroth-place":
            return self.placements(state)
        if pending_kind == "necrophagy" and state.battle is not None:
            return [Necrophagy(source=a) for a in self.ghoul_sources(state, seat, state.battle)]
        return []


FACTION = BlackGoat()
negotiation.register_settler("ghroth", FACTION.settle_ghroth)
