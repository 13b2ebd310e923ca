"""Figures on the map: placing, removing, counting, Gates and Elder Signs (rules_text ``cthulhu-wars/setup``).

These helpers change a (copied) state in place and keep its bookkeeping true: a figure
that leaves an area or dies leaves its Gate Abandoned, and captives are tracked on the
captor's card.
"""

from __future__ import annotations

import functools

from tabletop.games.cthulhu_wars.factions import FACTIONS, Faction
from tabletop.games.cthulhu_wars.actions import Lose
from tabletop.games.cthulhu_wars.neutrals import registry as neutral_registry
from tabletop.games.cthulhu_wars.state import CAPTURED, CARD, HELD, GameState, Pending, UnitPlaces
from tabletop.games.cthulhu_wars import words as words_of


def faction_of(state: GameState, seat: int) -> Faction:
    """The rules ``seat`` plays by: its faction, with any neutral unit types it holds added (rules_text
    ``cthulhu-wars/high-priests``); kept with the seat's units until a unit type comes or goes (:class:`UnitPlaces`)."""
    fs = state.seats[seat]
    units = fs.units
    try:
        known = units.rules
    except AttributeError:  # a plain dict, or made without its rules
        known = None
    if known is not None and known[0] == fs.faction:
        return known[1]
    rules = rules_for(fs.faction, tuple(units))
    if type(units) is UnitPlaces:
        units.rules = (fs.faction, rules)
    return rules


@functools.cache
def defines_hook(name: str, hook: str) -> bool:
    """Whether the rules of faction ``name`` (with any neutral unit types added: :class:`NeutralUnits`) define the
    :class:`Faction` hook ``hook`` themselves; the others keep the default, so asking them changes nothing."""
    default = getattr(Faction, hook)
    added = getattr(neutral_registry.NeutralUnits, hook, default)
    return getattr(type(FACTIONS[name]), hook) is not default or added is not default


@functools.cache
def factions_defining(hook: str) -> frozenset[str]:
    """The factions whose rules define the :class:`Faction` hook ``hook`` themselves (:func:`defines_hook`): a loop over
    the seats that asks the hook need ask only their seats (it is asked for every seat many times a move)."""
    return frozenset(name for name in FACTIONS if defines_hook(name, hook))


def rules_for(name: str, kinds: tuple[str, ...]) -> Faction:
    """The rules of faction ``name`` holding the unit types ``kinds``: its own, or with the neutral types added."""
    faction = FACTIONS[name]
    if len(kinds) == len(faction.units):
        return faction
    return neutral_registry.variant(faction, kinds)


def on_map(place: str) -> bool:
    return not place.startswith("@")


def units_in(state: GameState, seat: int, area: str) -> dict[str, int]:
    """Figures of ``seat`` in ``area`` by unit type."""
    return state.seats[seat].in_area(area)


def exempt_in(battle: dict | None, seat: int) -> tuple[tuple[str, int], ...]:
    """Figures (type, index) of ``seat`` exempt from ``battle`` (Invisibility): still on the map, on their
    Gate and counted for everything else, but not in the battle (rules_text ``cthulhu-wars/crawling-chaos``)."""
    return tuple((kind, index) for side, kind, index in (battle or {}).get("exempt", ()) if side == seat)


def in_battle(state: GameState, seat: int, battle: dict) -> dict[str, int]:
    """Figures of ``seat`` taking part in ``battle``, by unit type: in its area and not exempt."""
    counts = units_in(state, seat, battle["area"])
    for kind, _ in exempt_in(battle, seat):
        counts[kind] -= 1
        if not counts[kind]:
            del counts[kind]
    return counts


def movable(state: GameState, seat: int, kinds: list[str]) -> list[str]:
    """The unit types among ``kinds`` that abilities may move (not Byatis: rules_text ``cthulhu-wars/igoo-byatis``)."""
    return [k for k in kinds if not neutral_registry.immovable(state, seat, k)]


def any_in(state: GameState, seat: int, area: str, kinds: tuple[str, ...]) -> bool:
    """Whether ``seat`` has a figure of one of ``kinds`` in ``area`` (one of them among :func:`units_in`)."""
    units = state.seats[seat].units
    for kind in kinds:
        if area in units.get(kind, ()):
            return True
    return False


def kinds_in(state: GameState, seat: int, area: str) -> list[str]:
    """The unit types of ``seat`` with figures in ``area``, in the order of :func:`units_in`."""
    return [kind for kind, places in state.seats[seat].units.items() if area in places]


def has_units(state: GameState, seat: int, area: str) -> bool:
    for places in state.seats[seat].units.values():
        if area in places:
            return True
    return False


def occupied_areas(state: GameState, seat: int) -> set[str]:
    """The Areas where ``seat`` has figures (each place once, then the places off the map left out: :func:`on_map`,
    written out as this is asked many times a move)."""
    return {p for p in set().union(*state.seats[seat].units.values()) if p[0] != "@"}


def gate_figure(state: GameState, seat: int, kind: str, area: str) -> int | None:
    """Index of the figure of ``kind`` controlling the Gate in ``area``, if it is one of them."""
    holder = state.gates.get(area)
    return holder[2] if holder and holder[0] == seat and holder[1] == kind else None


def pick_figure(state: GameState, seat: int, kind: str, place: str, *, from_gate: bool = False,
                exclude: tuple[tuple[str, int], ...] = ()) -> int:
    """A figure of ``kind`` at ``place``: one off the Gate unless ``from_gate`` (or no other is there)."""
    controller = gate_figure(state, seat, kind, place)
    candidates = [i for i, p in enumerate(state.seats[seat].units[kind]) if p == place and (kind, i) not in exclude]
    if from_gate and controller in candidates:
        return controller
    others = [i for i in candidates if i != controller]
    return (others or candidates)[0]


def place_figure(state: GameState, seat: int, kind: str, index: int, target: str) -> None:
    """Put figure ``index`` of ``kind`` at ``target``, abandoning any Gate it controlled."""
    places = state.seats[seat].units[kind]
    source = places[index]
    holder = state.gates.get(source)
    if holder == (seat, kind, index):
        state.gates[source] = None
    places[index] = target


def eliminate(state: GameState, seat: int, kind: str, index: int) -> None:
    """Send a figure back to its pool (a killed Great Old One may be Awakened again), or out of the game where its
    faction says so (Extinction: rules_text ``cthulhu-wars/ancients-extinction``)."""
    place_figure(state, seat, kind, index, faction_of(state, seat).eliminated_place(state, seat, kind))


def capture(state: GameState, captor: int, victim: int, kind: str, index: int) -> None:
    place_figure(state, victim, kind, index, CAPTURED)
    state.seats[captor].captives.append((victim, kind, index))


def controlled_gates(state: GameState, seat: int) -> list[str]:
    """Areas of the Gates ``seat`` controls on the map: those its units hold, then those it holds without a
    Cultist (Yog-Sothoth; an Area with both is listed twice, each Gate counting)."""
    return faction_of(state, seat).controlled_gates(state, seat)


def gate_count(state: GameState, seat: int) -> int:
    """Gates that give ``seat`` Power and Doom: on the map and held off it (Cursed Slumber)."""
    return len(controlled_gates(state, seat)) + faction_of(state, seat).off_map_gates(state, seat)


def gate_holders(state: GameState) -> list[tuple[str, int | None]]:
    """Every Gate on the map as (area, controlling seat or None if Abandoned), Yog-Sothoth included."""
    held = [(area, holder[0] if holder else None) for area, holder in state.gates.items()]
    keepers = factions_defining("gate_areas")
    return held + [(area, s) for s, fs in enumerate(state.seats) if fs.faction in keepers
                   for area in faction_of(state, s).gate_areas(state, s)]


def has_gate(state: GameState, area: str) -> bool:
    """Whether ``area`` holds a Gate of any kind (Yog-Sothoth counts; rules_text ``cthulhu-wars/opener-of-the-way``)."""
    if area in state.gates:
        return True
    keepers = factions_defining("gate_areas")
    return any(area in faction_of(state, s).gate_areas(state, s) for s, fs in enumerate(state.seats)
               if fs.faction in keepers)


def gate_areas(state: GameState, seat: int) -> list[str]:
    """Where ``seat`` holds a Gate with no Cultist on it (:meth:`Faction.gate_areas`; Yog-Sothoth), not asked of
    rules that keep the default hook (none)."""
    if state.seats[seat].faction not in factions_defining("gate_areas"):
        return []
    return faction_of(state, seat).gate_areas(state, seat)


def abandoned_gates(state: GameState) -> list[str]:
    return [area for area, holder in state.gates.items() if holder is None]


def cultists_on_map(state: GameState, seat: int) -> int:
    faction = faction_of(state, seat)
    return sum(1 for kind in faction.cultists() for p in state.seats[seat].units[kind] if on_map(p))


def in_play(state: GameState, place: str) -> bool:
    """On the map, held on a card by an ability (Cursed Slumber, Ancient Sorcery), or Submerged on the faction
    card while option ``submerged_units_in_play`` holds (rulings)."""
    return on_map(place) or place == HELD or (place == CARD and state.options.submerged_units_in_play)


def cultists_in_play(state: GameState, seat: int) -> int:
    """Cultists that give Power at Gather Power: on the map, and Submerged ones (see :func:`in_play`)."""
    faction = faction_of(state, seat)
    return sum(1 for kind in faction.cultists() for p in state.seats[seat].units[kind] if in_play(state, p))


def goos_in_play(state: GameState, seat: int, independents: bool = False) -> int:
    """This faction's Great Old Ones in play (each gives a Ritual an Elder Sign; see :func:`in_play`); Independent
    Great Old Ones it controls are no faction Great Old Ones and count only with ``independents``
    (``cthulhu-wars/independent-great-old-ones``)."""
    faction = faction_of(state, seat)
    kinds = [k for k in faction.goos() if independents or not neutral_registry.owns(k)]
    return sum(1 for kind in kinds for p in state.seats[seat].units[kind] if in_play(state, p))


def enemies_in(state: GameState, seat: int, area: str) -> list[int]:
    return [s for s in range(len(state.seats)) if s != seat and has_units(state, s, area)]


def enemies_by_area(state: GameState, seat: int) -> dict[str, list[int]]:
    """Each Area where ``seat`` has figures (:func:`occupied_areas`) with the other seats that have figures there,
    in seat order (:func:`enemies_in` for all of them at once)."""
    found: dict[str, list[int]] = {area: [] for area in occupied_areas(state, seat)}
    for other, fs in enumerate(state.seats):
        if other != seat:
            for area in found.keys() & set().union(*fs.units.values()):
                found[area].append(other)
    return found


def draw_elder_sign(state: GameState, seat: int, log: list[str]) -> None:
    """Draw a hidden Elder Sign from the bag; with the bag empty, gain 1 Doom instead."""
    total = sum(state.es_bag)
    who = state.seats[seat].faction
    if total == 0:
        state.seats[seat].doom += 1
        log.append(f"{who} is owed an Elder Sign but none are left: +1 Doom instead.")
        return
    tokens = {str(value): left for value, left in enumerate(state.es_bag, start=1)}
    value = int(state.rng.pick(tokens, f"an Elder Sign drawn for {who}", secret=True))
    state.es_bag[value - 1] -= 1
    state.seats[seat].elder_signs.append(value)
    log.append(f"{who} draws an Elder Sign (hidden).")


def reveal_elder_signs(state: GameState, seat: int, log: list[str]) -> None:
    fs = state.seats[seat]
    if fs.elder_signs:
        gained = sum(fs.elder_signs)
        log.append(f"{fs.faction} reveals Elder Signs {fs.elder_signs}: +{gained} Doom.")
        fs.doom += gained
        fs.elder_signs = []
        neutral_registry.after_reveal(state, seat, gained, log)


# ---- losing a unit (victim's choice) ---------------------------------------------------
def loss_options(state: GameState, victim: int, area: str, kinds: list[str],
                 exclude: tuple[tuple[str, int], ...] = ()) -> list[Lose]:
    """Which figure the victim can give up: each unit type, off or on its Gate (``exclude``: figures that may
    not be chosen, e.g. those exempt from a battle)."""
    options = []
    for kind in kinds:
        barred = [i for k, i in exclude if k == kind]
        gate = gate_figure(state, victim, kind, area)
        n = state.seats[victim].count(kind, area) - len(barred)
        on_gate = gate is not None and gate not in barred
        if n - on_gate > 0:
            options.append(Lose(unit=kind))
        if on_gate:
            options.append(Lose(unit=kind, from_gate=True))
    return options


def take_unit(state: GameState, victim: int, area: str, kinds: list[str], mode: str, by: int, log: list[str],
              exclude: tuple[tuple[str, int], ...] = ()) -> None:
    """The victim gives up one figure of ``kinds`` in ``area`` ('capture' or 'eliminate'); it chooses if it can.
    Figures in ``exclude`` (exempt from the battle) cannot be taken."""
    options = loss_options(state, victim, area, kinds, exclude)
    if not options:
        return
    data = {"victim": victim, "area": area, "kinds": kinds, "mode": mode, "by": by, "exclude": [list(f) for f in exclude]}
    if len(options) == 1:
        apply_loss(state, data, options[0], log)
    else:
        chooser = victim if mode != "capture" or state.options.victim_chooses_captured_cultist else by
        if mode == "capture-monster":  # Capture Monster: the owner always picks (cthulhu-wars/sleeper)
            chooser = victim
        state.pending.insert(0, Pending(chooser, "lose", data))


def apply_loss(state: GameState, data: dict, choice: Lose, log: list[str]) -> None:
    victim, area, by = data["victim"], data["area"], data["by"]
    exclude = tuple((k, i) for k, i in data.get("exclude", ()))
    index = pick_figure(state, victim, choice.unit, area, from_gate=choice.from_gate, exclude=exclude)
    if data["mode"].startswith("capture"):
        capture(state, by, victim, choice.unit, index)
        log.append(f"{state.seats[by].faction} captures {state.seats[victim].faction}'s {words_of.unit_title(choice.unit)} in {area}.")
    else:
        eliminate(state, victim, choice.unit, index)
        log.append(f"{state.seats[victim].faction} loses {words_of.a_unit(choice.unit)} in {area}.")
