"""Paint a Scene as PNG (with Pillow) or as SVG text; both show the same shapes."""

from __future__ import annotations

import io
import re
from functools import cache
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw, ImageFont

from .scene import Circle, Line, Polygon, Rect, Scene, Spot, Text

_PIL_ANCHOR = {"start": "lm", "middle": "mm", "end": "rm"}
#: Characters XML 1.0 does not allow in a document (control characters, lone surrogates, U+FFFE and U+FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` as SVG character data: markup escaped, characters XML does not allow replaced by U+FFFD, so that a
    name nobody checked (a map's, a player's) can never make the picture ill-formed."""
    return escape(_NOT_XML.sub("\ufffd", text))


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def to_png(scene: Scene) -> bytes:
    image = Image.new("RGB", (scene.width, scene.height), scene.background)
    draw = ImageDraw.Draw(image)
    for shape in scene.shapes:
        if isinstance(shape, Rect):
            box = (shape.x, shape.y, shape.x + shape.width, shape.y + shape.height)
            draw.rectangle(box, fill=shape.fill, outline=shape.stroke, width=round(shape.stroke_width))
        elif isinstance(shape, Circle):
            box = (shape.cx - shape.r, shape.cy - shape.r, shape.cx + shape.r, shape.cy + shape.r)
            draw.ellipse(box, fill=shape.fill, outline=shape.stroke, width=round(shape.stroke_width))
        elif isinstance(shape, Line):
            draw.line((shape.x1, shape.y1, shape.x2, shape.y2), fill=shape.stroke, width=round(shape.width))
        elif isinstance(shape, Polygon):
            draw.polygon(shape.points, fill=shape.fill, outline=shape.stroke, width=round(shape.stroke_width))
        elif isinstance(shape, Text):
            draw.text((shape.x, shape.y), shape.text, fill=shape.fill, font=_font(round(shape.size)), anchor=_PIL_ANCHOR[shape.anchor])
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    parts = [f'fill="{fill or "none"}"']
    if stroke:
        parts.append(f'stroke="{stroke}" stroke-width="{width:g}"')
    return " ".join(parts)


def to_svg(scene: Scene, spots: bool = False) -> str:
    """The scene as SVG text; ``spots``: with its clickable places, as invisible rectangles on top named by
    ``data-spot`` (for a play page)."""
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}" font-family="sans-serif">',
        f'<rect width="100%" height="100%" fill="{scene.background}"/>',
    ]
    for shape in scene.shapes:
        if isinstance(shape, Rect):
            lines.append(
                f'<rect x="{shape.x:g}" y="{shape.y:g}" width="{shape.width:g}" height="{shape.height:g}" '
                f"{_paint(shape.fill, shape.stroke, shape.stroke_width)}/>"
            )
        elif isinstance(shape, Circle):
            lines.append(
                f'<circle cx="{shape.cx:g}" cy="{shape.cy:g}" r="{shape.r:g}" '
                f"{_paint(shape.fill, shape.stroke, shape.stroke_width)}/>"
            )
        elif isinstance(shape, Line):
            lines.append(
                f'<line x1="{shape.x1:g}" y1="{shape.y1:g}" x2="{shape.x2:g}" y2="{shape.y2:g}" '
                f'stroke="{shape.stroke}" stroke-width="{shape.width:g}"/>'
            )
        elif isinstance(shape, Polygon):
            points = " ".join(f"{x:g},{y:g}" for x, y in shape.points)
            lines.append(f'<polygon points="{points}" {_paint(shape.fill, shape.stroke, shape.stroke_width)}/>')
        elif isinstance(shape, Text):
            lines.append(
                f'<text x="{shape.x:g}" y="{shape.y:g}" font-size="{shape.size:g}" fill="{shape.fill}" '
                f'text-anchor="{shape.anchor}" dominant-baseline="central">{xml_text(shape.text)}</text>'
            )
    if spots:
        lines += [spot_svg(spot) for spot in scene.spots]
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def spot_svg(spot: Spot) -> str:
    """A place to click, as an invisible rectangle named by ``data-spot`` (with its name as a tooltip)."""
    name = xml_text(spot.name)
    return (
        f'<rect class="spot" data-spot="{name.replace(chr(34), "&quot;")}" x="{spot.x:g}" y="{spot.y:g}" '
        f'width="{spot.width:g}" height="{spot.height:g}" fill="transparent"><title>{name}</title></rect>'
    )
