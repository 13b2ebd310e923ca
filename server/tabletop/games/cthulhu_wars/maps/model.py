"""The map model a game uses: areas and the layouts they make (rules_text ``cthulhu-wars/maps``).

A layout is built from a map file (see :mod:`.fileformat`, rules_text ``cthulhu-wars/map-files``) and
validated here: ids are unique slugs, no two areas answer to the same name, and adjacency is
symmetric, never reflexive and names only areas of the same layout. An area's ``adjacent`` is its
whole adjacency for every purpose: its neighbours on its own side, then links and its tunnel partner
on another board.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StringConstraints, model_validator

from tabletop.games.cthulhu_wars.maps.names import RULE, UnknownArea, match_name, normalize

#: The longest id a map may give anything (its map, boards, sides, layouts and areas): one rule for
#: ``tabletop maps check`` and for a server's maps folder, which both read a file through ``MapFile``.
MAX_ID = 64
#: The longest display name or title in a map.
MAX_NAME = 100
AreaId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=MAX_ID)]
AreaType = Literal["land", "ocean"]
Glyph = Literal["arrow", "snake", "claw"]
FactionSymbol = Literal["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "sleeper", "windwalker"]
BoardId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+([-_][a-z0-9]+)*$", max_length=MAX_ID)]


class BholeHome(BaseModel):
    """The Bhole: where it lives, and the board whose Citadels it visits (rules_text ``cthulhu-wars/dreamlands-bhole``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    home: AreaId = Field(description="The Area the Bhole starts in and comes back to, e.g. 'vale-of-pnath'.")
    board: BoardId = Field(description="The board whose Citadels its die roll sends it to, e.g. 'underworld'.")


class ZoogSupply(BaseModel):
    """The Zoogs: how many, and the board whose Citadels they appear on (rules_text ``cthulhu-wars/dreamlands-zoogs``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    count: int = Field(default=6, ge=1, le=12, description="Zoog figures (6).")
    board: BoardId = Field(description="The board whose Citadels they appear on, e.g. 'surface'.")


class Pieces(BaseModel):
    """A map's own creatures; a map without them plays as Earth does."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bhole: BholeHome | None = None
    zoogs: ZoogSupply | None = None


class BoardPlace(BaseModel):
    """One board of a layout: which side of it, and where the picture draws it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: BoardId
    name: str
    side: str
    frame: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)


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
    board: BoardId = Field(default="earth", description="The board the area is printed on.")
    tunnel: str | None = Field(default=None, description="Its tunnel glyph, if any.")
    tunnel_to: AreaId | None = Field(default=None, description="The area on another board its tunnel leads to.")
    citadel: tuple[int, ...] | None = Field(default=None, description="A Citadel's die numbers, if it is one.")
    place: tuple[float, float] | None = Field(default=None, description="Drawing position within its board's frame.")


class MapLayout(BaseModel):
    """A whole map for one player count: its areas and their adjacency."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="Layout name, e.g. 'earth_3p'.")
    title: str = Field(description="Human title, e.g. 'Earth, 3 players'.")
    players: int = Field(ge=1, description="The player count this layout is laid out for.")
    boards: tuple[str, ...] = Field(description="Which board sides make up the layout.")
    areas: tuple[Area, ...] = Field(min_length=1)
    map: str = Field(default="earth", description="The map (file) the layout belongs to.")
    map_title: str = Field(default="Earth")
    recommended: bool = Field(default=True, description="The default layout for its player count.")
    board_places: tuple[BoardPlace, ...] = ()
    pieces: Pieces = Field(default_factory=Pieces)
    provenance_status: Literal["official", "provisional"] = "official"
    provenance_summary: str = ""
    provenance_rule: str = Field(default="cthulhu-wars/dreamlands", description="The rules section telling what is known "
                                 "of a provisional map.")
    provisional: frozenset[str] = Field(default=frozenset(), description="Facts no source confirms (see fileformat).")
    origin: str = Field(default="built-in", description="Where the map file came from.")

    _by_id: dict[str, Area] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _check_areas(self) -> MapLayout:
        problems = _naming_problems(self.areas) + _adjacency_problems(self.areas)
        if problems:
            raise ValueError(f"layout {self.name!r}: " + "; ".join(problems))
        return self

    def model_post_init(self, context: object, /) -> None:
        self._by_id = {area.id: area for area in self.areas}

    @property
    def by_id(self) -> dict[str, Area]:
        """Each area by its id (:attr:`_by_id`), read from the model's private values directly: a private attribute
        read by name goes through ``BaseModel.__getattr__``, which costs tens of times a dict lookup, and areas are
        looked up many times a move."""
        return self.__pydantic_private__["_by_id"]  # type: ignore[index]

    def area(self, area_id: str) -> Area:
        """The area with exactly this id."""
        try:
            return self.by_id[area_id]
        except KeyError:
            raise UnknownArea(
                f"No area with id {area_id!r} on the {self.title} map", rule=RULE, legal=list(self.by_id)
            ) from None

    def find_area(self, text: str) -> Area:
        """The area a person or model means by ``text``: forgiving, see names.py."""
        return match_name(self.areas, text, self.title)

    def neighbours(self, area_id: str) -> tuple[Area, ...]:
        """The areas adjacent to ``area_id``, in map-data order."""
        return tuple(self.by_id[n] for n in self.area(area_id).adjacent)

    def are_adjacent(self, first: str, second: str) -> bool:
        """Whether a unit can Move directly between the two areas (ids)."""
        return second in self.area(first).adjacent

    def start_areas(self, faction: FactionSymbol) -> tuple[Area, ...]:
        """The areas carrying ``faction``'s start symbol."""
        return tuple(area for area in self.areas if area.faction_symbol == faction)

    def areas_with_glyph(self, glyph: Glyph) -> tuple[Area, ...]:
        """The areas carrying ``glyph``."""
        return tuple(area for area in self.areas if area.glyph == glyph)

    # ---- boards, tunnels, Citadels, provenance (rules_text ``cthulhu-wars/dreamlands``) ----------------------
    @property
    def is_provisional(self) -> bool:
        """Whether some facts of the map are guesses (see :attr:`provenance_summary`)."""
        return self.provenance_status == "provisional"

    def fact_is_provisional(self, kind: str, first: str, second: str | None = None) -> bool:
        """Whether no source confirms a fact: ``("adjacent", a, b)``, ``("tunnel", a, b)``, ``("citadel", a)``..."""
        if not self.provisional:
            return False
        if second is None:
            return f"{kind}:{first}" in self.provisional
        a, b = sorted((first, second))
        return f"{kind}:{a}~{b}" in self.provisional

    def board_areas(self, board: str) -> tuple[Area, ...]:
        """The areas printed on ``board``."""
        return tuple(area for area in self.areas if area.board == board)

    def citadels(self, board: str | None = None) -> tuple[Area, ...]:
        """The Citadel areas (of one board, or all)."""
        return tuple(a for a in self.areas if a.citadel and (board is None or a.board == board))

    def citadel_for(self, board: str, roll: int) -> Area:
        """The Citadel of ``board`` whose printed numbers include ``roll``."""
        return next(a for a in self.citadels(board) if roll in (a.citadel or ()))

    def is_tunnel(self, first: str, second: str) -> bool:
        """Whether the two areas are joined by a tunnel (rather than being neighbours on one board)."""
        return self.area(first).tunnel_to == second


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
