"""The board app's HTML document, built once from the seat's page: the same markup (play/templates/_table.html), style
sheet and scripts (play/static/play.css, play.js; render/static/picture.js), with the app's bridge to its host (static/app.js, app.css), all
inlined into one document that loads nothing from anywhere (a host's default policy for apps allows no network)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

HERE = Path(__file__).parent
PLAY = HERE.parent / "play"

#: What the page shows before its first view arrives (the shape of a seat's view, play/desk.py).
LOADING = {
    "id": "",
    "title": "",
    "you": "",
    "players": [],
    "your_turn": False,
    "over": False,
    "result": None,
    "waiting": "Loading the board…",
    "position": "",
    "svg": '<p class="quiet">Loading the board…</p>',
}


@cache
def board_document() -> str:
    """The app's whole document (built once; a few tens of kilobytes)."""
    env = Environment(
        loader=FileSystemLoader([str(HERE / "templates"), str(PLAY / "templates")]),
        autoescape=select_autoescape(["html"]),
    )
    parts = {
        "play_css": (PLAY / "static" / "play.css").read_text(encoding="utf-8"),
        "app_css": (HERE / "static" / "app.css").read_text(encoding="utf-8"),
        "picture_js": (HERE.parent / "render" / "static" / "picture.js").read_text(encoding="utf-8"),
        "play_js": (PLAY / "static" / "play.js").read_text(encoding="utf-8"),
        "app_js": (HERE / "static" / "app.js").read_text(encoding="utf-8"),
    }
    for name, text in parts.items():  # inlined as they are: nothing in them may end their element early
        if "</script" in text.lower() or "</style" in text.lower():
            raise ValueError(f"{name} cannot be inlined: it contains the end of its element")
    return env.get_template("board.html").render(view=LOADING, **parts)
