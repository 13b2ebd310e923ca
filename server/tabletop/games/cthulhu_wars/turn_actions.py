"""The Action-phase actions of the seat whose turn it is (rules_text ``cthulhu-wars/actions``).

:func:`turn_options` lists them (the one action and the unlimited ones before it, the unlimited
ones after it, or the rest of a Move action); :func:`resolve_turn_action` carries one out on a
copied state. Unlimited actions (Control Gate, Abandon Gate, Reveal Elder Signs, a faction's
unlimited actions, and Battle once a faction holds all six spellbooks) come before and after the
turn's one action until the seat says ``done`` (``cthulhu-wars/turn``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterator

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import board, creatures, windows
from tabletop.games.cthulhu_wars import words as words_of
from tabletop.games.cthulhu_wars.actions import (
    AbandonGate, Awaken, Battle, BuildGate, Capture, ControlGate, Done, Move, Pass, Recruit,
    RevealElderSigns, Summon, shared,
)  # fmt: skip
from tabletop.games.cthulhu_wars.battle import can_battle, enemy_key, start_battle
from tabletop.games.cthulhu_wars.factions import Faction
from tabletop.games.cthulhu_wars.neutrals import registry as neutrals
from tabletop.games.cthulhu_wars.state import POOL, GameState

GATE_COST = 3
BATTLE_COST = 1
CAPTURE_COST = 1


# ---- listing --------------------------------------------------------------------------
def has_all_spellbooks(state: GameState, seat: int) -> bool:
    return len(state.seats[seat].spellbooks) >= 6


def turn_options(state: GameState, seat: int, kind: str | None = None) -> list[BaseModel]:
    """What the seat whose turn it is may do now (leaving out what it cannot pay with Ice Age's extra cost);
    with ``kind``, only actions of that kind (and ``done``/``pass``), to check one action quickly."""
    turn = state.turn
    faction = board.faction_of(state, seat)
    if turn.moving:
        return (move_options(state, seat) if kind in (None, "move") else []) + [shared(Done)]
    if turn.acted:
        return affordable(state, seat, follow_up_options(state, seat, kind)) + [shared(Done)]
    options = unlimited_options(state, seat) if kind is None or kind in UNLIMITED_CORE else []
    for name, generator in CORE_GENERATORS.items():
        if kind is None or kind == name:
            options += generator(state, seat)
    options += [a for a in faction.actions(state, seat) if kind is None or a.kind == kind]
    options += [a for a in neutrals.actions(state, seat) if kind is None or a.kind == kind]
    return affordable(state, seat, options) + [shared(Pass)]


# ---- costs and Ice Age ------------------------------------------------------------------
#: Actions never charged an extra cost for where they end: free unlimited actions on one's own Gates.
UNTAXED = frozenset({"control", "abandon", "reveal", "done", "pass", "move"})


def action_cost(state: GameState, seat: int, action: BaseModel) -> int:
    """Power an action of ``seat`` costs now, before any extra cost for where it ends (0 for free ones)."""
    kind = action.kind
    faction = board.faction_of(state, seat)
    if kind == "move":
        return neutrals.move_cost(state, seat, action.unit)
    if kind in ("battle", "capture"):
        return 1
    if kind == "gate":
        return gate_cost(state, seat)
    if kind == "recruit":
        return faction.unit(action.unit).cost
    if kind == "summon":
        return faction.summon_cost(state, seat, action.unit)
    if kind == "awaken":
        return next((c for u, a, c in all_awakenings(state, seat) if (u, a) == (action.unit, action.area)), 0)
    neutral = neutrals.action_cost(state, seat, action)
    return faction.action_cost(state, seat, action) if neutral is None else neutral


#: Core action kinds whose cost in one position depends on nothing but the unit type (see :func:`action_cost`), and
#: those of them that name one.
PRICED_BY_UNIT = frozenset({"move", "recruit", "gate", "summon", "battle", "capture"})
PRICED_BY_UNIT_TYPE = frozenset({"move", "recruit", "summon"})


def cost_table(state: GameState, seat: int) -> Callable[[BaseModel], int]:
    """:func:`action_cost` for the many actions of one position, what they share worked out once: the cost of the
    core actions priced by unit type alone (:data:`PRICED_BY_UNIT`), and every Awakening open with its cost (the first
    listed for a unit and Area)."""
    by_unit: dict[tuple[str, str | None], int] = {}
    awakenings: list[dict[tuple[str, str], int]] = []  # worked out at the first Awaken priced

    def cost(action: BaseModel) -> int:
        kind = action.kind
        if kind in PRICED_BY_UNIT:
            key = (kind, action.unit if kind in PRICED_BY_UNIT_TYPE else None)
            found = by_unit.get(key)
            if found is None:
                found = by_unit[key] = action_cost(state, seat, action)
            return found
        if kind != "awaken":
            return action_cost(state, seat, action)
        if not awakenings:
            awakenings.append(awakening_costs(state, seat))
        return awakenings[0].get((action.unit, action.area), 0)

    return cost


def awakening_costs(state: GameState, seat: int) -> dict[tuple[str, str], int]:
    """The cost of each Awakening open to ``seat`` by (unit, Area), the first listed where two are."""
    found: dict[tuple[str, str], int] = {}
    for unit, area, price in all_awakenings(state, seat):
        found.setdefault((unit, area), price)
    return found


def taxes(state: GameState, seat: int) -> dict[str, int]:
    """Extra Power an action of ``seat`` costs for ending in each Area (Ice Age; ``cthulhu-wars/windwalker``)."""
    found: dict[str, int] = {}
    taxers = board.factions_defining("taxed_areas")
    for other, fs in enumerate(state.seats):
        if other == seat or fs.faction not in taxers:
            continue  # the default hook taxes nothing
        for area, extra in board.faction_of(state, other).taxed_areas(state, other, seat).items():
            found[area] = found.get(area, 0) + extra
    return found


def action_area(action: BaseModel) -> str | None:
    """Where an action ends: its ``target``, else its ``area`` (a ``source`` is where it starts)."""
    fields = action.__dict__  # a model's field values (a missing field read by getattr costs an exception)
    return fields.get("target") or fields.get("area")


def action_tax(state: GameState, seat: int, action: BaseModel, taxed: dict[str, int] | None = None) -> int:
    if action.kind in UNTAXED:
        return 0
    taxed = taxes(state, seat) if taxed is None else taxed
    return taxed.get(action_area(action), 0) if taxed else 0


def affordable(state: GameState, seat: int, options: list[BaseModel]) -> list[BaseModel]:
    """Options whose cost plus any extra cost for where they end the seat can pay."""
    taxed = taxes(state, seat)
    if not taxed:
        return options
    power = state.seats[seat].power
    cost = cost_table(state, seat)
    return [a for a in options
            if not action_tax(state, seat, a, taxed) or cost(a) + action_tax(state, seat, a, taxed) <= power]


def move_tax(state: GameState, seat: int, target: str, taxed: dict[str, int]) -> int:
    """A Move action pays the extra cost of an Area once, when its first unit arrives there."""
    extra = taxed.get(target, 0)
    if extra and any(state.seats[seat].units[k][i] == target for k, i in state.turn.moved):
        return 0
    return extra


def follow_up_options(state: GameState, seat: int, kind: str | None = None) -> list[BaseModel]:
    """The unlimited actions left to the seat once its one action is taken (none at 0 Power); ``kind`` keeps one
    kind (see :func:`turn_options`)."""
    return [action for part in follow_ups_by_part(state, seat, kind) for action in part]


def has_follow_up(state: GameState, seat: int) -> bool:
    """Whether :func:`follow_up_options` would list anything (stopping at the first part that lists something)."""
    return any(follow_ups_by_part(state, seat))


def follow_ups_by_part(state: GameState, seat: int, kind: str | None = None) -> Iterator[list[BaseModel]]:
    """The options of :func:`follow_up_options` in the same order, in parts, each worked out only when asked for:
    the core unlimited actions, the faction's, the neutral material's, then Battles with all six spellbooks."""
    if state.seats[seat].power <= 0:
        return
    faction = board.faction_of(state, seat)
    unlimited = faction.unlimited(state, seat)
    if kind is None or kind in UNLIMITED_CORE:
        yield unlimited_options(state, seat)
    if unlimited and (kind is None or kind in unlimited):  # none unlimited: nothing listed would be kept
        yield [a for a in faction.actions(state, seat) if a.kind in unlimited and kind in (None, a.kind)]
        yield [a for a in neutrals.actions(state, seat) if a.kind in unlimited and kind in (None, a.kind)]
    if has_all_spellbooks(state, seat) and kind in (None, "battle"):
        yield battle_options(state, seat)


def is_unlimited(state: GameState, seat: int, action: BaseModel) -> bool:
    """Whether ``action`` leaves the turn's one action untaken: a faction's unlimited action, or a Battle by a
    faction holding all six spellbooks (still once per area per turn; ``cthulhu-wars/battle``)."""
    kind = action.kind
    return kind in board.faction_of(state, seat).unlimited(state, seat) or (kind == "battle" and has_all_spellbooks(state, seat))


def unlimited_options(state: GameState, seat: int) -> list[BaseModel]:
    """Control Gate, Abandon Gate and Reveal Elder Signs: free, any number, never at 0 Power; no Gate is controlled
    in an Area with Zoogs (``cthulhu-wars/dreamlands-zoogs``)."""
    if state.seats[seat].power <= 0:
        return []
    faction = board.faction_of(state, seat)
    options: list[BaseModel] = []
    for area, holder in state.gates.items():
        if holder is None:
            if creatures.blocks_gate_control(state, area):
                continue
            for kind in board.kinds_in(state, seat, area):
                if faction.can_control_gates(state, seat, kind):
                    options.append(shared(ControlGate, area=area, unit=kind))
        elif holder[0] == seat:
            options.append(shared(AbandonGate, area=area))
    if state.seats[seat].elder_signs:
        options.append(shared(RevealElderSigns))
    return options


def move_options(state: GameState, seat: int) -> list[Move]:
    """Each figure not yet moved in this Move action, to each Area it may reach, if the seat can pay: 1 Power (0 for
    a figure moving free: From Below, ``cthulhu-wars/igoo-nyogtha``) and any Ice Age extra cost."""
    options: list[Move] = []
    for found in moves_by_source(state, seat):
        options.extend(found)
    return options


def can_move_more(state: GameState, seat: int) -> bool:
    """Whether :func:`move_options` would list anything (stopping at the first figure found that can go somewhere)."""
    return any(moves_by_source(state, seat))


def moves_by_source(state: GameState, seat: int) -> Iterator[list[Move]]:
    """The options of :func:`move_options` in the same order, a list for each unit type and Area they start from."""
    power = state.seats[seat].power
    moved = state.turn.moved
    faction = board.faction_of(state, seat)
    taxed = taxes(state, seat)
    moved_kinds = {unit for unit, _ in moved}
    for kind, places in state.seats[seat].units.items():
        sources = move_sources(kind, places, moved if kind in moved_kinds else ())
        cost = neutrals.move_cost(state, seat, kind) if sources else 1
        if power < cost:
            continue
        for source in sorted(sources):
            targets = faction.move_targets(state, seat, kind, source)
            if not taxed:
                yield list(moves_to(kind, source, tuple(targets)))
                continue
            yield [move_action(kind, source, target) for target in targets
                   if cost + move_tax(state, seat, target, taxed) <= power]


def move_sources(kind: str, places: list[str], moved: Collection[tuple[str, int]]) -> set[str]:
    """The Areas where a figure of ``kind`` stands that has not moved yet in this Move action (``moved``: the figures
    moved, or nothing when none of this kind has)."""
    if not moved:  # (board.on_map written out: asked for every unit type at every position)
        return {p for p in set(places) if p[0] != "@"}
    return {p for i, p in enumerate(places) if p[0] != "@" and (kind, i) not in moved}


def move_allowed(state: GameState, seat: int, action: Move) -> bool:
    """Whether ``action`` is among :func:`move_options` now, without listing them all (the same tests)."""
    turn = state.turn
    fs = state.seats[seat]
    if (turn.acted and not turn.moving) or action.unit not in fs.units or not board.on_map(action.source):
        return False
    cost = neutrals.move_cost(state, seat, action.unit)
    if fs.power < cost:
        return False
    if not any(p == action.source and (action.unit, i) not in turn.moved for i, p in enumerate(fs.units[action.unit])):
        return False
    if action.target not in board.faction_of(state, seat).move_targets(state, seat, action.unit, action.source):
        return False
    taxed = taxes(state, seat)
    return not taxed or cost + move_tax(state, seat, action.target, taxed) <= fs.power


@functools.lru_cache(maxsize=65536)
def move_action(unit: str, source: str, target: str) -> Move:
    """One Move option; actions are immutable, so equal ones are shared (listing moves is the hot path)."""
    return Move(unit=unit, source=source, target=target)


@functools.lru_cache(maxsize=16384)
def moves_to(unit: str, source: str, targets: tuple[str, ...]) -> tuple[Move, ...]:
    """The Move options of a figure of ``unit`` from ``source`` to each of ``targets`` (:func:`move_action`), kept
    together: a figure's reach from one Area is mostly the same position after position."""
    return tuple(move_action(unit, source, target) for target in targets)


def recruit_options(state: GameState, seat: int) -> list[Recruit]:
    fs = state.seats[seat]
    faction = board.faction_of(state, seat)
    areas = board.occupied_areas(state, seat) or {a.id for a in state.layout.areas}
    return [
        shared(Recruit, unit=kind, area=area)
        for kind in faction.cultists()
        if POOL in fs.units[kind] and fs.power >= faction.unit(kind).cost
        for area in sorted(areas)
    ]


def gate_cost(state: GameState, seat: int) -> int:
    """What Build Gate costs ``seat``: 3, unless neutral material changes it (Umr at-Tawil,
    ``cthulhu-wars/neutral-umr-at-tawil``)."""
    return neutrals.gate_cost(state, seat, GATE_COST)


def gate_options(state: GameState, seat: int) -> list[BuildGate]:
    """Build Gate where a unit of yours that can control it stands and there is no Gate; not in an Area with Zoogs
    unless the option ``gate_in_zoog_area`` builds it Abandoned (rulings)."""
    if state.seats[seat].power < gate_cost(state, seat):
        return []
    faction = board.faction_of(state, seat)
    zoogs_forbid = state.options.gate_in_zoog_area == "forbidden"
    return [
        shared(BuildGate, area=area)
        for area in sorted(board.occupied_areas(state, seat))
        if area not in state.gates
        and any(faction.can_control_gates(state, seat, k) for k in board.kinds_in(state, seat, area))
        and not (zoogs_forbid and creatures.blocks_gate_control(state, area))
    ]


def summon_options(state: GameState, seat: int) -> list[Summon]:
    fs = state.seats[seat]
    faction = board.faction_of(state, seat)
    gates = faction.summon_areas(state, seat)
    return [
        shared(Summon, unit=kind, area=area)
        for kind in faction.monsters()
        if POOL in fs.units[kind] and fs.power >= faction.summon_cost(state, seat, kind) and neutrals.summoned(kind)
        for area in gates
    ]


def all_awakenings(state: GameState, seat: int) -> list[tuple[str, str, int]]:
    """(unit, area, cost) of every Awakening open to ``seat``: its faction's Great Old Ones, then the neutral
    material's (Independent Great Old Ones, ``cthulhu-wars/independent-great-old-ones``)."""
    return board.faction_of(state, seat).awaken_options(state, seat) + neutrals.awaken_options(state, seat)


def awaken_options(state: GameState, seat: int) -> list[Awaken]:
    power = state.seats[seat].power
    return [shared(Awaken, unit=u, area=a) for u, a, cost in all_awakenings(state, seat) if cost <= power]


def battle_options(state: GameState, seat: int) -> list[Battle]:
    """Battle an enemy faction, or one of the map's creatures (the Bhole, Zoogs), where you have Combat and your units
    may declare it (Brainless: ``cthulhu-wars/ancients-brainless``)."""
    if state.seats[seat].power < BATTLE_COST:
        return []
    faction = board.faction_of(state, seat)
    enemies = board.enemies_by_area(state, seat)
    return [
        shared(Battle, area=area, enemy=state.seats[enemy].faction if isinstance(enemy, int) else enemy)
        for area in sorted(enemies)
        if area not in state.turn.battled and faction.may_declare_battle(state, seat, area)
        for enemy in [*enemies[area], *(creatures.battle_targets(state, area) if state.pieces else ())]
        if can_battle(state, seat, area, enemy)
    ]


def capture_options(state: GameState, seat: int) -> list[Capture]:
    if state.seats[seat].power < CAPTURE_COST:
        return []
    enemies = board.enemies_by_area(state, seat)
    faction = board.faction_of(state, seat)
    return [
        shared(Capture, area=area, enemy=state.seats[enemy].faction)
        for area in sorted(enemies)
        if enemies[area] and has_captor(state, seat, faction, area)
        for enemy in enemies[area]
        if can_capture(state, seat, area, enemy)
    ]


def has_captor(state: GameState, seat: int, faction: Faction, area: str) -> bool:
    """Whether ``seat`` has in ``area`` a GOO or a figure that can capture: what :func:`can_capture` asks of the captor
    whatever the enemy, so without one no enemy there can be captured (asked once per Area, not once per enemy)."""
    return board.any_in(state, seat, area, faction.goos()) or has_capturing_figure(state, seat, faction, area)


def has_capturing_figure(state: GameState, seat: int, faction: Faction, area: str) -> bool:
    """Whether a figure of ``seat`` in ``area`` may capture there by its faction's own rule (``Faction.can_capture``;
    a GOO of the seat there captures whatever this says)."""
    return any(faction.can_capture(state, seat, k, area) for k in board.kinds_in(state, seat, area))


def can_capture(state: GameState, seat: int, area: str, enemy: int) -> bool:
    """An enemy Cultist there, no enemy GOO; a GOO of yours ignores enemy Monsters, else none may be there.
    The enemy's own abilities may protect its Cultists further (Ferox)."""
    enemy_faction = board.faction_of(state, enemy)
    if not board.any_in(state, enemy, area, enemy_faction.cultists()):
        return False
    if board.any_in(state, enemy, area, enemy_faction.goos()):
        return False
    faction = board.faction_of(state, seat)
    has_goo = board.any_in(state, seat, area, faction.goos())
    if enemy_faction.protects_cultists(state, enemy, area, seat, has_goo):
        return False
    if has_goo:
        return True
    return not board.any_in(state, enemy, area, enemy_faction.monsters()) and has_capturing_figure(
        state, seat, faction, area)


# ---- resolving ------------------------------------------------------------------------
def resolve_turn_action(state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
    """Carry out a legal action of the seat whose turn it is."""
    turn = state.turn
    fs = state.seats[seat]
    faction = board.faction_of(state, seat)
    kind = action.kind
    if kind == "move":
        move_figure(state, seat, action, log)
        return
    if kind == "done":
        if turn.moving:
            turn.moving = False
            turn.hooks_due = True
        else:
            turn.closed = True
        return
    if kind == "control":
        index = board.pick_figure(state, seat, action.unit, action.area)
        state.gates[action.area] = (seat, action.unit, index)
        log.append(f"{fs.faction} takes control of the Abandoned Gate in {action.area}.")
    elif kind == "abandon":
        state.gates[action.area] = None
        log.append(f"{fs.faction} abandons its Gate in {action.area}.")
    elif kind == "reveal":
        board.reveal_elder_signs(state, seat, log)
    else:
        unlimited = is_unlimited(state, seat, action)  # e.g. Summon under Fertility Cult, Battle with six books
        tax = action_tax(state, seat, action)
        windows.note_action(state, seat, action)
        if kind in MAIN:
            MAIN[kind](state, seat, action, log)
        elif neutrals.handles(action):
            neutrals.apply_action(state, seat, action, log)
        else:
            faction.apply_action(state, seat, action, log)
        pay_tax(state, seat, tax, log)
        turn.hooks_due = True
        turn.last_action = kind
        if not unlimited:
            turn.acted = True


def pay_tax(state: GameState, seat: int, tax: int, log: list[str]) -> None:
    if tax:
        state.seats[seat].power -= tax
        log.append(f"{state.seats[seat].faction} pays {tax} more Power for acting in an Ice Age Area.")


def move_figure(state: GameState, seat: int, action: Move, log: list[str]) -> None:
    """One figure of a Move action: 1 Power, to an adjacent area; the action goes on until 'done'."""
    turn = state.turn
    fs = state.seats[seat]
    index = board.pick_figure(state, seat, action.unit, action.source, exclude=tuple(turn.moved))
    if not turn.moving:
        turn.move_paid = 0
    windows.note_move(state, seat, action.unit, action.target)
    tax = move_tax(state, seat, action.target, taxes(state, seat))
    cost = neutrals.move_cost(state, seat, action.unit)  # 0 for From Below's free move
    fs.power -= cost
    turn.move_paid += cost + tax
    board.place_figure(state, seat, action.unit, index, action.target)
    turn.moved.append((action.unit, index))
    turn.acted = turn.moving = True
    turn.last_action = "move"
    log.append(f"{fs.faction} moves {words_of.a_unit(action.unit)} from {action.source} to {action.target}"
               + (" (free: From Below)." if not cost else "."))
    pay_tax(state, seat, tax, log)
    board.faction_of(state, seat).after_move(state, seat, action.unit, index, action.source, action.target, log)
    if not can_move_more(state, seat) and not state.pending:
        turn.moving = False
        turn.hooks_due = True


def recruit(state: GameState, seat: int, action: Recruit, log: list[str]) -> None:
    fs = state.seats[seat]
    fs.power -= board.faction_of(state, seat).unit(action.unit).cost
    board.place_figure(state, seat, action.unit, fs.units[action.unit].index(POOL), action.area)
    log.append(f"{fs.faction} recruits {words_of.a_unit(action.unit)} in {action.area}.")


def build_gate(state: GameState, seat: int, action: BuildGate, log: list[str]) -> None:
    fs = state.seats[seat]
    faction = board.faction_of(state, seat)
    fs.power -= gate_cost(state, seat)
    if creatures.blocks_gate_control(state, action.area):  # option gate_in_zoog_area "abandoned"
        state.gates[action.area] = None
        log.append(f"{fs.faction} builds a Gate in {action.area}; with Zoogs there it stands Abandoned.")
        return
    kind = next(k for k in board.units_in(state, seat, action.area) if faction.can_control_gates(state, seat, k))
    state.gates[action.area] = (seat, kind, board.pick_figure(state, seat, kind, action.area))
    log.append(f"{fs.faction} builds a Gate in {action.area}.")


def summon(state: GameState, seat: int, action: Summon, log: list[str]) -> None:
    fs = state.seats[seat]
    faction = board.faction_of(state, seat)
    fs.power -= faction.summon_cost(state, seat, action.unit)
    board.place_figure(state, seat, action.unit, fs.units[action.unit].index(POOL), action.area)
    log.append(f"{fs.faction} summons {words_of.a_unit(action.unit)} in {action.area}.")
    faction.after_summon(state, seat, action.unit, action.area, log)


def awaken(state: GameState, seat: int, action: Awaken, log: list[str]) -> None:
    fs = state.seats[seat]
    faction = board.faction_of(state, seat)
    cost = next(c for u, a, c in all_awakenings(state, seat) if (u, a) == (action.unit, action.area))
    if neutrals.owns(action.unit):  # an Independent Great Old One: its material takes the card and places it
        neutrals.awaken(state, seat, action.unit, action.area, cost, log)
        return
    fs.power -= cost
    board.place_figure(state, seat, action.unit, fs.units[action.unit].index(POOL), action.area)
    log.append(f"{fs.faction} awakens {words_of.a_unit(action.unit)} in {action.area} for {cost} Power.")
    faction.on_awaken(state, seat, action.unit, action.area, log)


def battle(state: GameState, seat: int, action: Battle, log: list[str]) -> None:
    state.seats[seat].power -= BATTLE_COST
    state.turn.battled.append(action.area)
    start_battle(state, seat, action.area, enemy_key(state, action.enemy), log)


def capture(state: GameState, seat: int, action: Capture, log: list[str]) -> None:
    state.seats[seat].power -= CAPTURE_COST
    enemy = state.seat_of(action.enemy)
    kinds = [k for k in board.faction_of(state, enemy).cultists() if state.seats[enemy].count(k, action.area)]
    board.take_unit(state, enemy, action.area, kinds, "capture", seat, log)


def pass_turn(state: GameState, seat: int, action: Pass, log: list[str]) -> None:
    fs = state.seats[seat]
    log.append(f"{fs.faction} passes, giving up {fs.power} Power.")
    fs.power = 0


#: The core action kinds of a turn and what lists them (unlimited ones apart).
CORE_GENERATORS = {
    "move": move_options, "recruit": recruit_options, "gate": gate_options, "summon": summon_options,
    "awaken": awaken_options, "battle": battle_options, "capture": capture_options,
}  # fmt: skip
UNLIMITED_CORE = frozenset({"control", "abandon", "reveal"})

MAIN = {
    "recruit": recruit, "gate": build_gate, "summon": summon, "awaken": awaken,
    "battle": battle, "capture": capture, "pass": pass_turn,
}  # fmt: skip
