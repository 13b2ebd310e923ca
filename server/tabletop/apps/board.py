"""The board app as an MCP extension: its resource, its app-only tools, and how the server's answers and listings
change for a host that renders apps (and stay exactly as they were for any other; see the package's docstring).

- ``BoardApp`` (the SDK's ``Apps`` extension): the ``ui://`` resource, the app-only tools (``board_open``,
  ``board_view``, ``board_move``, ``board_legal``, ``board_advice``), and a ``tools/call`` interceptor: an app-only
  tool called by a client without apps is unknown to it, and ``new_game`` (or ``get_state`` with ``link: true``)
  asked by a host with apps hands each person's seat to the app (a one-time key in the answer's ``_meta``, seats.py)
  instead of to the model (a link in the text), whether or not this server serves play pages.
- ``listing``: a middleware on ``tools/list`` and ``resources/list``: a host with apps sees the app-only tools, the
  resource, and ``_meta.ui.resourceUri`` on the tools that show a position; any other client sees today's listing.

The views: a seat's is the play page's (``play/desk.py``: only what the seat may see); the spectator's is the
watching site's (``watch/public.py``: what no seat may keep secret), in the seat view's shape so that one table
script draws both. Moves go through ``apply_move`` itself, with the seat's token (``play/desk.py``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any

import anyio
from mcp.server.apps import Apps, client_supports_apps
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolRequestParams, CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from ..app.replies import refusals_as_tool_errors, reply
from ..app.text import awaiting
from ..core.game import JsonObject
from ..play import seat_link
from ..play.desk import Desk, focused_moves, seat_view
from ..play.gate import holds_seat
from ..sessions.errors import BadToken
from ..sessions.live import LiveGame
from ..sessions.manager import GameSessions
from ..watch.public import game_view
from . import BOARD_URI, LINKED_TOOLS
from .document import board_document
from .seats import HANDING_TOOLS, SeatKeys, seats_to_the_app

#: The longest a board_view call waits for the board to change (seconds): under common hosts' request timeouts.
MAX_WAIT = 25.0
#: The most log lines a view carries into the conversation (the latest), and the lines of "just played".
APP_LOG, JUST_PLAYED = 40, 6

APP_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
APP_MOVES = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)

GameId = Annotated[str, Field(max_length=100, description="The game's id.")]
SeatToken = Annotated[str, Field(max_length=100, description="The seat's token (board_open returned it).")]


class BoardSeat(BaseModel):
    """A person's seat, opened by its app."""

    game_id: str
    seat: int = Field(description="0-based seat number.")
    name: str = Field(description="The seat as the game names it (the player and what it plays).")
    token: str = Field(description="The seat's token: the app keeps it in memory and acts for the seat with it.")
    page: str | None = Field(description="The seat's play page (it holds the seat), when the server serves pages.")


class BoardView(BaseModel):
    """The board as the app draws it."""

    game_id: str
    digest: str = Field(description="Names this view: pass it as `seen` to wait for the next one.")
    view: JsonObject = Field(description="A seat's view (the play page's), or the spectator's in the same shape.")


class BoardAnswer(BaseModel):
    """What a move, a dry run or advice came to, as the seat's page shows it."""

    ok: bool = Field(description="False: refused (text says why and the rule); nothing was played.")
    text: str = Field(description="The answer in words (apply_move's, or the advice).")
    your_turn: bool = Field(False, description="The seat decides again after these moves.")
    chance: bool = Field(False, description="The moves end with a roll or a draw (a dry run shows its odds).")
    over: bool = Field(False, description="The game is over after these moves.")
    legal: list[JsonObject] = Field(default_factory=list, description="The seat's next choices, grouped.")
    public: str | None = Field(None, description="After a move played: the game as a spectator now sees it, briefly.")


class BoardMoves(BaseModel):
    """The seat's legal moves through one place or of one kind."""

    moves: list[JsonObject] = Field(description="Groups of moves: {title, moves: [{notation, summary}]}.")


def spectator_view(sessions: GameSessions, live: LiveGame) -> dict[str, Any]:
    """The watching site's view of the game (``watch/public.py``), in the shape of a seat's view (``play/desk.py``)
    with no seat: no moves, and what was just played in place of "since your last move"."""
    public = game_view(sessions, live)
    log = public["log"]
    return {
        "id": public["id"],
        "game": public["game"],
        "title": public["title"],
        "seat": None,
        "you": "spectator",
        "players": public["players"],
        "to_move": public["to_move"],
        "your_turn": False,
        "ply": public["moves"],
        "over": public["over"],
        "result": public["result"],
        "winners": public["winners"],
        "you_won": False,
        "seed": public["seed"],
        "waiting": None if public["over"] else awaiting(live),
        "position": public["position"],
        "moves": [],
        "note": None,
        "since": log[-JUST_PLAYED:],
        "log": log,
        "log_cut": public["log_cut"],
        "svg": public["svg"],
        "advice": False,
    }


def public_note(sessions: GameSessions, live: LiveGame) -> str:
    """The game as a spectator sees it, in a few lines: what the app may tell the model after its person moved."""
    public = game_view(sessions, live)
    head = f"{public['title']} {public['id']}, as a spectator sees it after the person's move: "
    head += f"game over. {public['result']}" if public["over"] else (
        f"to move: {', '.join(public['to_move'])}." if public["to_move"] else "nobody is to move."
    )
    lines = [f"{x['n']}. {x['who']}: {x['move']}" + (f" — {' '.join(x['events'])}" if x["events"] else "")
             for x in public["log"][-3:]]
    if public["secret_setup"]:
        lines.append("The set-up is secret: placements are shown once both sides have committed.")
    return "\n".join([head, *lines])


def trimmed(view: dict[str, Any]) -> dict[str, Any]:
    """The view with its log cut to the latest ``APP_LOG`` lines (an app grows with its content)."""
    log = view["log"]
    if len(log) <= APP_LOG:
        return view
    return {**view, "log": log[-APP_LOG:], "log_cut": view["log_cut"] + len(log) - APP_LOG}


def digest_of(view: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()[:20]


def seat_of_token(live: LiveGame, token: str) -> int:
    """The seat whose token this is (a seat's, never a table game's referee's), or the refusal."""
    seats = len(live.record.seat_names)
    for seat in range(seats):
        if holds_seat(live, seat, token):
            return seat
    raise BadToken(f"That token does not belong to any seat of game {live.id}")


class BoardApp(Apps):
    """The board app (see the module's docstring). Made before the server (extensions are fixed at its construction)
    and ``attach``-ed to it after."""

    def __init__(self, sessions: GameSessions) -> None:
        super().__init__()
        self.sessions = sessions
        self.keys = SeatKeys()
        self.mcp: MCPServer | None = None
        self.add_html_resource(
            BOARD_URI,
            board_document(),
            name="board",
            title="The game's board",
            description="The live board of the game an answer is about; a person's own seat is played from it.",
            prefers_border=True,
        )
        self._register_tools()
        self.app_only = {binding.kwargs.get("name") or binding.fn.__name__ for binding in self.tools()}

    def attach(self, mcp: MCPServer) -> None:
        """Run on ``mcp``: moves go through its tools, and its listings depend on the client (``listing``)."""
        self.mcp = mcp
        mcp.middleware.append(self.listing)

    # ---- listings ---------------------------------------------------------------------------
    async def listing(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """``tools/list`` and ``resources/list`` as the client may see them (the middleware sees them as wire JSON)."""
        result = await call_next(ctx)
        if ctx.method not in ("tools/list", "resources/list") or not isinstance(result, dict):
            return result
        apps = client_supports_apps(ctx)
        if ctx.method == "tools/list":
            tools = result.get("tools", [])
            if apps:
                return {**result, "tools": [linked(tool) for tool in tools]}
            return {**result, "tools": [tool for tool in tools if tool.get("name") not in self.app_only]}
        if not apps:
            resources = result.get("resources", [])
            return {**result, "resources": [r for r in resources if not str(r.get("uri", "")).startswith("ui://")]}
        return result

    # ---- calls ------------------------------------------------------------------------------
    async def intercept_tool_call(
        self, params: CallToolRequestParams, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        apps = client_supports_apps(ctx)
        if params.name in self.app_only and not apps:
            return CallToolResult(content=[TextContent(type="text", text=f"Unknown tool: {params.name}")], is_error=True)
        if not apps or params.name not in HANDING_TOOLS:
            return await call_next(ctx)
        with seats_to_the_app(self.keys) as route:  # people's seats go to the app shown with the answer (seats.py)
            return route.answered(await call_next(ctx))

    # ---- the app-only tools -----------------------------------------------------------------
    def _register_tools(self) -> None:
        sessions = self.sessions

        @self.tool(resource_uri=BOARD_URI, visibility=["app"], title="Open a person's seat", annotations=APP_MOVES)
        @refusals_as_tool_errors
        async def board_open(
            key: Annotated[str, Field(max_length=100, description="The seat's one-time key, from the answer's _meta.")],
        ) -> Annotated[CallToolResult, BoardSeat]:
            """For the board app only: exchange a person's one-time seat key for the seat (its token), once."""
            found = self.keys.redeem(key)
            if found is None:
                raise BadToken("This seat key was already used, or has expired: a key opens its seat once, in the "
                               "first view of the board shown with the game's start")
            live = await sessions.io(lambda: sessions.get(found.game_id))
            pages = getattr(self.mcp, "play_url", None)
            seat = BoardSeat(
                game_id=live.id,
                seat=found.seat,
                name=live.seat_label(found.seat),
                token=found.token,
                page=seat_link(pages, live.id, found.seat, found.token) if pages else None,
            )
            return reply(seat, f"{seat.name}'s seat is open in the board.")

        @self.tool(resource_uri=BOARD_URI, visibility=["app"], title="The board", annotations=APP_ONLY)
        @refusals_as_tool_errors
        async def board_view(
            game_id: GameId,
            token: Annotated[str | None, Field(max_length=100, description="A seat's token (omit: the spectator's view).")] = None,
            seen: Annotated[str, Field(max_length=40, description="The digest of the view already shown.")] = "",
            wait_seconds: Annotated[
                float, Field(ge=0, le=MAX_WAIT, description="Wait this long at most for a view other than `seen`.")
            ] = 0,
        ) -> Annotated[CallToolResult, BoardView]:
            """For the board app only: the board as a seat (its token) or a spectator sees it; waits for a change."""
            deadline = anyio.current_time() + wait_seconds
            live = await sessions.io(lambda: sessions.get(game_id))
            seat = None if not token else seat_of_token(live, token)
            while True:
                after = live.ply
                shown = await sessions.io(lambda: view_of(sessions, live, seat))
                digest = digest_of(shown)
                left = deadline - anyio.current_time()
                if digest != seen or left <= 0 or shown["over"]:
                    break
                live = await sessions.wait_for_moves(live.id, after, left)
            who = shown["you"]
            return reply(BoardView(game_id=live.id, digest=digest, view=shown), f"The board of {live.id} as {who} sees it.")

        @self.tool(resource_uri=BOARD_URI, visibility=["app"], title="Try or play moves", annotations=APP_MOVES)
        @refusals_as_tool_errors
        async def board_move(
            game_id: GameId,
            token: SeatToken,
            moves: Annotated[list[Annotated[str, Field(max_length=200)]], Field(min_length=1, max_length=50,
                                                                                description="Moves in notation, played in order as one.")],
            dry_run: Annotated[bool, Field(description="Only try them (what they would do; a roll's odds).")] = True,
            expected_ply: Annotated[int | None, Field(ge=1, description="The seat's next move number (ply + 1).")] = None,
        ) -> Annotated[CallToolResult, BoardAnswer]:
            """For the board app only: try or play the seat's moves through apply_move, as its page does."""
            live = await sessions.io(lambda: sessions.get(game_id))
            seat_of_token(live, token)
            answer = BoardAnswer(**await self.desk(live.id, token).send(moves, dry_run, expected_ply))
            if answer.ok and not dry_run:
                answer.public = await sessions.io(lambda: public_note(sessions, sessions.get(live.id)))
            return reply(answer, "Tried." if dry_run else "Played." if answer.ok else "Refused.")

        @self.tool(resource_uri=BOARD_URI, visibility=["app"], title="Moves through a place", annotations=APP_ONLY)
        @refusals_as_tool_errors
        async def board_legal(
            game_id: GameId,
            token: SeatToken,
            focus: Annotated[str, Field(max_length=40, description="A square, an area or a unit clicked on the board.")],
        ) -> Annotated[CallToolResult, BoardMoves]:
            """For the board app only: the seat's legal moves through a place of the board, as the engine narrows them."""
            live = await sessions.io(lambda: sessions.get(game_id))
            seat = seat_of_token(live, token)
            found = await sessions.io(lambda: focused_moves(live, seat, focus))
            return reply(BoardMoves(**found), f"{sum(len(g['moves']) for g in found['moves'])} moves through {focus}.")

        @self.tool(resource_uri=BOARD_URI, visibility=["app"], title="Advice for the seat", annotations=APP_ONLY)
        @refusals_as_tool_errors
        async def board_advice(game_id: GameId, token: SeatToken) -> Annotated[CallToolResult, BoardAnswer]:
            """For the board app only: Cthulhu Dice's advice for the seat (roll on or retreat), as its page gives it."""
            live = await sessions.io(lambda: sessions.get(game_id))
            seat_of_token(live, token)
            answer = BoardAnswer(**await self.desk(live.id, token).advice())
            return reply(answer, "Advice given." if answer.ok else "Refused.")

    def desk(self, game_id: str, token: str) -> Desk:
        if self.mcp is None:
            raise RuntimeError("the board app is not attached to a server")
        return Desk(self.mcp.call_tool, game_id, token)


def view_of(sessions: GameSessions, live: LiveGame, seat: int | None) -> dict[str, Any]:
    live = sessions.get(live.id)
    return trimmed(spectator_view(sessions, live) if seat is None else seat_view(sessions, live, seat))


def linked(tool: dict[str, Any]) -> dict[str, Any]:
    """A listed tool (wire JSON); one that shows a position names the board app in its ``_meta.ui``."""
    if tool.get("name") not in LINKED_TOOLS:
        return tool
    meta = dict(tool.get("_meta") or {})
    meta["ui"] = {**meta.get("ui", {}), "resourceUri": BOARD_URI}
    return {**tool, "_meta": meta}
