"""``list_adjacent``: where a unit can Move from an area (rules_text ``cthulhu-wars/maps`` and ``cthulhu-wars/dreamlands``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from tabletop.games.cthulhu_wars.maps.loader import load_layout
from tabletop.games.cthulhu_wars.maps.model import Area, AreaType, MapLayout


class AreaSummary(BaseModel):
    """An area's id, display name and type; how it is reached from the area asked about."""

    id: str = Field(description="Stable area id, e.g. 'north-atlantic'.")
    name: str = Field(description="Display name, e.g. 'North Atlantic'.")
    type: AreaType = Field(description="'land' or 'ocean' (a sea counts as an ocean).")
    board: str = Field(default="earth", description="The board it is on, e.g. 'underworld'.")
    tunnel: str | None = Field(default=None, description="The tunnel glyph joining it to the area asked about, if a "
                               "tunnel does (the boards differ).")
    provisional: bool = Field(default=False, description="No source confirms this adjacency (a provisional map).")

    @classmethod
    def of(cls, area: Area, layout: MapLayout | None = None, origin: Area | None = None) -> AreaSummary:
        tunnel = origin.tunnel if origin is not None and origin.tunnel_to == area.id else None
        provisional = bool(layout and origin and layout.fact_is_provisional("tunnel" if tunnel else "adjacent", origin.id, area.id))
        return cls(id=area.id, name=area.name, type=area.type, board=area.board, tunnel=tunnel, provisional=provisional)


class AdjacentAreas(BaseModel):
    """An area of a layout and every area adjacent to it."""

    layout: str = Field(description="The layout name, e.g. 'earth_3p'.")
    area: str = Field(description="The id of the area asked about.")
    name: str = Field(description="Its display name.")
    type: AreaType = Field(description="Its type, 'land' or 'ocean'.")
    board: str = Field(default="earth", description="Its board.")
    adjacent: list[AreaSummary] = Field(description="Every area a unit can Move to from it in one step (tunnels too).")
    map_note: str | None = Field(default=None, description="A provisional map's warning: not the printed map.")
    rule: str = Field(default="cthulhu-wars/maps", description="The rules_text section the map rests on.")


def list_adjacent(layout_name: str, area_text: str) -> AdjacentAreas:
    """The areas adjacent to the area ``area_text`` names (matched forgivingly) on a layout."""
    layout = load_layout(layout_name)
    area = layout.find_area(area_text)
    return AdjacentAreas(
        layout=layout.name,
        area=area.id,
        name=area.name,
        type=area.type,
        board=area.board,
        adjacent=[AreaSummary.of(neighbour, layout, area) for neighbour in layout.neighbours(area.id)],
        map_note=layout.provenance_summary if layout.is_provisional else None,
        rule="cthulhu-wars/dreamlands" if layout.is_provisional or len(layout.board_places) > 1 else "cthulhu-wars/maps",
    )
