"""Battle (rules_text ``cthulhu-wars/battle``): declaring, pre-battle, dice, Kills then Pains, retreats.

A battle lives in ``state.battle`` as plain data and advances step by step
(:func:`step_battle`); each step either resolves itself or leaves one pending decision
(pre-battle ability, result assignment, retreat destination) for the seat concerned.
Faction hooks: ``pre_battle_options``, ``unit_combat``, ``result_capacity``, ``before_pains``, ``post_battle``.
The pure :func:`battle_odds` (over dice.py's :func:`~.dice.dice_distribution`) needs no game.

Keys of ``state.battle`` that faction hooks may read or write: ``area``, ``attacker``,
``defender`` (seats); ``used`` (names of once-per-battle abilities already used);
``bonus`` (seat -> extra dice); ``rolls`` (seat -> dice rolled); ``hits`` (seat -> results
it must take, ``{"kill": n, "pain": n}``); ``taken`` (seat -> ``"unit#index"`` -> results
taken); ``kills_on`` (``"unit#index"`` -> Kills taken); ``pained`` (seat -> [unit, index]
still to retreat); ``killed`` (seat -> enemy figures it eliminated with Kills);
``devoured`` (seat -> enemy figures it removed by abilities, for requirements); ``no_dice`` (seat -> unit types
of that side that roll no dice in this battle: Cosmic Unity); ``exempt``
([seat, unit, index] of figures Invisibility keeps out of the battle: they stay on the map and
their Gates but roll no dice, take no results and cannot be chosen by battle abilities); ``present`` (seat ->
[unit, index] of the figures it had in the Area when the battle was declared or the dice rolled, for the
summary event at the end).

The defender may be one of the map's creatures instead of a faction (the Dreamlands' Bhole or Zoogs:
``defender`` is then its name, ``"bhole"`` or ``"zoogs"``, and the battle's dicts key its entries by that
name; see creatures.py and rules_text ``cthulhu-wars/dreamlands``). Only the attacker's faction hooks run
for the two sides then; :func:`sides`, :func:`opponent` and the ``enemy_*`` helpers let faction hooks
treat both kinds of defender alike (a creature has no Power, Doom or spellbooks).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from tabletop.games.cthulhu_wars import board, creatures
from tabletop.games.cthulhu_wars import words as words_of
from tabletop.games.cthulhu_wars.actions import Assign, Retreat, figure_label, read_figure
from tabletop.games.cthulhu_wars.dice import P_MISS, P_PAIN, dice_distribution
from tabletop.games.cthulhu_wars.neutrals import registry as neutral_registry
from tabletop.games.cthulhu_wars.state import FactionState, GameState, Pending

RULE = "cthulhu-wars/battle"
STEPS = ("before", "pre-attacker", "pre-defender", "roll", "rolled", "kills", "pains", "post", "creature", "retreat", "over")
#: A side of a battle: a seat, or the name of one of the map's creatures.
Side = int | str


def sides(battle: dict) -> tuple[int, ...]:
    """The factions (seats) fighting: attacker and defender, or the attacker alone against a creature."""
    return tuple(s for s in (battle["attacker"], battle["defender"]) if isinstance(s, int))


def creature(battle: dict) -> creatures.Creature | None:
    """The creature defending, if the defender is one."""
    defender = battle["defender"]
    return creatures.NEUTRALS[defender] if isinstance(defender, str) else None


def side_name(state: GameState, side: Side) -> str:
    return state.seats[side].faction if isinstance(side, int) else creatures.NEUTRALS[side].title


def enemy_key(state: GameState, name: str) -> Side:
    """The side a Battle action's ``enemy`` names: a faction's seat, or a creature's name."""
    return name if name in creatures.NEUTRALS else state.seat_of(name)


def present(state: GameState, side: Side, area: str) -> bool:
    """Whether ``side`` has figures in ``area``."""
    return creatures.NEUTRALS[side].present(state, area) > 0 if isinstance(side, str) else board.has_units(state, side, area)


# ---- what faction hooks may ask about the enemy ----------------------------------------
def enemy_state(state: GameState, battle: dict, seat: int) -> FactionState | None:
    """The faction ``seat`` battles, or None against a creature (which has no Power, Doom, spellbooks or faction
    features for any purpose: ``cthulhu-wars/dreamlands-bhole``)."""
    enemy = opponent(battle, seat)
    return state.seats[enemy] if isinstance(enemy, int) else None


def enemy_power(state: GameState, battle: dict, seat: int) -> int:
    enemy = enemy_state(state, battle, seat)
    return enemy.power if enemy else 0


def enemy_doom(state: GameState, battle: dict, seat: int) -> int:
    enemy = enemy_state(state, battle, seat)
    return enemy.doom if enemy else 0


def enemy_spellbooks(state: GameState, battle: dict, seat: int) -> int:
    enemy = enemy_state(state, battle, seat)
    return len(enemy.spellbooks) if enemy else 0


ROLES_MONSTER_OR_CULTIST = ("cultist", "monster")


def enemy_losable(state: GameState, battle: dict, seat: int, roles: tuple[str, ...] = ROLES_MONSTER_OR_CULTIST) -> list[str]:
    """Unit types of ``seat``'s enemy in the battle (not exempt) that an ability making it lose a unit of ``roles``
    can take: Monsters and Cultists by default, never a Terror unless ``roles`` names it (``cthulhu-wars/ancients``); against a creature, ``["zoog"]`` when the Zoogs can
    lose one (the Bhole never does: abilities against it affect only your own units)."""
    enemy = opponent(battle, seat)
    if isinstance(enemy, str):
        return [creatures.FIGURES[enemy]] if creatures.NEUTRALS[enemy].can_lose(state, battle, roles) else []
    faction = board.faction_of(state, enemy)
    theirs = board.in_battle(state, enemy, battle)
    return [k for k in faction.units_of(*roles) if k in theirs]


def enemy_loses_unit(state: GameState, battle: dict, seat: int, log: list[str],
                     roles: tuple[str, ...] = ROLES_MONSTER_OR_CULTIST) -> None:
    """``seat``'s enemy eliminates one of its units of ``roles`` in the battle (it chooses which); a Zoog simply
    goes (Devour, Abduct, Howl against Zoogs)."""
    enemy = opponent(battle, seat)
    if isinstance(enemy, str):
        creatures.NEUTRALS[enemy].lose_one(state, battle, log)
        return
    board.take_unit(state, enemy, battle["area"], enemy_losable(state, battle, seat, roles), "eliminate", seat, log,
                    exclude=board.exempt_in(battle, enemy))


def enemy_room(state: GameState, battle: dict, seat: int) -> int:
    """How many Kills ``seat``'s enemy can still take in the battle."""
    enemy = opponent(battle, seat)
    if isinstance(enemy, str):
        return creatures.NEUTRALS[enemy].room(state, battle["area"])
    return sum(board.in_battle(state, enemy, battle).values())


# ---- declaring ------------------------------------------------------------------------
def side_combat(state: GameState, seat: int, battle: dict | None, area: str) -> int:
    """Dice a side rolls: the sum of the Combat of its units in the battle (not those exempt) plus bonuses."""
    faction = board.faction_of(state, seat)
    present = board.in_battle(state, seat, battle) if battle else board.units_in(state, seat, area)
    silent = (battle or {}).get("no_dice", {}).get(seat, ())  # Cosmic Unity (cthulhu-wars/igoo-daoloth)
    dice = sum(faction.unit_combat(state, seat, kind, battle or {}, n) for kind, n in present.items() if kind not in silent)
    return dice + ((battle or {}).get("bonus", {}).get(seat, 0))


def can_battle(state: GameState, seat: int, area: str, enemy: Side) -> bool:
    """The attacker needs Combat of at least 1 there and the enemy (a faction or a creature) needs figures there."""
    probe = {"area": area, "attacker": seat, "defender": enemy}
    return present(state, enemy, area) and side_combat(state, seat, probe, area) >= 1


def start_battle(state: GameState, seat: int, area: str, enemy: Side, log: list[str]) -> None:
    state.battle = {
        "area": area, "attacker": seat, "defender": enemy, "step": 0, "used": [], "bonus": {},
        "hits": {}, "taken": {}, "pained": {seat: [], enemy: []}, "killed": {seat: 0, enemy: 0},
        "devoured": {seat: 0, enemy: 0}, "rolls": {}, "exempt": [], "present": {},
    }  # fmt: skip
    note_present(state, state.battle)
    log.append(f"{state.seats[seat].faction} battles {side_name(state, enemy)} in {area}.")


def note_present(state: GameState, battle: dict) -> None:
    """Add the figures each fighting faction has in the battle's Area now to ``battle["present"]`` (seat -> [unit,
    index]), for the summary at its end: taken when it is declared and again when the dice are rolled (units that
    joined before the dice: Seek and Destroy)."""
    for seat in sides(battle):
        known = battle["present"].setdefault(seat, [])
        for kind, places in state.seats[seat].units.items():
            for index, place in enumerate(places):
                if place == battle["area"] and [kind, index] not in known:
                    known.append([kind, index])


def opponent(battle: dict, seat: Side) -> Side:
    """The other side: a seat, or a creature's name."""
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
            if isinstance(seat, int) and (board.faction_of(state, seat).pre_battle_options(state, seat, battle)
                                          or neutral_registry.pre_battle_options(state, seat, battle)):
                state.pending.append(Pending(seat, "pre-battle"))
                return
        elif step == "roll":
            note_present(state, battle)
            roll_dice(state, battle, log)
        elif step == "rolled":
            for seat in sides(battle):
                board.faction_of(state, seat).after_roll(state, seat, battle, log)
            if state.pending:
                battle["step"] += 1
                return
        elif step == "kills" or step == "pains":
            if step == "kills":
                for seat in sides(battle):
                    board.faction_of(state, seat).before_kills(state, seat, battle, log)
            else:
                for seat in sides(battle):
                    board.faction_of(state, seat).before_pains(state, seat, battle, log)
                if state.pending:
                    return  # the Pains are asked when this step is taken again
            if (beast := creature(battle)) is not None:
                creature_takes(state, battle, beast, step[:-1], log)
            for seat in sides(battle):
                ask_assignment(state, battle, seat, step[:-1], log)
            if state.pending:
                battle["step"] += 1  # assignments answered arrive after this step
                return
        elif step == "post":
            for seat in sides(battle):
                board.faction_of(state, seat).post_battle(state, seat, battle, log)
            for seat in state.order_from(battle["attacker"]):
                board.faction_of(state, seat).after_any_battle(state, seat, battle, log)
        elif step == "creature":
            if (beast := creature(battle)) is not None:
                beast.after_results(state, battle, log)
        elif step == "retreat":
            if ask_retreat(state, battle, log):
                return
        elif step == "over":
            log.append(battle_summary(state, battle))
            for seat in state.order_from(battle["attacker"]):
                board.faction_of(state, seat).battle_over(state, seat, battle, log)
            if state.pending:
                battle["step"] += 1
                return
        else:
            state.battle = None
            return
        battle["step"] += 1


def battle_summary(state: GameState, battle: dict) -> str:
    """What each fighting faction lost in the battle, which of its units left the Area (retreats, abilities) and
    which stay, from the figures it had there (``cthulhu-wars/battle``): one event a player can read instead of
    the position."""
    area = battle["area"]
    parts = []
    for seat in sides(battle):
        lost: dict[str, int] = {}
        left: dict[str, int] = {}
        stay: dict[str, int] = {}
        for kind, index in battle.get("present", {}).get(seat, []):
            place = state.seats[seat].units[kind][index]
            bucket = stay if place == area else left if board.on_map(place) else lost
            bucket[kind] = bucket.get(kind, 0) + 1
        text = f"{state.seats[seat].faction} lost {words_of.unit_list(lost) or 'nothing'}"
        if left:
            text += f"; {words_of.unit_list(left)} left the Area"
        text += f"; {words_of.unit_list(stay)} {'stays' if sum(stay.values()) == 1 else 'stay'}" if stay else "; none of its units stay"
        parts.append(text)
    return f"Battle in {area} over: " + ". ".join(parts) + "."


def end_pre_battle(state: GameState, seat: int) -> None:
    """The seat is done with pre-battle abilities (called when it answers 'proceed')."""
    state.battle["step"] += 1


def roll_dice(state: GameState, battle: dict, log: list[str]) -> None:
    """Both sides roll at once: 6 Kill, 4-5 Pain, else a miss (a creature rolls its own Combat: the Bhole 6, Zoogs 0)."""
    area = battle["area"]
    for seat in (battle["attacker"], battle["defender"]):
        dice = side_combat(state, seat, battle, area) if isinstance(seat, int) else creatures.NEUTRALS[seat].dice(state)
        battle["rolls"][seat] = state.rng.dice(dice, 6, f"{side_name(state, seat)}'s battle dice in {area}")
        score_rolls(state, battle, seat, log, f"rolls {dice} {'die' if dice == 1 else 'dice'}")


def score_rolls(state: GameState, battle: dict, seat: Side, log: list[str], verb: str = "rolls") -> None:
    """The results ``seat``'s dice give the other side: 6 Kill, 4-5 Pain (again after a reroll)."""
    rolls = battle["rolls"][seat]
    kills, pains = rolls.count(6), sum(1 for r in rolls if r in (4, 5))
    battle["hits"][opponent(battle, seat)] = {"kill": kills, "pain": pains}
    if isinstance(seat, str) and creatures.NEUTRALS[seat].plural:
        verb = verb.replace("rolls", "roll", 1)
    log.append(f"{side_name(state, seat)} {verb} {rolls}: {kills} Kill, {pains} Pain.")


def creature_takes(state: GameState, battle: dict, beast: creatures.Creature, result: str, log: list[str]) -> None:
    """The attacker's Kills (then Pains) on a creature; Pains it sends back (a Zoog removed by Pain) are added to
    those the attacker takes (``cthulhu-wars/dreamlands-zoogs``)."""
    count = battle["hits"].get(beast.name, {}).get(result, 0)
    back = beast.take(state, battle, result, count, log)
    if back:
        hits = battle["hits"].setdefault(battle["attacker"], {"kill": 0, "pain": 0})
        hits["pain"] += back


def chooser(state: GameState, battle: dict, owner: int, step: str) -> int:
    """Who decides ``owner``'s kills, pains or retreats: a faction claiming it (Vengeance, Madness), else the owner;
    the Bhole's results with the option ``bhole_hits_assigned_by`` "next-player" (the seat after the attacker in
    play order, acting for the Bhole)."""
    claims = [s for s in state.order_from(battle["attacker"]) if board.faction_of(state, s).chooses_for(state, s, battle, owner, step)]
    if claims:
        return claims[0]
    if battle["defender"] == "bhole" and step in ("kill", "pain") and state.options.bhole_hits_assigned_by == "next-player":
        return state.order_from(battle["attacker"])[1]
    return owner


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
    outcomes = []
    for kind, index, load in picks:
        cap = faction.result_capacity(state, seat, kind)
        for _ in range(load):
            taken[f"{kind}#{index}"] = taken.get(f"{kind}#{index}", 0) + 1
            outcome = record_result(state, battle, seat, kind, index, assign.result, cap)
        outcomes.append(f"{words_of.unit_title(kind)}{f' ×{load}' if load > 1 else ''} {outcome}")
    if assign.units:
        count = sum(load for _, _, load in picks)
        result = assign.result.capitalize() + ("s" if count > 1 else "")
        log.append(f"{state.seats[seat].faction} takes {count} {result}: {', '.join(outcomes)}.")


def record_result(state: GameState, battle: dict, seat: int, kind: str, index: int, result: str, cap: int,
                  ask: bool = True) -> str:
    """A Kill eliminates (a unit absorbing two results dies only to two Kills); otherwise it is Pained. The
    owner's faction may first take the result up itself (``on_result``: Eternal); ``ask=False`` skips that.
    Returns what became of the figure, in words: "eliminated", "Pained" or "to be decided" (by its owner)."""
    if ask and board.faction_of(state, seat).on_result(state, seat, kind, index, result, battle):
        return "to be decided"
    key = f"{kind}#{index}"
    kills_on_it = battle.setdefault("kills_on", {}).get(key, 0) + (result == "kill")
    battle["kills_on"][key] = kills_on_it
    pained = battle["pained"].setdefault(seat, [])
    if result == "kill" and kills_on_it >= cap and not board.faction_of(state, seat).spares(state, seat, kind, battle, "kill"):
        board.eliminate(state, seat, kind, index)
        battle["killed"][opponent(battle, seat)] += 1
        neutral_registry.after_kill(state, seat, kind, battle, [])
        if [kind, index] in pained:
            pained.remove([kind, index])
        return "eliminated"
    if [kind, index] not in pained:
        pained.append([kind, index])
    return "Pained"


# ---- retreats -------------------------------------------------------------------------
def retreat_targets(state: GameState, battle: dict, seat: int) -> list[str]:
    """Adjacent Areas (through tunnels too) without units of the faction ``seat`` battled, without Zoogs, and not the
    Bhole's after a battle with it (``cthulhu-wars/battle``, ``cthulhu-wars/dreamlands``)."""
    enemy = opponent(battle, seat) if seat in sides(battle) else None
    barred = creatures.retreat_barred(state, battle) if state.pieces else ()
    return [
        a.id for a in state.layout.neighbours(battle["area"])
        if a.id not in barred and not (isinstance(enemy, int) and board.has_units(state, enemy, a.id))
    ]  # fmt: skip


def retreating_seats(battle: dict) -> list[int]:
    """Seats whose Pained units retreat, in order: the attacker, the defender, then any other (a Ghoul Pained by a
    Zoog after Necrophagy)."""
    first = list(sides(battle))
    return first + sorted(s for s in battle["pained"] if isinstance(s, int) and s not in first)


def ask_retreat(state: GameState, battle: dict, log: list[str]) -> bool:
    """Retreat Pained units, attacker's first; True when a seat must choose a destination."""
    for seat in retreating_seats(battle):
        pained = [(k, i) for k, i in battle["pained"][seat] if state.seats[seat].units[k][i] == battle["area"]]
        battle["pained"][seat] = [[k, i] for k, i in pained]
        if not pained:
            continue
        targets = retreat_targets(state, battle, seat)
        if len(targets) > 1:
            state.pending.append(Pending(chooser(state, battle, seat, "retreat"), "retreat", {"owner": seat}))
            return True
        for kind, index in pained:
            unit = words_of.unit_title(kind)
            if targets:
                board.place_figure(state, seat, kind, index, targets[0])
                log.append(f"{state.seats[seat].faction}'s Pained {unit} retreats from {battle['area']} to {targets[0]}.")
            elif board.faction_of(state, seat).spares(state, seat, kind, battle, "no-retreat"):
                log.append(f"{state.seats[seat].faction}'s Pained {unit} has nowhere to retreat and stays.")
            else:
                board.eliminate(state, seat, kind, index)
                log.append(f"{state.seats[seat].faction}'s Pained {unit} has nowhere to retreat and is eliminated.")
        battle["pained"][seat] = []
    return False


def retreat_options(state: GameState, seat: int) -> list[Retreat]:
    battle = state.battle
    kinds = sorted({k for k, _ in battle["pained"][seat]})
    return [Retreat(unit=k, target=t) for k in kinds for t in retreat_targets(state, battle, seat)]


def apply_retreat(state: GameState, seat: int, action: Retreat, log: list[str], chooser: int | None = None) -> None:
    """One Pained unit of ``seat`` retreats where ``chooser`` (the owner, or a faction choosing for it: Madness)
    sends it; the event names the unit, both Areas and who chose when it is not the owner."""
    battle = state.battle
    kind, index = next((k, i) for k, i in battle["pained"][seat] if k == action.unit)
    battle["pained"][seat].remove([kind, index])
    board.place_figure(state, seat, kind, index, action.target)
    by = f" ({state.seats[chooser].faction}'s choice)" if chooser is not None and chooser != seat else ""
    log.append(f"{state.seats[seat].faction}'s Pained {words_of.unit_title(kind)} retreats from {battle['area']} to "
               f"{action.target}{by}.")


# ---- odds -----------------------------------------------------------------------------
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
    defender_note: str | None = Field(default=None, description="How the defender takes results, when it is one of the "
                                      "map's creatures (the Bhole, Zoogs).")
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


def battle_preview(state: GameState, attacker: int, area: str, defender: Side) -> BattleOdds:
    """The odds of a battle in a live game, from each side's current Combat and unit count there (a creature: its
    own Combat and figures, with a note on how it takes results)."""
    probe = {"area": area, "attacker": attacker, "defender": defender}
    attacking = side_combat(state, attacker, probe, area)
    units = sum(board.units_in(state, attacker, area).values())
    if isinstance(defender, str):
        beast = creatures.NEUTRALS[defender]
        here = beast.present(state, area)
        odds = battle_odds(attacking, beast.dice(state), units, here)
        return odds.model_copy(update={"defender_note": beast.odds_note(state, attacking, here), "rule": beast.rule})
    odds = battle_odds(attacking, side_combat(state, defender, probe, area), units,
                       sum(board.units_in(state, defender, area).values()))
    note = neutral_registry.odds_note(state, attacker, defender, area)  # Vampirism (cthulhu-wars/neutral-star-vampire)
    return odds.model_copy(update={"defender_note": note}) if note else odds
