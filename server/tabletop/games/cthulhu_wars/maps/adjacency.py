"""``list_adjacent``: where a unit can Move from an area (rules_text ``cthulhu-wars/maps``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from tabletop.games.cthulhu_wars.maps.loader import load_layout
from tabletop.games.cthulhu_wars.maps.model import Area, AreaType


class AreaSummary(BaseModel):
    """An area's id, display name and type."""

    id: str = Field(description="Stable area id, e.g. 'north-atlantic'.")
    name: str = Field(description="Display name, e.g. 'North Atlantic'.")
    type: AreaType = Field(description="'land' or 'ocean'.")

    @classmethod
    def of(cls, area: Area) -> AreaSummary:
        return cls(id=area.id, name=area.name, type=area.type)


class AdjacentAreas(BaseModel):
    """An area of a layout and every area adjacent to it."""

    layout: str = Field(description="The layout name, e.g. 'earth_3p'.")
    area: str = Field(description="The id of the area asked about.")
    name: str = Field(description="Its display name.")
    type: AreaType = Field(description="Its type, 'land' or 'ocean'.")
    adjacent: list[AreaSummary] = Field(description="Every area a unit can Move to from it in one step.")
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
        adjacent=[AreaSummary.of(neighbour) for neighbour in layout.neighbours(area.id)],
    )
