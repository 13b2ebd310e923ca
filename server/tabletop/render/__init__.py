"""Pictures of game positions: a game draws a Scene; the Scene becomes PNG or SVG."""

from .scene import Circle, Line, Polygon, Rect, Scene, Spot, Text
from .output import to_png, to_svg

__all__ = ["Circle", "Line", "Polygon", "Rect", "Scene", "Spot", "Text", "to_png", "to_svg"]
