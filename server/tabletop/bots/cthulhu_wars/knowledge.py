"""What the Cthulhu Wars bots know about any faction, read from the faction framework.

Nothing here names a faction: unit roles and costs come from each faction's ``units``, Combat from
its ``unit_combat`` hook, Gate control from ``can_control_gates``, requirements from its
``requirements`` (name and text). Progress towards a requirement is read from its text by a few
patterns ("units in 6 areas", "control 3 gates", "8 gates are on the map", "12 power", "10 doom",
"gates in ocean areas"); a requirement no pattern reads gets no progress term, and the bots still
meet it whenever a single action or decision would (their look-ahead sees the spellbook it earns).
Optional extras keyed by requirement name sharpen it for particular factions (``BY_NAME``: the Yellow
Sign's glyphs, Opener of the Way's Gate counts with Yog-Sothoth and its meetings with enemy Gates and Great
Old Ones, the Windwalker's opposite pole and First Player, the Sleeper's paid gifts and Ritual, the Ancients'
Cathedral classes); every
faction, including ones added later, works without them.

The neutral material (rules ``cthulhu-wars/neutral-monsters``, ``cthulhu-wars/independent-great-old-ones``) is valued
in general terms: neutral Monsters by cost (or Combat, when higher), a held card's figures in the pool at a small
share, Independent Great Old Ones as no faction Great Old Ones, and progress towards each one's own spellbook
(``IGOO_BOOKS``; the book itself is kept in the seat's ``flags["igoo-books"]``, never one of the six).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.factions import Faction
from tabletop.games.cthulhu_wars.maps import load_layout
from tabletop.games.cthulhu_wars.neutrals import registry as neutral_registry
from tabletop.games.cthulhu_wars.neutrals.units import ABHOTH, BYATIS, DAOLOTH, NYOGTHA
from tabletop.games.cthulhu_wars.state import POOL, GameState

#: Mean value of an Elder Sign drawn blind (18 ones, 12 twos, 6 threes).
ELDER_SIGN_MEAN = (18 * 1 + 12 * 2 + 6 * 3) / 36


@functools.cache
def neighbours(layout_name: str) -> dict[str, tuple[str, ...]]:
    layout = load_layout(layout_name)
    return {a.id: tuple(b.id for b in layout.neighbours(a.id)) for a in layout.areas}


@functools.cache
def area_types(layout_name: str) -> dict[str, str]:
    return {a.id: a.type for a in load_layout(layout_name).areas}


@functools.cache
def glyphs(layout_name: str) -> dict[str, str | None]:
    return {a.id: a.glyph for a in load_layout(layout_name).areas}


@functools.cache
def distances(layout_name: str) -> dict[str, dict[str, int]]:
    """Steps between every two areas of a layout."""
    near = neighbours(layout_name)
    out = {}
    for start in near:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for a in frontier:
                for b in near[a]:
                    if b not in dist:
                        dist[b] = dist[a] + 1
                        nxt.append(b)
            frontier = nxt
        out[start] = dist
    return out


def faction(state: GameState, seat: int) -> Faction:
    """The seat's rules, neutral units included (a High Priest)."""
    return board.faction_of(state, seat)


def unit_worth(fac: Faction, kind: str) -> float:
    """What a figure on the map is worth: a Cultist its Power income, a Monster by its cost, a Great Old One more.

    Neutral units (rules ``cthulhu-wars/neutral-monsters``, ``cthulhu-wars/independent-great-old-ones``): a neutral
    Monster by its cost or, when its Combat is higher (the Gug), half-way to its Combat; an Independent Great Old One
    is no faction Great Old One (no Elder Sign at a Ritual, no faction spellbook with it): worth its Awaken cost as a
    Monster's is, and a little more for its ability, shared among its figures (Nyogtha has two)."""
    unit = fac.unit(kind)
    if unit.role == "cultist":
        return 1.6
    neutral = neutral_registry.owns(kind)
    if unit.role == "goo":
        if neutral:
            return (IGOO_BASE + 0.7 * unit.cost) / max(1, unit.count)
        return 5.0 + 0.4 * unit.cost
    if neutral:
        return 0.7 * max(unit.cost, (unit.cost + unit.combat) / 2) + 0.3
    return 0.7 * unit.cost + 0.3


#: An Independent Great Old One's worth beyond its cost as a Monster (it captures, protects and has an ability).
IGOO_BASE = 1.5
#: A figure of a held neutral card still in the pool (it may be Summoned later), as a share of its worth on the map.
POOL_SHARE = 0.1


def neutral_pool_worth(state: GameState, seat: int) -> float:
    """Figures of the neutral Monster cards ``seat`` holds that are in its pool (Summoned later at their printed cost;
    not Filth, placed only by Abhoth's action, nor a High Priest), at a share of their worth on the map; nothing
    while it controls no Gate to Summon them at."""
    from tabletop.games.cthulhu_wars.neutrals.monsters import CARDS

    fs = state.seats[seat]
    if not any(kind in fs.units for kind in CARDS) or not board.controlled_gates(state, seat):
        return 0.0
    fac = faction(state, seat)
    return sum(POOL_SHARE * unit_worth(fac, kind) * fs.units[kind].count(POOL) for kind in CARDS if kind in fs.units)


def combat_in(state: GameState, seat: int, area: str) -> int:
    """Dice ``seat`` would roll in a battle in ``area`` now (its units' Combat by the faction's own hook)."""
    fac = faction(state, seat)
    units = board.units_in(state, seat, area)
    probe = {"area": area, "attacker": seat, "defender": seat}
    try:
        return sum(fac.unit_combat(state, seat, kind, probe, n) for kind, n in units.items())
    except (KeyError, TypeError):  # a hook that needs a real battle: count printed Combat
        return sum(fac.unit(kind).combat * n for kind, n in units.items())


def protectors(state: GameState, seat: int, area: str) -> int:
    """Monsters, Terrors and Great Old Ones of ``seat`` in ``area``: they keep its Cultists from an enemy Monster's
    capture, though only a Great Old One of ``seat``'s stops an enemy Great Old One's (``cthulhu-wars/actions``,
    Capture Cultist; the evaluation's exposure term, ``evaluation.threatens``, tells the two apart)."""
    fac = faction(state, seat)
    return sum(n for kind, n in board.units_in(state, seat, area).items() if fac.unit(kind).role != "cultist")


# ---- requirement progress -------------------------------------------------------------------
Progress = Callable[[GameState, int, re.Match | None], float]


def _areas(state: GameState, seat: int, m: re.Match) -> float:
    return len(board.occupied_areas(state, seat)) / int(m["n"])


def _gates_controlled(state: GameState, seat: int, m: re.Match) -> float:
    return len(board.controlled_gates(state, seat)) / int(m["n"])


def _ocean_gates(state: GameState, seat: int, m: re.Match) -> float:
    """Gates controlled in oceans, and (at half) oceans without a Gate where a unit able to build one stands."""
    types = area_types(state.layout_name)
    mine = sum(1 for a in board.controlled_gates(state, seat) if types[a] == "ocean")
    sites = sum(1 for a in gate_sites(state, seat) if types[a] == "ocean")
    total = sum(1 for a in state.gates if types[a] == "ocean")
    return max((mine + 0.5 * sites) / int(m["n"]), total / (int(m["n"]) + 1))


def gate_sites(state: GameState, seat: int) -> set[str]:
    """Areas without a Gate where ``seat`` has a unit able to build and control one (a Gate a turn away)."""
    fac = faction(state, seat)
    fs = state.seats[seat]
    return {
        p for kind, places in fs.units.items() if fac.can_control_gates(state, seat, kind)
        for p in places if board.on_map(p) and p not in state.gates
    }  # fmt: skip


def _gates_on_map(state: GameState, seat: int, m: re.Match) -> float:
    """Gates of any kind on the map (Yog-Sothoth counts, rules ``cthulhu-wars/opener-of-the-way``) against n."""
    return len(board.gate_holders(state)) / int(m["n"])


def _power(state: GameState, seat: int, m: re.Match) -> float:
    return state.seats[seat].power / int(m["n"])


def _doom(state: GameState, seat: int, m: re.Match) -> float:
    return state.seats[seat].doom / int(m["n"])


def _gates_or_power(state: GameState, seat: int, m: re.Match) -> float:
    return max(len(board.controlled_gates(state, seat)) / int(m["n"]), state.seats[seat].power / int(m["p"]))


def figures_by_area(state: GameState, seat: int) -> Counter[str]:
    """How many figures ``seat`` has in each area of the map."""
    return Counter(p for places in state.seats[seat].units.values() for p in places if board.on_map(p))


def _kills(state: GameState, seat: int, m: re.Match) -> float:
    """Kill n enemy units in one battle: the best expected Kills (dice / 6) against n, where an enemy has n units
    (in the area, or at a discount next to it)."""
    n = int(m["n"])
    near = neighbours(state.layout_name)
    stacks = {a for o in range(len(state.seats)) if o != seat
              for a, count in figures_by_area(state, o).items() if count >= n}
    best = 0.0
    for area in board.occupied_areas(state, seat):
        dice = combat_in(state, seat, area)
        if area in stacks:
            best = max(best, dice / 6 / n)
        elif any(a in stacks for a in near[area]):  # a move away
            best = max(best, 0.6 * dice / 6 / n)
    return best


def _dice(state: GameState, seat: int, m: re.Match) -> float:
    """Roll n or more dice in one battle: the most Combat in one area against n."""
    return max((combat_in(state, seat, a) for a in board.occupied_areas(state, seat)), default=0) / int(m["n"])


#: Patterns read from a requirement's text, first match wins (case-insensitive).
PATTERNS: list[tuple[re.Pattern, Progress]] = [
    (re.compile(r"control (?P<n>\d+) gates in ocean", re.I), _ocean_gates),
    (re.compile(r"control (?P<n>\d+) gates or have (?P<p>\d+) power", re.I), _gates_or_power),
    (re.compile(r"units in (?P<n>\d+) areas", re.I), _areas),
    (re.compile(r"control (?P<n>\d+) gates", re.I), _gates_controlled),
    (re.compile(r"(?P<n>\d+) gates (?:are|exist|stand)", re.I), _gates_on_map),
    (re.compile(r"have (?P<n>\d+) power", re.I), _power),
    (re.compile(r"reach (?P<n>\d+) doom", re.I), _doom),
    (re.compile(r"kill\D*(?P<n>\d+) enemy units?", re.I), _kills),
    (re.compile(r"roll (?P<n>\d+) or more (?:combat )?dice", re.I), _dice),
]


def _glyph_progress(glyph: str) -> Progress:
    """The Yellow Sign's Desecration requirements: the King in Yellow (who Desecrates; any Great Old One for a
    faction without him) near an undesecrated area with the glyph, and units with him there."""

    def progress(state: GameState, seat: int, m: re.Match | None) -> float:
        fs = state.seats[seat]
        goos = faction(state, seat).goos()
        desecrators = [k for k in goos if "king" in k] or list(goos)
        goo_places = [p for kind in desecrators for p in fs.units[kind] if board.on_map(p)]
        if not goo_places:
            return 0.0
        marks = glyphs(state.layout_name)
        done = fs.flags.get("desecrated", [])
        targets = [a for a, g in marks.items() if g == glyph and a not in done]
        if not targets:
            return 0.0
        dist = distances(state.layout_name)
        best = min(dist[p][t] for p in goo_places for t in targets)
        if best == 0:  # there: the more units with it, the likelier the roll succeeds
            area = next(p for p in goo_places if p in targets)
            return min(0.9, 0.5 + 0.08 * sum(board.units_in(state, seat, area).values()))
        return 0.45 / best ** 0.5

    return progress


def _goo_places(state: GameState, seat: int) -> list[str]:
    fs = state.seats[seat]
    return [p for kind in faction(state, seat).goos() for p in fs.units[kind] if board.on_map(p)]


def _gates_needed(name: str, default: int) -> Progress:
    """Opener of the Way's Gate counts (``cthulhu-wars/opener-of-the-way``): Gates on the map, Yog-Sothoth
    included, against the faction's own threshold (``twelve-gates``: 10 or 12 by player count and option)."""

    def progress(state: GameState, seat: int, m: re.Match | None) -> float:
        need = getattr(faction(state, seat), "gates_needed", lambda _s, _n: default)(state, name)
        return min(0.9, len(board.gate_holders(state)) / need) ** 2

    return progress


def _enemy_gates(state: GameState, seat: int, m: re.Match | None) -> float:
    """Units in 2 Areas each holding an enemy-controlled Gate: such Areas reached count 1, those a move away 0.4."""
    near = neighbours(state.layout_name)
    targets = {a for a, holder in board.gate_holders(state) if holder is not None and holder != seat}
    mine = board.occupied_areas(state, seat)
    there = len(targets & mine)
    close = sum(1 for t in targets - mine if any(a in mine for a in near[t]))
    return (there + 0.4 * min(close, 2 - min(there, 2))) / 2


def _lose_a_unit(state: GameState, seat: int, m: re.Match | None) -> float:
    """Lose a unit in a battle: likelier where our units share an Area with enemy Combat (a battle a turn away)."""
    for area in board.occupied_areas(state, seat):
        if any(combat_in(state, o, area) for o in board.enemies_in(state, seat, area)):
            return 0.6
    return 0.0


def _goo_meets_goo(state: GameState, seat: int, m: re.Match | None) -> float:
    """Our Great Old One in an Area with an enemy one: nearer is better (one step away is half-way)."""
    return _nearness_to_enemy_goos(state, seat, _goo_places(state, seat))


def _nearness_to_enemy_goos(state: GameState, seat: int, places: list[str]) -> float:
    """How near the nearest of ``places`` is to an enemy Great Old One: 0.6 in its Area, half-way one step away."""
    theirs = [p for o in range(len(state.seats)) if o != seat for p in _goo_places(state, o)]
    if not places or not theirs:
        return 0.0
    dist = distances(state.layout_name)
    best = min(dist[a].get(b, 99) for a in places for b in theirs)
    return 0.0 if best >= 99 else 0.6 / (1 + best)


def _first_player(state: GameState, seat: int, m: re.Match | None) -> float:
    """Be the First Player (``cthulhu-wars/first-player``: the most Power after Gather Power): our expected income
    (2 a Gate, 1 a Cultist, Power kept by Hibernate) against the best rival's."""

    def income(s: int) -> float:
        fs = state.seats[s]
        kept = fs.power if fs.flags.get("hibernating") else 0
        return 2 * board.gate_count(state, s) + board.cultists_on_map(state, s) + kept

    rival = max((income(o) for o in range(len(state.seats)) if o != seat), default=0.0)
    return 0.8 * min(1.0, income(seat) / max(rival + 1, 1))


def _opposite_gate(state: GameState, seat: int, m: re.Match | None) -> float:
    """A Gate in the Windwalker-symbol Area we did not start in: a unit able to hold a Gate there counts much,
    one near it less."""
    from tabletop.games.cthulhu_wars.factions.windwalker import symbol_areas

    start = state.seats[seat].flags.get("start-area")
    poles = [a for a in symbol_areas(state.layout_name, "windwalker") if a != start]
    if not start or not poles:
        return 0.0
    fac = faction(state, seat)
    builders = [p for kind, places in state.seats[seat].units.items() if fac.can_control_gates(state, seat, kind)
                for p in places if board.on_map(p)]  # fmt: skip
    if not builders:
        return 0.0
    dist = distances(state.layout_name)
    best = min(dist[b].get(p, 99) for b in builders for p in poles)
    return 0.7 if best == 0 else 0.45 / best ** 0.5 if best < 99 else 0.0


def _pay(cost: int) -> Progress:
    """A requirement met by paying Power as an action (the Sleeper's gifts): Power in hand towards the price."""

    def progress(state: GameState, seat: int, m: re.Match | None) -> float:
        return 0.6 * min(1.0, state.seats[seat].power / cost)

    return progress


def _ritual(state: GameState, seat: int, m: re.Match | None) -> float:
    """Perform a Ritual: Power in hand towards the Ritual track's cost."""
    return 0.6 * min(1.0, state.seats[seat].power / max(1, state.ritual_cost))


def _cathedral_progress(requirement: str) -> Progress:
    """The Ancients' Cathedral requirements (``cthulhu-wars/ancients``): a unit able to build one (an Acolyte) in an
    Area of the requirement's glyph class, or near one; the requirement is met when a Cathedral is built there."""

    def progress(state: GameState, seat: int, m: re.Match | None) -> float:
        from tabletop.games.cthulhu_wars.factions.ancients import CLASS_REQUIREMENTS

        fac = faction(state, seat)
        classify = getattr(fac, "glyph_class", None)
        if classify is None:
            return 0.0
        fs = state.seats[seat]
        builders = {p for kind, places in fs.units.items() if fac.can_control_gates(state, seat, kind)
                    for p in places if board.on_map(p)}  # fmt: skip
        targets = [a.id for a in state.layout.areas if CLASS_REQUIREMENTS[classify(state, a.id)] == requirement]
        if not builders or not targets:
            return 0.0
        dist = distances(state.layout_name)
        nearest = min(dist[b].get(t, 99) for b in builders for t in targets)
        return 0.6 if nearest == 0 else 0.35 if nearest == 1 else 0.15

    return progress


#: Optional extras by requirement name (faction knowledge beyond the generic patterns): the Yellow Sign's glyphs,
#: Opener of the Way's Gates and meetings, the Windwalker's poles and First Player, the Sleeper's payments, the
#: Ancients' Cathedral classes.
BY_NAME: dict[str, Progress] = {
    "cathedral-arrow": _cathedral_progress("cathedral-arrow"),
    "cathedral-snake": _cathedral_progress("cathedral-snake"),
    "cathedral-claw": _cathedral_progress("cathedral-claw"),
    "cathedral-unmarked": _cathedral_progress("cathedral-unmarked"),
    "desecrate-arrow": _glyph_progress("arrow"),
    "desecrate-snake": _glyph_progress("snake"),
    "desecrate-claw": _glyph_progress("claw"),
    "eight-gates": _gates_needed("eight-gates", 8),
    "twelve-gates": _gates_needed("twelve-gates", 12),
    "enemy-gates": _enemy_gates,
    "lose-a-unit": _lose_a_unit,
    "goo-meets-goo": _goo_meets_goo,
    "first-player": _first_player,
    "opposite-gate": _opposite_gate,
    "give-three": _pay(3),
    "all-gain-one": _pay(3),
    "all-lose-one": _pay(3),
    "ritual": _ritual,
}


# ---- the Independent Great Old Ones' own spellbooks (``cthulhu-wars/independent-great-old-ones``) -------------------
def _byatis_book(state: GameState, seat: int, area: str) -> float:
    """Byatis survives a battle in which an enemy unit is Killed: he never moves, so an enemy in his Area (a battle
    to declare, more likely won with more of our Combat there) or next to it (it may come)."""
    enemies = board.enemies_in(state, seat, area)
    if enemies:
        dice = combat_in(state, seat, area)
        return min(0.8, 0.3 + 0.08 * dice)
    near = neighbours(state.layout_name)[area]
    return 0.2 if any(board.enemies_in(state, seat, a) for a in near) else 0.0


def _abhoth_book(state: GameState, seat: int, area: str) -> float:
    """The Brood: 4 different Monster types or 8 Monsters in play (Filth counts)."""
    fac = faction(state, seat)
    fs = state.seats[seat]
    counts = [sum(1 for p in fs.units[k] if board.in_play(state, p)) for k in fac.units_of("monster")]
    return max(sum(1 for n in counts if n) / 4, sum(counts) / 8)


def _daoloth_book(state: GameState, seat: int, area: str) -> float:
    """Any Great Old One Killed anywhere: likelier while a Great Old One stands where another faction has Combat."""
    for s in range(len(state.seats)):
        for place in _goo_places(state, s):
            if any(combat_in(state, o, place) for o in board.enemies_in(state, s, place)):
                return 0.4
    return 0.0


def _nyogtha_book(state: GameState, seat: int, area: str) -> float:
    """Nyogtha survives a battle against an enemy Great Old One: nearer one is better (one step away half-way)."""
    figures = [p for p in state.seats[seat].units.get(NYOGTHA, ()) if board.on_map(p)]
    return _nearness_to_enemy_goos(state, seat, figures)


#: Progress towards each Independent Great Old One's own spellbook, read where (its first figure) stands.
IGOO_BOOKS: dict[str, Callable[[GameState, int, str], float]] = {
    BYATIS: _byatis_book, ABHOTH: _abhoth_book, DAOLOTH: _daoloth_book, NYOGTHA: _nyogtha_book,
}  # fmt: skip


def igoo_books(state: GameState, seat: int) -> int:
    """Spellbooks on the Independent Great Old One cards ``seat`` holds (no faction spellbook: not one of the six)."""
    fs = state.seats[seat]
    return sum(1 for unit in fs.flags.get("igoo-books", ()) if unit in fs.units)


def igoo_progress(state: GameState, seat: int) -> float:
    """Progress towards the spellbooks of the Independent Great Old Ones ``seat`` has on the map and whose book is
    not on their card yet, each squared as for the faction's requirements (0 to 0.81 each)."""
    fs = state.seats[seat]
    done = fs.flags.get("igoo-books", ())
    total = 0.0
    for unit, read in IGOO_BOOKS.items():
        if unit not in fs.units or unit in done:
            continue
        area = next((p for p in fs.units[unit] if board.on_map(p)), None)
        if area is not None:
            total += min(0.9, read(state, seat, area)) ** 2
    return total


def requirement_progress(state: GameState, seat: int) -> float:
    """Sum over the seat's unmet requirements of how far it is towards each, squared (0 to 0.81 each)."""
    fs = state.seats[seat]
    total = 0.0
    for req in faction(state, seat).requirements:
        if req.name in fs.requirements:
            continue
        reader = BY_NAME.get(req.name)
        if reader is not None:
            total += min(0.9, reader(state, seat, None))  # these readers already grow towards the end
            continue
        found = reader_for(req.text)
        if found is not None:
            read, m = found
            total += min(0.9, read(state, seat, m)) ** 2  # the last steps count most
    return total


@functools.lru_cache(maxsize=256)
def reader_for(text: str) -> tuple[Progress, re.Match] | None:
    """The first pattern matching a requirement's text, with its match (read once per text)."""
    for pattern, read in PATTERNS:
        m = pattern.search(text)
        if m:
            return read, m
    return None


def public_doom(state: GameState, seat: int) -> float:
    """Doom with Elder Signs as anyone but their holder sees them: each at the bag's mean."""
    fs = state.seats[seat]
    return fs.doom + len(fs.elder_signs) * ELDER_SIGN_MEAN


def books(state: GameState, seat: int) -> int:
    """Spellbooks held or owed (a met requirement whose spellbook is still to be chosen counts)."""
    fs = state.seats[seat]
    return max(len(fs.spellbooks), len(fs.requirements))
