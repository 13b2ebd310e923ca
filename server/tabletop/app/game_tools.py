"""The game-agnostic tools: find games, start one, read it, move, wait, read the log."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Annotated, Any, Protocol

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field, WithJsonSchema

from .. import __version__
from ..bots.registry import BOTS
from ..core.errors import BadOptions, MalformedMove
from ..core.game import JsonObject
from ..core.text import clip
from ..play import seat_link
from ..seats.driver import BotDriver
from ..seats.spec import MAX_NAME, read_players
from ..sessions.live import LiveGame, Played
from ..sessions.manager import GameSessions
from .digest import position_known, since_last_decision
from .models import (
    Detail,
    GameInfo,
    GamesList,
    GameState,
    History,
    LegalMovesResult,
    LoggedMove,
    MoveResult,
    NewGameResult,
    PlayedMove,
    Pong,
    SeatInfo,
    SeatToken,
    StoredGame,
    TurnWait,
)
from .replies import refusals_as_tool_errors, reply
from .text import awaiting, events_text, groups_out, logged_text, moves_text, played_text, situation, table_awaited

#: Tools that only read. The spec gives destructiveHint and idempotentHint meaning only when readOnlyHint is false,
#: so they are left out here (a model reads tools/list in every conversation).
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
#: Tools that add to a game (a move, a new game): never destructive (the log is append-only), not idempotent.
ADDS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)

#: The longest wait_for_turn, kept under the 60-second request timeout of common MCP clients.
MAX_WAIT = 50.0
#: How often a long wait_for_turn tells a client (that asked for progress) it is still waiting.
PROGRESS_EVERY = 10.0
#: Moves per history page by default, and at most.
HISTORY_PAGE, HISTORY_MAX = 20, 200

GameId = Annotated[str, Field(description="Game id.")]
SeatTokenArg = Annotated[str, Field(description="Your seat token.")]
#: A player of new_game: a name, or an object (a bot seat; read and checked by ``seats.spec``). One JSON type list
#: rather than anyOf, which several clients reject in input schemas.
Player = Annotated[
    str | JsonObject,
    WithJsonSchema({"type": ["string", "object"], "maxLength": MAX_NAME}),
]
OptionalToken = Annotated[
    str | None,
    Field(description="Your token (omit: public view)."),
]
DetailArg = Annotated[Detail, Field(description="full: all details.")]


class PersonRoute(Protocol):
    """A way a person's seat reaches the person other than a link in the answer (which the model reads): set for
    one call by a layer above the tools that knows such a way for the client that called (apps/seats.py: the board
    app, for a host that renders MCP Apps)."""

    def hand(self, live: LiveGame, seat: int, token: str) -> str:
        """Hand ``seat``'s access (``token``) to the person that way; the words saying where the seat is played,
        which name no secret ("plays from ...")."""
        ...


#: The way people's seats go in the current call, if a layer above set one (None: by their play pages' links).
person_route: ContextVar[PersonRoute | None] = ContextVar("person_route", default=None)


def seats_of(live: LiveGame) -> list[SeatInfo]:
    roles = live.engine.seat_roles(live.state)
    return [SeatInfo(seat=i, name=n, role=roles[i], bot=live.record.bots.get(i)) for i, n in enumerate(live.record.seat_names)]


def state_of(sessions: GameSessions, live: LiveGame, seat: int | None, detail: Detail = "full", referee: bool = False) -> GameState:
    """``referee``: asked with a table game's referee token, whose turn it also is while the table is awaited."""
    to_move = live.to_move()
    mine = seat is not None and (seat in to_move or (referee and live.pending is not None))
    moves = live.legal_moves(seat, referee=referee) if mine else None
    return GameState(
        game_id=live.id,
        game=live.engine.name,
        ply=sessions.ply_for(live, seat),
        seats=seats_of(live),
        your_seat=seat,
        to_move=to_move,
        your_turn=mine,
        outcome=live.engine.outcome(live.state),
        seed_chosen=live.record.seed_chosen,
        legal=groups_out(moves, detail) if moves is not None else None,
        view=live.engine.view(live.state, seat) if detail == "full" else None,
    )


def move_result(played: Played, detail: Detail = "brief") -> tuple[MoveResult, str]:
    """The structured answer to apply_move and its text (with the seat's next moves when it decides again)."""
    live, after = played.game, played.state_after
    engine = live.engine
    waits = table_awaited(played)  # the table's chance is awaited: the referee is shown the entries, a seat none
    to_move = [] if played.pending or waits else engine.to_move(after)
    # the referee's token plays for the first seat awaited: only that seat's moves are its own
    again = (to_move[:1] == [played.seat] if played.referee else played.seat in to_move) and played.chance is None
    moves_next = live.legal_moves(played.seat, referee=played.referee) if again or waits else None
    if played.dry_run and again and not waits:  # the moves after the ones tried, which were not played
        moves_next = engine.legal_moves(after, played.seat)
    result = MoveResult(
        game_id=live.id,
        seat=played.seat,
        dry_run=played.dry_run,
        already_played=played.already,
        played=[PlayedMove(ply=n, move=s.notation, events=s.events) for n, s in zip(played.shown, played.steps)],
        to_move=to_move,
        your_turn=again or (waits and played.referee),
        outcome=engine.outcome(after),
        legal=groups_out(moves_next, detail) if moves_next is not None else None,
        chance=played.chance,
        view=engine.view(after, played.seat) if detail == "full" else None,
    )
    return result, played_text(played, moves_next)


def one_of_the_move_arguments(move: str | None, moves: list[str] | None, actions: list[dict] | None) -> Any:
    given = [x for x in (move, moves, actions) if x is not None]
    if len(given) != 1:
        raise MalformedMove(
            "Give exactly one of `move` (one move in notation), `moves` (several in notation, played in order as "
            "one) or `actions` (moves as the objects legal_moves shows with detail=full)"
        )
    return given[0]


def register_game_tools(mcp: MCPServer, sessions: GameSessions, driver: BotDriver) -> None:
    @mcp.tool(title="Ping", annotations=READ_ONLY)
    async def ping() -> Annotated[CallToolResult, Pong]:
        """Health check: the server's name and version."""
        stats = driver.stats
        pong = Pong(server="tabletop-mcp", version=__version__, bot_decisions=stats.decisions, bot_wasted=stats.wasted)
        return reply(pong, f"pong: tabletop-mcp {__version__}")

    @mcp.tool(title="List games", annotations=READ_ONLY)
    async def list_games(
        recent: Annotated[int, Field(ge=0, le=100, description="Also list this many recent games.")] = 0,
        detail: DetailArg = "brief",
    ) -> Annotated[CallToolResult, GamesList]:
        """Start here: each game's seats, options (rulings), notation, rules."""
        games = [
            GameInfo(
                name=e.name,
                title=e.title,
                summary=e.summary,
                min_seats=e.min_seats,
                max_seats=e.max_seats,
                notation=e.notation_help,
                rules_uri=f"rules://{e.name}",
                options_schema=e.options_model.model_json_schema() if detail == "full" else None,
                bots=BOTS.get(e.name, {}),
            )
            for e in sessions.engines.values()
        ]
        stored = [
            StoredGame(game_id=r.id, game=r.game, seats=r.seat_names, moves=n, created_at=r.created_at)
            for r, n in (sessions.list(recent) if recent else [])
        ]
        lines = []
        for e in sessions.engines.values():
            options = ", ".join(e.options_model.model_fields)
            bots = ", ".join(f"bot:{b}" for b in BOTS.get(e.name, {}))
            lines.append(
                f"- {e.name}: {e.title}, {e.min_seats}-{e.max_seats} seats. {e.summary} Options: {options} "
                f"(rules://{e.name}/rulings). Bots the server plays (as players): {bots}. Moves: {e.notation_help}"
            )
        lines += [f"- recent: {g.game_id} ({', '.join(g.seats)}), {g.moves} moves" for g in stored]
        return reply(GamesList(games=games, recent=stored), "Games:\n" + "\n".join(lines))

    @mcp.tool(title="New game", annotations=ADDS)
    @refusals_as_tool_errors
    async def new_game(
        game: Annotated[str, Field(description="e.g. 'cthulhu-dice' (see list_games).")],
        seats: Annotated[int | None, Field(ge=1, le=10, description="How many (default: the fewest allowed).")] = None,
        players: Annotated[
            list[Player] | None,
            Field(
                max_length=10,
                description="Or players in order: names, bots ('bot:random', {name, bot, seconds}), people ({name, person: true}: a page link, or the board app's own seat in a host that renders MCP Apps).",
            ),
        ] = None,
        options: Annotated[
            JsonObject | None, Field(description="Rulings and variants (see list_games).")
        ] = None,
        seed: Annotated[
            int | None,
            Field(
                ge=0,
                lt=2**63,
                description="Reproducible game (seats see it was chosen); omit: secret.",
            ),
        ] = None,
    ) -> Annotated[CallToolResult, NewGameResult]:
        """Start a game: its id and a secret token per seat (give each only its own; a referee's for table
        chance)."""
        if seats is not None and players is not None:
            raise BadOptions("Give either `seats` (a count) or `players` (names), not both")
        route = person_route.get()  # people's seats go that way, when set, rather than by links the model reads
        live, tokens, people = seat_players(sessions, driver, game, options, players, seats, seed, play_url(mcp),
                                            route is not None)
        handed = {seat: route.hand(live, seat, tokens[seat]) for seat in sorted(people)} if route else {}
        seat_list = [
            SeatToken(**s.model_dump(), token=None if s.bot or s.seat in people else t,
                      link=seat_link(play_url(mcp), live.id, s.seat, t) if s.seat in people and not route else None)
            for s, t in zip(seats_of(live), tokens)
        ]
        if len(tokens) > len(seat_list):  # a table game's referee: acts for any seat, enters dice and draws
            seat_list.append(SeatToken(seat=-1, name="referee", role="referee", token=tokens[-1]))
        result = NewGameResult(
            game_id=live.id,
            game=live.engine.name,
            seats=seat_list,
            seed=live.record.seed if live.record.seed_chosen else None,
            options=live.record.options,
            to_move=live.to_move(),
        )
        held = "; ".join(f"{live.seat_label(s.seat) if s.seat >= 0 else 'referee'}: {s.token}" for s in seat_list if s.token)
        links = " ".join(f"{live.seat_label(s.seat)} plays from this page (hand it over; it holds the seat): {s.link}."
                         if s.link else f"{live.seat_label(s.seat)} {handed[s.seat]}"
                         for s in seat_list if s.link or s.seat in handed)
        bots = [live.seat_label(s.seat) for s in seat_list if s.bot]
        played = f" The server plays {', '.join(bots)} by itself." if bots else ""
        tokens_text = f" Secret seat tokens (give each player only its own): {held}." if held else ""
        text = (
            f"Started {live.engine.title} as {live.id}.{tokens_text}{' ' + links if links else ''}{played}\n"
            f"{live.engine.describe(live.state, None)}\n{awaiting(live)}"
        )
        return reply(result, text)

    @mcp.tool(title="Game position", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def get_state(
        game_id: GameId,
        token: OptionalToken = None,
        detail: DetailArg = "brief",
        link: Annotated[bool, Field(description="Also your seat's play page link.")] = False,
    ) -> Annotated[CallToolResult, GameState]:
        """The position, and your legal moves on your turn."""
        live = sessions.get(game_id)
        seat, referee = sessions.optional_seat(live, token), sessions.is_referee(live, token)
        result = state_of(sessions, live, seat, detail, referee)
        moves = live.legal_moves(seat, referee=referee) if result.your_turn else None
        you = f"the referee (for {live.seat_label(seat)})" if referee else live.seat_label(seat) if seat is not None else None
        head = f"{live.id} ({live.engine.title}), move {result.ply}" + (f", you are {you}" if you else "")
        since = since_last_decision(sessions, live, None if referee else seat) if detail == "brief" else None
        head = f"{since.text}\n{head}" if since else head
        if seat is not None:
            live.drift[seat] = 0  # the whole position is shown
        tail = ""
        if link:
            route = person_route.get() if play_url(mcp) is None else None  # no page: that way, if there is one
            result.link = page_link(play_url(mcp), live, None if referee else seat, token, route is not None)
            where = (f" {route.hand(live, seat, token)}" if route else
                     f"'s page (hand it to the person who plays it; it holds the seat): {result.link}")
            tail = f"\n{live.seat_label(seat)}{where}"
        return reply(result, f"{head}.\n{situation(live, seat, moves, own=not referee)}{tail}")

    @mcp.tool(title="Legal moves", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def legal_moves(
        game_id: GameId,
        token: SeatTokenArg,
        focus: Annotated[
            str | None,
            Field(description="A unit, square, area or action type to narrow to."),
        ] = None,
        detail: DetailArg = "brief",
    ) -> Annotated[CallToolResult, LegalMovesResult]:
        """Your legal moves in notation, grouped (a/b: either); detail=full adds summaries and objects."""
        live = sessions.get(game_id)
        seat = sessions.seat_for(live, token)
        moves = live.legal_moves(seat, focus, referee=sessions.is_referee(live, token))
        to_move = live.to_move()
        result = LegalMovesResult(
            game_id=live.id,
            seat=seat,
            your_turn=seat in to_move,
            to_move=to_move,
            count=moves.count,
            groups=groups_out(moves, detail),
            notation=live.engine.notation_help,
            note=moves.note,
        )
        if moves.count:
            text = moves_text(live, moves, detail)
        elif focus and seat in to_move:
            total = live.engine.legal_moves(live.state, seat).count
            text = f"Nothing matches the focus '{clip(focus, 60)}' now; you have {total} legal moves in all (leave out focus to list them)."
        else:
            text = f"No moves for {live.seat_label(seat)} now. {awaiting(live)}" + (f" {moves.note}" if moves.note else "")
        return reply(result, text)

    @mcp.tool(title="Make moves", annotations=ADDS)
    @refusals_as_tool_errors
    async def apply_move(
        game_id: GameId,
        token: SeatTokenArg,
        move: Annotated[str | None, Field(max_length=200, description="One move in notation, e.g. 'roll'.")] = None,
        moves: Annotated[
            list[Annotated[str, Field(max_length=200)]] | None,
            Field(
                max_length=50,
                description="Or several as one, e.g. ['C e7-g5', 'attack h9']; dice last.",
            ),
        ] = None,
        actions: Annotated[
            list[JsonObject] | None,
            Field(max_length=50, description="Or moves as objects (legal_moves, detail=full)."),
        ] = None,
        dry_run: Annotated[
            bool, Field(description="Check only; dice show odds, never results.")
        ] = False,
        expected_ply: Annotated[
            int | None, Field(ge=1, description="Your first move's number (ply + 1): makes a retry safe.")
        ] = None,
        detail: DetailArg = "brief",
    ) -> Annotated[CallToolResult, MoveResult]:
        """Play a move, or a turn as `moves` (all or none); a refusal says why and changes nothing."""
        given = one_of_the_move_arguments(move, moves, actions)
        played = sessions.play(game_id, token, given, dry_run, expected_ply)
        result, text = move_result(played, detail)
        fresh = not (played.dry_run or played.already or played.referee)
        since = since_last_decision(sessions, played.game, played.seat, played.steps[0].ply - 1) if fresh else None
        if fresh:
            live, seat = played.game, played.seat
            live.told[seat] = max(live.told.get(seat, 0), live.ply)
            if since and seat in live.drift:
                live.drift[seat] += since.moves  # the position the seat last saw has changed by these too
        return reply(result, f"{since.text}\n{text}" if since else text)

    @mcp.tool(title="Move log", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def history(
        game_id: GameId,
        token: OptionalToken = None,
        after: Annotated[int, Field(ge=0, description="Start after this move (next_cursor).")] = 0,
        limit: Annotated[int, Field(ge=1, le=HISTORY_MAX, description="Moves per page.")] = HISTORY_PAGE,
    ) -> Annotated[CallToolResult, History]:
        """The move log by page, with each move's effects (moves secret from you left out)."""
        live = sessions.get(game_id)
        seat = sessions.optional_seat(live, token)
        over = live.engine.outcome(live.state) is not None
        told = over or sessions.is_referee(live, token)  # a secret table entry is told to all once the game is over
        page = sessions.log_page(live, seat, after, limit, told)
        numbered, total, hidden, last = page.moves, page.total, page.hidden, page.last
        result = History(
            game_id=live.id,
            game=live.engine.name,
            ply=total,
            moves=[
                LoggedMove(
                    ply=n,
                    seat=m.seat,
                    move=m.notation,
                    events=m.events,
                    action=m.action,
                    played_at=m.played_at,
                )
                for n, m in numbered
            ],
            hidden=hidden,
            next_cursor=page.next_cursor,
            seed=live.record.seed if over else None,
        )
        lines = [f"{n}. {logged_text(live, m)}" + (f" — {' '.join(m.events)}" if m.events else "") for n, m in numbered]
        lines = [clip(line, 300) for line in lines]
        head = f"{live.id}: moves {after + 1}-{last} of {total}" if numbered else f"{live.id}: no moves after {after} (of {total})"
        if hidden:
            head += f", {hidden} still secret from you"
        elif hidden is None:
            head += " you may see (the set-up is secret: the other side's moves are not counted)"
        tail = [f"More: history with after={last}."] if result.next_cursor is not None else []
        if result.seed is not None:
            tail.append(f"Seed (for replays): {result.seed}.")
        return reply(result, "\n".join([head + ".", *lines, *tail]))

    @mcp.tool(title="Wait for your turn", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def wait_for_turn(
        game_id: GameId,
        token: SeatTokenArg,
        ctx: Context,
        timeout_seconds: Annotated[
            float, Field(ge=0, le=MAX_WAIT, description="Seconds to wait at most.")
        ] = 30,
    ) -> Annotated[CallToolResult, TurnWait]:
        """Wait up to 50 s for your turn or the game's end, then the position and your moves."""
        status = await wait_with_progress(sessions, game_id, token, timeout_seconds, ctx)
        live, referee = status.game, sessions.is_referee(status.game, token)
        moves = live.legal_moves(status.seat, referee=referee) if status.your_turn else None
        result = TurnWait(
            game_id=live.id,
            seat=status.seat,
            your_turn=status.your_turn,
            game_over=status.game_over,
            timed_out=status.timed_out,
            to_move=live.to_move(),
            ply=sessions.ply_for(live, status.seat),
            outcome=live.engine.outcome(live.state),
            legal=groups_out(moves, "brief") if moves is not None else None,
        )
        since = None if referee else since_last_decision(sessions, live, status.seat)
        if status.game_over:
            text = f"The game is over. {result.outcome.reason if result.outcome else ''}"
        elif status.your_turn:
            you = f"referee, for {live.seat_label(status.seat)}" if referee else live.seat_label(status.seat)
            known = not referee and position_known(live, status.seat, since)
            told = situation(live, status.seat, moves, known, changes=not referee, own=not referee)
            text = f"Your turn, {you} (move {result.ply + 1}).\n{told}"
        else:
            text = f"Still not your turn: {awaiting(live)} Call wait_for_turn again."
        return reply(result, f"{since.text}\n{text}" if since else text)


def seat_players(
    sessions: GameSessions, driver: BotDriver, game: str, options: dict[str, Any] | None,
    players: list[str | dict[str, Any]] | None, seats: int | None, seed: int | None, pages: str | None,
    routed: bool = False,
) -> tuple[LiveGame, list[str], set[int]]:
    """Make the game: its seats by count (the fewest the game allows if not given), or the players named, bots among them (played by ``driver``); also the
    people's seats, played from their pages (served under ``pages``, None if this server serves none) or, ``routed``,
    handed over another way (``person_route``)."""
    if players is None:
        return *sessions.create(game, options, seats or sessions.engine(game).min_seats, seed), set()
    engine = sessions.engine(game)
    seating = read_players(engine.name, engine.title, players)
    if seating.bots and not driver.running:
        raise BadOptions("This server is not playing bot seats now (its bot driver is not running); seat people or "
                         "agents only, or run the server with `tabletop serve`", rule=f"{engine.name}/setup")
    if seating.people and pages is None and not routed:
        raise BadOptions(NO_WAY_FOR_PEOPLE, rule=f"{engine.name}/setup")
    live, tokens = sessions.create(game, options, seating.names, seed, bots=seating.bots)
    if seating.bots:
        driver.drive(live.id)
    return live, tokens, seating.people


#: Why a person's seat cannot be made: neither a play page nor the board app can take it to the person.
NO_WAY_FOR_PEOPLE = (
    "A person's seat is played from its page, which this server does not serve, or from the board shown in the "
    "conversation, which this client does not render: run the server with `tabletop serve --http`, or use a host "
    "that renders MCP Apps, or seat the person by name and relay their moves"
)


def page_link(
    pages: str | None, live: LiveGame, seat: int | None, token: str | None, routed: bool = False
) -> str | None:
    """The link to ``seat``'s play page (None: ``routed``, the seat goes another way), or a refusal saying why there
    is none."""
    if seat is None or token is None:
        raise BadOptions("A play page is a seat's: give that seat's own token with link=true")
    if pages is None:
        if routed:
            return None
        raise BadOptions("This server serves no play pages, and this client does not render MCP Apps (the board "
                         "in the conversation): run the server with `tabletop serve --http`, or use a host that "
                         "renders MCP Apps")
    return seat_link(pages, live.id, seat, token)


def play_url(mcp: MCPServer) -> str | None:
    """Where this server's play pages are reached (``tabletop serve --http``), or None."""
    return getattr(mcp, "play_url", None)


async def wait_with_progress(sessions: GameSessions, game_id: str, token: str, timeout: float, ctx: Context):
    """``sessions.wait_for_turn`` in slices, sending a progress notification after each slice to a client that
    asked for progress, so neither the client nor a proxy gives up on a long wait."""
    deadline = anyio.current_time() + timeout
    waited = 0.0
    while True:
        left = deadline - anyio.current_time()
        status = await sessions.wait_for_turn(game_id, token, max(0.0, min(PROGRESS_EVERY, left)))
        if not status.timed_out or left <= PROGRESS_EVERY:
            return status
        waited += PROGRESS_EVERY
        await ctx.report_progress(waited, timeout, "still waiting for the other players")  # a no-op unless asked for


__all__ = ["GameId", "OptionalToken", "READ_ONLY", "ADDS", "events_text", "move_result", "register_game_tools", "state_of"]
