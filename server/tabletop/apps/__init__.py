"""The board in the conversation: an MCP App (the ``io.modelcontextprotocol/ui`` extension) that draws a game's board
inside a host that renders apps, follows the game as it is played, and lets a person play their own seat there.

What it is:

- one ``ui://`` resource (``BOARD_URI``, ``text/html;profile=mcp-app``): a single self-contained HTML document built
  from the seat's page (document.py: the same markup, style sheet and script, play/static/play.js, inlined, with a
  small bridge to the host, static/app.js); it fetches nothing from the network;
- linked from the tools that show a position (``LINKED_TOOLS``) through ``_meta.ui.resourceUri``;
- app-only tools (``visibility: ["app"]``, board.py) through which the app reads the board and plays: the spectator's
  view of any game (the watching site's, ``watch/public.py``), a seat's view and moves (the play page's, ``play/desk.py``
  and ``apply_move`` itself).

How a person's access reaches the app, and never the model: when a host that renders apps starts a game with a
person's seat (``new_game`` with ``{name, person: true}``), the answer's text and structured content carry no link and
no token for that seat: the seat's one-time key travels in the answer's ``_meta`` (which hosts pass to the app and
keep out of the model's context; seats.py). This needs no play pages: over stdio, where the server serves none, the
app is the only way a person's seat is made (a client without apps is refused, told both ways). The app shown with that answer exchanges the key (app-only ``board_open``, which
hosts never let the model call) for the seat's token and keeps it in memory; a key opens its seat once. Everything
the app then reads as the seat comes back to the app alone. What the app tells the model
(``ui/update-model-context``) is built on the server from the spectator's view only. A host without apps gets today's
answers unchanged (the person's page link, as before), and neither the app-only tools nor the resource are listed
to it.
"""

from __future__ import annotations

#: The app's resource.
BOARD_URI = "ui://tabletop/board.html"
#: The tools whose answers show a position, and so are shown with the board.
LINKED_TOOLS = ("new_game", "get_state", "render_board")
#: Where a result's ``_meta`` carries what only the app may read (a person's seat key).
META_KEY = "io.github.tabletop-mcp/board"
