"""Which maps a server offers, and loading their layouts (rules_text ``cthulhu-wars/maps`` and ``cthulhu-wars/map-files``).

Every ``data/<map>.json`` file of this package is a built-in map (Earth; the Dreamlands). A server started
with a maps folder (``tabletop serve --maps DIR`` or ``$TABLETOP_MAPS``) also offers every ``*.json`` map
file in it; a folder map with the id of a built-in one (``dreamlands``) replaces it, so a player holding
the printed boards can play on them. A game option can select a documented *reading* of a layout that
differs from its data (see ``cthulhu-wars/map-decisions``): such a layout is named ``<layout>+<reading>``,
e.g. ``earth_5p+seed``.

Functions that compute something per layout cache it with :func:`layout_cache`, so changing the maps
offered (a new folder) forgets what was computed from the old ones.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import TypeVar

from tabletop.core.errors import BadOptions
from tabletop.games.cthulhu_wars.maps.check import read_map_file
from tabletop.games.cthulhu_wars.maps.fileformat import MapFile, build_layout
from tabletop.games.cthulhu_wars.maps.model import MapLayout
from tabletop.games.cthulhu_wars.maps.names import RULE

_DATA = files("tabletop.games.cthulhu_wars.maps").joinpath("data")
F = TypeVar("F", bound=Callable)
_CACHES: list[Callable] = []


class UnknownLayout(BadOptions):
    """No layout of that name is offered."""

    kind = "unknown_layout"


class MapFolderError(ValueError):
    """A maps folder holds a file that is not a good map; the message names the file and its problems."""


@dataclass(frozen=True)
class OfferedMap:
    """A map this server offers: its file, where it came from, and its layouts by name."""

    file: MapFile
    origin: str
    layouts: dict[str, MapLayout]

    @property
    def id(self) -> str:
        return self.file.map


def layout_cache(function: F) -> F:
    """``functools.cache`` for a function of a layout name, forgotten whenever the maps offered change."""
    cached = functools.cache(function)
    _CACHES.append(cached)
    return cached  # type: ignore[return-value]


def _offer(mapfile: MapFile, origin: str) -> OfferedMap:
    return OfferedMap(mapfile, origin, {e.name: build_layout(mapfile, e, origin) for e in mapfile.layouts})


def _builtin() -> dict[str, OfferedMap]:
    offered = {}
    for entry in sorted(_DATA.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            mapfile, problems = read_map_file(Path(str(entry)))
            if mapfile is None or problems:
                raise ValueError(f"built-in map data/{entry.name}: " + "; ".join(problems))
            offered[mapfile.map] = _offer(mapfile, "built-in")
    return offered


_BUILTIN: dict[str, OfferedMap] = _builtin()
_offered: dict[str, OfferedMap] = dict(_BUILTIN)

#: The names of every built-in layout, e.g. ``("dreamlands_3p", ..., "earth_3p", ...)``.
LAYOUTS: tuple[str, ...] = tuple(sorted(name for m in _BUILTIN.values() for name in m.layouts))


def folder_maps(folder: Path) -> list[OfferedMap]:
    """Every map file in ``folder``; MapFolderError naming the first bad file and its problems."""
    if not folder.is_dir():
        raise MapFolderError(f"maps folder {folder} is not a folder")
    found = []
    for path in sorted(folder.glob("*.json")):
        mapfile, problems = read_map_file(path)
        if mapfile is None or problems:
            shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
            raise MapFolderError(f"map file {path} is not usable ({shown}); check it with `tabletop maps check {path}`")
        found.append(_offer(mapfile, str(path)))
    return found


def use_maps_folder(folder: Path | str | None) -> list[OfferedMap]:
    """Offer the built-in maps and those in ``folder`` (None: built-in only). A folder map replaces a built-in map
    of the same id; two maps may not share a layout name. Returns the folder's maps."""
    extra = folder_maps(Path(folder)) if folder is not None else []
    offered = dict(_BUILTIN)
    seen: dict[str, str] = {}
    for item in extra:
        if item.id in offered and offered[item.id].origin != "built-in":
            raise MapFolderError(f"two map files in {folder} are both map {item.id!r}")
        offered[item.id] = item
    for item in offered.values():
        for name in item.layouts:
            if name in seen:
                raise MapFolderError(f"layout {name!r} is offered by two maps ({seen[name]} and {item.id})")
            seen[name] = item.id
    global _offered
    _offered = offered
    for cached in _CACHES:
        cached.cache_clear()
    return extra


def offered_maps() -> list[OfferedMap]:
    """Every map offered, Earth first."""
    return sorted(_offered.values(), key=lambda m: (m.id != "earth", m.id))


def offered_map(map_id: str) -> OfferedMap:
    key = map_id.strip().lower().replace(" ", "-")
    if key not in _offered:
        raise BadOptions(f"No map called {map_id!r} (give a map, or one of its layouts by name)", rule=RULE,
                         legal=[m.id for m in offered_maps()] + list(layout_names()))
    return _offered[key]


def layout_names() -> tuple[str, ...]:
    """Every layout offered now, built-in and from a maps folder."""
    return tuple(sorted(name for m in _offered.values() for name in m.layouts))


#: Readings a game option may select: reading -> layout -> adjacent pairs that reading leaves out.
#: "seed": the seed's own lists for the Western 5-player side, without North Atlantic - North Pacific
#: (map decision 9; the published map and the layout files have the pair).
READINGS: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {
    "seed": {
        "earth_4p": (("north-atlantic", "north-pacific"),),
        "earth_5p": (("north-atlantic", "north-pacific"),),
    },
}


def load_layout(name: str) -> MapLayout:
    """The layout called ``name`` (case, spaces and hyphens are forgiven: 'Earth-3p')."""
    return _load(name.strip().lower().replace("-", "_").replace(" ", "_"))


@layout_cache
def _load(name: str) -> MapLayout:
    base, _, reading = name.partition("+")
    if reading:
        return _reading(base, reading)
    for offered in _offered.values():
        if name in offered.layouts:
            return offered.layouts[name]
    raise UnknownLayout(f"No map layout called {name!r}", rule=RULE, legal=layout_names())


def layout_reading(name: str, reading: str) -> str:
    """The name of ``reading`` of layout ``name`` (``name`` itself when that reading changes nothing there)."""
    return f"{name}+{reading}" if name in READINGS.get(reading, {}) else name


def _reading(base: str, reading: str) -> MapLayout:
    """Layout ``base`` with the pairs ``reading`` leaves out removed (both directions)."""
    removed = READINGS.get(reading, {}).get(base)
    if removed is None:
        legal = [f"{layout}+{r}" for r, layouts in READINGS.items() for layout in layouts]
        raise UnknownLayout(f"No map reading called {base}+{reading}", rule=RULE, legal=layout_names() + tuple(legal))
    layout = _load(base)
    gone = {frozenset(pair) for pair in removed}
    areas = tuple(
        area.model_copy(update={"adjacent": tuple(n for n in area.adjacent if frozenset((area.id, n)) not in gone)})
        for area in layout.areas
    )
    pairs = ", ".join(" - ".join(pair) for pair in removed)
    return MapLayout.model_validate({**dict(layout), "name": f"{base}+{reading}", "areas": areas,
                                     "title": f"{layout.title} ({reading} reading: no {pairs})"})


def layout_for(map_id: str, players: int, alternate: bool = False) -> MapLayout:
    """The layout of map ``map_id`` for ``players``: the recommended one, or with ``alternate`` the other one.
    ``map_id`` may also name a layout itself ('dreamlands_4p_alt'), which must be for ``players``."""
    name = map_id.strip().lower().replace("-", "_").replace(" ", "_")
    if map_id.strip().lower().replace(" ", "-") not in _offered and name in layout_names():
        layout = load_layout(name)
        if layout.players != players:
            raise BadOptions(f"Layout {name} is for {layout.players} players, not {players}", rule=RULE,
                             legal=[n for n in layout_names() if load_layout(n).players == players])
        return layout
    offered = offered_map(map_id)
    fitting = [layout for layout in offered.layouts.values() if layout.players == players]
    chosen = [layout for layout in fitting if layout.recommended != alternate]
    if not chosen:
        legal = [f"{layout.players} players" + ("" if layout.recommended else ", alternate")
                 for layout in sorted(offered.layouts.values(), key=lambda l: (l.players, not l.recommended))]
        raise BadOptions(
            f"No {offered.file.title} layout for {players} players{' (alternate)' if alternate else ''}",
            rule=RULE, legal=legal,
        )
    return chosen[0]


def layout_for_players(players: int, alternate: bool = False) -> MapLayout:
    """The Earth layout for 3, 4 or 5 players; ``alternate`` picks the other 4-player layout."""
    return layout_for("earth", players, alternate)
