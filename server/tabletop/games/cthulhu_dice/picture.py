"""A picture of a Cthulhu Dice table: scores against the goal, the turn's stash and the last roll."""

from __future__ import annotations

from ...render import Circle, Line, Rect, Scene, Text
from .dice import DieKind, Face
from .rules import DiceState, result_headline

DIE_COLOURS = {DieKind.library: "#3a8f4b", DieKind.museum: "#d9a21b", DieKind.tomb: "#b3322c"}
FACE_MARKS = {Face.elder_sign: "ES", Face.clue: "?", Face.tentacle: "T"}
WIDTH, ROW = 520, 34


def draw_table(state: DiceState) -> Scene:
    seats = len(state.scores)
    height = 70 + ROW * seats + 110
    scene = Scene(WIDTH, height, background="#f6f1e7")
    scene.add(Text(WIDTH / 2, 22, f"Cthulhu Dice - round {state.round}", 18, "#222222"))
    top = 50
    goal = state.options.goal
    scale = (WIDTH - 190) / max(goal * 1.5, max(state.scores) + 1)
    goal_x = 120 + goal * scale
    for seat, score in enumerate(state.scores):
        y = top + seat * ROW
        active = state.phase != "over" and seat == state.seat
        scene.add(Text(14, y + 12, f"{'> ' if active else ''}{state.name(seat)}", 13, "#222222", anchor="start"))
        scene.add(Rect(120, y + 2, score * scale, 20, fill="#6b5b95"))
        scene.add(Text(126 + score * scale, y + 12, str(score), 12, "#222222", anchor="start"))
    scene.add(Line(goal_x, top - 6, goal_x, top + ROW * seats, "#b3322c", 2))
    scene.add(Text(goal_x, top - 12, f"goal {goal}", 11, "#b3322c"))
    y = top + ROW * seats + 20
    status = result_headline(state) if state.phase == "over" else f"stash {state.stash}, tentacles {state.total_tentacles}"
    scene.add(Text(14, y, status, 13, "#222222", anchor="start"))
    for index, die in enumerate(state.last_roll):
        x = 40 + index * 70
        scene.add(Rect(x, y + 20, 50, 50, fill=DIE_COLOURS[die.kind], stroke="#222222", stroke_width=2))
        scene.add(Text(x + 25, y + 45, FACE_MARKS[die.face], 18, "#ffffff"))
    for index, kind in enumerate(DieKind):
        x = WIDTH - 150
        scene.add(Circle(x, y + 28 + index * 18, 6, fill=DIE_COLOURS[kind]))
        scene.add(Text(x + 12, y + 28 + index * 18, f"{kind.value}: {state.bag[index]} in bag", 11, anchor="start"))
    return scene
