"""Inputs and outputs of the game-agnostic tools (their JSON Schemas are in schemas/)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..core.game import ChancePreview, JsonObject, MaybeOutcome, MoveOption

#: How much an answer says: ``brief`` is what a player needs to decide; ``full`` adds every detail.
Detail = Literal["brief", "full"]


class Pong(BaseModel):
    ok: bool = True
    server: str
    version: str
    bot_decisions: int = Field(0, description="Bot seats' decisions this server process has played.")
    bot_wasted: int = Field(0, description="Bot decisions it thought out but did not play (the game moved on first).")


class GameInfo(BaseModel):
    name: str = Field(description="Identifier to pass as `game` to new_game.")
    title: str
    summary: str
    min_seats: int
    max_seats: int
    notation: str = Field(description="How moves are written.")
    rules_uri: str = Field(description="The full rules reference (an MCP resource).")
    options_schema: JsonObject | None = Field(description="JSON Schema of new_game's `options` (with detail=full).")
    bots: dict[str, str] = Field(description="Bots the server can seat (players: 'bot:NAME'), with what each is.")


class StoredGame(BaseModel):
    game_id: str
    game: str
    seats: list[str]
    moves: int
    created_at: str


class GamesList(BaseModel):
    games: list[GameInfo]
    recent: list[StoredGame] = Field(default_factory=list, description="Most recently created games, newest first.")


class SeatInfo(BaseModel):
    seat: int = Field(description="0-based seat number.")
    name: str
    role: str = Field(description="What the seat plays (a side or faction), or 'seat N'.")
    bot: str | None = Field(None, description="The bot the server plays this seat with; null for a person or an agent.")


class SeatToken(SeatInfo):
    token: str | None = Field(
        description="Secret: whoever holds it acts for this seat. Hand each player only their own. Null for a bot "
        "seat: the server holds it and plays the seat itself. Null for a person's seat: see link."
    )
    link: str | None = Field(
        None, description="A person's seat: the link to its play page, to hand to that person (it holds the seat)."
    )


class NewGameResult(BaseModel):
    game_id: str
    game: str
    seats: list[SeatToken]
    seed: int | None = Field(
        description="The seed you chose (every seat is told that the creator chose it); null when the server drew "
        "it: then nobody learns it before the game ends, when history shows it for replays."
    )
    options: JsonObject = Field(description="Every option and ruling in force, defaults included.")
    to_move: list[int] = Field(description="Seats whose decision the game awaits.")


class MoveGroupOut(BaseModel):
    """Legal moves that belong together; ``options`` (each move as an object with a summary) with detail=full."""

    title: str
    moves: list[str] = Field(description="The moves in notation; pass any of them to apply_move.")
    options: list[MoveOption] | None = None


class GameState(BaseModel):
    game_id: str
    game: str
    ply: int = Field(description="Moves played so far.")
    seats: list[SeatInfo]
    your_seat: int | None = Field(description="The seat this view is for; null for a spectator view.")
    to_move: list[int]
    your_turn: bool
    outcome: MaybeOutcome
    seed_chosen: bool = Field(
        description="True if the game's creator chose the seed, and so could know every die in advance; false if "
        "the server drew it and keeps it secret until the game ends."
    )
    legal: list[MoveGroupOut] | None = Field(description="Your legal moves when it is your decision, else null.")
    view: JsonObject | None = Field(description="The whole position as this seat may see it (detail=full only).")
    link: str | None = Field(None, description="The seat's play page, when asked for (link=true).")


class LegalMovesResult(BaseModel):
    game_id: str
    seat: int
    your_turn: bool
    to_move: list[int]
    count: int = Field(description="Number of legal moves listed.")
    groups: list[MoveGroupOut]
    notation: str = Field(description="How moves are written for this game.")
    note: str | None = None


class PlayedMove(BaseModel):
    ply: int = Field(description="The move's number in the game's log (what it would be, on a dry run).")
    move: str = Field(description="The move in notation (how the server read it).")
    events: list[str] = Field(description="What happened, in order.")


class MoveResult(BaseModel):
    game_id: str
    seat: int
    dry_run: bool = Field(description="True: the moves are legal but were NOT played.")
    already_played: bool = Field(
        default=False, description="True: a retry (expected_ply) of moves already played; nothing was played again."
    )
    played: list[PlayedMove] = Field(description="Each move of the sequence with what it caused.")
    to_move: list[int] = Field(description="Seats whose decision the game awaits after the moves.")
    your_turn: bool = Field(description="Whether the same seat must act again.")
    outcome: MaybeOutcome
    legal: list[MoveGroupOut] | None = Field(description="Your legal moves next, when the decision is yours again.")
    chance: ChancePreview | None = Field(
        default=None,
        description="Dry run of a move involving chance (dice, a draw from a bag): what it could do. Its result is "
        "never shown before it is played, so its events are empty.",
    )
    view: JsonObject | None = Field(default=None, description="The position after the moves (detail=full only).")


class LoggedMove(BaseModel):
    ply: int
    seat: int
    move: str
    events: list[str]
    action: JsonObject = Field(description="The move as an object.")
    played_at: str = Field(description="When it was logged.")


class History(BaseModel):
    game_id: str
    game: str
    ply: int
    moves: list[LoggedMove]
    hidden: int | None = Field(
        description="Moves in this page left out because they are still secret from this viewer; null during a secret "
        "set-up, when not even their number is told."
    )
    next_cursor: int | None = Field(description="Pass as `after` to read the next page; null at the end of the log.")
    seed: int | None = Field(default=None, description="Revealed once the game is over, so anyone can replay it.")


class TurnWait(BaseModel):
    game_id: str
    seat: int
    your_turn: bool
    game_over: bool
    timed_out: bool = Field(description="True: the wait ended with nothing to do yet; call again.")
    to_move: list[int]
    ply: int
    outcome: MaybeOutcome
    legal: list[MoveGroupOut] | None = Field(description="Your legal moves, when it is your decision.")


class RulesHit(BaseModel):
    uri: str = Field(description="rules://<game>/<section>#<passage>: resources/read gives the passage.")
    game: str
    section: str
    path: str = Field(description="The headings above the passage.")
    passage: str = Field(description="The rule's own words (long ones cut to the part that matches).")


class RulesSearch(BaseModel):
    query: str
    results: list[RulesHit]
    note: str | None = Field(default=None, description="Words found nowhere, or that nothing matches well.")
