"""Cthulhu Wars maps: layouts as data, the validated model, name matching, adjacency."""

from tabletop.games.cthulhu_wars.maps.adjacency import AdjacentAreas, AreaSummary, list_adjacent
from tabletop.games.cthulhu_wars.maps.loader import (
    LAYOUTS, READINGS, UnknownLayout, layout_for_players, layout_reading, load_layout,
)
from tabletop.games.cthulhu_wars.maps.model import Area, FactionSymbol, Glyph, MapLayout
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
    "MapLayout",
    "UnknownArea",
    "UnknownLayout",
    "layout_for_players",
    "layout_reading",
    "list_adjacent",
    "load_layout",
]
