"""Windwalker (rules_text ``cthulhu-wars/windwalker``): Hibernate, Rhan-Tegoth, Ithaqua and six spellbooks.

Decisions put to another seat (Howl's unit, Berserkergang's losses) carry ``"faction": "windwalker"`` so that
this module lists and resolves the answers. :func:`hibernate` and :func:`hibernation_income` are shared with
the Sleeper, who may borrow Hibernate through Ancient Sorcery.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import Action, shared
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType
from tabletop.games.cthulhu_wars.maps import layout_cache, load_layout
from tabletop.games.cthulhu_wars.power import ExtraIncome
from tabletop.games.cthulhu_wars.state import POOL, GameState, Pending
from tabletop.games.cthulhu_wars import words as words_of

NAME = "windwalker"
RHAN, ITHAQUA, WENDIGO, GNOPH = "rhan-tegoth", "ithaqua", "wendigo", "gnoph-keh"
GOO_COST = 6
ICE_AGE_COST = ETERNAL_COST = ICE_AGE_TAX = 1
HERALD_RITUAL_COST = 5
MAX_ANYTIME_SIGNS = 3
SECTION = "cthulhu-wars/windwalker"


# ---- actions and decisions ------------------------------------------------------------------
class Hibernate(Action):
    """Action (Hibernate, 0 Power): +1 Power per enemy Great Old One in play (at most doubling your Power); you
    take no more turns this Action phase and keep your Power into the next Gather Power."""

    kind: Literal["ww-hibernate"] = "ww-hibernate"


class Anytime(Action):
    """Unlimited (the 'anytime' requirement): take it now; 1 Elder Sign per enemy holding six spellbooks (at most 3)."""

    kind: Literal["ww-anytime"] = "ww-anytime"


class IceAge(Action):
    """Action (Ice Age, 1 Power): put the Ice Age marker in ``area`` (or move it there)."""

    kind: Literal["ww-ice-age"] = "ww-ice-age"
    area: str


class Eternal(Action):
    """Decision (Eternal): Rhan-Tegoth was given a result; ``cancel`` it for 1 Power, or ``accept`` it."""

    kind: Literal["ww-eternal"] = "ww-eternal"
    choice: Literal["cancel", "accept"]


class Howl(Action):
    """Pre-battle (Howl, a Wendigo in the battle, once per battle): the enemy sends one of its units away."""

    kind: Literal["ww-howl"] = "ww-howl"


class HowlAway(Action):
    """The enemy's answer to Howl: its ``unit`` (the one on the Gate with ``from-gate``) goes to ``target``."""

    kind: Literal["ww-howl-away"] = "ww-howl-away"
    unit: str
    target: str
    from_gate: bool = False


class Berserk(Action):
    """The enemy's answer to Berserkergang: it eliminates one of its Monsters or Cultists in the battle."""

    kind: Literal["ww-berserk"] = "ww-berserk"
    unit: str
    from_gate: bool = False


class Cannibalism(Action):
    """After a battle with a Kill on the enemy side (Cannibalism): place ``unit`` (Wendigo or Acolyte) there."""

    kind: Literal["ww-cannibalism"] = "ww-cannibalism"
    unit: str


class ArcticWind(Action):
    """While Ithaqua moves (Arctic Wind): one of your units from his area that has not moved follows him free."""

    kind: Literal["ww-arctic-wind"] = "ww-arctic-wind"
    unit: str


#: Howl sends away any of the enemy's units, Great Old Ones included.
ALL_ROLES = ("cultist", "monster", "goo")


@layout_cache
def symbol_areas(layout_name: str, symbol: str) -> tuple[str, ...]:
    """The Areas of a layout carrying a faction symbol."""
    return tuple(a.id for a in load_layout(layout_name).start_areas(symbol))


# ---- Hibernate, shared with a Sleeper who borrows it ----------------------------------------------
def enemy_goos_in_play(state: GameState, seat: int) -> int:
    """Independent Great Old Ones count too (``cthulhu-wars/independent-great-old-ones``)."""
    return sum(board.goos_in_play(state, s, independents=True) for s in range(len(state.seats)) if s != seat)


def hibernate(state: GameState, seat: int, log: list[str]) -> None:
    """+1 Power per enemy Great Old One in play, no more than the Power you have; then you sit the phase out."""
    fs = state.seats[seat]
    gain = min(enemy_goos_in_play(state, seat), fs.power)
    fs.power += gain
    fs.flags["hibernating"] = True
    log.append(f"{fs.faction} hibernates: +{gain} Power, kept until the next Gather Power; no more turns this phase.")


def hibernation_income(state: GameState, seat: int) -> list[ExtraIncome]:
    """The Power a hibernating faction kept, added to its income before the Minimum Power Rule."""
    fs = state.seats[seat]
    if not fs.flags.get("hibernating"):
        return []
    return [ExtraIncome(source="Hibernate: Power kept from the Action phase", count=fs.power)]


def howl_losses(state: GameState, owner: int, battle: dict) -> list[BaseModel]:
    """The figures of ``owner`` in ``battle`` that Howl can send away (each unit type, on or off its Gate): any of its
    units taking part, Great Old Ones included, but none that no ability moves (Byatis, ``cthulhu-wars/igoo-byatis``)
    (``cthulhu-wars/windwalker-howl``)."""
    kinds = board.movable(state, owner, sorted(board.in_battle(state, owner, battle)))
    return list(board.loss_options(state, owner, battle["area"], kinds, board.exempt_in(battle, owner)))


class Windwalker(Faction):
    name = NAME
    title = "Windwalker"
    description = "Rhan-Tegoth and Ithaqua of the poles; Hibernate keeps Power for the next round"
    start_symbol = "windwalker"
    start_choice = "symbol-choice"
    may_start_first = False
    default_rank = 2
    rules_section = "windwalker"
    units = (
        UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist"),
        UnitType(WENDIGO, "Wendigo", 4, 1, 1, "monster"),
        UnitType(GNOPH, "Gnoph-Keh", 4, 4, 3, "monster"),
        UnitType(RHAN, "Rhan-Tegoth", 1, GOO_COST, 3, "goo"),
        UnitType(ITHAQUA, "Ithaqua", 1, GOO_COST, 0, "goo"),
    )
    requirements = (
        Requirement("first-player", "Be the First Player."),
        Requirement("opposite-gate", "A Gate stands in the Windwalker-symbol Area you did not start in."),
        Requirement("another-six-spellbooks", "Another faction holds six spellbooks."),
        Requirement("anytime", "Whenever you like: 1 Elder Sign per enemy holding six spellbooks (at most 3)."),
        Requirement("awaken-rhan-tegoth", "Awaken Rhan-Tegoth."),
        Requirement("awaken-ithaqua", "Awaken Ithaqua."),
    )
    spellbooks = (
        Spellbook("cannibalism", "Cannibalism", "post-battle", "After a battle with an enemy Kill, place a Wendigo or Acolyte there."),
        Spellbook("howl", "Howl", "pre-battle", "With a Wendigo in the battle, the enemy sends one of its units to an adjacent Area."),
        Spellbook("berserkergang", "Berserkergang", "post-battle", "Per Gnoph-Keh Killed, the enemy eliminates a Monster or Cultist."),
        Spellbook("arctic-wind", "Arctic Wind", "ongoing", "Units in Ithaqua's Area move with him for free."),
        Spellbook("ice-age", "Ice Age", "action", "1 Power: place the Ice Age marker; enemy actions ending there cost 1 more."),
        Spellbook("herald", "Herald of the Outer Gods", "doom", "Your Ritual of Annihilation always costs 5."),
    )
    action_models = (Hibernate, Anytime, IceAge, Eternal, Howl, HowlAway, Berserk, Cannibalism, ArcticWind)
    unlimited_kinds = frozenset({"ww-anytime"})
    action_costs = {"ww-ice-age": ICE_AGE_COST}
    rules_by_kind = {
        "ww-ice-age": "windwalker-ice-age", "ww-howl": "windwalker-howl", "ww-howl-away": "windwalker-howl",
        "ww-berserk": "windwalker-berserkergang", "ww-cannibalism": "windwalker-cannibalism",
        "ww-arctic-wind": "windwalker-arctic-wind",
    }  # fmt: skip

    # ---- small queries ----------------------------------------------------------------------
    @staticmethod
    def has(state: GameState, seat: int, book: str) -> bool:
        return book in state.seats[seat].spellbooks

    @staticmethod
    def poles(state: GameState) -> tuple[str, ...]:
        """The Windwalker-symbol Areas of the layout."""
        return symbol_areas(state.layout_name, "windwalker")

    # ---- Set-up, Gnoph-Keh, Combat, Ferox ---------------------------------------------------
    def summon_cost(self, state: GameState, seat: int, unit: str) -> int:
        """A Gnoph-Keh costs as many Power as there are Gnoph-Keh in your pool (4, 3, 2, 1)."""
        if unit == GNOPH:
            return state.seats[seat].units[GNOPH].count(POOL)
        return super().summon_cost(state, seat, unit)

    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int:
        """Ithaqua rolls half the Doom of the faction he battles, rounded up."""
        if unit == ITHAQUA:
            if "attacker" not in battle:
                return 0
            return count * ((battles.enemy_doom(state, battle, seat) + 1) // 2)
        return super().unit_combat(state, seat, unit, battle, count)

    def protects_cultists(self, state: GameState, seat: int, area: str, captor: int, captor_has_goo: bool) -> bool:
        """Ferox: while Ithaqua is in play, only an enemy Great Old One can capture your Cultists."""
        return not captor_has_goo and board.in_play(state, state.seats[seat].units[ITHAQUA][0])

    # ---- Awakening ----------------------------------------------------------------------------
    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Rhan-Tegoth: either pole, no Gate needed. Ithaqua: Rhan-Tegoth awakened once, and a Gate at a pole
        (anyone's or Abandoned; Yog-Sothoth too with option ``ithaqua_replaces_yog_sothoth``)."""
        fs = state.seats[seat]
        options = []
        if POOL in fs.units[RHAN]:
            options += [(RHAN, a, GOO_COST) for a in self.poles(state)]
        if POOL in fs.units[ITHAQUA] and fs.flags.get("awakened-rhan-tegoth"):
            yog = {a for a, _ in board.gate_holders(state) if a not in state.gates} if state.options.ithaqua_replaces_yog_sothoth else set()
            options += [(ITHAQUA, a, GOO_COST) for a in self.poles(state) if a in state.gates or a in yog]
        return options

    def on_awaken(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        """Ithaqua replaces the Gate: it leaves the map and its controller stays in the Area, off it."""
        state.seats[seat].flags[f"awakened-{unit}"] = True
        if unit != ITHAQUA:
            return
        if area in state.gates:
            del state.gates[area]
            log.append(f"Ithaqua replaces the Gate in {area}.")
            return
        for other in range(len(state.seats)):  # a Gate held without a Cultist (Yog-Sothoth) is eliminated
            faction = board.faction_of(state, other)
            if area in faction.gate_areas(state, other):
                for kind in faction.goos():
                    for index, place in enumerate(state.seats[other].units[kind]):
                        if place == area:
                            board.eliminate(state, other, kind, index)
                            log.append(f"Ithaqua replaces {words_of.a_unit(kind)} in {area}: it is eliminated.")

    # ---- requirements -------------------------------------------------------------------------
    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        fs = state.seats[seat]
        start = fs.flags.get("start-area")
        checks = {  # each asked only while its requirement is not yet recorded
            "first-player": lambda: state.first_player == seat and bool(start),
            "opposite-gate": lambda: bool(start) and any(board.has_gate(state, a) for a in self.poles(state) if a != start),
            "another-six-spellbooks": lambda: any(len(o.spellbooks) >= 6 for s, o in enumerate(state.seats) if s != seat),
            "anytime": lambda: bool(fs.flags.get("anytime")),
            "awaken-rhan-tegoth": lambda: bool(fs.flags.get("awakened-rhan-tegoth")),
            "awaken-ithaqua": lambda: bool(fs.flags.get("awakened-ithaqua")),
        }  # fmt: skip
        return [name for name, met in checks.items() if name not in fs.requirements and met()]

    def anytime_signs(self, state: GameState, seat: int) -> int:
        return min(MAX_ANYTIME_SIGNS, sum(1 for s, o in enumerate(state.seats) if s != seat and len(o.spellbooks) >= 6))

    def claim_anytime(self, state: GameState, seat: int, log: list[str]) -> None:
        fs = state.seats[seat]
        fs.flags["anytime"] = True
        signs = self.anytime_signs(state, seat)
        log.append(f"{NAME} takes its 'anytime' requirement: {signs} Elder Signs.")
        for _ in range(signs):
            board.draw_elder_sign(state, seat, log)

    def game_end(self, state: GameState, seat: int, log: list[str]) -> None:
        """An 'anytime' requirement still open when the game ends is taken then, with the first spellbook left."""
        fs = state.seats[seat]
        if "anytime" in fs.requirements:
            return
        self.claim_anytime(state, seat, log)
        fs.requirements.append("anytime")
        left = [b.name for b in self.spellbooks if b.name not in fs.spellbooks]
        if left:
            fs.spellbooks.append(left[0])
            log.append(f"{NAME} takes the spellbook {left[0]} as the game ends.")

    # ---- actions ------------------------------------------------------------------------------
    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        options: list[BaseModel] = []
        if not fs.flags.get("hibernating"):
            options.append(Hibernate())
        if "anytime" not in fs.requirements and not fs.flags.get("anytime"):
            options.append(Anytime())
        if self.has(state, seat, "ice-age") and fs.power >= ICE_AGE_COST:
            here = fs.flags.get("ice-age")
            options += [shared(IceAge, area=a.id) for a in state.layout.areas if a.id != here]
        return options

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        self.apply_decision(state, seat, action, {}, log)

    def apply_decision(self, state: GameState, seat: int, action: BaseModel, data: dict, log: list[str]) -> None:
        handler = getattr(self, "do_" + action.kind.removeprefix("ww-").replace("-", "_"))
        if action.kind in ("ww-eternal", "ww-berserk", "ww-cannibalism"):
            handler(state, seat, action, data, log)
        else:
            handler(state, seat, action, log)

    def do_hibernate(self, state: GameState, seat: int, action: Hibernate, log: list[str]) -> None:
        hibernate(state, seat, log)

    def do_anytime(self, state: GameState, seat: int, action: Anytime, log: list[str]) -> None:
        self.claim_anytime(state, seat, log)

    def do_ice_age(self, state: GameState, seat: int, action: IceAge, log: list[str]) -> None:
        state.seats[seat].power -= ICE_AGE_COST
        state.seats[seat].flags["ice-age"] = action.area
        log.append(f"Ice Age: the marker goes to {action.area}.")

    # ---- Hibernate, Ice Age, Herald --------------------------------------------------------------
    def sits_out(self, state: GameState, seat: int) -> bool:
        return bool(state.seats[seat].flags.get("hibernating"))

    def gather_extras(self, state: GameState, seat: int) -> list[ExtraIncome]:
        return hibernation_income(state, seat)

    def doom_phase(self, state: GameState, seat: int, log: list[str]) -> None:
        """Hibernation ends once its Power has been gathered."""
        state.seats[seat].flags.pop("hibernating", None)

    def taxed_areas(self, state: GameState, seat: int, payer: int) -> dict[str, int]:
        """Ice Age: an enemy action ending in the marked Area costs 1 more."""
        area = state.seats[seat].flags.get("ice-age")
        return {area: ICE_AGE_TAX} if area and self.has(state, seat, "ice-age") else {}

    def ritual_cost(self, state: GameState, seat: int, cost: int) -> int:
        """Herald of the Outer Gods: your Ritual always costs 5 (the marker still moves)."""
        return HERALD_RITUAL_COST if self.has(state, seat, "herald") else cost

    def area_markers(self, state: GameState, seat: int) -> dict[str, list[str]]:
        area = state.seats[seat].flags.get("ice-age")
        return {area: ["Ice Age (enemy actions ending here cost 1 more)"]} if area and self.has(state, seat, "ice-age") else {}

    def notes(self, state: GameState, seat: int) -> list[str]:
        return [f"{NAME} hibernates: it takes no more turns this Action phase."] if self.sits_out(state, seat) else []

    # ---- Arctic Wind -----------------------------------------------------------------------------
    def after_move(self, state: GameState, seat: int, unit: str, index: int, source: str, target: str, log: list[str]) -> None:
        if unit == ITHAQUA and self.has(state, seat, "arctic-wind"):
            state.seats[seat].flags["arctic-wind"] = [source, target]
            self.offer_arctic_wind(state, seat)

    def followers(self, state: GameState, seat: int) -> list[str]:
        source = state.seats[seat].flags["arctic-wind"][0]
        moved = set(state.turn.moved) if state.turn else set()
        return board.movable(state, seat, sorted({k for k, places in state.seats[seat].units.items()
                                                  for i, p in enumerate(places) if p == source and (k, i) not in moved}))

    def offer_arctic_wind(self, state: GameState, seat: int) -> None:
        if self.followers(state, seat):
            state.pending.insert(0, Pending(seat, "ww-arctic-wind"))

    def do_arctic_wind(self, state: GameState, seat: int, action: ArcticWind, log: list[str]) -> None:
        source, target = state.seats[seat].flags["arctic-wind"]
        index = board.pick_figure(state, seat, action.unit, source, exclude=tuple(state.turn.moved))
        board.place_figure(state, seat, action.unit, index, target)
        state.turn.moved.append((action.unit, index))
        log.append(f"Arctic Wind: {words_of.a_unit(action.unit)} follows Ithaqua from {source} to {target} for free.")
        self.offer_arctic_wind(state, seat)

    # ---- battle: Howl, Eternal, Berserkergang, Cannibalism ------------------------------------------
    def pre_battle_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        """Howl, once per battle with a Wendigo of yours in it, when the enemy has a unit it could send away."""
        if (self.has(state, seat, "howl") and "ww-howl" not in battle["used"]
                and WENDIGO in board.in_battle(state, seat, battle) and self.howl_reaches(state, seat, battle)):
            return [Howl()]
        return []

    def howl_reaches(self, state: GameState, seat: int, battle: dict) -> bool:
        """Whether Howl would move anything: a Zoog to eliminate, or a unit of the enemy in the battle that an ability
        may move (not Byatis, ``cthulhu-wars/igoo-byatis``) (``cthulhu-wars/windwalker-howl``)."""
        enemy = battles.opponent(battle, seat)
        if isinstance(enemy, str):
            return bool(battles.enemy_losable(state, battle, seat, ALL_ROLES))
        return bool(howl_losses(state, enemy, battle))

    def do_howl(self, state: GameState, seat: int, action: Howl, log: list[str]) -> None:
        """Howl: the enemy sends one of its units away; a Zoog is eliminated instead, with no Pain back, and the Bhole
        cannot be sent away (rules_text ``cthulhu-wars/dreamlands-zoogs``)."""
        battle = state.battle
        battle["used"].append("ww-howl")
        enemy = battles.opponent(battle, seat)
        if isinstance(enemy, str):
            log.append("Howl: a Zoog flees and is eliminated.")
            battles.enemy_loses_unit(state, battle, seat, log, ALL_ROLES)
            return
        log.append("Howl: the enemy must send one of its units away.")
        state.pending.insert(0, Pending(enemy, "ww-howl-away", {"faction": NAME, "mandatory": True}))

    def howl_options(self, state: GameState, seat: int) -> list[BaseModel]:
        battle = state.battle
        area = battle["area"]
        return [HowlAway(unit=lose.unit, target=a.id, from_gate=lose.from_gate)
                for lose in howl_losses(state, seat, battle) for a in state.layout.neighbours(area)]

    def do_howl_away(self, state: GameState, seat: int, action: HowlAway, log: list[str]) -> None:
        """Howl is not a Pain: the unit may go to any adjacent Area, even one holding Windwalker units."""
        battle = state.battle
        index = board.pick_figure(state, seat, action.unit, battle["area"], from_gate=action.from_gate,
                                  exclude=board.exempt_in(battle, seat))
        board.place_figure(state, seat, action.unit, index, action.target)
        log.append(f"Howl: {state.seats[seat].faction}'s {words_of.unit_title(action.unit)} leaves the battle for {action.target}.")

    def on_result(self, state: GameState, seat: int, unit: str, index: int, result: str, battle: dict) -> bool:
        """Eternal: Rhan-Tegoth given a result; Windwalker may pay 1 to cancel it (once per battle)."""
        if unit != RHAN or "ww-eternal" in battle["used"] or state.seats[seat].power < ETERNAL_COST:
            return False
        state.pending.insert(0, Pending(seat, "ww-eternal", {"mandatory": True, "unit": unit, "index": index, "result": result}))
        return True

    def do_eternal(self, state: GameState, seat: int, action: Eternal, data: dict, log: list[str]) -> None:
        from tabletop.games.cthulhu_wars.battle import record_result

        battle = state.battle
        if action.choice == "cancel":
            state.seats[seat].power -= ETERNAL_COST
            battle["used"].append("ww-eternal")
            log.append(f"Eternal: {NAME} pays {ETERNAL_COST} Power and Rhan-Tegoth shrugs off the {data['result']}.")
        else:
            record_result(state, battle, seat, RHAN, data["index"], data["result"], 1, ask=False)

    def post_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Berserkergang: per Gnoph-Keh that took a Kill, the enemy eliminates one of its Monsters or Cultists."""
        if not self.has(state, seat, "berserkergang"):
            return
        count = sum(1 for key, n in battle.get("kills_on", {}).items() if key.startswith(f"{GNOPH}#") and n)
        enemy = battles.opponent(battle, seat)
        if count and isinstance(enemy, int):  # the Bhole eliminates nothing of its own (it has nothing else)
            log.append(f"Berserkergang: {state.seats[enemy].faction} must eliminate {count} of its units.")
            self.ask_berserk(state, enemy, count)

    def berserk_options(self, state: GameState, seat: int) -> list[BaseModel]:
        battle = state.battle
        faction = board.faction_of(state, seat)
        present = board.in_battle(state, seat, battle)
        kinds = [k for k in faction.units_of("cultist", "monster") if k in present]  # no Terror (cthulhu-wars/ancients)
        return [Berserk(unit=lose.unit, from_gate=lose.from_gate)
                for lose in board.loss_options(state, seat, battle["area"], kinds, board.exempt_in(battle, seat))]  # fmt: skip

    def ask_berserk(self, state: GameState, victim: int, count: int) -> None:
        if count and self.berserk_options(state, victim):
            state.pending.insert(0, Pending(victim, "ww-berserk", {"faction": NAME, "mandatory": True, "count": count}))

    def do_berserk(self, state: GameState, seat: int, action: Berserk, data: dict, log: list[str]) -> None:
        battle = state.battle
        index = board.pick_figure(state, seat, action.unit, battle["area"], from_gate=action.from_gate,
                                  exclude=board.exempt_in(battle, seat))
        board.eliminate(state, seat, action.unit, index)
        battle["devoured"][battles.opponent(battle, seat)] += 1
        log.append(f"Berserkergang: {state.seats[seat].faction} eliminates its {words_of.unit_title(action.unit)}.")
        self.ask_berserk(state, seat, data["count"] - 1)

    def battle_over(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Cannibalism: after a battle in which the enemy side lost a unit to a Kill (either side if you were not in
        it), place a Wendigo or an Acolyte from your pool there."""
        if not self.has(state, seat, "cannibalism"):
            return
        sides = (battle["attacker"], battle["defender"])
        kills = battle["killed"][seat] if seat in sides else sum(battle["killed"].values())
        if kills and self.cannibal_units(state, seat):
            state.pending.append(Pending(seat, "ww-cannibalism", {"area": battle["area"]}))

    def cannibal_units(self, state: GameState, seat: int) -> list[str]:
        return [k for k in (WENDIGO, "acolyte") if POOL in state.seats[seat].units[k]]

    def do_cannibalism(self, state: GameState, seat: int, action: Cannibalism, data: dict, log: list[str]) -> None:
        area = data["area"]
        board.place_figure(state, seat, action.unit, state.seats[seat].units[action.unit].index(POOL), area)
        log.append(f"Cannibalism: {words_of.a_unit(action.unit)} of {NAME} appears in {area}.")

    # ---- decisions ------------------------------------------------------------------------------
    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        if pending_kind == "ww-eternal":
            return [Eternal(choice="cancel"), Eternal(choice="accept")]
        if pending_kind == "ww-howl-away":
            return self.howl_options(state, seat)
        if pending_kind == "ww-berserk":
            return self.berserk_options(state, seat)
        if pending_kind == "ww-cannibalism":
            return [Cannibalism(unit=k) for k in self.cannibal_units(state, seat)]
        if pending_kind == "ww-arctic-wind":
            return [ArcticWind(unit=k) for k in self.followers(state, seat)]
        return []


FACTION = Windwalker()
