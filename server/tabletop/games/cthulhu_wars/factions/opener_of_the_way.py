"""Opener of the Way (rules_text ``cthulhu-wars/opener-of-the-way``): The Beyond One, Yog-Sothoth and six spellbooks.

Yog-Sothoth is a Gate (The Key and the Gate): :meth:`OpenerOfTheWay.gate_areas` names his Area, so every Gate
count of the core (Power, Doom, Rituals, summoning, other factions' Gate tests) includes him; he shares an Area
with a normal Gate and no Cultist controls him. :func:`beyond_one_options` and :func:`beyond_one` are shared
with a Sleeper who borrows The Beyond One through Ancient Sorcery.
"""

from __future__ import annotations

from itertools import product
from typing import Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import Action, shared
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType
from tabletop.games.cthulhu_wars.neutrals import registry as neutral_registry
from tabletop.games.cthulhu_wars.state import POOL, GameState, Pending
from tabletop.games.cthulhu_wars import words as words_of

NAME = "opener-of-the-way"
YOG, SPAWN, ABOMINATION, MUTANT = "yog-sothoth", "spawn", "abomination", "mutant"
YOG_COST = 6
BEYOND_ONE_COST = CHANNEL_COST = 1
DREAD_CURSE_COST = 2
CARRIER_COST = 3  # The Beyond One: a unit costing this much or more carries the Gate
GATES_FOR = {"eight-gates": 8, "twelve-gates": 12}
TEN_GATES = 10
#: The Million Favored Ones: what each unit becomes.
PROMOTION = {"acolyte": MUTANT, MUTANT: ABOMINATION, ABOMINATION: SPAWN, SPAWN: MUTANT}


class BeyondOne(Action):
    """Action (The Beyond One, 1 Power): your ``unit`` (cost 3 or more) in ``source``, an Area with a Gate and no
    enemy Great Old One, takes the Gate and whoever controls it to ``target``, an Area without a Gate."""

    kind: Literal["ow-beyond-one"] = "ow-beyond-one"
    unit: str
    source: str
    target: str


class DreadCurse(Action):
    """Action (Dread Curse of Azathoth, 2 Power): a die per Abomination and Spawn in play against ``area``."""

    kind: Literal["ow-dread-curse"] = "ow-dread-curse"
    area: str


class CurseSplit(Action):
    """Dread Curse: how the results are shared among the enemies there, ``faction:kills/pains`` joined by commas."""

    kind: Literal["ow-curse-split"] = "ow-curse-split"
    split: str


class CurseTake(Action):
    """Dread Curse: the victim gives one ``result`` to its ``unit`` there (``from-gate``: the one on the Gate)."""

    kind: Literal["ow-curse-take"] = "ow-curse-take"
    result: Literal["kill", "pain"]
    unit: str
    from_gate: bool = False


class CurseMove(Action):
    """Dread Curse: Opener of the Way sends a unit it Pained to ``target``, any adjacent Area."""

    kind: Literal["ow-curse-move"] = "ow-curse-move"
    target: str


class ChannelPower(Action):
    """In battle, after the dice (Channel Power): pay 1 to roll every miss of yours again."""

    kind: Literal["ow-channel-power"] = "ow-channel-power"


class Promote(Action):
    """After a battle (The Million Favored Ones): one of your surviving ``unit`` in ``area`` is promoted."""

    kind: Literal["ow-promote"] = "ow-promote"
    unit: str
    area: str


class DragonAscending(Action):
    """Once per game, at any time, even at 0 Power (Dragon Ascending): your Power becomes ``faction``'s."""

    kind: Literal["ow-dragon-ascending"] = "ow-dragon-ascending"
    faction: str


class DragonDescending(Action):
    """Once per game, as your Ritual of Annihilation (Dragon Descending): the Doom for your Gates is doubled."""

    kind: Literal["ow-dragon-descending"] = "ow-dragon-descending"


# ---- The Beyond One, shared with a Sleeper who borrows it -------------------------------------
def beyond_one_carriers(state: GameState, seat: int) -> list[str]:
    """The unit types of ``seat`` that may carry a Gate: its Monsters and Great Old Ones costing 3 or more, an
    Independent Great Old One it holds included (its cost is its Awaken cost), but none that no ability moves (Byatis,
    ``cthulhu-wars/igoo-byatis``) (``cthulhu-wars/opener-of-the-way``)."""
    faction = board.faction_of(state, seat)
    return board.movable(state, seat, [u.name for u in faction.units
                                       if u.role in ("monster", "goo") and u.cost >= CARRIER_COST])


def beyond_one_options(state: GameState, seat: int) -> list[BaseModel]:
    """Each carrier in an Area with a normal Gate and no enemy Great Old One, to each Area without a normal Gate."""
    if state.seats[seat].power < BEYOND_ONE_COST:
        return []
    free = [a.id for a in state.layout.areas if a.id not in state.gates]
    options = []
    for unit in beyond_one_carriers(state, seat):
        for source in sorted({p for p in state.seats[seat].units[unit] if p in state.gates}):
            if not enemy_goo_in(state, seat, source):
                options += [shared(BeyondOne, unit=unit, source=source, target=t) for t in free]
    return options


def beyond_one_refusal(state: GameState, seat: int, action: BaseModel) -> str | None:
    """Why The Beyond One is refused when the unit named cannot carry a Gate (``cthulhu-wars/opener-of-the-way``)."""
    if not isinstance(action, BeyondOne) or action.unit in beyond_one_carriers(state, seat):
        return None
    title = words_of.unit_title(action.unit)
    if neutral_registry.immovable(state, seat, action.unit):
        return f"{title} never moves, not even by an ability (cthulhu-wars/igoo-byatis), so he carries no Gate"
    return (f"The Beyond One carries a Gate with a Monster or Great Old One of yours costing {CARRIER_COST} or more; "
            f"{title} is not one")


def enemy_goo_in(state: GameState, seat: int, area: str) -> bool:
    """Whether an enemy Great Old One stands in ``area``."""
    return any(board.any_in(state, s, area, board.faction_of(state, s).goos()) for s in range(len(state.seats))
               if s != seat)  # fmt: skip


def beyond_one(state: GameState, seat: int, action: BeyondOne, log: list[str]) -> None:
    """The carrier, the Gate and its controller (whoever owns it, keeping control) go to the target Area."""
    state.seats[seat].power -= BEYOND_ONE_COST
    holder = state.gates.pop(action.source)
    board.place_figure(state, seat, action.unit, board.pick_figure(state, seat, action.unit, action.source), action.target)
    if holder is not None:
        owner, kind, index = holder
        state.seats[owner].units[kind][index] = action.target
    state.gates[action.target] = holder
    log.append(f"The Beyond One: {words_of.a_unit(action.unit)} takes the Gate of {action.source} to {action.target}.")


class OpenerOfTheWay(Faction):
    name = NAME
    title = "Opener of the Way"
    description = "Yog-Sothoth, the Key and the Gate; The Beyond One carries Gates across the map"
    start_symbol = None
    start_choice = "anywhere"
    default_rank = 3
    rules_section = "opener-of-the-way"
    units = (
        UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist"),
        UnitType(MUTANT, "Mutant", 4, 2, 1, "monster"),
        UnitType(ABOMINATION, "Abomination", 3, 3, 2, "monster"),
        UnitType(SPAWN, "Spawn of Yog-Sothoth", 2, 4, 3, "monster"),
        UnitType(YOG, "Yog-Sothoth", 1, YOG_COST, 0, "goo"),
    )
    requirements = (
        Requirement("eight-gates", "8 Gates are on the map (Yog-Sothoth counts)."),
        Requirement("twelve-gates", "12 Gates are on the map (10 in 3-player games, option opener_ten_gates)."),
        Requirement("enemy-gates", "You have units in 2 Areas that each hold an enemy-controlled Gate."),
        Requirement("lose-a-unit", "Lose one of your own units in a battle."),
        Requirement("goo-meets-goo", "Your Great Old One shares an Area with an enemy Great Old One."),
        Requirement("awaken-yog-sothoth", "Awaken Yog-Sothoth."),
    )
    spellbooks = (
        Spellbook("they-break-through", "They Break Through", "ongoing", "Summon at enemy-controlled and Abandoned Gates."),
        Spellbook("million-favored-ones", "The Million Favored Ones", "post-battle", "Promote your units that survived a battle."),
        Spellbook("channel-power", "Channel Power", "battle", "1 Power: reroll all your misses; again and again."),
        Spellbook("dread-curse", "Dread Curse of Azathoth", "action", "2 Power: a die per Abomination and Spawn against an Area."),
        Spellbook("dragon-ascending", "Dragon Ascending", "ongoing", "Once, at any time: your Power becomes an enemy's."),
        Spellbook("dragon-descending", "Dragon Descending", "doom", "Once, as your Ritual: double Doom for your Gates."),
    )
    action_models = (BeyondOne, DreadCurse, CurseSplit, CurseTake, CurseMove, ChannelPower, Promote, DragonAscending,
                     DragonDescending)  # fmt: skip
    unlimited_kinds = frozenset({"ow-dragon-ascending"})
    action_costs = {"ow-beyond-one": BEYOND_ONE_COST, "ow-dread-curse": DREAD_CURSE_COST, "ow-channel-power": CHANNEL_COST}
    rules_by_kind = {
        "ow-dread-curse": "opener-dread-curse", "ow-curse-split": "opener-dread-curse",
        "ow-curse-take": "opener-dread-curse", "ow-curse-move": "opener-dread-curse",
        "ow-channel-power": "opener-channel-power", "ow-promote": "opener-million-favored-ones",
        "ow-dragon-ascending": "opener-dragon-ascending", "ow-dragon-descending": "opener-dragon-descending",
    }  # fmt: skip

    @staticmethod
    def has(state: GameState, seat: int, book: str) -> bool:
        return book in state.seats[seat].spellbooks

    @staticmethod
    def yog_area(state: GameState, seat: int) -> str | None:
        place = state.seats[seat].units[YOG][0]
        return place if board.on_map(place) else None

    # ---- The Key and the Gate ---------------------------------------------------------------
    def gate_areas(self, state: GameState, seat: int) -> list[str]:
        """Yog-Sothoth is a Gate of yours wherever he stands."""
        area = self.yog_area(state, seat)
        return [area] if area else []

    def gate_destroyed(self, state: GameState, seat: int, area: str, log: list[str]) -> None:
        """The Bhole attacking Yog-Sothoth's Area destroys him and eliminates him (``cthulhu-wars/dreamlands-bhole``)."""
        if self.yog_area(state, seat) == area:
            board.eliminate(state, seat, YOG, 0)
            log.append(f"The Bhole destroys Yog-Sothoth in {area}: he is eliminated.")

    def summon_areas(self, state: GameState, seat: int) -> list[str]:
        """They Break Through: also at enemy-controlled and Abandoned Gates, with no unit of yours there."""
        areas = set(board.controlled_gates(state, seat))
        if self.has(state, seat, "they-break-through"):
            areas |= set(state.gates)
        return sorted(areas)

    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int:
        """Yog-Sothoth rolls twice the number of other factions' Great Old Ones in play."""
        if unit == YOG:
            return count * 2 * sum(board.goos_in_play(state, s) for s in range(len(state.seats)) if s != seat)
        return super().unit_combat(state, seat, unit, battle, count)

    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Yog-Sothoth: 6 Power, replacing a Spawn of yours on the map (no Gate needed)."""
        if POOL not in state.seats[seat].units[YOG]:
            return []
        return [(YOG, a, YOG_COST) for a in sorted({p for p in state.seats[seat].units[SPAWN] if board.on_map(p)})]

    def on_awaken(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        state.seats[seat].flags["awakened"] = True
        board.eliminate(state, seat, SPAWN, board.pick_figure(state, seat, SPAWN, area))
        log.append(f"Yog-Sothoth takes the place of a Spawn in {area}.")

    # ---- requirements -------------------------------------------------------------------------
    def gates_needed(self, state: GameState, requirement: str) -> int:
        players, rule = len(state.seats), state.options.opener_ten_gates
        if requirement == "twelve-gates" and (
            (players == 3 and rule != "never") or (players == 4 and rule == "three-and-four-players")
        ):
            return TEN_GATES
        return GATES_FOR[requirement]

    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        fs = state.seats[seat]
        gates = len(board.gate_holders(state))
        mine = board.occupied_areas(state, seat)
        enemy_gates = {a for a, holder in state.gates.items() if holder and holder[0] != seat and a in mine}
        yog = self.yog_area(state, seat)
        checks = {
            "eight-gates": gates >= self.gates_needed(state, "eight-gates"),
            "twelve-gates": gates >= self.gates_needed(state, "twelve-gates"),
            "enemy-gates": len(enemy_gates) >= 2,
            "lose-a-unit": bool(fs.flags.get("lost-in-battle")),
            "goo-meets-goo": yog is not None and enemy_goo_in(state, seat, yog),
            "awaken-yog-sothoth": bool(fs.flags.get("awakened")),
        }  # fmt: skip
        return [name for name, ok in checks.items() if ok and name not in fs.requirements]

    # ---- actions ------------------------------------------------------------------------------
    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        fs = state.seats[seat]
        options = beyond_one_options(state, seat)
        if self.has(state, seat, "dread-curse") and fs.power >= DREAD_CURSE_COST and self.curse_dice(state, seat):
            targets = {a for s in range(len(state.seats)) if s != seat for a in board.occupied_areas(state, s)}
            options += [DreadCurse(area=a) for a in sorted(targets)]
        return options + self.ascending_options(state, seat)

    def refusal(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        """The Beyond One named with a unit that cannot carry a Gate."""
        return beyond_one_refusal(state, seat, action)

    def ascending_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Dragon Ascending, while unused, towards each enemy holding more Power than you."""
        fs = state.seats[seat]
        if not self.has(state, seat, "dragon-ascending") or fs.flags.get("dragon-ascending-used"):
            return []
        return [DragonAscending(faction=o.faction) for s, o in enumerate(state.seats) if s != seat and o.power > fs.power]

    def window_options(self, state: GameState, seat: int, window: dict) -> list[BaseModel]:
        """Dragon Ascending at any time: in the window after any action or Doom-phase decision (option
        ``dragon_ascending_out_of_turn``)."""
        return self.ascending_options(state, seat) if state.options.dragon_ascending_out_of_turn else []

    def doom_options(self, state: GameState, seat: int) -> list[BaseModel]:
        from tabletop.games.cthulhu_wars import phases

        fs = state.seats[seat]
        if (self.has(state, seat, "dragon-descending") and not fs.flags.get("dragon-descending-used")
                and fs.power >= phases.ritual_cost_for(state, seat)):
            return [DragonDescending()]
        return []

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        self.apply_decision(state, seat, action, {}, log)

    def apply_decision(self, state: GameState, seat: int, action: BaseModel, data: dict, log: list[str]) -> None:
        if isinstance(action, BeyondOne):
            beyond_one(state, seat, action, log)
        elif isinstance(action, DreadCurse):
            self.dread_curse(state, seat, action, log)
        elif isinstance(action, CurseSplit):
            self.share_curse(state, data, dict(read_split(action.split)), log)
        elif isinstance(action, CurseTake):
            self.take_curse(state, seat, action, data, log)
        elif isinstance(action, CurseMove):
            self.move_cursed(state, seat, action, data, log)
        elif isinstance(action, ChannelPower):
            self.channel_power(state, seat, log)
        elif isinstance(action, Promote):
            self.promote(state, seat, action, data, log)
        elif isinstance(action, DragonAscending):
            fs = state.seats[seat]
            fs.flags["dragon-ascending-used"] = True
            fs.power = state.seats[state.seat_of(action.faction)].power
            log.append(f"Dragon Ascending: {NAME}'s Power becomes {fs.power}, as much as {action.faction}'s.")
        elif isinstance(action, DragonDescending):
            from tabletop.games.cthulhu_wars import phases, windows

            state.seats[seat].flags["dragon-descending-used"] = True
            log.append("Dragon Descending: this Ritual gives double Doom for the Gates.")
            phases.perform_ritual(state, seat, log, gate_doom_factor=2)
            windows.open_window(state, seat, "doom", windows.doom_opener("a Ritual with Dragon Descending"))

    # ---- Dread Curse of Azathoth ----------------------------------------------------------------
    @staticmethod
    def curse_dice(state: GameState, seat: int) -> int:
        return sum(1 for k in (ABOMINATION, SPAWN) for p in state.seats[seat].units[k] if board.in_play(state, p))

    def dread_curse(self, state: GameState, seat: int, action: DreadCurse, log: list[str]) -> None:
        """Roll; at most as many results as enemy units there (Pains dropped first); shared among the enemies
        there by Opener of the Way; each assigns its own; Opener moves the Pained (rule ``opener-dread-curse``)."""
        state.seats[seat].power -= DREAD_CURSE_COST
        dice = self.curse_dice(state, seat)
        rolls = state.rng.dice(dice, 6, f"{state.seats[seat].faction}'s Dread Curse dice in {action.area}")
        kills, pains = rolls.count(6), sum(1 for r in rolls if r in (4, 5))
        victims = {state.seats[s].faction: sum(board.units_in(state, s, action.area).values())
                   for s in range(len(state.seats)) if s != seat and board.has_units(state, s, action.area)}  # fmt: skip
        room = sum(victims.values())
        kills = min(kills, room)
        pains = min(pains, room - kills)
        log.append(f"Dread Curse on {action.area}: {NAME} rolls {rolls}: {kills} Kill, {pains} Pain.")
        data = {"faction": NAME, "mandatory": True, "area": action.area, "kills": kills, "pains": pains,
                "victims": victims, "owner": seat}  # fmt: skip
        splits = curse_splits(kills, pains, victims)
        if len(splits) == 1:
            self.share_curse(state, data, dict(read_split(splits[0])), log)
        elif splits:
            state.pending.insert(0, Pending(seat, "ow-curse-split", data))

    def share_curse(self, state: GameState, data: dict, shares: dict[str, tuple[int, int]], log: list[str]) -> None:
        """Queue each victim's assignment (Kills first, then Pains), in seat order."""
        queue = []
        for faction, (kills, pains) in shares.items():
            if kills or pains:
                victim = state.seat_of(faction)
                queue.append(Pending(victim, "ow-curse-take", {**data, "victim": victim, "kills": kills, "pains": pains, "pained": []}))
        state.pending[0:0] = queue

    def curse_take_options(self, state: GameState, seat: int, data: dict) -> list[BaseModel]:
        result = "kill" if data["kills"] else "pain"
        exclude = tuple((k, i) for k, i in data["pained"])
        kinds = sorted(board.units_in(state, seat, data["area"]))
        return [CurseTake(result=result, unit=lose.unit, from_gate=lose.from_gate)
                for lose in board.loss_options(state, seat, data["area"], kinds, exclude)]  # fmt: skip

    def take_curse(self, state: GameState, seat: int, action: CurseTake, data: dict, log: list[str]) -> None:
        area = data["area"]
        exclude = tuple((k, i) for k, i in data["pained"])
        index = board.pick_figure(state, seat, action.unit, area, from_gate=action.from_gate, exclude=exclude)
        data = {**data, "pained": [list(p) for p in data["pained"]]}
        if action.result == "kill":
            board.eliminate(state, seat, action.unit, index)
            neutral_registry.after_kill(state, seat, action.unit, None, log)  # a Kill (cthulhu-wars/igoo-daoloth)
            data["kills"] -= 1
            log.append(f"Dread Curse: {state.seats[seat].faction}'s {words_of.unit_title(action.unit)} in {area} is killed.")
        else:
            data["pained"].append([action.unit, index])
            data["pains"] -= 1
            log.append(f"Dread Curse: {state.seats[seat].faction}'s {words_of.unit_title(action.unit)} in {area} is Pained.")
        if (data["kills"] or data["pains"]) and self.curse_take_options(state, seat, data):
            state.pending.insert(0, Pending(seat, "ow-curse-take", data))
        elif data["pained"]:
            state.pending.insert(0, Pending(data["owner"], "ow-curse-move", {**data, "kills": 0, "pains": 0}))

    def move_cursed(self, state: GameState, seat: int, action: CurseMove, data: dict, log: list[str]) -> None:
        """Opener of the Way sends the first Pained unit to any adjacent Area (retreat limits do not apply)."""
        victim = data["victim"]
        (kind, index), rest = data["pained"][0], data["pained"][1:]
        if state.seats[victim].units[kind][index] == data["area"]:
            board.place_figure(state, victim, kind, index, action.target)
            log.append(f"Dread Curse: {state.seats[victim].faction}'s Pained {words_of.unit_title(kind)} is sent to {action.target}.")
        if rest:
            state.pending.insert(0, Pending(seat, "ow-curse-move", {**data, "pained": rest}))

    # ---- battle: Channel Power, The Million Favored Ones, losing a unit --------------------------
    def before_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Remember which of your figures fight and how many wait in the pool (for the requirement and MFO)."""
        if seat in (battle["attacker"], battle["defender"]):
            fs = state.seats[seat]
            battle["ow-figures"] = [[k, i] for k, places in fs.units.items() for i, p in enumerate(places) if p == battle["area"]]
            battle["ow-pool"] = sum(places.count(POOL) for places in fs.units.values())

    def after_roll(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        self.offer_channel(state, seat, battle)

    def offer_channel(self, state: GameState, seat: int, battle: dict) -> None:
        """Channel Power while you have Power, a miss, and the enemy can still take more Kills."""
        if not self.has(state, seat, "channel-power") or state.seats[seat].power < CHANNEL_COST:
            return
        enemy = battle["defender"] if seat == battle["attacker"] else battle["attacker"]
        misses = sum(1 for r in battle["rolls"].get(seat, []) if r <= 3)
        if misses and battle["hits"][enemy]["kill"] < battles.enemy_room(state, battle, seat):
            state.pending.insert(0, Pending(seat, "ow-channel-power"))

    def channel_power(self, state: GameState, seat: int, log: list[str]) -> None:
        from tabletop.games.cthulhu_wars.battle import score_rolls

        battle = state.battle
        state.seats[seat].power -= CHANNEL_COST
        rolls = battle["rolls"][seat]
        again = iter(state.rng.dice(sum(r < 4 for r in rolls), 6, f"{state.seats[seat].faction}'s rerolled misses"))
        battle["rolls"][seat] = [r if r >= 4 else next(again) for r in rolls]
        score_rolls(state, battle, seat, log, "channels Power and rerolls its misses:")
        self.offer_channel(state, seat, battle)

    def battle_over(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        if "ow-figures" not in battle or seat not in (battle["attacker"], battle["defender"]):
            return
        fs = state.seats[seat]
        if sum(places.count(POOL) for places in fs.units.values()) > battle["ow-pool"]:
            fs.flags["lost-in-battle"] = True
        survivors = [[k, i] for k, i in battle["ow-figures"] if board.on_map(fs.units[k][i])]
        if self.has(state, seat, "million-favored-ones") and self.promotions(state, seat, survivors):
            state.pending.append(Pending(seat, "ow-promote", {"survivors": survivors}))

    def promotions(self, state: GameState, seat: int, survivors: list) -> list[BaseModel]:
        units = state.seats[seat].units
        return sorted({Promote(unit=k, area=units[k][i]) for k, i in survivors if k in PROMOTION and POOL in units[PROMOTION[k]]},
                      key=lambda p: (p.unit, p.area))  # fmt: skip

    def promote(self, state: GameState, seat: int, action: Promote, data: dict, log: list[str]) -> None:
        """Acolyte to Mutant, Mutant to Abomination, Abomination to Spawn, Spawn to every Mutant in the pool; a
        promoted Acolyte on a Gate hands it to another Cultist of yours there, if any."""
        units = state.seats[seat].units
        survivors = [list(f) for f in data["survivors"]]
        figure = next(f for f in survivors if f[0] == action.unit and units[f[0]][f[1]] == action.area)
        survivors.remove(figure)
        index = figure[1]
        on_gate = state.gates.get(action.area) == (seat, action.unit, index)
        board.eliminate(state, seat, action.unit, index)
        new = PROMOTION[action.unit]
        count = units[new].count(POOL) if action.unit == SPAWN else 1
        for _ in range(count):
            board.place_figure(state, seat, new, units[new].index(POOL), action.area)
        if on_gate:
            heir = next((i for i, p in enumerate(units["acolyte"]) if p == action.area), None)
            if heir is not None:
                state.gates[action.area] = (seat, "acolyte", heir)
        log.append(f"The Million Favored Ones: {words_of.a_unit(action.unit)} in {action.area} becomes {words_of.units(new, count)}.")
        if self.promotions(state, seat, survivors):
            state.pending.insert(0, Pending(seat, "ow-promote", {"survivors": survivors}))

    # ---- decisions ------------------------------------------------------------------------------
    def decision_options(self, state: GameState, seat: int, pending_kind: str, data: dict) -> list[BaseModel]:
        if pending_kind == "ow-curse-split":
            return [CurseSplit(split=s) for s in curse_splits(data["kills"], data["pains"], data["victims"])]
        if pending_kind == "ow-curse-take":
            return self.curse_take_options(state, seat, data)
        if pending_kind == "ow-curse-move":
            return [CurseMove(target=a.id) for a in state.layout.neighbours(data["area"])]
        if pending_kind == "ow-channel-power":
            return [ChannelPower()] if state.seats[seat].power >= CHANNEL_COST else []
        if pending_kind == "ow-promote":
            return self.promotions(state, seat, data["survivors"])
        return []

    def notes(self, state: GameState, seat: int) -> list[str]:
        area = self.yog_area(state, seat)
        return [f"Yog-Sothoth in {area} is a Gate of {NAME} (no Cultist controls it)."] if area else []


def curse_splits(kills: int, pains: int, victims: dict[str, int]) -> list[str]:
    """Every way to share ``kills`` and ``pains`` among the victims, none getting more results than its units."""
    names = sorted(victims)
    found = []
    for ks in product(range(kills + 1), repeat=len(names)):
        if sum(ks) != kills:
            continue
        for ps in product(range(pains + 1), repeat=len(names)):
            if sum(ps) == pains and all(k + p <= victims[n] for n, k, p in zip(names, ks, ps, strict=True)):
                found.append(",".join(f"{n}:{k}/{p}" for n, k, p in zip(names, ks, ps, strict=True) if k or p) or "none")
    return found


def read_split(text: str) -> list[tuple[str, tuple[int, int]]]:
    if text == "none":
        return []
    out = []
    for part in text.split(","):
        name, _, numbers = part.partition(":")
        kills, _, pains = numbers.partition("/")
        out.append((name, (int(kills), int(pains))))
    return out


FACTION = OpenerOfTheWay()
