"""A picture of a Cthulhu Wars position: the map as a diagram of areas and adjacency, with each
faction's units and Gates in every area, and a panel with the phase, each player's Power, Doom and
spellbooks, and a key to the markers and unit abbreviations.

The map data has no drawing coordinates, so areas start at rough world-map positions by id (an area
this table does not know, on a new map, starts on a circle) and are then pushed apart until no area
covers another.
"""

from __future__ import annotations

import math

from ...render import Circle, Line, Rect, Scene, Text
from .board import gate_holders, on_map
from .factions import FACTIONS
from .state import GameState

MAP_W, MAP_H, PANEL_W = 1060, 620, 330
RADIUS = 46
#: The least distance between two area centres: the circles and a little air between them.
SPACING = 2 * RADIUS + 14

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
}  # fmt: skip

COLOURS = {
    "great-cthulhu": "#2e8b57", "crawling-chaos": "#3465a4", "black-goat": "#c0392b",
    "yellow-sign": "#d4a017", "sleeper": "#8b5a2b", "windwalker": "#5d8aa8", "opener-of-the-way": "#7d3c98",
}  # fmt: skip
#: Short names of factions whose initials would be long or clash.
SHORT = {"opener-of-the-way": "OW", "sleeper": "SL", "windwalker": "WW"}
#: Unit abbreviations that the general rule would make clash or hard to read.
UNIT_SHORT = {"yog-sothoth": "YS", "spawn": "sp", "serpent-man": "sm", "formless-spawn": "fs", "tsathoggua": "ts",
              "wizard": "wz", "wendigo": "we", "gnoph-keh": "gk", "rhan-tegoth": "rt", "ithaqua": "it",
              "mutant": "mu", "abomination": "ab"}  # fmt: skip


def faction_colour(faction: str) -> str:
    """Each faction's colour (grey for a faction this table does not know)."""
    return COLOURS.get(faction, "#555555")


def short_name(faction: str) -> str:
    """'great-cthulhu' -> 'GC', 'opener-of-the-way' -> 'OW'."""
    return SHORT.get(faction) or "".join(w[0] for w in faction.split("-")).upper()


def start_place(area_id: str, index: int, count: int) -> tuple[float, float]:
    """Where an area's circle starts: its rough place on a world map, else on a ring."""
    if area_id in WORLD:
        lon, lat = WORLD[area_id]
        return 60 + (lon + 180) / 360 * (MAP_W - 120), 70 + (80 - lat) / 165 * (MAP_H - 140)
    angle = 2 * math.pi * index / max(count, 1)
    return MAP_W / 2 + 0.4 * MAP_W * math.cos(angle), MAP_H / 2 + 0.4 * MAP_H * math.sin(angle)


def spread(points: dict[str, tuple[float, float]], rounds: int = 300) -> dict[str, tuple[float, float]]:
    """Push circles apart (each pair to at least SPACING) and keep them inside the map; deterministic."""
    where = {k: list(v) for k, v in points.items()}
    keys = sorted(where)
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                dx, dy = where[b][0] - where[a][0], where[b][1] - where[a][1]
                gap = math.hypot(dx, dy)
                if gap < SPACING:
                    if gap < 1e-6:
                        dx, dy, gap = 1.0, 0.0, 1.0
                    push = (SPACING - gap) / 2 + 0.5
                    ux, uy = dx / gap, dy / gap
                    where[a][0] -= ux * push
                    where[a][1] -= uy * push
                    where[b][0] += ux * push
                    where[b][1] += uy * push
                    moved = True
        for p in where.values():
            p[0] = min(max(p[0], RADIUS + 4), MAP_W - RADIUS - 4)
            p[1] = min(max(p[1], RADIUS + 4), MAP_H - RADIUS - 4)
        if not moved:
            break
    return {k: (v[0], v[1]) for k, v in where.items()}


def area_places(state: GameState) -> dict[str, tuple[float, float]]:
    areas = state.layout.areas
    return spread({a.id: start_place(a.id, i, len(areas)) for i, a in enumerate(areas)})


def draw_map(state: GameState, names: list[str] | None = None, phase: str | None = None) -> Scene:
    """The whole picture; ``names`` are the players' names in seat order, ``phase`` the phase in words."""
    layout = state.layout
    scene = Scene(MAP_W + PANEL_W, MAP_H, background="#fbf8f0")
    where = area_places(state)
    drawn: set[frozenset[str]] = set()
    for area in layout.areas:
        for other in area.adjacent:
            pair = frozenset((area.id, other))
            if pair not in drawn:
                drawn.add(pair)
                (x1, y1), (x2, y2) = where[area.id], where[other]
                scene.add(Line(x1, y1, x2, y2, "#c9c1b1", 2))
    for area in layout.areas:
        draw_area(scene, state, area.id, area.name, area.type, *where[area.id])
    draw_panel(scene, state, names, phase or f"{state.phase} phase")
    return scene


def name_lines(name: str, width: int = 13) -> list[str]:
    """An area's full name in lines of about ``width`` characters ('North America' / 'West')."""
    lines: list[str] = []
    for word in name.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def draw_area(scene: Scene, state: GameState, area_id: str, name: str, kind: str, x: float, y: float) -> None:
    scene.add(Circle(x, y, RADIUS, fill="#cfe3f3" if kind == "ocean" else "#eadcbc", stroke="#6b6256", stroke_width=2))
    title = name_lines(name)
    top = y - RADIUS + 13
    for row, line in enumerate(title):
        scene.add(Text(x, top + row * 11, line, 10, "#222222"))
    row_y = top + len(title) * 11 + 2
    gates = [s for a, s in gate_holders(state) if a == area_id]
    for n, holder in enumerate(gates):
        colour = faction_colour(state.seats[holder].faction) if holder is not None else "#ffffff"
        scene.add(Rect(x - 8 + 18 * n - 9 * (len(gates) - 1), row_y - 5, 16, 10, fill=colour, stroke="#000000", stroke_width=1))
    if gates:
        row_y += 12
    for marker in markers(state).get(area_id, []):
        scene.add(Text(x, row_y, marker.split(" (")[0], 9, "#1f4e79"))
        row_y += 10
    for text, colour in units_text(state, area_id)[:4]:
        scene.add(Text(x, row_y, text, 9, colour))
        row_y += 10


def units_text(state: GameState, area_id: str) -> list[tuple[str, str]]:
    """One short line per faction with figures in the area, e.g. ('GC 3ac Ct', colour)."""
    lines = []
    for fs in state.seats:
        counts: dict[str, int] = {}
        for kind, places in fs.units.items():
            n = places.count(area_id)
            if n:
                counts[kind] = n
        if counts:
            parts = [f"{n if n > 1 else ''}{abbreviate(kind)}" for kind, n in counts.items()]
            lines.append((f"{short_name(fs.faction)} {' '.join(parts)}", faction_colour(fs.faction)))
    return lines


def markers(state: GameState) -> dict[str, list[str]]:
    """Every faction's public markers by Area (Ice Age)."""
    found: dict[str, list[str]] = {}
    for s, fs in enumerate(state.seats):
        for area, names in FACTIONS[fs.faction].area_markers(state, s).items():
            found.setdefault(area, []).extend(names)
    return found


def abbreviate(kind: str) -> str:
    """A unit kind in a few letters: 'acolyte' -> 'ac', 'deep-one' -> 'do', 'yog-sothoth' -> 'YS'."""
    if kind in UNIT_SHORT:
        return UNIT_SHORT[kind]
    words = kind.split("-")
    return "".join(w[0] for w in words) if len(words) > 1 else kind[:2]


def unit_key(state: GameState) -> list[str]:
    """'ac Acolyte' for every kind of unit on the map, in faction order."""
    seen: dict[str, str] = {}
    for fs in state.seats:
        titles = {u.name: u.title for u in FACTIONS[fs.faction].units} if fs.faction in FACTIONS else {}
        for kind, places in fs.units.items():
            if any(on_map(p) for p in places):
                seen.setdefault(abbreviate(kind), titles.get(kind, kind))
    return [f"{short} {title}" for short, title in seen.items()]


def draw_panel(scene: Scene, state: GameState, names: list[str] | None, phase: str) -> None:
    x = MAP_W + 12
    scene.add(Rect(MAP_W, 0, PANEL_W, MAP_H, fill="#f1ebdd"))
    scene.add(Text(x, 20, f"Round {state.round}: {phase}", 14, "#222222", anchor="start"))
    scene.add(Text(x, 40, f"Ritual of Annihilation costs {state.ritual_cost}", 12, "#222222", anchor="start"))
    step = min(80, (MAP_H - 230) // max(len(state.seats), 1))
    for seat, fs in enumerate(state.seats):
        y = 62 + seat * step
        colour = faction_colour(fs.faction)
        player = names[seat] if names and names[seat] != f"seat {seat}" else None
        scene.add(Rect(x, y, 12, 12, fill=colour))
        label = f"{short_name(fs.faction)} {fs.faction}" + (f" ({player})" if player else "")
        scene.add(Text(x + 18, y + 6, label, 13, colour, anchor="start"))
        scene.add(Text(x + 18, y + 22, f"Power {fs.power}   Doom {fs.doom}   Elder Signs {len(fs.elder_signs)}", 11, "#222222", anchor="start"))
        books = name_lines(f"Spellbooks {len(fs.spellbooks)}/6: " + (", ".join(fs.spellbooks) or "none yet"), 52)
        notes = FACTIONS[fs.faction].notes(state, seat)
        for row, line in enumerate(books[: 1 if notes else 2]):
            scene.add(Text(x + 18, y + 37 + row * 12, line, 10, "#555555", anchor="start"))
        if notes:
            scene.add(Text(x + 18, y + 49, notes[0].split(" (")[0].split(",")[0][:60], 10, "#1f4e79", anchor="start"))
    draw_key(scene, state, x, MAP_H - 160)


def draw_key(scene: Scene, state: GameState, x: float, y: float) -> None:
    """What the markers and abbreviations mean."""
    scene.add(Text(x, y, "Key", 12, "#222222", anchor="start"))
    scene.add(Rect(x, y + 12, 14, 9, fill="#2e8b57", stroke="#000000"))
    scene.add(Text(x + 20, y + 17, "Gate, in its controller's colour", 10, "#333333", anchor="start"))
    scene.add(Rect(x, y + 27, 14, 9, fill="#ffffff", stroke="#000000"))
    scene.add(Text(x + 20, y + 32, "Abandoned Gate", 10, "#333333", anchor="start"))
    scene.add(Text(x, y + 48, "Blue: ocean, sand: land. Lines join adjacent areas.", 10, "#333333", anchor="start"))
    scene.add(Text(x, y + 63, "Units: faction, count, kind (3ac = 3 Acolytes):", 10, "#333333", anchor="start"))
    entries = unit_key(state)
    for row in range(0, len(entries), 3):
        scene.add(Text(x, y + 78 + row // 3 * 13, ", ".join(entries[row : row + 3]), 10, "#333333", anchor="start"))
