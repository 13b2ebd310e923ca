"""Cthulhu Wars maps: map files as data, the validated model, checks, name matching, adjacency."""

from tabletop.games.cthulhu_wars.maps.adjacency import AdjacentAreas, AreaSummary, list_adjacent
from tabletop.games.cthulhu_wars.maps.loader import (
    LAYOUTS, READINGS, MapFolderError, OfferedMap, UnknownLayout, layout_cache, layout_for,
    layout_for_players, layout_names, layout_reading, load_layout, offered_map, offered_maps, use_maps_folder,
)  # fmt: skip
from tabletop.games.cthulhu_wars.maps.model import Area, FactionSymbol, Glyph, MapLayout, Pieces
from tabletop.games.cthulhu_wars.maps.names import AmbiguousArea, UnknownArea

__all__ = [
    "LAYOUTS",
    "READINGS",
    "AdjacentAreas",
    "AmbiguousArea",
    "Area",
    "AreaSummary",
    "FactionSymbol",
    "Glyph",
    "MapFolderError",
    "MapLayout",
    "OfferedMap",
    "Pieces",
    "UnknownArea",
    "UnknownLayout",
    "layout_cache",
    "layout_for",
    "layout_for_players",
    "layout_names",
    "layout_reading",
    "list_adjacent",
    "load_layout",
    "offered_map",
    "offered_maps",
    "use_maps_folder",
]
