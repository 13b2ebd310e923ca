"""Battle (rules_text ``cthulhu-wars/battle``): declaring, pre-battle, dice, Kills then Pains, retreats.

A battle lives in ``state.battle`` as plain data and advances step by step
(:func:`step_battle`); each step either resolves itself or leaves one pending decision
(pre-battle ability, result assignment, retreat destination) for the seat concerned.
Faction hooks: ``pre_battle_options``, ``unit_combat``, ``result_capacity``, ``post_battle``.
The pure :func:`dice_distribution` and :func:`battle_odds` need no game.

Keys of ``state.battle`` that faction hooks may read or write: ``area``, ``attacker``,
``defender`` (seats); ``used`` (names of once-per-battle abilities already used);
``bonus`` (seat -> extra dice); ``rolls`` (seat -> dice rolled); ``hits`` (seat -> results
it must take, ``{"kill": n, "pain": n}``); ``taken`` (seat -> ``"unit#index"`` -> results
taken); ``kills_on`` (``"unit#index"`` -> Kills taken); ``pained`` (seat -> [unit, index]
still to retreat); ``killed`` (seat -> enemy figures it eliminated with Kills);
``devoured`` (seat -> enemy figures it removed by abilities, for requirements); ``exempt``
([seat, unit, index] of figures Invisibility keeps out of the battle: they stay on the map and
their Gates but roll no dice, take no results and cannot be chosen by battle abilities).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from pydantic import BaseModel, Field

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import Assign, Retreat, figure_label, read_figure
from tabletop.games.cthulhu_wars.state import GameState, Pending

RULE = "cthulhu-wars/battle"
STEPS = ("before", "pre-attacker", "pre-defender", "roll", "rolled", "kills", "pains", "post", "retreat", "over")


# ---- declaring ------------------------------------------------------------------------
def side_combat(state: GameState, seat: int, battle: dict | None, area: str) -> int:
    """Dice a side rolls: the sum of the Combat of its units in the battle (not those exempt) plus bonuses."""
    faction = board.faction_of(state, seat)
    present = board.in_battle(state, seat, battle) if battle else board.units_in(state, seat, area)
    dice = sum(faction.unit_combat(state, seat, kind, battle or {}, n) for kind, n in present.items())
    return dice + ((battle or {}).get("bonus", {}).get(seat, 0))


def can_battle(state: GameState, seat: int, area: str, enemy: int) -> bool:
    """The attacker needs Combat of at least 1 there and the enemy needs units there."""
    probe = {"area": area, "attacker": seat, "defender": enemy}
    return board.has_units(state, enemy, area) and side_combat(state, seat, probe, area) >= 1


def start_battle(state: GameState, seat: int, area: str, enemy: int, log: list[str]) -> None:
    state.battle = {
        "area": area, "attacker": seat, "defender": enemy, "step": 0, "used": [], "bonus": {},
        "hits": {}, "taken": {}, "pained": {seat: [], enemy: []}, "killed": {seat: 0, enemy: 0},
        "devoured": {seat: 0, enemy: 0}, "rolls": {}, "exempt": [],
    }  # fmt: skip
    log.append(f"{state.seats[seat].faction} battles {state.seats[enemy].faction} in {area}.")


def opponent(battle: dict, seat: int) -> int:
    return battle["defender"] if seat == battle["attacker"] else battle["attacker"]


# ---- stepping -------------------------------------------------------------------------
def step_battle(state: GameState, log: list[str]) -> None:
    """Advance the battle until it needs a decision or is over."""
    battle = state.battle
    while battle is not None and not state.pending:
        step = STEPS[battle["step"]] if battle["step"] < len(STEPS) else "end"
        if step == "before":
            for seat in state.order_from(battle["attacker"]):
                board.faction_of(state, seat).before_battle(state, seat, battle, log)
            if state.pending:
                battle["step"] += 1
                return
        elif step in ("pre-attacker", "pre-defender"):
            seat = battle["attacker" if step == "pre-attacker" else "defender"]
            if board.faction_of(state, seat).pre_battle_options(state, seat, battle):
                state.pending.append(Pending(seat, "pre-battle"))
                return
        elif step == "roll":
            roll_dice(state, battle, log)
        elif step == "rolled":
            for seat in (battle["attacker"], battle["defender"]):
                board.faction_of(state, seat).after_roll(state, seat, battle, log)
            if state.pending:
                battle["step"] += 1
                return
        elif step == "kills" or step == "pains":
            if step == "kills":
                for seat in (battle["attacker"], battle["defender"]):
                    board.faction_of(state, seat).before_kills(state, seat, battle, log)
            for seat in (battle["attacker"], battle["defender"]):
                ask_assignment(state, battle, seat, step[:-1], log)
            if state.pending:
                battle["step"] += 1  # assignments answered arrive after this step
                return
        elif step == "post":
            for seat in (battle["attacker"], battle["defender"]):
                board.faction_of(state, seat).post_battle(state, seat, battle, log)
            for seat in state.order_from(battle["attacker"]):
                board.faction_of(state, seat).after_any_battle(state, seat, battle, log)
        elif step == "retreat":
            if ask_retreat(state, battle, log):
                return
        elif step == "over":
            for seat in state.order_from(battle["attacker"]):
                board.faction_of(state, seat).battle_over(state, seat, battle, log)
            if state.pending:
                battle["step"] += 1
                return
        else:
            state.battle = None
            return
        battle["step"] += 1


def end_pre_battle(state: GameState, seat: int) -> None:
    """The seat is done with pre-battle abilities (called when it answers 'proceed')."""
    state.battle["step"] += 1


def roll_dice(state: GameState, battle: dict, log: list[str]) -> None:
    """Both sides roll at once: 6 Kill, 4-5 Pain, else a miss."""
    area = battle["area"]
    for seat in (battle["attacker"], battle["defender"]):
        dice = side_combat(state, seat, battle, area)
        battle["rolls"][seat] = [state.rng.die() for _ in range(dice)]
        score_rolls(state, battle, seat, log, f"rolls {dice} dice")


def score_rolls(state: GameState, battle: dict, seat: int, log: list[str], verb: str = "rolls") -> None:
    """The results ``seat``'s dice give the other side: 6 Kill, 4-5 Pain (again after a reroll)."""
    rolls = battle["rolls"][seat]
    kills, pains = rolls.count(6), sum(1 for r in rolls if r in (4, 5))
    battle["hits"][opponent(battle, seat)] = {"kill": kills, "pain": pains}
    log.append(f"{state.seats[seat].faction} {verb} {rolls}: {kills} Kill, {pains} Pain.")


def chooser(state: GameState, battle: dict, owner: int, step: str) -> int:
    """Who decides ``owner``'s kills, pains or retreats: a faction claiming it (Vengeance, Madness), else the owner."""
    claims = [s for s in state.order_from(battle["attacker"]) if board.faction_of(state, s).chooses_for(state, s, battle, owner, step)]
    return claims[0] if claims else owner


# ---- assigning results ----------------------------------------------------------------
def figures_in_battle(state: GameState, battle: dict, seat: int) -> list[tuple[str, int]]:
    """Figures (type, index) of ``seat`` in the battle: in its area and not exempt (Invisibility)."""
    area, exempt = battle["area"], board.exempt_in(battle, seat)
    return [
        (kind, i) for kind, places in state.seats[seat].units.items()
        for i, p in enumerate(places) if p == area and (kind, i) not in exempt
    ]  # fmt: skip


#: A class of interchangeable figures of one side: (unit type, on the Gate, results taken so far).
FigureClass = tuple[str, bool, int]


def figure_classes(state: GameState, battle: dict, seat: int) -> dict[FigureClass, list[int]]:
    """The figures of ``seat`` that can still take a result in this battle, grouped by what sets them apart:
    unit type, whether it controls the Gate there, and how many results it has already taken (Regenerate)."""
    faction = board.faction_of(state, seat)
    taken = battle["taken"].get(seat, {})
    holder = state.gates.get(battle["area"])
    classes: dict[FigureClass, list[int]] = {}
    for kind, i in figures_in_battle(state, battle, seat):
        had = taken.get(f"{kind}#{i}", 0)
        if had < faction.result_capacity(state, seat, kind):
            on_gate = holder == (seat, kind, i)
            classes.setdefault((kind, on_gate, had), []).append(i)
    return classes


def loads(figures: int, room: int, most: int) -> list[tuple[int, ...]]:
    """Ways to give results to up to ``figures`` interchangeable figures taking at most ``room`` each, at most
    ``most`` results in all: the results per figure, largest first."""
    found: list[tuple[int, ...]] = [()]
    def extend(prefix: tuple[int, ...], cap: int, left: int) -> None:
        if len(prefix) == figures:
            return
        for n in range(min(cap, left), 0, -1):
            found.append(prefix + (n,))
            extend(prefix + (n,), n, left - n)
    extend((), room, most)
    return found


def assignment_options(state: GameState, battle: dict, seat: int, result: str) -> list[Assign]:
    """Every way the assigner can give ``seat``'s ``result``s to individual figures: as many results as the figures
    can take (extra results are lost), any figure, the Gate's controller included, several on one figure that
    can take more than one (Regenerate)."""
    faction = board.faction_of(state, seat)
    classes = sorted(figure_classes(state, battle, seat).items())
    rooms = [faction.result_capacity(state, seat, kind) - had for (kind, _, had), _ in classes]
    room_after = [sum(len(figs) * room for (_, figs), room in zip(classes[k:], rooms[k:], strict=True))
                  for k in range(len(classes) + 1)]
    count = min(battle["hits"].get(seat, {}).get(result, 0), room_after[0])
    options: list[Assign] = []

    def choose(k: int, left: int, entries: tuple[str, ...]) -> None:
        if left == 0:
            options.append(Assign(result=result, units=entries))
            return
        if k == len(classes) or room_after[k] < left:
            return
        (kind, on_gate, had), figs = classes[k]
        for spread in loads(len(figs), rooms[k], left):
            choose(k + 1, left - sum(spread), entries + tuple(figure_label(kind, on_gate, had, n) for n in spread))

    choose(0, count, ())
    return options


def ask_assignment(state: GameState, battle: dict, seat: int, result: str, log: list[str]) -> None:
    options = assignment_options(state, battle, seat, result)
    if len(options) == 1:
        apply_assignment(state, battle, seat, options[0], log)
    elif options:
        state.pending.append(Pending(chooser(state, battle, seat, result), "assign", {"result": result, "owner": seat}))


def apply_assignment(state: GameState, battle: dict, seat: int, assign: Assign, log: list[str]) -> None:
    """Give the results to the figures named, each entry one figure (one not yet named in this assignment)."""
    taken = battle["taken"].setdefault(seat, {})
    faction = board.faction_of(state, seat)
    classes = figure_classes(state, battle, seat)
    picks = []
    for entry in assign.units:
        kind, on_gate, had, load = read_figure(entry)
        picks.append((kind, classes[(kind, on_gate, had)].pop(0), load))
    for kind, index, load in picks:
        cap = faction.result_capacity(state, seat, kind)
        for _ in range(load):
            taken[f"{kind}#{index}"] = taken.get(f"{kind}#{index}", 0) + 1
            record_result(state, battle, seat, kind, index, assign.result, cap)
    if assign.units:
        log.append(f"{state.seats[seat].faction} takes {assign.result}s on {', '.join(assign.units)}.")


def record_result(state: GameState, battle: dict, seat: int, kind: str, index: int, result: str, cap: int,
                  ask: bool = True) -> None:
    """A Kill eliminates (a unit absorbing two results dies only to two Kills); otherwise it is Pained. The
    owner's faction may first take the result up itself (``on_result``: Eternal); ``ask=False`` skips that."""
    if ask and board.faction_of(state, seat).on_result(state, seat, kind, index, result, battle):
        return
    key = f"{kind}#{index}"
    kills_on_it = battle.setdefault("kills_on", {}).get(key, 0) + (result == "kill")
    battle["kills_on"][key] = kills_on_it
    if result == "kill" and kills_on_it >= cap and not board.faction_of(state, seat).spares(state, seat, kind, battle, "kill"):
        board.eliminate(state, seat, kind, index)
        battle["killed"][opponent(battle, seat)] += 1
        if [kind, index] in battle["pained"][seat]:
            battle["pained"][seat].remove([kind, index])
    elif [kind, index] not in battle["pained"][seat]:
        battle["pained"][seat].append([kind, index])


# ---- retreats -------------------------------------------------------------------------
def retreat_targets(state: GameState, battle: dict, seat: int) -> list[str]:
    enemy = opponent(battle, seat)
    return [a.id for a in state.layout.neighbours(battle["area"]) if not board.has_units(state, enemy, a.id)]


def ask_retreat(state: GameState, battle: dict, log: list[str]) -> bool:
    """Retreat Pained units, attacker's first; True when a seat must choose a destination."""
    for seat in (battle["attacker"], battle["defender"]):
        pained = [(k, i) for k, i in battle["pained"][seat] if state.seats[seat].units[k][i] == battle["area"]]
        battle["pained"][seat] = [[k, i] for k, i in pained]
        if not pained:
            continue
        targets = retreat_targets(state, battle, seat)
        if len(targets) > 1:
            state.pending.append(Pending(chooser(state, battle, seat, "retreat"), "retreat", {"owner": seat}))
            return True
        for kind, index in pained:
            if targets:
                board.place_figure(state, seat, kind, index, targets[0])
                log.append(f"{state.seats[seat].faction}'s Pained {kind} retreats to {targets[0]}.")
            elif board.faction_of(state, seat).spares(state, seat, kind, battle, "no-retreat"):
                log.append(f"{state.seats[seat].faction}'s Pained {kind} has nowhere to retreat and stays.")
            else:
                board.eliminate(state, seat, kind, index)
                log.append(f"{state.seats[seat].faction}'s Pained {kind} has nowhere to retreat and is eliminated.")
        battle["pained"][seat] = []
    return False


def retreat_options(state: GameState, seat: int) -> list[Retreat]:
    battle = state.battle
    kinds = sorted({k for k, _ in battle["pained"][seat]})
    return [Retreat(unit=k, target=t) for k in kinds for t in retreat_targets(state, battle, seat)]


def apply_retreat(state: GameState, seat: int, action: Retreat, log: list[str]) -> None:
    battle = state.battle
    kind, index = next((k, i) for k, i in battle["pained"][seat] if k == action.unit)
    battle["pained"][seat].remove([kind, index])
    board.place_figure(state, seat, kind, index, action.target)
    log.append(f"{state.seats[seat].faction}'s Pained {kind} retreats to {action.target}.")


# ---- odds -----------------------------------------------------------------------------
P_KILL, P_PAIN, P_MISS = Fraction(1, 6), Fraction(2, 6), Fraction(3, 6)


def dice_distribution(dice: int) -> dict[tuple[int, int], Fraction]:
    """Exact chance of each (kills, pains) from ``dice`` combat dice."""
    return {
        (k, p): comb(dice, k) * comb(dice - k, p) * P_KILL**k * P_PAIN**p * P_MISS ** (dice - k - p)
        for k in range(dice + 1)
        for p in range(dice - k + 1)
    }


class SideOdds(BaseModel):
    """What one side's dice do to the other side."""

    dice: int
    expected_kills: float
    expected_pains: float
    chance_of_a_kill: float
    expected_enemy_units_eliminated: float = Field(description="Kills capped at the enemy's unit count.")
    expected_enemy_units_hit: float = Field(description="Kills plus Pains, capped at the enemy's unit count.")


class BattleOdds(BaseModel):
    """Expected outcome of a battle between two forces (before pre-battle abilities)."""

    attacker: SideOdds
    defender: SideOdds
    rule: str = RULE


def side_odds(dice: int, enemy_units: int) -> SideOdds:
    dist = dice_distribution(dice)
    return SideOdds(
        dice=dice,
        expected_kills=dice / 6,
        expected_pains=dice / 3,
        chance_of_a_kill=float(1 - P_MISS_OR_PAIN**dice),
        expected_enemy_units_eliminated=float(sum(pr * min(k, enemy_units) for (k, _), pr in dist.items())),
        expected_enemy_units_hit=float(sum(pr * min(k + p, enemy_units) for (k, p), pr in dist.items())),
    )


P_MISS_OR_PAIN = P_PAIN + P_MISS


def battle_odds(attacker_dice: int, defender_dice: int, attacker_units: int, defender_units: int) -> BattleOdds:
    """Each side's expected results, given its dice and the number of units it faces."""
    return BattleOdds(attacker=side_odds(attacker_dice, defender_units), defender=side_odds(defender_dice, attacker_units))


def battle_preview(state: GameState, attacker: int, area: str, defender: int) -> BattleOdds:
    """The odds of a battle in a live game, from each side's current Combat and unit count there."""
    probe = {"area": area, "attacker": attacker, "defender": defender}
    return battle_odds(
        side_combat(state, attacker, probe, area),
        side_combat(state, defender, probe, area),
        sum(board.units_in(state, attacker, area).values()),
        sum(board.units_in(state, defender, area).values()),
    )
