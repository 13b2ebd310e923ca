"""Crawling Chaos (rules_text ``cthulhu-wars/crawling-chaos``): Flight, Harbinger and six spellbooks."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import board, negotiation
from tabletop.games.cthulhu_wars.actions import Action
from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars.battle import opponent
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType
from tabletop.games.cthulhu_wars.maps import layout_cache, load_layout
from tabletop.games.cthulhu_wars.state import POOL, GameState, Pending
from tabletop.games.cthulhu_wars import words as words_of

NAME = "crawling-chaos"
NYARLATHOTEP = "nyarlathotep"
AWAKEN_COST = 10
FLIGHT_RANGE = 2
HARBINGER_SIGNS = 2
THOUSAND_FORMS = "cc-thousand-forms"


# ---- action models -------------------------------------------------------------------
class PayFour(Action):
    """Action (4 Power): meets the 'pay-four' requirement."""

    kind: Literal["cc-pay-4"] = "cc-pay-4"
    cost: ClassVar[int] = 4
    meets: ClassVar[tuple[str, ...]] = ("pay-four",)


class PaySix(Action):
    """Action (6 Power): meets the 'pay-six' requirement."""

    kind: Literal["cc-pay-6"] = "cc-pay-6"
    cost: ClassVar[int] = 6
    meets: ClassVar[tuple[str, ...]] = ("pay-six",)


class PayTen(Action):
    """Action (10 Power): meets both payment requirements at once."""

    kind: Literal["cc-pay-10"] = "cc-pay-10"
    cost: ClassVar[int] = 10
    meets: ClassVar[tuple[str, ...]] = ("pay-four", "pay-six")


PAYMENTS = (PayFour, PaySix, PayTen)


class Abduct(Action):
    """Pre-battle (Abduct): eliminate one of your Nightgaunts; the enemy eliminates one of its Monsters or Cultists."""

    kind: Literal["cc-abduct"] = "cc-abduct"


class Invisibility(Action):
    """Pre-battle (Invisibility), one per Flying Polyp: a Monster or Cultist of either side is exempt from the
    battle (``on_gate``: the one controlling the Gate there); it stays on the map and on its Gate."""

    kind: Literal["cc-invisibility"] = "cc-invisibility"
    unit: str
    faction: str
    on_gate: bool = False


class SeekAndDestroy(Action):
    """Pre-battle (Seek and Destroy): a Hunting Horror from another area joins the battle."""

    kind: Literal["cc-seek-and-destroy"] = "cc-seek-and-destroy"
    source: str


class ThousandForms(Action):
    """Action (Thousand Forms, 0 Power, once per Action phase, Nyarlathotep on the map): roll for the foes' loss."""

    kind: Literal["cc-thousand-forms"] = "cc-thousand-forms"


class Harbinger(Action):
    """After a battle with Nyarlathotep (Harbinger): take the reward for one enemy Great Old One hit."""

    kind: Literal["cc-harbinger"] = "cc-harbinger"
    unit: str
    reward: Literal["power", "elder-signs"]
    amount: int


class CrawlingChaos(Faction):
    name = NAME
    title = "Crawling Chaos"
    description = "Nyarlathotep; Flight carries every unit two Areas, Harbinger profits from hurt Great Old Ones"
    start_symbol = "crawling-chaos"
    rules_section = "crawling-chaos"
    units = (
        UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist"),
        UnitType("nightgaunt", "Nightgaunt", 3, 1, 0, "monster"),
        UnitType("flying-polyp", "Flying Polyp", 3, 2, 1, "monster"),
        UnitType("hunting-horror", "Hunting Horror", 2, 3, 2, "monster"),
        UnitType(NYARLATHOTEP, "Nyarlathotep", 1, AWAKEN_COST, 0, "goo"),
    )
    requirements = (
        Requirement("pay-four", "As your action, pay 4 Power (or 10 for this and 'pay-six')."),
        Requirement("pay-six", "As your action, pay 6 Power (or 10 for this and 'pay-four')."),
        Requirement("three-gates-or-12-power", "Control 3 Gates or have 12 Power."),
        Requirement("four-gates-or-15-power", "Control 4 Gates or have 15 Power."),
        Requirement("capture-cultist", "Capture an enemy Cultist."),
        Requirement("awaken-nyarlathotep", "Awaken Nyarlathotep."),
    )
    spellbooks = (
        Spellbook("abduct", "Abduct", "pre-battle", "Eliminate your Nightgaunts; the enemy loses a Monster or Cultist for each."),
        Spellbook("invisibility", "Invisibility", "pre-battle", "Per Flying Polyp, one Monster or Cultist of either side sits the battle out."),
        Spellbook("seek-and-destroy", "Seek and Destroy", "pre-battle", "Bring Hunting Horrors from anywhere into the battle."),
        Spellbook("emissary", "Emissary of the Outer Gods", "post-battle", "Without an enemy Great Old One in the battle, a Kill on Nyarlathotep is a Pain."),
        Spellbook("thousand-forms", "Thousand Forms", "action", "0 Power, once per Action phase: roll 1d6; the foes share that loss of Power or you gain it."),
        Spellbook("madness", "Madness", "post-battle", "In every battle you choose where Pained units retreat."),
    )
    action_models = (PayFour, PaySix, PayTen, Abduct, Invisibility, SeekAndDestroy, ThousandForms, Harbinger)
    action_costs = {model.model_fields["kind"].default: model.cost for model in PAYMENTS}

    # ---- Flight --------------------------------------------------------------------------
    def move_targets(self, state: GameState, seat: int, unit: str, source: str) -> list[str]:
        """Flight: every unit moves up to two areas, passing over any units on the way."""
        return list(flight_reach(state.layout_name, source))

    # ---- Awakening and Nyarlathotep's Combat ---------------------------------------------
    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Nyarlathotep: 10 Power, at a Gate you control."""
        if POOL not in state.seats[seat].units[NYARLATHOTEP]:
            return []
        return [(NYARLATHOTEP, area, AWAKEN_COST) for area in sorted(board.controlled_gates(state, seat))]

    def on_awaken(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        state.seats[seat].flags["awakened"] = True

    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int:
        """Nyarlathotep rolls your spellbooks plus those of the faction you battle (a creature has none)."""
        if unit != NYARLATHOTEP:
            return self.unit(unit).combat * count
        books = len(state.seats[seat].spellbooks)
        if "attacker" in battle:
            books += battles.enemy_spellbooks(state, battle, seat)
        return books * count

    # ---- requirements --------------------------------------------------------------------
    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        fs = state.seats[seat]

        def gates() -> int:
            return len(board.controlled_gates(state, seat))

        checks = {  # each asked only while its requirement is not yet recorded
            "pay-four": lambda: "pay-four" in fs.flags.get("paid", []),
            "pay-six": lambda: "pay-six" in fs.flags.get("paid", []),
            "three-gates-or-12-power": lambda: fs.power >= 12 or gates() >= 3,
            "four-gates-or-15-power": lambda: fs.power >= 15 or gates() >= 4,
            "capture-cultist": lambda: bool(fs.captives),
            "awaken-nyarlathotep": lambda: bool(fs.flags.get("awakened")),
        }  # fmt: skip
        return [name for name, met in checks.items() if name not in fs.requirements and met()]

    # ---- actions -------------------------------------------------------------------------
    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        return self.payment_options(state, seat) + self.thousand_forms_options(state, seat)

    def payment_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Pay 4 or 6 Power for the requirement still open, or 10 for both while both are."""
        fs = state.seats[seat]
        paid = set(fs.flags.get("paid", []))
        return [model() for model in PAYMENTS if fs.power >= model.cost and not set(model.meets) & paid]

    def thousand_forms_options(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        ready = (
            "thousand-forms" in fs.spellbooks
            and board.on_map(fs.units[NYARLATHOTEP][0])
            and fs.flags.get("thousand-forms-round") != state.round
        )
        return [ThousandForms()] if ready else []

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        if isinstance(action, PAYMENTS):
            self.pay_for_requirement(state, seat, action, log)
        elif isinstance(action, Abduct):
            self.abduct(state, seat, log)
        elif isinstance(action, Invisibility):
            self.make_invisible(state, seat, action, log)
        elif isinstance(action, SeekAndDestroy):
            self.seek_and_destroy(state, seat, action, log)
        elif isinstance(action, ThousandForms):
            self.thousand_forms(state, seat, log)
        elif isinstance(action, Harbinger):
            self.harbinger_reward(state, seat, action, log)

    def pay_for_requirement(self, state: GameState, seat: int, action: PayFour | PaySix | PayTen, log: list[str]) -> None:
        """Requirements 'pay-four' / 'pay-six': the Power goes to the bank (rule ``cthulhu-wars/crawling-chaos``)."""
        fs = state.seats[seat]
        fs.power -= action.cost
        fs.flags.setdefault("paid", []).extend(action.meets)
        log.append(f"{NAME} pays {action.cost} Power towards its spellbooks.")

    def thousand_forms(self, state: GameState, seat: int, log: list[str]) -> None:
        """Thousand Forms: roll 1d6; the foes negotiate who loses that much Power; if they hold less than that
        between them, Crawling Chaos gains the roll (option ``thousand_forms_when_foes_short``; rule
        ``cthulhu-wars/crawling-chaos``)."""
        fs = state.seats[seat]
        fs.flags["thousand-forms-round"] = state.round
        roll = state.rng.die(6, f"{NAME}'s Thousand Forms die")
        fs.flags["thousand-forms-roll"] = roll
        log.append(f"Thousand Forms: {NAME} rolls {roll}.")
        limits = {s: other.power for s, other in enumerate(state.seats) if s != seat}
        if sum(limits.values()) < roll and state.options.thousand_forms_when_foes_short == "caster-gains-roll":
            fs.power += roll
            log.append(f"Thousand Forms: the foes hold less than {roll} Power between them, so {NAME} gains {roll}.")
            return
        negotiation.open_negotiation(state, topic=THOUSAND_FORMS, owner=seat, amount=roll, limits=limits, log=log)

    # ---- battle: pre-battle spellbooks ---------------------------------------------------
    def pre_battle_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        books = state.seats[seat].spellbooks
        options: list[BaseModel] = []
        if "abduct" in books and self.abduct_ready(state, seat, battle):
            options.append(Abduct())
        if "invisibility" in books:
            options.extend(self.invisibility_options(state, seat, battle))
        if "seek-and-destroy" in books:
            options.extend(self.seek_and_destroy_options(state, seat, battle))
        return options

    def exposed_units(self, state: GameState, seat: int, battle: dict) -> list[str]:
        """Monsters and Cultists of ``seat`` in the battle (not exempt; no Terror): the units Abduct and Invisibility
        touch."""
        faction = board.faction_of(state, seat)
        present = board.in_battle(state, seat, battle)
        return [k for k in faction.units_of("cultist", "monster") if k in present]

    def abduct_ready(self, state: GameState, seat: int, battle: dict) -> bool:
        return "nightgaunt" in board.in_battle(state, seat, battle) and bool(battles.enemy_losable(state, battle, seat))

    def abduct(self, state: GameState, seat: int, log: list[str]) -> None:
        """Abduct: one Nightgaunt of yours is eliminated; the enemy eliminates one of its Monsters or Cultists there (a
        Zoog, against Zoogs; never the Bhole)."""
        battle = state.battle
        area = battle["area"]
        board.eliminate(state, seat, "nightgaunt", board.pick_figure(state, seat, "nightgaunt", area, exclude=board.exempt_in(battle, seat)))
        battle["devoured"][seat] += 1
        log.append("Abduct: a Nightgaunt carries off one of the enemy's units.")
        battles.enemy_loses_unit(state, battle, seat, log)

    def invisibility_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        """One use per Flying Polyp of yours in the area (a Polyp made exempt still counts); each use names a
        Monster or Cultist of either side still in the battle, and whether it is the one on the Gate (only your own
        against one of the map's creatures)."""
        area = battle["area"]
        if state.seats[seat].units["flying-polyp"].count(area) <= battle["used"].count("cc-invisibility"):
            return []
        options = []
        for side in battles.sides(battle):
            exempt = board.exempt_in(battle, side)
            for kind in self.exposed_units(state, side, battle):
                gate = board.gate_figure(state, side, kind, area)
                free = [i for i, p in enumerate(state.seats[side].units[kind]) if p == area and (kind, i) not in exempt]
                faction = state.seats[side].faction
                if any(i != gate for i in free):
                    options.append(Invisibility(unit=kind, faction=faction))
                if gate in free:
                    options.append(Invisibility(unit=kind, faction=faction, on_gate=True))
        return options

    def make_invisible(self, state: GameState, seat: int, action: Invisibility, log: list[str]) -> None:
        """Invisibility: the figure is exempt from the battle; it stays on the map and on its Gate, so it still
        counts for everything outside the battle (rule ``cthulhu-wars/crawling-chaos``)."""
        battle = state.battle
        area, side = battle["area"], state.seat_of(action.faction)
        index = board.pick_figure(state, side, action.unit, area, from_gate=action.on_gate, exclude=board.exempt_in(battle, side))
        battle["used"].append("cc-invisibility")
        battle["exempt"].append([side, action.unit, index])
        where = " on its Gate" if action.on_gate else ""
        log.append(f"Invisibility: {action.faction}'s {words_of.unit_title(action.unit)}{where} takes no part in the battle.")

    def seek_and_destroy_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        places = state.seats[seat].units["hunting-horror"]
        return [SeekAndDestroy(source=p) for p in sorted(set(places)) if board.on_map(p) and p != battle["area"]]

    def seek_and_destroy(self, state: GameState, seat: int, action: SeekAndDestroy, log: list[str]) -> None:
        area = state.battle["area"]
        board.place_figure(state, seat, "hunting-horror", board.pick_figure(state, seat, "hunting-horror", action.source), area)
        log.append(f"Seek and Destroy: a Hunting Horror flies from {action.source} into the battle in {area}.")

    # ---- battle: Emissary, Madness, Harbinger --------------------------------------------
    def spares(self, state: GameState, seat: int, unit: str, battle: dict, cause: str) -> bool:
        """Emissary of the Outer Gods: with no enemy Great Old One in the battle, Nyarlathotep is never eliminated."""
        return (
            unit == NYARLATHOTEP
            and "emissary" in state.seats[seat].spellbooks
            and not self.enemy_goos_involved(state, battle, opponent(battle, seat))
        )

    def enemy_goos_involved(self, state: GameState, battle: dict, enemy: int | str) -> list[str]:
        """The enemy's Great Old Ones in the battle: still there, or hit by a result in it (a creature has none: the
        Bhole is a Terror)."""
        if isinstance(enemy, str):
            return []
        goos = board.faction_of(state, enemy).goos()
        present = board.units_in(state, enemy, battle["area"])
        hit = {key.split("#")[0] for key in battle["taken"].get(enemy, {})}
        return [g for g in goos if g in present or g in hit]

    def chooses_for(self, state: GameState, seat: int, battle: dict, owner: int, step: str) -> bool:
        """Madness: you pick the retreat destinations in every battle, yours or not."""
        return step == "retreat" and "madness" in state.seats[seat].spellbooks

    def post_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        self.offer_harbinger(state, seat, battle)

    def offer_harbinger(self, state: GameState, seat: int, battle: dict) -> None:
        """Harbinger: for each enemy Great Old One Pained or Killed in a battle with Nyarlathotep, a reward choice."""
        nyarlathotep_fought = (
            NYARLATHOTEP in board.units_in(state, seat, battle["area"])
            or f"{NYARLATHOTEP}#0" in battle["taken"].get(seat, {})
        )
        if not nyarlathotep_fought:
            return
        enemy = opponent(battle, seat)
        if isinstance(enemy, str):  # the map's creatures are no faction's Great Old Ones
            return
        hit = {key.split("#")[0] for key, n in battle["taken"].get(enemy, {}).items() if n}
        for goo in board.faction_of(state, enemy).goos():
            if goo in hit:
                amount = current_awaken_cost(state, enemy, goo) // 2
                state.pending.append(Pending(seat, "cc-harbinger", {"unit": goo, "power": amount}))

    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        if pending_kind == "cc-harbinger":
            return [
                Harbinger(unit=data["unit"], reward="power", amount=data["power"]),
                Harbinger(unit=data["unit"], reward="elder-signs", amount=HARBINGER_SIGNS),
            ]
        return []

    def harbinger_reward(self, state: GameState, seat: int, action: Harbinger, log: list[str]) -> None:
        if action.reward == "power":
            state.seats[seat].power += action.amount
            log.append(f"Harbinger: {NAME} gains {action.amount} Power for the {words_of.unit_title(action.unit)} it hurt.")
            return
        log.append(f"Harbinger: {NAME} takes {action.amount} Elder Signs for the {words_of.unit_title(action.unit)} it hurt.")
        for _ in range(action.amount):
            board.draw_elder_sign(state, seat, log)


@layout_cache
def flight_reach(layout_name: str, source: str) -> tuple[str, ...]:
    """Areas at most FLIGHT_RANGE steps from ``source`` on the layout (rule ``cthulhu-wars/crawling-chaos``, Flight)."""
    layout = load_layout(layout_name)
    reach, frontier = {source}, {source}
    for _ in range(FLIGHT_RANGE):
        frontier = {b.id for a in frontier for b in layout.neighbours(a)} - reach
        reach |= frontier
    return tuple(sorted(reach - {source}))


def current_awaken_cost(state: GameState, seat: int, goo: str) -> int:
    """What ``seat`` would pay to Awaken ``goo`` now (as if it were back in the pool); else its printed cost.

    Harbinger pays half of this (an Awakened Cthulhu costs 4, so 2 Power); rule ``cthulhu-wars/crawling-chaos``.
    """
    faction = board.faction_of(state, seat)
    probe = state.copy()
    for index, place in enumerate(probe.seats[seat].units[goo]):
        if board.on_map(place):
            board.eliminate(probe, seat, goo, index)
    costs = [cost for unit, _, cost in faction.awaken_options(probe, seat) if unit == goo]
    return min(costs, default=faction.unit(goo).cost)


def settle_thousand_forms(state: GameState, data: dict, agreed: dict[str, int] | None, log: list[str]) -> None:
    """Thousand Forms: agreed shares are lost; without agreement Crawling Chaos gains the roll (rule ``cthulhu-wars/crawling-chaos``)."""
    owner = state.seats[data["owner"]]
    if agreed is None:
        roll = owner.flags["thousand-forms-roll"]
        owner.power += roll
        log.append(f"Thousand Forms: the foes did not agree, so {NAME} gains {roll} Power.")
        return
    for faction, amount in agreed.items():
        state.seats[state.seat_of(faction)].power -= amount
        if amount:
            log.append(f"Thousand Forms: {faction} loses {amount} Power.")


negotiation.register_settler(THOUSAND_FORMS, settle_thousand_forms)

FACTION = CrawlingChaos()
