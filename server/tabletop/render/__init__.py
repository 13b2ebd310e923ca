"""Pictures of game positions: a game draws a Scene; the Scene becomes PNG or SVG."""

from .scene import Circle, Line, Polygon, Rect, Scene, Text
from .output import to_png, to_svg

__all__ = ["Circle", "Line", "Polygon", "Rect", "Scene", "Text", "to_png", "to_svg"]
