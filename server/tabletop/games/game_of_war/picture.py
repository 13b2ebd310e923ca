"""A picture of a Game of War position: terrain, units by side, online/offline marks and, as an
optional overlay, the squares each side's lines of communication cover (rules_text
game-of-war/board and game-of-war/communication). Hidden deployments stay hidden.
"""

from __future__ import annotations

from ...render import Circle, Line, Polygon, Rect, Scene, Spot, Text
from .board import ARSENAL_SQUARES, COLUMNS, FORTRESSES, HEIGHT, MOUNTAINS, PASSES, SQUARES, WIDTH, square_name
from .display import visible_sides
from .state import SETUP, State
from .units import STATS

CELL, MARGIN = 28, 24
SIDE_COLOURS = ("#1f4e9c", "#b3261e")  # North blue, South red
COVER_TINTS = ("#1f4e9c", "#b3261e")
TERRAIN_FILLS = {"plain": "#f3efe2", "north": "#eef1f8", "south": "#f8eeee"}


def origin(sq: int) -> tuple[float, float]:
    return MARGIN + (sq % WIDTH) * CELL, MARGIN + (sq // WIDTH) * CELL


KEY_H = 76


def side_label(side: int, names: list[str] | None) -> str:
    """'North (Ann)', or just 'North' when the player has no name of their own."""
    name = names[side] if names and side < len(names) and names[side] != f"seat {side}" else None
    return f"{('North', 'South')[side]}" + (f" ({name})" if name else "")


def draw_board(state: State, seat: int | None, show_lines: bool, names: list[str] | None = None) -> Scene:
    scene = Scene(WIDTH * CELL + 2 * MARGIN, HEIGHT * CELL + 2 * MARGIN + KEY_H, background="#ffffff")
    draw_terrain(scene)
    shown = visible_sides(state, seat)
    if show_lines and state.phase != SETUP:
        draw_cover(scene, state)
    draw_arsenals(scene, state, shown)
    for sq, code in state.pieces.items():
        if code >> 3 in shown:
            draw_unit(scene, state, sq, code)
    draw_labels(scene)
    scene.spots = [Spot(*origin(sq), CELL, CELL, square_name(sq)) for sq in range(SQUARES)]
    status = "Set-up: deployments are secret until both sides commit." if state.phase == SETUP else (
        state.reason or f"Turn {state.turn}: {side_label(state.side, names)} to play."
    )
    top = HEIGHT * CELL + 2 * MARGIN
    scene.add(Text(MARGIN, top + 4, status, 12, "#222222", anchor="start"))
    draw_key(scene, top + 22, show_lines and state.phase != SETUP, names)
    return scene


def draw_key(scene: Scene, y: float, show_lines: bool, names: list[str] | None) -> None:
    """What the colours, letters and marks mean."""
    for side in (0, 1):
        x = MARGIN + side * 200
        scene.add(Circle(x + 7, y, 7, fill=SIDE_COLOURS[side], stroke=SIDE_COLOURS[side]))
        case = "upper" if side == 0 else "lower"
        scene.add(Text(x + 20, y, f"{side_label(side, names)}: {case} case", 11, "#222222", anchor="start"))
    x = MARGIN + 400
    scene.add(Circle(x + 7, y, 7, fill="#ffffff", stroke="#555555", stroke_width=2))
    scene.add(Text(x + 20, y, "hollow: offline (cut off from its lines)", 11, "#222222", anchor="start"))
    letters = "I infantry, C cavalry, K cannon, W swift cannon, R relay, X swift relay; A arsenal; = pass; framed square: fortress; grey: mountain"
    scene.add(Text(MARGIN, y + 18, letters, 11, "#222222", anchor="start"))
    if show_lines:
        scene.add(Polygon(((MARGIN, y + 29), (MARGIN + 9, y + 29), (MARGIN, y + 38)), fill=COVER_TINTS[0]))
        scene.add(Polygon(((MARGIN + 22, y + 38), (MARGIN + 13, y + 38), (MARGIN + 22, y + 29)), fill=COVER_TINTS[1]))
        text = "corner marks: squares covered by North's (top left) and South's (bottom right) lines of communication"
        scene.add(Text(MARGIN + 30, y + 34, text, 11, "#222222", anchor="start"))


def draw_terrain(scene: Scene) -> None:
    for sq in range(SQUARES):
        x, y = origin(sq)
        bit = 1 << sq
        fill = TERRAIN_FILLS["north" if sq // WIDTH < HEIGHT // 2 else "south"]
        if bit & MOUNTAINS:
            fill = "#8d8172"
        scene.add(Rect(x, y, CELL, CELL, fill=fill, stroke="#d0c8b8"))
        if bit & PASSES:
            scene.add(Text(x + CELL / 2, y + CELL / 2, "=", 14, "#6b5b45"))
        if bit & FORTRESSES:
            scene.add(Rect(x + 3, y + 3, CELL - 6, CELL - 6, stroke="#6b5b45", stroke_width=2))
    scene.add(Line(MARGIN, MARGIN + HEIGHT // 2 * CELL, MARGIN + WIDTH * CELL, MARGIN + HEIGHT // 2 * CELL, "#555555", 2))


def draw_cover(scene: Scene, state: State) -> None:
    """Small corner marks on every square a side's lines reach (North top-left, South bottom-right)."""
    for side in (0, 1):
        cover = state.network.cover[side]
        for sq in range(SQUARES):
            if cover >> sq & 1:
                x, y = origin(sq)
                if side == 0:
                    scene.add(Polygon(((x, y), (x + 9, y), (x, y + 9)), fill=COVER_TINTS[0]))
                else:
                    scene.add(Polygon(((x + CELL, y + CELL), (x + CELL - 9, y + CELL), (x + CELL, y + CELL - 9)), fill=COVER_TINTS[1]))


def draw_arsenals(scene: Scene, state: State, shown: tuple[int, ...]) -> None:
    for side in (0, 1):
        for sq in range(SQUARES):
            if ARSENAL_SQUARES[side] >> sq & 1:
                x, y = origin(sq)
                alive = state.arsenals[side] >> sq & 1
                scene.add(Rect(x + 2, y + 2, CELL - 4, CELL - 4, fill=SIDE_COLOURS[side] if alive else "#cccccc"))
                scene.add(Text(x + CELL / 2, y + CELL / 2, "A" if side == 0 else "a", 13, "#ffffff"))


def draw_unit(scene: Scene, state: State, sq: int, code: int) -> None:
    side, kind = code >> 3, code & 7
    x, y = origin(sq)
    online = state.phase == SETUP or bool(state.network.online[side] >> sq & 1)
    colour = SIDE_COLOURS[side]
    scene.add(
        Circle(x + CELL / 2, y + CELL / 2, CELL / 2 - 3, fill=colour if online else "#ffffff", stroke=colour, stroke_width=2)
    )
    letter = STATS[kind].letter if side == 0 else STATS[kind].letter.lower()
    scene.add(Text(x + CELL / 2, y + CELL / 2, letter, 13, "#ffffff" if online else colour))


def draw_labels(scene: Scene) -> None:
    for col in range(WIDTH):
        scene.add(Text(MARGIN + col * CELL + CELL / 2, MARGIN / 2, COLUMNS[col], 10, "#555555"))
    for row in range(HEIGHT):
        scene.add(Text(MARGIN / 2, MARGIN + row * CELL + CELL / 2, str(row + 1), 10, "#555555"))
