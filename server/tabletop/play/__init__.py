"""A person's seat: a page per seat, served beside ``/mcp`` and ``/watch`` by ``tabletop serve --http``, from
which a person plays their own side (see site.py).

A seat's link (``seat_link``) carries the seat's token once: the page exchanges it for an HttpOnly,
SameSite=Strict cookie scoped to that seat's page and drops it from the address bar (gate.py). Everything the
page shows or does goes through the MCP tools with that seat's token (desk.py), so a person sees exactly what an
agent holding the seat would see, and nothing of any other seat.
"""

from __future__ import annotations

from urllib.parse import quote

#: Where the pages are served, beside ``/mcp`` and ``/watch``.
PLAY_PATH = "/play"


def seat_path(game_id: str, seat: int) -> str:
    """The path of a seat's page."""
    return f"{PLAY_PATH}/{quote(game_id, safe='')}/{seat}"


def seat_link(base_url: str, game_id: str, seat: int, token: str) -> str:
    """The link to hand a person for their seat: opening it once sets the seat's cookie (the token leaves the
    address bar at once). Whoever holds the link holds the seat, as with the token itself."""
    return f"{base_url.rstrip('/')}{seat_path(game_id, seat)}?key={quote(token, safe='')}"
