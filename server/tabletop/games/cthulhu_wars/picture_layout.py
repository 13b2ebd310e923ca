"""Where the picture draws each area of a map layout: its region (polygons) and its card (the box holding its name,
Gate and pieces), in pixels of the map drawing.

The Earth is drawn from :mod:`.picture_earth`: land outlines drawn by hand after the printed map (the western
hemisphere on the left, the eastern on the right), seas as the regions nearest their seed points, and a card per
area. A land area that a layout does not split is drawn as the union of the pieces it is made of (North America of
the 3-player side: its West, East and Central America). Any other map (the Dreamlands, a map folder's) is drawn from
the places its data gives: each area's card starts at its place within its board's frame, cards are pushed apart
until none covers another, and each area's region is the part of its board nearest its card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import picture_earth as earth
from .maps import MapLayout, layout_cache, load_layout

Point = tuple[float, float]
Polygon = tuple[Point, ...]
#: left, top, right, bottom
Box = tuple[float, float, float, float]

#: The map drawing: its size, and the band above it for the boards' titles.
MAP_W, MAP_H, TITLE_H = 1020, 780, 28
#: A card on a map without hand-drawn outlines (the Dreamlands).
CARD_W, CARD_H = 160, 122


@dataclass(frozen=True)
class AreaPlace:
    """Where one area is drawn: the polygons of its region and the box for its name and pieces."""

    polygons: tuple[Polygon, ...]
    card: Box


@dataclass(frozen=True)
class BoardFrame:
    """A board's box in the drawing, its title and where the title goes (its middle)."""

    box: Box
    title: str
    title_at: Point


@dataclass(frozen=True)
class MapPlaces:
    """Where everything of a layout is drawn."""

    areas: dict[str, AreaPlace]
    boards: tuple[BoardFrame, ...]
    #: Lines between two seas made of several cells each (the Earth's): ((x1, y1), (x2, y2)).
    borders: tuple[tuple[Point, Point], ...] = ()
    #: Text drawn on the map that belongs to no area (e.g. where the Pacific goes on across the edge): (x, y, text).
    notes: tuple[tuple[float, float, str], ...] = ()


@layout_cache
def map_places(layout_name: str) -> MapPlaces:
    """Where each area of the layout is drawn (Earth by hand, any other map from its data's places)."""
    layout = load_layout(layout_name)
    if earth.fits(layout):
        return earth_places(layout)
    return placed_from_data(layout)


# ---- the Earth --------------------------------------------------------------------------------------------------------
def earth_places(layout: MapLayout) -> MapPlaces:
    """The Earth from the hand-drawn tables, shifted below the title band."""
    box = (0.0, TITLE_H, float(MAP_W), float(MAP_H))
    present = {a.id for a in layout.areas}
    pieces: dict[str, list[Polygon]] = {}
    for piece, outline in earth.LAND.items():
        owner = piece if piece in present else earth.PART_OF.get(piece)
        if owner in present:
            pieces.setdefault(owner, []).append(shift(outline, 0, TITLE_H))
    seeds = [(area, (x, y + TITLE_H)) for area, points in earth.SEAS.items() if area in present for x, y in points]
    places = {}
    for area in layout.areas:
        if area.type == "ocean":  # one cell per seed: the part of the map nearer it than any other sea's seed
            others = [p for owner, p in seeds if owner != area.id]
            polygons = tuple(voronoi_cell(p, others, box) for owner, p in seeds if owner == area.id)
        else:
            polygons = (union(pieces[area.id]),)
        x, y, w, h = earth.card(layout.name, area.id)
        places[area.id] = AreaPlace(polygons, (x, y + TITLE_H, x + w, y + h + TITLE_H))
    half = MAP_W / 2
    boards = (BoardFrame((0, TITLE_H, half, MAP_H), "Western hemisphere", (half / 2, TITLE_H / 2)),
              BoardFrame((half, TITLE_H, MAP_W, MAP_H), "Eastern hemisphere", (half * 1.5, TITLE_H / 2)))
    notes = tuple((x, y + TITLE_H, text) for area, x, y, text in earth.NOTES if area in present)
    return MapPlaces(places, boards, sea_borders(places, seeds), notes)


def sea_borders(places: dict[str, AreaPlace], seeds: list[tuple[str, Point]]) -> tuple[tuple[Point, Point], ...]:
    """The edges of sea cells that part two seas (not two cells of one sea): those as near another sea's seeds as
    their own sea's; each border once."""
    found = []
    for area, place in places.items():
        if not any(owner == area for owner, _ in seeds):
            continue
        for polygon in place.polygons:
            for a, b in zip(polygon, polygon[1:] + polygon[:1]):
                middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                other = min((distance(middle, seeds, owner), owner) for owner, _ in seeds if owner != area)[1]
                if area < other and abs(distance(middle, seeds, other) - distance(middle, seeds, area)) < 0.5:
                    found.append((a, b))
    return tuple(found)


def distance(point: Point, seeds: list[tuple[str, Point]], owner: str) -> float:
    """How far ``point`` is from the nearest seed of ``owner``."""
    return min(math.dist(point, p) for area, p in seeds if area == owner)


def shift(points: Polygon, dx: float, dy: float) -> Polygon:
    return tuple((x + dx, y + dy) for x, y in points)


def union(polygons: list[Polygon]) -> Polygon:
    """The outline of polygons that share whole edges (same vertices, no holes): the edges not shared, chained."""
    if len(polygons) == 1:
        return polygons[0]
    edges: set[tuple[Point, Point]] = set()
    for polygon in polygons:
        ring = clockwise(polygon)
        for a, b in zip(ring, ring[1:] + ring[:1]):
            if (b, a) in edges:  # the same edge the other way round: inside the union
                edges.remove((b, a))
            else:
                edges.add((a, b))
    after = dict(edges)
    start = min(after)
    outline = [start]
    while (nxt := after[outline[-1]]) != start:
        outline.append(nxt)
    return tuple(outline)


def clockwise(polygon: Polygon) -> Polygon:
    """The polygon with its points in clockwise order on screen (y downwards)."""
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]))
    return polygon if area > 0 else tuple(reversed(polygon))


def voronoi_cell(seed: Point, others: list[Point], box: Box) -> Polygon:
    """The part of ``box`` nearer to ``seed`` than to any of ``others``."""
    left, top, right, bottom = box
    cell: list[Point] = [(left, top), (right, top), (right, bottom), (left, bottom)]
    for other in others:
        if other != seed:
            cell = clip_nearer(cell, seed, other)
    return tuple(cell)


def clip_nearer(polygon: list[Point], seed: Point, other: Point) -> list[Point]:
    """The part of a convex polygon nearer to ``seed`` than to ``other`` (one half-plane of Sutherland-Hodgman)."""
    (sx, sy), (ox, oy) = seed, other
    nx, ny = ox - sx, oy - sy
    limit = (ox * ox + oy * oy - sx * sx - sy * sy) / 2

    def side(p: Point) -> float:  # < 0: nearer to the seed
        return p[0] * nx + p[1] * ny - limit

    kept: list[Point] = []
    for a, b in zip(polygon, polygon[1:] + polygon[:1]):
        if side(a) <= 0:
            kept.append(a)
        if (side(a) < 0) != (side(b) < 0) and side(a) != side(b):
            t = side(a) / (side(a) - side(b))
            kept.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return kept


# ---- any other map: from the data's places ----------------------------------------------------------------------------
def placed_from_data(layout: MapLayout) -> MapPlaces:
    """Cards at the data's places, pushed apart within their boards; each region the part of its board nearest its card."""
    whole = (0.0, TITLE_H, float(MAP_W), float(MAP_H))
    frames = {b.id: frame_box(b.frame) for b in layout.board_places}
    titles = {b.id: f"{b.name} ({b.side})" for b in layout.board_places}
    boxes = {a.id: frames.get(a.board, whole) for a in layout.areas}
    starts = {a.id: start_place(a.place, boxes[a.id], i, len(layout.areas)) for i, a in enumerate(layout.areas)}
    centres = spread_cards(starts, boxes)
    places = {}
    for area in layout.areas:
        same_board = [centres[a.id] for a in layout.areas if a.board == area.board and a.id != area.id]
        x, y = centres[area.id]
        card = (x - CARD_W / 2, y - CARD_H / 2, x + CARD_W / 2, y + CARD_H / 2)
        places[area.id] = AreaPlace((inset(voronoi_cell((x, y), same_board, boxes[area.id]), 3),), card)
    frames_drawn = tuple(BoardFrame(frames[b], titles[b], title_place(frames[b])) for b in frames)
    return MapPlaces(places, frames_drawn or (BoardFrame(whole, layout.map_title, title_place(whole)),))


def title_place(box: Box) -> Point:
    """A board's title: centred above its frame if there is room, else at the top of the frame (cards keep clear)."""
    left, top, right, _ = box
    return ((left + right) / 2, (top + TITLE_H) / 2 if top - TITLE_H >= 20 else top + 14)


def frame_box(frame: tuple[float, float, float, float]) -> Box:
    """A board's frame (fractions of the map, as the data gives it) in pixels, below the title band."""
    left, top, right, bottom = frame
    height = MAP_H - TITLE_H
    return left * MAP_W, TITLE_H + top * height, right * MAP_W, TITLE_H + bottom * height


def start_place(place: Point | None, box: Box, index: int, count: int) -> Point:
    """Where an area's card starts: its place within its board's box, else on a ring."""
    left, top, right, bottom = box
    if place is not None:
        return left + place[0] * (right - left), top + place[1] * (bottom - top)
    angle = 2 * math.pi * index / max(count, 1)
    cx, cy = (left + right) / 2, (top + bottom) / 2
    return cx + 0.4 * (right - left) * math.cos(angle), cy + 0.4 * (bottom - top) * math.sin(angle)


def spread_cards(centres: dict[str, Point], boxes: dict[str, Box], rounds: int = 400) -> dict[str, Point]:
    """Push overlapping cards apart (along the axis where they overlap less), each kept inside its box; deterministic."""
    where = {k: list(v) for k, v in centres.items()}
    keys = sorted(where)
    gap_w, gap_h = CARD_W + 8, CARD_H + 8
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                dx, dy = where[b][0] - where[a][0], where[b][1] - where[a][1]
                over_x, over_y = gap_w - abs(dx), gap_h - abs(dy)
                if over_x > 0 and over_y > 0:
                    moved = True
                    axis, over, d = (0, over_x, dx) if over_x / gap_w < over_y / gap_h else (1, over_y, dy)
                    sign = 1.0 if d >= 0 else -1.0
                    where[a][axis] -= sign * (over / 2 + 0.5)
                    where[b][axis] += sign * (over / 2 + 0.5)
        for k, p in where.items():
            left, top, right, bottom = boxes[k]
            p[0] = min(max(p[0], left + CARD_W / 2 + 6), right - CARD_W / 2 - 6)
            p[1] = min(max(p[1], top + CARD_H / 2 + 24), bottom - CARD_H / 2 - 6)
        if not moved:
            break
    return {k: (v[0], v[1]) for k, v in where.items()}


def inset(polygon: Polygon, by: float) -> Polygon:
    """A convex polygon moved ``by`` pixels towards its centre, so neighbouring regions show a seam between them."""
    cx = sum(x for x, _ in polygon) / len(polygon)
    cy = sum(y for _, y in polygon) / len(polygon)
    out = []
    for x, y in polygon:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x - by * (x - cx) / d, y - by * (y - cy) / d))
    return tuple(out)


def boxes_overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
