"""``list_adjacent``: where a unit can Move from an area (rules_text ``cthulhu-wars/maps`` and ``cthulhu-wars/dreamlands``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from tabletop.games.cthulhu_wars.maps.loader import layout_names, load_layout
from tabletop.games.cthulhu_wars.maps.model import Area, AreaType, MapLayout
from tabletop.games.cthulhu_wars.maps.names import AmbiguousArea, UnknownArea

#: The adjacencies decided where the seed's area lists disagree with each other (rules_text
#: ``cthulhu-wars/map-decisions``, one table row per decision; a test checks this against that table):
#: decision number -> (the layouts it is about, the pair of areas, whether they are adjacent by default).
MAP_DECISIONS: dict[int, tuple[tuple[str, ...], tuple[str, str], bool]] = {
    1: (("earth_4p",), ("south-america-west", "south-atlantic"), True),
    2: (("earth_4p",), ("new-zealand", "indian-ocean"), True),
    3: (("earth_4p_alt",), ("south-america", "north-pacific"), True),
    4: (("earth_4p_alt",), ("west-africa", "south-pacific"), False),
    5: (("earth_4p_alt",), ("west-africa", "south-atlantic"), True),
    6: (("earth_5p",), ("north-america-east", "arctic-ocean"), True),
    7: (("earth_5p",), ("antarctica", "south-atlantic"), True),
    8: (("earth_5p",), ("south-atlantic", "indian-ocean"), True),
    9: (("earth_3p", "earth_4p", "earth_4p_alt", "earth_5p"), ("north-atlantic", "north-pacific"), True),
}


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


class MapDecision(BaseModel):
    """A pair of areas whose adjacency the seed's lists left in doubt, and how it was decided."""

    area: str = Field(description="The other area's id.")
    adjacent: bool = Field(description="Whether they are adjacent on this layout.")
    rule: str = Field(description="The rules_text passage of the decision, e.g. 'cthulhu-wars/map-decisions#5'.")


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
    decisions: list[MapDecision] = Field(default_factory=list, description="Pairs with this area decided in "
                                         "cthulhu-wars/map-decisions (the seed's lists disagree).")


def decisions_about(layout: MapLayout, area_id: str) -> list[MapDecision]:
    """The map decisions (``cthulhu-wars/map-decisions``) that settle a pair with ``area_id`` on this layout,
    each with the layout's own answer (a reading chosen by a game option may differ from the default)."""
    base = layout.name.partition("+")[0]
    found = []
    for number, (layouts, pair, _) in sorted(MAP_DECISIONS.items()):
        if base in layouts and area_id in pair:
            other = pair[1] if pair[0] == area_id else pair[0]
            found.append(MapDecision(area=other, adjacent=layout.are_adjacent(area_id, other),
                                     rule=f"cthulhu-wars/map-decisions#{number}"))
    return found


def layouts_with(area_text: str) -> list[str]:
    """The layouts offered now on which ``area_text`` names an area."""
    found = []
    for name in layout_names():
        try:
            load_layout(name).find_area(area_text)
        except AmbiguousArea:  # it names areas of that layout, just more than one
            pass
        except UnknownArea:
            continue
        found.append(name)
    return found


def list_adjacent(layout_name: str, area_text: str) -> AdjacentAreas:
    """The areas adjacent to the area ``area_text`` names (matched forgivingly) on a layout."""
    layout = load_layout(layout_name)
    try:
        area = layout.find_area(area_text)
    except AmbiguousArea:
        raise
    except UnknownArea as err:
        elsewhere = [name for name in layouts_with(area_text) if name != layout.name]
        if not elsewhere:
            raise
        raise UnknownArea(f"{err.message.rstrip('.')}. {area_text!r} is an area of {', '.join(elsewhere)}",
                          rule=err.rule, legal=err.legal) from None
    return AdjacentAreas(
        layout=layout.name,
        area=area.id,
        name=area.name,
        type=area.type,
        board=area.board,
        adjacent=[AreaSummary.of(neighbour, layout, area) for neighbour in layout.neighbours(area.id)],
        map_note=layout.provenance_summary if layout.is_provisional else None,
        rule=layout.provenance_rule if layout.is_provisional else
        "cthulhu-wars/dreamlands" if len(layout.board_places) > 1 else "cthulhu-wars/maps",
        decisions=decisions_about(layout, area.id),
    )
