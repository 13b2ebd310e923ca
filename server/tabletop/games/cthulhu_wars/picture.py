"""A picture of a Cthulhu Wars position: the map as a diagram of areas and adjacency, with each
faction's units and Gates in every area, and a panel with the phase, each player's Power, Doom and
spellbooks, and a key to the markers and unit abbreviations.

Areas start where the map data places them within their board's frame (an area without a place starts
on a ring) and are then pushed apart, each kept inside its board, until no area covers another.
"""

from __future__ import annotations

import math

from ...render import Circle, Line, Rect, Scene, Text
from . import creatures
from .board import gate_holders, on_map
from .factions import FACTIONS
from .state import GameState

MAP_W, MAP_H, PANEL_W = 1060, 620, 330
RADIUS = 46
#: Height of a board's name above its areas, on a map of several boards.
BOARD_TITLE = 16
#: The least distance between two area centres: the circles and a little air between them.
SPACING = 2 * RADIUS + 14

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


Box = tuple[float, float, float, float]


def frame_box(frame: tuple[float, float, float, float]) -> Box:
    """A board's frame (fractions of the map drawing) in pixels: left, top, right, bottom."""
    left, top, right, bottom = frame
    return left * MAP_W, top * MAP_H, right * MAP_W, bottom * MAP_H


def start_place(place: tuple[float, float] | None, box: Box, index: int, count: int) -> tuple[float, float]:
    """Where an area's circle starts: its place from the map data within its board's box, else on a ring."""
    left, top, right, bottom = box
    if place is not None:
        return left + place[0] * (right - left), top + place[1] * (bottom - top)
    angle = 2 * math.pi * index / max(count, 1)
    cx, cy = (left + right) / 2, (top + bottom) / 2
    return cx + 0.4 * (right - left) * math.cos(angle), cy + 0.4 * (bottom - top) * math.sin(angle)


def spread(points: dict[str, tuple[float, float]], rounds: int = 300,
           boxes: dict[str, Box] | None = None) -> dict[str, tuple[float, float]]:
    """Push circles apart (each pair to at least SPACING) and keep each inside its box (default the whole map);
    deterministic."""
    where = {k: list(v) for k, v in points.items()}
    keys = sorted(where)
    whole = (0.0, 0.0, float(MAP_W), float(MAP_H))
    limits = {k: (boxes or {}).get(k, whole) for k in keys}
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
        for k, p in where.items():
            left, top, right, bottom = limits[k]
            p[0] = min(max(p[0], left + RADIUS + 4), right - RADIUS - 4)
            p[1] = min(max(p[1], top + RADIUS + 4), bottom - RADIUS - 4)
        if not moved:
            break
    return {k: (v[0], v[1]) for k, v in where.items()}


def area_places(state: GameState) -> dict[str, tuple[float, float]]:
    """Each area's centre: its place within its board's frame, pushed apart from the others."""
    layout = state.layout
    title = BOARD_TITLE if len(layout.board_places) > 1 else 0  # room for each board's name
    boxes = {b.id: frame_box(b.frame) for b in layout.board_places}
    boxes = {k: (left, top + title, right, bottom) for k, (left, top, right, bottom) in boxes.items()}
    whole = (0.0, 0.0, float(MAP_W), float(MAP_H))
    own = {a.id: boxes.get(a.board, whole) for a in layout.areas}
    count = len(layout.areas)
    return spread({a.id: start_place(a.place, own[a.id], i, count) for i, a in enumerate(layout.areas)}, boxes=own)


def draw_map(state: GameState, names: list[str] | None = None, phase: str | None = None) -> Scene:
    """The whole picture; ``names`` are the players' names in seat order, ``phase`` the phase in words."""
    layout = state.layout
    scene = Scene(MAP_W + PANEL_W, MAP_H, background="#fbf8f0")
    where = area_places(state)
    draw_boards(scene, state)
    drawn: set[frozenset[str]] = set()
    for area in layout.areas:
        for other in area.adjacent:
            pair = frozenset((area.id, other))
            if pair not in drawn:
                drawn.add(pair)
                (x1, y1), (x2, y2) = where[area.id], where[other]
                if area.tunnel_to != other:  # tunnels are drawn as the glyphs on both ends (see draw_area)
                    scene.add(Line(x1, y1, x2, y2, "#c9c1b1", 2))
    for area in layout.areas:
        draw_area(scene, state, area.id, area.name, area.type, *where[area.id])
    draw_panel(scene, state, names, phase or f"{state.phase} phase")
    return scene


TUNNEL_COLOUR, CITADEL_COLOUR, CREATURE_COLOUR, WARNING_COLOUR = "#7b4fa0", "#b22222", "#8b1a1a", "#c0392b"
BOARD_TINTS = ("#f3efe2", "#e9e4ee")


def draw_boards(scene: Scene, state: GameState) -> None:
    """A map of several boards (the Dreamlands): each board's panel and name, and, on a provisional map, a warning
    across the top that it is not the printed map."""
    layout = state.layout
    if len(layout.board_places) > 1:
        for n, place in enumerate(layout.board_places):
            left, top, right, bottom = frame_box(place.frame)
            scene.add(Rect(left + 3, top, right - left - 6, bottom - top - 3, fill=BOARD_TINTS[n % 2], stroke="#b8ad96"))
            scene.add(Text(left + 10, top + 11, f"{place.name} ({place.side})", 12, "#4a4031", anchor="start"))
    if layout.is_provisional:
        scene.add(Text(MAP_W / 2, 12, f"PROVISIONAL MAP ({layout.map_title}): not the printed boards; adjacency "
                       "invented where unpublished", 12, WARNING_COLOUR))


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
    area = state.layout.area(area_id)
    if area.citadel:  # a red box with the die numbers, as printed
        numbers = "-".join(str(n) for n in (area.citadel[0], area.citadel[-1])) if len(area.citadel) > 1 else str(area.citadel[0])
        scene.add(Rect(x + RADIUS - 24, y - RADIUS - 2, 26, 13, fill=CITADEL_COLOUR, stroke="#5a0f0f"))
        scene.add(Text(x + RADIUS - 11, y - RADIUS + 4.5, numbers, 9, "#ffffff"))
    if area.tunnel:  # a purple disc with the tunnel's glyph
        scene.add(Circle(x - RADIUS + 8, y - RADIUS + 10, 8, fill=TUNNEL_COLOUR, stroke="#3d2454"))
        scene.add(Text(x - RADIUS + 8, y - RADIUS + 10, area.tunnel, 10, "#ffffff"))
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
    for marker in creatures.markers(state).get(area_id, []):
        scene.add(Text(x, row_y, marker, 9, CREATURE_COLOUR))
        row_y += 10
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
    dreamlands = bool(state.layout.citadels() or state.layout.pieces.bhole or any(a.tunnel for a in state.layout.areas))
    draw_key(scene, state, x, MAP_H - (190 if dreamlands else 160))


def draw_key(scene: Scene, state: GameState, x: float, y: float) -> None:
    """What the markers and abbreviations mean."""
    scene.add(Text(x, y, "Key", 12, "#222222", anchor="start"))
    layout = state.layout
    if layout.citadels() or any(a.tunnel for a in layout.areas):
        scene.add(Rect(x + 150, y - 6, 20, 12, fill=CITADEL_COLOUR))
        scene.add(Text(x + 176, y, "Citadel, its die numbers", 10, "#333333", anchor="start"))
        scene.add(Circle(x + 6, y + 96 + 12 * ((len(unit_key(state)) + 2) // 3), 6, fill=TUNNEL_COLOUR))
        tunnels = sorted({(a.tunnel, a.name, layout.area(a.tunnel_to).name) for a in layout.areas
                          if a.tunnel and a.tunnel_to and a.board == layout.board_places[0].id})
        text = "Tunnels (the purple letters join the boards): " + "; ".join(f"{t} {a} - {b}" for t, a, b in tunnels)
        for row, line in enumerate(name_lines(text, 50)[:4]):
            scene.add(Text(x + 16, y + 96 + 12 * ((len(unit_key(state)) + 2) // 3) + row * 12, line, 10, "#333333", anchor="start"))
    scene.add(Rect(x, y + 12, 14, 9, fill="#2e8b57", stroke="#000000"))
    scene.add(Text(x + 20, y + 17, "Gate, in its controller's colour", 10, "#333333", anchor="start"))
    scene.add(Rect(x, y + 27, 14, 9, fill="#ffffff", stroke="#000000"))
    scene.add(Text(x + 20, y + 32, "Abandoned Gate", 10, "#333333", anchor="start"))
    scene.add(Text(x, y + 48, "Blue: ocean, sand: land. Lines join adjacent areas.", 10, "#333333", anchor="start"))
    scene.add(Text(x, y + 63, "Units: faction, count, kind (3ac = 3 Acolytes):", 10, "#333333", anchor="start"))
    entries = unit_key(state)
    for row in range(0, len(entries), 3):
        scene.add(Text(x, y + 78 + row // 3 * 13, ", ".join(entries[row : row + 3]), 10, "#333333", anchor="start"))
