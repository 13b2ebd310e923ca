"""The spectator site: public pages of games and tournaments, followed live (see site.py)."""

#: Where the site is served, beside ``/mcp`` (``tabletop serve --http``).
WATCH_PATH = "/watch"
