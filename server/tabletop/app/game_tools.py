"""The game-agnostic tools: find games, start one, read it, move, wait, read the log."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from .. import __version__
from ..core.game import ChancePreview, LegalMoves
from ..sessions.manager import GameSessions, LiveGame, Played
from .models import (
    GameInfo,
    GamesList,
    GameState,
    History,
    LegalMovesResult,
    LoggedMove,
    MoveResult,
    NewGameResult,
    Pong,
    SeatInfo,
    SeatToken,
    StoredGame,
    TurnWait,
)
from .replies import refusals_as_tool_errors, reply

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)

GameId = Annotated[str, Field(description="The game's id, as returned by new_game.")]
SeatTokenArg = Annotated[str, Field(description="Your seat's secret token from new_game.")]
OptionalToken = Annotated[
    str | None, Field(description="Your seat's token for your own view; leave out for the public spectator view.")
]
Move = Annotated[
    str | dict[str, Any],
    Field(
        description="The move, either in short notation (a string such as 'roll') or as the structured object "
        "legal_moves lists under `action`."
    ),
]


def seats_of(live: LiveGame) -> list[SeatInfo]:
    roles = live.engine.seat_roles(live.state)
    return [SeatInfo(seat=i, name=n, role=roles[i]) for i, n in enumerate(live.record.seat_names)]


def state_of(live: LiveGame, seat: int | None) -> GameState:
    to_move = live.to_move()
    return GameState(
        game_id=live.id,
        game=live.engine.name,
        ply=live.ply,
        seats=seats_of(live),
        your_seat=seat,
        to_move=to_move,
        your_turn=seat is not None and seat in to_move,
        outcome=live.engine.outcome(live.state),
        view=live.engine.view(live.state, seat),
        text=live.engine.describe(live.state, seat),
        seed_chosen=live.record.seed_chosen,
    )


def move_result(played: Played) -> MoveResult:
    engine, after = played.game.engine, played.state_after
    to_move = engine.to_move(after)
    return MoveResult(
        game_id=played.game.id,
        seat=played.seat,
        dry_run=played.dry_run,
        ply=played.ply,
        move=played.notation,
        events=played.events,
        to_move=to_move,
        your_turn=played.seat in to_move,
        outcome=engine.outcome(after),
        view=engine.view(after, played.seat),
        chance=played.chance,
    )


def chance_text(preview: ChancePreview) -> str:
    """A chance preview in a few lines: what would be rolled or drawn, and the likeliest results."""
    lines = [f"It involves chance, so its result is not shown before it is played. {preview.summary}"]
    for o in preview.outcomes:
        lines.append(f"- {o.result}" + (f": {o.probability:.1%}" if o.probability is not None else ""))
    return "\n".join(lines)


def move_text(played: Played) -> str:
    if played.dry_run:
        head = f"Dry run: '{played.notation}' is legal for {played.game.seat_label(played.seat)} and was NOT played."
        if played.chance is not None:
            return f"{head}\n{chance_text(played.chance)}"
    else:
        head = f"Played '{played.notation}' for {played.game.seat_label(played.seat)} (move {played.ply})."
    return "\n".join([head, *played.events, played.game.engine.describe(played.state_after, played.seat)])


def moves_text(moves: LegalMoves) -> str:
    """Legal moves as lines under their group titles; a summary that starts with the notation stands alone."""
    lines = []
    for group in moves.groups:
        if len(moves.groups) > 1:
            lines.append(f"[{group.title}]")
        for m in group.moves:
            lines.append(m.summary if m.summary.startswith(m.notation) else f"{m.notation}: {m.summary}")
    if moves.note:
        lines.append(moves.note)
    return "\n".join(lines)


def register_game_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.tool(annotations=READ_ONLY)
    async def ping() -> Pong:
        """Health check: answers at once with the server's name and version. Costs nothing."""
        return Pong(server="tabletop-mcp", version=__version__)

    @mcp.tool(annotations=READ_ONLY)
    async def list_games(
        recent: Annotated[int, Field(ge=0, le=100, description="Also list this many recently created games.")] = 0,
    ) -> Annotated[CallToolResult, GamesList]:
        """List the games this server referees: what each is, how many seats, its options (rulings and variants),
        how moves are written and where its rules are. Start here, then call new_game."""
        games = [
            GameInfo(
                name=e.name,
                title=e.title,
                summary=e.summary,
                min_seats=e.min_seats,
                max_seats=e.max_seats,
                notation=e.notation_help,
                rules_uri=f"rules://{e.name}",
                options_schema=e.options_model.model_json_schema(),
            )
            for e in sessions.engines.values()
        ]
        stored = [
            StoredGame(game_id=r.id, game=r.game, seats=r.seat_names, moves=n, created_at=r.created_at)
            for r, n in (sessions.list(recent) if recent else [])
        ]
        text = "\n".join(f"- {g.name}: {g.title}, {g.min_seats}-{g.max_seats} seats. {g.summary}" for g in games)
        return reply(GamesList(games=games, recent=stored), "Games:\n" + text)

    @mcp.tool()
    @refusals_as_tool_errors
    async def new_game(
        game: Annotated[str, Field(description="Which game, e.g. 'cthulhu-dice' (see list_games).")],
        seats: Annotated[
            int | list[str],
            Field(description="How many seats, or the players' names in seat order (e.g. ['Ann', 'Bob'])."),
        ] = 2,
        options: Annotated[
            dict[str, Any] | None,
            Field(description="Rulings and variants (see options_schema in list_games); omit for the defaults."),
        ] = None,
        seed: Annotated[
            int | None,
            Field(
                ge=0,
                lt=2**63,
                description="Seed for the dice, to replay a game exactly; every seat is told the creator chose it. "
                "Omit it and the server draws a secret one, revealed when the game ends.",
            ),
        ] = None,
    ) -> Annotated[CallToolResult, NewGameResult]:
        """Start a new game and get its id plus one secret token per seat. Every move needs the token of the
        seat making it, so give each player (or agent) only their own token. The game is saved at once and
        survives server restarts."""
        live, tokens = sessions.create(game, options, seats, seed)
        seat_list = [SeatToken(**s.model_dump(), token=t) for s, t in zip(seats_of(live), tokens)]
        result = NewGameResult(
            game_id=live.id,
            game=live.engine.name,
            seats=seat_list,
            seed=live.record.seed if live.record.seed_chosen else None,
            options=live.record.options,
            to_move=live.to_move(),
        )
        text = (
            f"Started {live.engine.title} as {live.id} with {len(tokens)} seats. "
            f"Tokens are secret: give each seat only its own.\n{live.engine.describe(live.state, None)}"
        )
        return reply(result, text)

    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def get_state(game_id: GameId, token: OptionalToken = None) -> Annotated[CallToolResult, GameState]:
        """Read a game's position: whose decision it is, the scores or board, and the result if it is over. With
        your seat token you see what your seat may see; without one you get the public spectator view."""
        live = sessions.get(game_id)
        result = state_of(live, sessions.optional_seat(live, token))
        return reply(result, f"{live.id} ({live.engine.title}), move {live.ply}.\n{result.text}")

    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def legal_moves(
        game_id: GameId,
        token: SeatTokenArg,
        focus: Annotated[
            str | None,
            Field(description="Narrow the list: a unit, square, area or action type, depending on the game."),
        ] = None,
    ) -> Annotated[CallToolResult, LegalMovesResult]:
        """List every move your seat may make right now, each in notation and as an object, with a plain-words
        summary. Empty when it is not your decision. Pass any listed move to apply_move."""
        live = sessions.get(game_id)
        seat = sessions.seat_for(live, token)
        moves = live.engine.legal_moves(live.state, seat, focus)
        to_move = live.to_move()
        result = LegalMovesResult(
            game_id=live.id,
            seat=seat,
            your_turn=seat in to_move,
            to_move=to_move,
            count=moves.count,
            groups=moves.groups,
            notation=live.engine.notation_help,
            note=moves.note,
        )
        if moves.count:
            text = f"{moves.count} legal move(s) for {live.seat_label(seat)}:\n" + moves_text(moves)
        else:
            waiting = ", ".join(live.seat_label(s) for s in to_move) or "nobody (the game is over)"
            text = f"No moves for {live.seat_label(seat)} now; the game is waiting for {waiting}."
        return reply(result, text)

    @mcp.tool()
    @refusals_as_tool_errors
    async def apply_move(
        game_id: GameId,
        token: SeatTokenArg,
        move: Move,
        dry_run: Annotated[
            bool,
            Field(
                description="Only check the move; nothing is played or saved. A move without chance shows its result; "
                "a move that rolls dice or draws from a bag shows only what it could do, never its result."
            ),
        ] = False,
    ) -> Annotated[CallToolResult, MoveResult]:
        """Make a move for your seat. The move is checked against the rules; an illegal one is refused with the
        reason, the rule it breaks and the legal alternatives, and the game is left unchanged. A played move is
        saved before this answers. Randomness (dice) is resolved by the server."""
        played = sessions.play(game_id, token, move, dry_run)
        return reply(move_result(played), move_text(played))

    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def history(
        game_id: GameId,
        token: OptionalToken = None,
        since: Annotated[int, Field(ge=0, description="Only moves after this move number.")] = 0,
    ) -> Annotated[CallToolResult, History]:
        """Read a game's log of moves in order, with what each move caused. Moves that are still secret from
        you (such as hidden deployment) are left out. Once the game is over the seed is included so the game
        can be replayed."""
        live, moves = sessions.history(game_id, since)
        seat = sessions.optional_seat(live, token)
        shown = [m for m in moves if live.engine.move_visible(live.state, m.seat, seat)]
        over = live.engine.outcome(live.state) is not None
        result = History(
            game_id=live.id,
            game=live.engine.name,
            ply=live.ply,
            moves=[
                LoggedMove(ply=m.ply, seat=m.seat, move=m.notation, action=m.action, events=m.events, played_at=m.played_at)
                for m in shown
            ],
            hidden=len(moves) - len(shown),
            seed=live.record.seed if over else None,
        )
        lines = [f"{m.ply}. seat {m.seat}: {m.notation}" for m in shown]
        head = f"{live.id}: {len(shown)} move(s) shown of {live.ply}"
        head += f" ({result.hidden} still secret from you)." if result.hidden else "."
        return reply(result, "\n".join([head, *lines]))

    @mcp.tool(annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def wait_for_turn(
        game_id: GameId,
        token: SeatTokenArg,
        timeout_seconds: Annotated[float, Field(ge=0, le=300, description="Longest wait before answering anyway.")] = 30,
    ) -> Annotated[CallToolResult, TurnWait]:
        """Wait until it is your seat's decision or the game ends, then answer; if neither happens within the
        timeout, answer with timed_out=true (call again to keep waiting). Use it between your moves when other
        players or agents are playing the other seats."""
        status = await sessions.wait_for_turn(game_id, token, timeout_seconds)
        live = status.game
        result = TurnWait(
            game_id=live.id,
            seat=status.seat,
            your_turn=status.your_turn,
            game_over=status.game_over,
            timed_out=status.timed_out,
            to_move=live.to_move(),
            ply=live.ply,
            outcome=live.engine.outcome(live.state),
        )
        if status.game_over:
            text = f"The game is over. {result.outcome.reason if result.outcome else ''}"
        elif status.your_turn:
            text = f"Your turn, {live.seat_label(status.seat)}.\n{live.engine.describe(live.state, status.seat)}"
        else:
            text = "Still not your turn; call wait_for_turn again."
        return reply(result, text)
