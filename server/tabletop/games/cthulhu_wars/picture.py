"""A picture of a Cthulhu Wars position: the map as a diagram of areas and adjacency, with each
faction's units and Gates in every area, and a panel of Power, Doom and spellbooks per faction.

The map data has no drawing coordinates, so areas are placed at rough world-map positions by id;
an area this table does not know (a new map) is placed on a circle.
"""

from __future__ import annotations

import math

from ...render import Circle, Line, Rect, Scene, Text
from .board import on_map
from .state import GameState

MAP_W, MAP_H, PANEL_W = 980, 540, 300
RADIUS = 40

#: Approximate (longitude, latitude) of each area, for an equirectangular diagram.
WORLD = {
    "arctic-ocean": (-25, 78), "north-pacific": (-160, 28), "south-pacific": (-125, -35),
    "north-atlantic": (-38, 35), "south-atlantic": (-18, -32), "indian-ocean": (78, -22),
    "north-america": (-100, 48), "north-america-west": (-122, 48), "north-america-east": (-80, 46),
    "central-america": (-95, 15), "south-america": (-62, -15), "south-america-west": (-78, -22),
    "south-america-east": (-48, -8), "europe": (12, 48), "scandinavia": (18, 66), "africa": (20, 2),
    "west-africa": (-2, 12), "east-africa": (36, -6), "arabia": (48, 24), "asia": (95, 45),
    "north-asia": (100, 64), "south-asia": (92, 24), "australia": (132, -25), "new-zealand": (170, -44),
    "antarctica": (10, -78),
}

COLOURS = {
    "great-cthulhu": "#2e8b57", "crawling-chaos": "#3465a4", "black-goat": "#c0392b",
    "yellow-sign": "#d4a017", "sleeper": "#8b5a2b", "windwalker": "#7f8c8d",
}


def faction_colour(faction: str) -> str:
    """Each faction's colour; stand-ins share their namesake's."""
    return COLOURS.get(faction.removeprefix("stand-in-"), "#555555")


def short_name(faction: str) -> str:
    """'great-cthulhu' -> 'GC', 'stand-in-black-goat' -> 'BG*'."""
    base = faction.removeprefix("stand-in-")
    return "".join(w[0] for w in base.split("-")).upper() + ("*" if base != faction else "")


def place(area_id: str, index: int, count: int) -> tuple[float, float]:
    """Where an area's circle goes on the diagram."""
    if area_id in WORLD:
        lon, lat = WORLD[area_id]
        return 50 + (lon + 180) / 360 * (MAP_W - 100), 62 + (80 - lat) / 165 * (MAP_H - 112)
    angle = 2 * math.pi * index / max(count, 1)
    return MAP_W / 2 + 0.4 * MAP_W * math.cos(angle), MAP_H / 2 + 0.4 * MAP_H * math.sin(angle)


def draw_map(state: GameState) -> Scene:
    layout = state.layout
    scene = Scene(MAP_W + PANEL_W, MAP_H, background="#fbf8f0")
    where = {a.id: place(a.id, i, len(layout.areas)) for i, a in enumerate(layout.areas)}
    drawn: set[frozenset[str]] = set()
    for area in layout.areas:
        for other in area.adjacent:
            pair = frozenset((area.id, other))
            if pair not in drawn:
                drawn.add(pair)
                (x1, y1), (x2, y2) = where[area.id], where[other]
                scene.add(Line(x1, y1, x2, y2, "#b8b0a0", 2))
    for area in layout.areas:
        draw_area(scene, state, area.id, area.name, area.type, *where[area.id])
    draw_panel(scene, state)
    return scene


def draw_area(scene: Scene, state: GameState, area_id: str, name: str, kind: str, x: float, y: float) -> None:
    scene.add(Circle(x, y, RADIUS, fill="#cfe3f3" if kind == "ocean" else "#eadcbc", stroke="#6b6256", stroke_width=2))
    scene.add(Text(x, y - RADIUS - 8, name, 11, "#333333"))
    if area_id in state.gates:
        holder = state.gates[area_id]
        colour = faction_colour(state.seats[holder[0]].faction) if holder else "#ffffff"
        scene.add(Rect(x - 9, y - RADIUS + 4, 18, 12, fill=colour, stroke="#000000", stroke_width=1))
    lines = units_text(state, area_id)
    for row, (text, colour) in enumerate(lines[:4]):
        scene.add(Text(x, y - 6 + row * 12, text, 10, colour))


def units_text(state: GameState, area_id: str) -> list[tuple[str, str]]:
    """One short line per faction with figures in the area, e.g. ('GC 3a 1 Cthulhu', colour)."""
    lines = []
    for fs in state.seats:
        counts: dict[str, int] = {}
        for kind, places in fs.units.items():
            n = places.count(area_id)
            if n:
                counts[kind] = n
        if counts:
            parts = [f"{n}{abbreviate(kind)}" for kind, n in counts.items()]
            lines.append((f"{short_name(fs.faction)} {' '.join(parts)}", faction_colour(fs.faction)))
    return lines


def abbreviate(kind: str) -> str:
    """A unit kind in a few letters: 'acolyte' -> 'ac', 'deep-one' -> 'do'."""
    words = kind.split("-")
    return "".join(w[0] for w in words) if len(words) > 1 else kind[:2]


def draw_panel(scene: Scene, state: GameState) -> None:
    x = MAP_W + 12
    scene.add(Rect(MAP_W, 0, PANEL_W, MAP_H, fill="#f1ebdd"))
    scene.add(Text(x, 20, f"Round {state.round} - {state.phase} phase", 14, "#222222", anchor="start"))
    scene.add(Text(x, 40, f"Ritual cost {state.ritual_cost}", 12, "#222222", anchor="start"))
    for seat, fs in enumerate(state.seats):
        y = 70 + seat * 86
        colour = faction_colour(fs.faction)
        scene.add(Rect(x, y, 12, 12, fill=colour))
        scene.add(Text(x + 18, y + 6, fs.faction, 13, colour, anchor="start"))
        scene.add(Text(x + 18, y + 24, f"Power {fs.power}   Doom {fs.doom}   Elder Signs {len(fs.elder_signs)}", 11, "#222222", anchor="start"))
        on = sum(1 for places in fs.units.values() for p in places if on_map(p))
        scene.add(Text(x + 18, y + 40, f"Spellbooks {len(fs.spellbooks)}/6   units on map {on}", 11, "#222222", anchor="start"))
        books = ", ".join(fs.spellbooks) or "none yet"
        scene.add(Text(x + 18, y + 56, books[:44], 10, "#555555", anchor="start"))
