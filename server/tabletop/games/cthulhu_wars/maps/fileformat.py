"""The Cthulhu Wars map file: one JSON document per map (rules_text ``cthulhu-wars/map-files``).

A map file describes a *map* (Earth, the Dreamlands): its **boards**, each printed on one or more
**sides** (the 3- and 5-player sides), the **areas** of each side with their adjacency on that side,
and the **layouts** a game is played on, each made of one side of every board. Areas on two
different boards of a layout are adjacent through matching **tunnel glyphs**, or through explicit
**links**. Every area may carry a faction start symbol, a Yellow Sign glyph, a tunnel glyph, a
Citadel with its die numbers and a drawing position. **Pieces** place the map's own creatures (the
Bhole's home; the Zoogs). **Provenance** says whether the map is the printed one (``official``) or a
reconstruction (``provisional``), with a note for every fact no source confirms.

The pydantic models here validate a file's shape (the JSON Schema in ``schemas/`` is generated from
them); :mod:`.check` finds everything else wrong with a map (one-way adjacency, unreachable areas,
missing start symbols, Citadel numbers or tunnel pairs) and :func:`build_layouts` turns a good file
into the :class:`~.model.MapLayout` each game uses.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from tabletop.games.cthulhu_wars.maps.model import (
    MAX_ID, MAX_NAME, Area, AreaId, AreaType, BoardPlace, FactionSymbol, Glyph, MapLayout, Pieces,
)  # fmt: skip

FORMAT = 1
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+([-_][a-z0-9]+)*$", max_length=MAX_ID)]
#: A display name or title: one line, at most MAX_NAME characters.
Name = Annotated[str, StringConstraints(pattern=r"^[^\x00-\x1f\x7f]*$", max_length=MAX_NAME)]
#: A fact a provenance entry speaks for, e.g. ``adjacent:zura~leng`` (see :class:`Fact`).
FactItem = Annotated[
    str,
    StringConstraints(
        pattern=r"^(((citadel|start|glyph):[a-z0-9-]+|adjacent:[a-z0-9-]+~[a-z0-9-]+)(@[a-z0-9_-]+)?"
        r"|area:[a-z0-9-]+|tunnel:[a-z0-9-]+~[a-z0-9-]+|piece:(bhole|zoogs))$"
    ),
]
ITEM = re.compile(r"^(?P<kind>[a-z]+):(?P<first>[a-z0-9-]+)(?:~(?P<second>[a-z0-9-]+))?(?:@(?P<side>[a-z0-9_-]+))?$")


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AreaEntry(Strict):
    """One area as printed on one side of a board."""

    id: AreaId = Field(description="Stable slug, unique within a layout, e.g. 'vale-of-pnath'. The same printed area "
                       "on both sides of a board keeps the same id.")
    name: Name = Field(min_length=1, description="Display name, e.g. 'Vale of Pnath'.")
    type: AreaType = Field(description="'land', or 'ocean' for an ocean or sea (every rule about oceans applies to seas).")
    faction_symbol: FactionSymbol | None = Field(default=None, description="The faction start symbol printed here.")
    glyph: Glyph | None = Field(default=None, description="The Yellow Sign glyph printed here (arrow, snake or claw).")
    tunnel: Annotated[str, StringConstraints(pattern=r"^[A-Z]$")] | None = Field(
        default=None, description="The tunnel glyph printed here (one capital letter); the area with the same glyph on "
        "the other board of a layout is adjacent to this one for every purpose.")
    citadel: tuple[Annotated[int, Field(ge=1, le=6)], ...] | None = Field(
        default=None, description="A Citadel: the die numbers printed on it, e.g. [1, 2] for '1-2'.")
    adjacent: tuple[AreaId, ...] = Field(description="Ids of the areas on the same side a unit can Move to from here.")
    place: tuple[Annotated[float, Field(ge=0, le=1)], Annotated[float, Field(ge=0, le=1)]] | None = Field(
        default=None, description="Where to draw the area within its board's frame: [x, y], 0-1 from the top left. "
        "Optional; areas without one are placed on a ring.")


class SideEntry(Strict):
    """One printed side of a board."""

    id: Slug = Field(description="Side id, unique in the file, e.g. 'surface-5p'.")
    name: Name = Field(description="e.g. '5-player side'.")
    areas: tuple[AreaEntry, ...] = Field(min_length=1)


class BoardEntry(Strict):
    """One physical board and its sides."""

    id: Slug = Field(description="Board id, e.g. 'surface'.")
    name: Name = Field(description="e.g. 'Surface'.")
    frame: tuple[float, float, float, float] = Field(
        default=(0.0, 0.0, 1.0, 1.0),
        description="Where the picture draws this board: [left, top, right, bottom] as fractions of the map drawing.",
    )
    sides: tuple[SideEntry, ...] = Field(min_length=1)


class Fact(Strict):
    """What one source says about some facts of the map, or a note that nothing confirms them.

    Items: ``area:<id>`` (an area of that name and type on its board), ``adjacent:<a>~<b>`` (an adjacency on a side,
    or a link), ``tunnel:<a>~<b>`` (a tunnel joining two boards), ``citadel:<id>`` (a Citadel and its numbers),
    ``start:<id>`` (the faction symbol there), ``glyph:<id>`` (the Yellow Sign glyph there), ``piece:bhole`` (the
    Bhole's home), ``piece:zoogs`` (the Zoogs). An adjacency, Citadel, start symbol or glyph may name one side,
    ``citadel:sea-of-pitch@underworld-5p``; without a side it speaks for every side where the fact is printed.
    """

    status: Literal["confirmed", "provisional"]
    items: tuple[FactItem, ...] = Field(min_length=1)
    source: str | None = Field(default=None, description="Key of the source in provenance.sources (confirmed facts).")
    note: str = Field(min_length=1, description="Why the facts are believed, or why they are only a guess.")


class Provenance(Strict):
    """Where the map's facts come from."""

    status: Literal["official", "provisional"] = Field(
        description="official: the printed map; provisional: a reconstruction in which some facts are guesses.")
    summary: str = Field(min_length=1, description="One line shown wherever the map is offered or shown.")
    rule: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+/[a-z0-9-]+$")] | None = Field(
        default=None, description="The rules section telling what is known of this map, e.g. 'cthulhu-wars/dreamlands' "
        "(the default).")
    sources: dict[str, str] = Field(default_factory=dict, description="Source key -> what the source is.")
    facts: tuple[Fact, ...] = Field(default=(), description="A provisional map covers every fact of every layout here.")


class LayoutEntry(Strict):
    """A map as played: one side of every board it uses."""

    name: Slug = Field(description="Layout name, unique among every map offered, e.g. 'dreamlands_5p'.")
    title: Name = Field(description="e.g. 'Dreamlands, 5 players'.")
    players: int = Field(ge=1, description="The player count this layout is for.")
    sides: tuple[Slug, ...] = Field(min_length=1, description="Side ids, one per board used.")
    recommended: bool = Field(default=True, description="The layout a game with this many players gets by default; "
                              "the other one (if any) is the alternate layout.")
    links: tuple[tuple[AreaId, AreaId], ...] = Field(
        default=(), description="Extra adjacent pairs across boards that are not tunnels (where two boards meet).")
    provenance: Provenance | None = Field(
        default=None, description="This layout's own provenance, when its sides come from another source than the rest "
        "of the map (the 6-player Earth board, known only from fan programs): it replaces the map's provenance for this "
        "layout and covers the facts of its sides.")


class MapFile(Strict):
    """A Cthulhu Wars map: boards, sides, areas, layouts, pieces and provenance (format 1)."""

    format: Literal[1] = Field(description="The map-file format version: 1.")
    map: Slug = Field(description="Map id, e.g. 'dreamlands'; the game option `map` names it.")
    title: Name = Field(description="e.g. 'The Dreamlands'.")
    seas_by_name: bool = Field(
        default=False, description="Every area with the word 'Sea' in its name is an ocean (the Dreamlands rule).")
    provenance: Provenance
    boards: tuple[BoardEntry, ...] = Field(min_length=1)
    layouts: tuple[LayoutEntry, ...] = Field(min_length=1)
    pieces: Pieces = Field(default_factory=Pieces, description="The map's own creatures, if any.")

    def side(self, side_id: str) -> tuple[BoardEntry, SideEntry] | None:
        """The board and side with this id."""
        return next(((b, s) for b in self.boards for s in b.sides if s.id == side_id), None)


def schema() -> dict:
    """The JSON Schema of a map file (written to ``schemas/cthulhu-wars-map.schema.json``)."""
    document = MapFile.model_json_schema()
    document["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    document["title"] = "Cthulhu Wars map file"
    return document


# ---- from a file to layouts ---------------------------------------------------------------------------------
def layout_pairs(mapfile: MapFile, entry: LayoutEntry) -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The cross-board pairs of a layout: its links, and (a, b, letter) for every pair of matching tunnel glyphs on
    two different boards (:mod:`.check` says when a glyph is missing or repeated)."""
    by_letter: dict[str, list[tuple[str, str]]] = {}
    for side_id in entry.sides:
        found = mapfile.side(side_id)
        if found is None:
            continue
        board, side = found
        for area in side.areas:
            if area.tunnel:
                by_letter.setdefault(area.tunnel, []).append((board.id, area.id))
    tunnels = []
    for letter, ends in sorted(by_letter.items()):
        for i, (board_a, a) in enumerate(ends):
            tunnels += [(a, b, letter) for board_b, b in ends[i + 1 :] if board_b != board_a]
    return [tuple(pair) for pair in entry.links], tunnels  # type: ignore[misc]


def canonical(item: str) -> str:
    """An item with the two areas of a pair in sorted order: ``adjacent:b~a`` -> ``adjacent:a~b``."""
    match = ITEM.match(item)
    if match is None or match["second"] is None:
        return item
    first, second = sorted((match["first"], match["second"]))
    return f"{match['kind']}:{first}~{second}" + (f"@{match['side']}" if match["side"] else "")


def unqualified(item: str) -> str:
    """An item without its side: ``citadel:x@underworld-5p`` -> ``citadel:x``."""
    return item.split("@", 1)[0]


def fact_status(mapfile: MapFile, item: str, provenance: Provenance | None = None) -> str | None:
    """``confirmed``, ``provisional`` or None (no entry) for a side-qualified item, by ``provenance`` (default the
    map's); an entry naming the side wins over one for every side, and an official map confirms everything."""
    provenance = provenance or mapfile.provenance
    if provenance.status == "official":
        return "confirmed"
    listed = _listed(provenance)
    for key in (canonical(item), canonical(unqualified(item))):
        if key in listed:
            return listed[key]
    return None


def _listed(provenance: Provenance) -> dict[str, str]:
    listed: dict[str, str] = {}
    for fact in provenance.facts:
        for item in fact.items:
            listed.setdefault(canonical(item), fact.status)
    return listed


def own_provenance_sides(mapfile: MapFile) -> frozenset[str]:
    """The sides only layouts with a provenance of their own use: the map's provenance does not speak for them."""
    own = {s for e in mapfile.layouts if e.provenance is not None for s in e.sides}
    shared = {s for e in mapfile.layouts if e.provenance is None for s in e.sides}
    return frozenset(own - shared)


def fact_items(mapfile: MapFile, sides: tuple[str, ...] | None = None) -> set[str]:
    """Every fact of the map a provenance must speak for (of the sides given, else of every side but those only layouts
    with their own provenance use): per side its adjacency, Citadels, start symbols and glyphs (``...@side``), and its
    areas; the tunnels and links of the layouts; the pieces."""
    items: set[str] = set()
    skipped = own_provenance_sides(mapfile) if sides is None else frozenset()
    for board in mapfile.boards:
        for side in board.sides:
            if (sides is not None and side.id not in sides) or side.id in skipped:
                continue
            for area in side.areas:
                items.add(f"area:{area.id}")
                items.update(canonical(f"adjacent:{area.id}~{other}@{side.id}") for other in area.adjacent)
                for kind, value in (("citadel", area.citadel), ("start", area.faction_symbol), ("glyph", area.glyph)):
                    if value:
                        items.add(f"{kind}:{area.id}@{side.id}")
    for entry in mapfile.layouts:
        if (sides is not None and entry.sides != sides) or (sides is None and entry.provenance is not None):
            continue
        links, tunnels = layout_pairs(mapfile, entry)
        items.update(canonical(f"adjacent:{a}~{b}") for a, b in links)
        items.update(canonical(f"tunnel:{a}~{b}") for a, b, _ in tunnels)
    items.update(f"piece:{name}" for name in ("bhole", "zoogs") if getattr(mapfile.pieces, name) is not None)
    return items


def provisional_items(mapfile: MapFile, sides: tuple[str, ...] | None = None,
                      provenance: Provenance | None = None) -> frozenset[str]:
    """Facts no source confirms, without their side (of the layout using ``sides``, or of the whole map), by
    ``provenance`` (default the map's)."""
    provenance = provenance or mapfile.provenance
    if provenance.status == "official":
        return frozenset()
    return frozenset(unqualified(i) for i in fact_items(mapfile, sides)
                     if fact_status(mapfile, i, provenance) == "provisional")


def build_layout(mapfile: MapFile, entry: LayoutEntry, origin: str) -> MapLayout:
    """The layout ``entry`` as a game uses it: every area with its full adjacency (its side's neighbours, then links,
    then its tunnel partner), its board, and the map's pieces and provenance. ``origin`` says where the file came from."""
    areas: list[Area] = []
    boards: list[BoardPlace] = []
    for side_id in entry.sides:
        board, side = mapfile.side(side_id)  # type: ignore[misc]
        boards.append(BoardPlace(id=board.id, name=board.name, side=side.name, frame=board.frame))
        for a in side.areas:
            areas.append(Area(id=a.id, name=a.name, type=a.type, faction_symbol=a.faction_symbol, glyph=a.glyph,
                              adjacent=a.adjacent, board=board.id, tunnel=a.tunnel, citadel=a.citadel, place=a.place))
    links, tunnels = layout_pairs(mapfile, entry)
    extra: dict[str, list[str]] = {}
    for a, b in links:
        extra.setdefault(a, []).append(b)
        extra.setdefault(b, []).append(a)
    partner: dict[str, str] = {}
    for a, b, _ in tunnels:
        partner[a], partner[b] = b, a
    areas = [
        area.model_copy(update={"adjacent": area.adjacent + tuple(extra.get(area.id, ())) + ((partner[area.id],) if area.id in partner else ()),
                                "tunnel_to": partner.get(area.id)})
        for area in areas
    ]  # fmt: skip
    provenance = entry.provenance or mapfile.provenance
    return MapLayout(
        name=entry.name, title=entry.title, players=entry.players,
        boards=tuple(f"{b.name}, {b.side}" for b in boards), areas=tuple(areas),
        map=mapfile.map, map_title=mapfile.title, recommended=entry.recommended, board_places=tuple(boards),
        pieces=mapfile.pieces, provenance_status=provenance.status, provenance_summary=provenance.summary,
        provenance_rule=provenance.rule or "cthulhu-wars/dreamlands",
        provisional=provisional_items(mapfile, entry.sides, provenance), origin=origin,
    )  # fmt: skip
