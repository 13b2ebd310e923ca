"""Setting up a game (rules_text ``cthulhu-wars/setup``).

Every faction starts with 8 Power and 6 Acolytes on a Gate it controls in its start Area. Factions
with a fixed start symbol are placed at once; then, as pending decisions, Windwalker chooses one of
its symbol Areas not yet taken, The Ancients an Area without a start symbol or a Citadel, and Opener of the
Way, last, any Area without a Gate (:attr:`~.factions.base.Faction.start_choice`). The First Player then picks the direction of play.
"""

from __future__ import annotations

from tabletop.core.errors import BadOptions
from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars import creatures
from tabletop.games.cthulhu_wars.neutrals import registry as neutrals
from tabletop.games.cthulhu_wars.factions import FACTIONS, default_factions
from tabletop.games.cthulhu_wars.maps import layout_for, layout_reading
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import POOL, FactionState, GameState, Pending

MIN_SEATS, MAX_SEATS = 3, 6
#: The player count of the games stored before the expansion factions could be seated.
FIVE_SEATS = 5
START_ACOLYTES = 6
START_POWER = 8
#: The order in which factions take their start Areas, by how they choose it.
START_ORDER = {"symbol": 0, "symbol-choice": 1, "unmarked": 2, "anywhere": 3}
#: Placeholder factions of earlier versions, gone since the real factions exist.
REMOVED_STAND_INS = ("stand-in-crawling-chaos", "stand-in-black-goat", "stand-in-yellow-sign", "stand-in-sleeper")


def faction_list() -> str:
    """Every faction id with its one-line description, for error messages and list_games."""
    return "; ".join(f"{name} ({FACTIONS[name].description})" for name in default_factions(len(FACTIONS)))


def chosen_factions(options: CthulhuWarsOptions, seats: int) -> list[str]:
    """The factions in seating order; refuse unknown, repeated or miscounted choices."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise BadOptions(f"Cthulhu Wars takes {MIN_SEATS} to {MAX_SEATS} players, not {seats}", rule="cthulhu-wars/setup",
                         legal=[str(n) for n in range(MIN_SEATS, MAX_SEATS + 1)])
    if options.stored_before_expansions and options.factions is None and seats == FIVE_SEATS:
        raise BadOptions(
            "This 5-player game was stored before the expansion factions existed: it seated the placeholder "
            "'stand-in-sleeper', which is gone, so its moves cannot be replayed. Start a new game.",
            rule="cthulhu-wars/setup",
        )
    names = options.factions or default_factions(seats)
    removed = [n for n in names if n in REMOVED_STAND_INS]
    if removed:
        raise BadOptions(
            f"{', '.join(removed)} was a placeholder faction and is gone (games that seated it cannot be replayed); "
            f"choose among: {', '.join(default_factions(len(FACTIONS)))}",
            rule="cthulhu-wars/setup",
            legal=default_factions(len(FACTIONS)),
        )
    unknown = [n for n in names if n not in FACTIONS]
    if unknown or len(names) != seats or len(set(names)) != seats:
        problem = f"unknown {', '.join(unknown)}" if unknown else f"got {len(names)} names, {len(set(names))} different"
        raise BadOptions(
            f"Choose {seats} different factions, one per seat ({problem}). The factions: {faction_list()}",
            rule="cthulhu-wars/setup",
            legal=default_factions(len(FACTIONS)),
        )
    return names


def new_game(options: CthulhuWarsOptions, seats: int, seed: int) -> GameState:
    """8 Power and 6 Acolytes for each faction; fixed start Areas now, chosen ones as decisions; Great Cthulhu
    goes first and, as in every round, the First Player first chooses the direction of play
    (``cthulhu-wars/setup``, ``cthulhu-wars/first-player``)."""
    names = chosen_factions(options, seats)
    layout = layout_for(options.map, seats, options.alternate_layout and seats == 4)
    layout_name = layout.name if options.north_atlantic_touches_north_pacific else layout_reading(layout.name, "seed")
    state = GameState(options=options, layout_name=layout_name, seats=[], gates={}, rng=Rng(seed))
    creatures.set_up(state)
    for name in names:
        units = {u.name: [POOL] * u.count for u in FACTIONS[name].units} | neutrals.starting_units(options)
        state.seats.append(FactionState(faction=name, power=START_POWER, units=units))
    choosers = []
    for seat in sorted(range(seats), key=lambda s: START_ORDER[start_choice(state, s)]):
        faction = FACTIONS[names[seat]]
        if start_choice(state, seat) == "symbol":
            start = layout.start_areas(faction.start_symbol) if faction.start_symbol else ()
            if not start:
                raise BadOptions(f"{faction.name} has no start area on {layout.title}", rule="cthulhu-wars/setup")
            place_start(state, seat, start[0].id)
        else:
            if not start_options(state, seat):
                raise BadOptions(f"{faction.name} has no start area on {layout.title}", rule="cthulhu-wars/setup")
            choosers.append(seat)
    state.first_player = first_player(state, names)
    state.pending = [Pending(seat, "start-area") for seat in choosers] + [Pending(state.first_player, "direction")]
    return state


def start_choice(state: GameState, seat: int) -> str:
    """How a faction starts: its own way (:attr:`~.factions.base.Faction.start_choice`), or, with the option
    ``start_areas`` "choose", anywhere without a Gate (rulings)."""
    return "anywhere" if state.options.start_areas == "choose" else FACTIONS[state.seats[seat].faction].start_choice


def start_options(state: GameState, seat: int) -> list[str]:
    """Where a faction that chooses its start may start: its symbol Areas not yet taken ("symbol-choice"), an Area
    with no faction's start symbol and no Citadel ("unmarked": The Ancients, ``cthulhu-wars/ancients``), or any Area
    without a Gate ("anywhere")."""
    faction = FACTIONS[state.seats[seat].faction]
    choice = start_choice(state, seat)
    if choice == "symbol-choice":
        candidates = [a.id for a in state.layout.start_areas(faction.start_symbol)] if faction.start_symbol else []
    elif choice == "unmarked":
        candidates = [a.id for a in state.layout.areas if a.faction_symbol is None and not a.citadel]
    else:
        candidates = [a.id for a in state.layout.areas]
    return [a for a in candidates if a not in state.gates]


def place_start(state: GameState, seat: int, area: str) -> None:
    """Six Acolytes and a Gate controlled by one of them."""
    fs = state.seats[seat]
    fs.units["acolyte"][:START_ACOLYTES] = [area] * START_ACOLYTES
    fs.flags["start-area"] = area
    state.gates[area] = (seat, "acolyte", 0)


def first_player(state: GameState, names: list[str]) -> int:
    """Great Cthulhu if seated; otherwise at random or seat order (option ``first_player_without_cthulhu``),
    never a faction that may not start first (Windwalker)."""
    if "great-cthulhu" in names:
        return names.index("great-cthulhu")
    eligible = [s for s, n in enumerate(names) if FACTIONS[n].may_start_first]
    if state.options.first_player_without_cthulhu == "random":
        chosen = state.rng.pick({names[s]: 1 for s in eligible}, "the faction that plays first")
        return names.index(chosen)
    return eligible[0]
