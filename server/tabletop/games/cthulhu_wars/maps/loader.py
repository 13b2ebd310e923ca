"""Loading layouts from package data (rules_text ``cthulhu-wars/maps``).

Every ``data/<name>.json`` file is a layout; adding a map means adding a file. A game option can
select a documented *reading* of a layout that differs from its data file (see
``cthulhu-wars/map-decisions``): such a layout is named ``<layout>+<reading>``, e.g. ``earth_5p+seed``.
"""

from __future__ import annotations

import functools
from importlib.resources import files

from tabletop.core.errors import BadOptions
from tabletop.games.cthulhu_wars.maps.model import MapLayout
from tabletop.games.cthulhu_wars.maps.names import RULE

_DATA = files("tabletop.games.cthulhu_wars.maps").joinpath("data")


class UnknownLayout(BadOptions):
    """No layout of that name is installed."""

    kind = "unknown_layout"


def _installed_layouts() -> tuple[str, ...]:
    return tuple(sorted(entry.name.removesuffix(".json") for entry in _DATA.iterdir() if entry.name.endswith(".json")))


#: The names of every installed layout, e.g. ``("earth_3p", "earth_4p", ...)``.
LAYOUTS: tuple[str, ...] = _installed_layouts()

#: Readings a game option may select: reading -> layout -> adjacent pairs that reading leaves out.
#: "seed": the seed's own lists for the Western 5-player side, without North Atlantic - North Pacific
#: (map decision 9; the published map and the layout files have the pair).
READINGS: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {
    "seed": {
        "earth_4p": (("north-atlantic", "north-pacific"),),
        "earth_5p": (("north-atlantic", "north-pacific"),),
    },
}

_EARTH_BY_PLAYERS = {(3, False): "earth_3p", (4, False): "earth_4p", (4, True): "earth_4p_alt", (5, False): "earth_5p"}


def load_layout(name: str) -> MapLayout:
    """The layout called ``name`` (case, spaces and hyphens are forgiven: 'Earth-3p')."""
    return _load(name.strip().lower().replace("-", "_").replace(" ", "_"))


@functools.cache
def _load(name: str) -> MapLayout:
    base, _, reading = name.partition("+")
    if reading:
        return _reading(base, reading)
    if name not in LAYOUTS:
        raise UnknownLayout(f"No map layout called {name!r}", rule=RULE, legal=LAYOUTS)
    layout = MapLayout.model_validate_json(_DATA.joinpath(f"{name}.json").read_text(encoding="utf-8"))
    if layout.name != name:
        raise ValueError(f"data/{name}.json declares the layout name {layout.name!r}")
    return layout


def layout_reading(name: str, reading: str) -> str:
    """The name of ``reading`` of layout ``name`` (``name`` itself when that reading changes nothing there)."""
    return f"{name}+{reading}" if name in READINGS.get(reading, {}) else name


def _reading(base: str, reading: str) -> MapLayout:
    """Layout ``base`` with the pairs ``reading`` leaves out removed (both directions)."""
    removed = READINGS.get(reading, {}).get(base)
    if removed is None:
        legal = [f"{layout}+{r}" for r, layouts in READINGS.items() for layout in layouts]
        raise UnknownLayout(f"No map reading called {base}+{reading}", rule=RULE, legal=LAYOUTS + tuple(legal))
    layout = _load(base)
    gone = {frozenset(pair) for pair in removed}
    areas = tuple(
        area.model_copy(update={"adjacent": tuple(n for n in area.adjacent if frozenset((area.id, n)) not in gone)})
        for area in layout.areas
    )
    pairs = ", ".join(" - ".join(pair) for pair in removed)
    return MapLayout(name=f"{base}+{reading}", title=f"{layout.title} ({reading} reading: no {pairs})",
                     players=layout.players, boards=layout.boards, areas=areas)


def layout_for_players(players: int, alternate: bool = False) -> MapLayout:
    """The Earth layout for 3, 4 or 5 players; ``alternate`` picks the other 4-player layout."""
    name = _EARTH_BY_PLAYERS.get((players, alternate))
    if name is None:
        raise BadOptions(
            f"No Earth layout for {players} players{' (alternate)' if alternate else ''}",
            rule=RULE,
            legal=["3 players", "4 players", "4 players, alternate", "5 players"],
        )
    return load_layout(name)
