"""Loading layouts from package data (rules_text ``cthulhu-wars/maps``).

Every ``data/<name>.json`` file is a layout; adding a map means adding a file.
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

_EARTH_BY_PLAYERS = {(3, False): "earth_3p", (4, False): "earth_4p", (4, True): "earth_4p_alt", (5, False): "earth_5p"}


def load_layout(name: str) -> MapLayout:
    """The layout called ``name`` (case, spaces and hyphens are forgiven: 'Earth-3p')."""
    return _load(name.strip().lower().replace("-", "_").replace(" ", "_"))


@functools.cache
def _load(name: str) -> MapLayout:
    if name not in LAYOUTS:
        raise UnknownLayout(f"No map layout called {name!r}", rule=RULE, legal=LAYOUTS)
    layout = MapLayout.model_validate_json(_DATA.joinpath(f"{name}.json").read_text(encoding="utf-8"))
    if layout.name != name:
        raise ValueError(f"data/{name}.json declares the layout name {layout.name!r}")
    return layout


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
