"""The map model: areas and the layouts they make (rules_text ``cthulhu-wars/maps``).

A layout is data (one JSON file per layout under ``data/``) validated here: ids are
unique slugs, no two areas answer to the same name, and adjacency is symmetric, never
reflexive and names only areas of the same layout.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StringConstraints, model_validator

from tabletop.games.cthulhu_wars.maps.names import RULE, UnknownArea, match_name, normalize

AreaId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
AreaType = Literal["land", "ocean"]
Glyph = Literal["arrow", "snake", "claw"]
FactionSymbol = Literal["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "sleeper", "windwalker"]


class Area(BaseModel):
    """One area of a layout and the areas next to it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: AreaId = Field(description="Stable slug, e.g. 'north-atlantic'.")
    name: str = Field(min_length=1, description="Display name, e.g. 'North Atlantic'.")
    type: AreaType = Field(description="'land' or 'ocean'.")
    faction_symbol: FactionSymbol | None = Field(
        default=None, description="The faction whose start symbol is printed here, if any."
    )
    glyph: Glyph | None = Field(default=None, description="The Yellow Sign glyph printed here, if any.")
    adjacent: tuple[AreaId, ...] = Field(description="Ids of the areas a unit can Move to from here.")


class MapLayout(BaseModel):
    """A whole map for one player count: its areas and their adjacency."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="Layout name, e.g. 'earth_3p'.")
    title: str = Field(description="Human title, e.g. 'Earth, 3 players'.")
    players: int = Field(ge=1, description="The player count this layout is laid out for.")
    boards: tuple[str, ...] = Field(description="Which board sides make up the layout.")
    areas: tuple[Area, ...] = Field(min_length=1)

    _by_id: dict[str, Area] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _check_areas(self) -> MapLayout:
        problems = _naming_problems(self.areas) + _adjacency_problems(self.areas)
        if problems:
            raise ValueError(f"layout {self.name!r}: " + "; ".join(problems))
        return self

    def model_post_init(self, context: object, /) -> None:
        self._by_id = {area.id: area for area in self.areas}

    def area(self, area_id: str) -> Area:
        """The area with exactly this id."""
        try:
            return self._by_id[area_id]
        except KeyError:
            raise UnknownArea(
                f"No area with id {area_id!r} on the {self.title} map", rule=RULE, legal=list(self._by_id)
            ) from None

    def find_area(self, text: str) -> Area:
        """The area a person or model means by ``text``: forgiving, see names.py."""
        return match_name(self.areas, text, self.title)

    def neighbours(self, area_id: str) -> tuple[Area, ...]:
        """The areas adjacent to ``area_id``, in map-data order."""
        return tuple(self._by_id[n] for n in self.area(area_id).adjacent)

    def are_adjacent(self, first: str, second: str) -> bool:
        """Whether a unit can Move directly between the two areas (ids)."""
        return second in self.area(first).adjacent

    def start_areas(self, faction: FactionSymbol) -> tuple[Area, ...]:
        """The areas carrying ``faction``'s start symbol."""
        return tuple(area for area in self.areas if area.faction_symbol == faction)

    def areas_with_glyph(self, glyph: Glyph) -> tuple[Area, ...]:
        """The areas carrying ``glyph``."""
        return tuple(area for area in self.areas if area.glyph == glyph)


def _naming_problems(areas: tuple[Area, ...]) -> list[str]:
    """Repeated ids, or two areas answering to the same normalized id or name."""
    keys = Counter(key for area in areas for key in {normalize(area.id), normalize(area.name)})
    return [f"two areas answer to {key!r}" for key, count in keys.items() if count > 1]


def _adjacency_problems(areas: tuple[Area, ...]) -> list[str]:
    """Self-adjacency, repeats, unknown neighbours and one-way adjacency."""
    by_id = {area.id: area for area in areas}
    problems = []
    for area in areas:
        if area.id in area.adjacent:
            problems.append(f"{area.id} is adjacent to itself")
        if len(set(area.adjacent)) != len(area.adjacent):
            problems.append(f"{area.id} lists a neighbour twice")
        for other in area.adjacent:
            if other not in by_id:
                problems.append(f"{area.id} lists unknown area {other}")
            elif area.id not in by_id[other].adjacent:
                problems.append(f"{area.id} lists {other} but {other} does not list {area.id}")
    return problems
