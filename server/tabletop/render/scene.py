"""A drawing as plain data: shapes in pixel coordinates, painted in order (later on top)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 1


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 1


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    width: float = 1


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 1


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    text: str
    size: float = 12
    fill: str = "#000000"
    #: Horizontal placement of ``x``: the text's start, middle or end. ``y`` is the text's middle.
    anchor: Literal["start", "middle", "end"] = "middle"


Shape = Rect | Circle | Line | Polygon | Text


@dataclass(frozen=True, slots=True)
class Spot:
    """A place of the picture a person may click, named as the game's notation names it (a War square, ``c3``).
    Not painted: a page that lets people play draws it as an invisible target over the picture."""

    x: float
    y: float
    width: float
    height: float
    name: str


@dataclass(slots=True)
class Scene:
    width: int
    height: int
    background: str = "#ffffff"
    shapes: list[Shape] = field(default_factory=list)
    #: Where a person may click, for play pages (see ``Spot``); never painted.
    spots: list[Spot] = field(default_factory=list)

    def add(self, *shapes: Shape) -> None:
        self.shapes.extend(shapes)
