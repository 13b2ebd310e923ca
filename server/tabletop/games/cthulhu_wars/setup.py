"""Setting up a game (rules_text ``cthulhu-wars/setup``)."""

from __future__ import annotations

from tabletop.core.errors import BadOptions
from tabletop.core.rng import Rng
from tabletop.games.cthulhu_wars.factions import FACTIONS, default_factions
from tabletop.games.cthulhu_wars.maps import layout_for_players, layout_reading
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import POOL, FactionState, GameState, Pending

MIN_SEATS, MAX_SEATS = 3, 5
START_ACOLYTES = 6
START_POWER = 8


def chosen_factions(options: CthulhuWarsOptions, seats: int) -> list[str]:
    """The factions in seating order; refuse unknown, repeated or miscounted choices."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise BadOptions(f"Cthulhu Wars takes 3 to 5 players, not {seats}", rule="cthulhu-wars/setup")
    names = options.factions or default_factions(seats)
    unknown = [n for n in names if n not in FACTIONS]
    if unknown or len(names) != seats or len(set(names)) != seats:
        raise BadOptions(
            f"Choose {seats} different factions (got {names})", rule="cthulhu-wars/setup", legal=sorted(FACTIONS)
        )
    return names


def new_game(options: CthulhuWarsOptions, seats: int, seed: int) -> GameState:
    """8 Power, 6 Acolytes and a controlled Gate in each start area; Great Cthulhu goes first and, as in every
    round, the First Player first chooses the direction of play (``cthulhu-wars/first-player``)."""
    names = chosen_factions(options, seats)
    layout = layout_for_players(seats, options.alternate_layout and seats == 4)
    layout_name = layout.name if options.north_atlantic_touches_north_pacific else layout_reading(layout.name, "seed")
    state = GameState(options=options, layout_name=layout_name, seats=[], gates={}, rng=Rng(seed))
    for seat, name in enumerate(names):
        faction = FACTIONS[name]
        start = layout.start_areas(faction.start_symbol)
        if not start:
            raise BadOptions(f"{name} has no start area on {layout.title}", rule="cthulhu-wars/setup")
        units = {u.name: [POOL] * u.count for u in faction.units}
        units["acolyte"][:START_ACOLYTES] = [start[0].id] * START_ACOLYTES
        state.seats.append(FactionState(faction=name, power=START_POWER, units=units))
        state.gates[start[0].id] = (seat, "acolyte", 0)
    state.first_player = first_player(state, names)
    state.pending.append(Pending(state.first_player, "direction"))
    return state


def first_player(state: GameState, names: list[str]) -> int:
    if "great-cthulhu" in names:
        return names.index("great-cthulhu")
    if state.options.first_player_without_cthulhu == "random":
        return state.rng.below(len(names))
    return 0
