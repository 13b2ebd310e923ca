"""Playing one seat through what that seat is shown: the one implementation every bot seat uses.

A :class:`SeatPlayer` holds a seat's token and nothing else. Through a :class:`SeatPort` (the MCP tools, for the
arena's players: ``arena.mcp_player``; the sessions API, for the seats the server plays itself: ``seats.port``)
it reads what any agent at that seat reads: its own view and legal moves, and the moves it may see with what each
caused. To decide, it hands that :class:`Observation` to a thinker, which rebuilds the game from it
(``bots.observe``: the logged moves replayed with the logged dice; hidden values it cannot know get placeholders,
which the bots determinise afresh anyway), checks the rebuilt view against the seat's, and asks its bot, unchanged,
for a move. The move is sent only if the server says it is legal: it is among the moves listed, or, when the list
is not complete (A Game of War's deployment lists only the openings and describes the single placements), a dry
run of it is accepted. Every move is sent with ``expected_ply``, so a decision is never played twice.

If the game cannot be rebuilt, or the rebuilt view differs from the seat's, the player asks the server's advice
for the same bot at its seat (``advised`` counts these); only if that fails too does it fall back (``fallbacks``)
to the server's random bot for its seat, and last to the first move listed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..bots.observe import LoggedMove, Observer
from ..games import ENGINES

#: Moves read per page of the log.
PAGE = 200


class SeatPort(Protocol):
    """What a seat can ask of the server, as the MCP tools answer it (structured content, as dicts)."""

    async def state(self) -> dict[str, Any]:
        """``get_state`` with ``detail=full``: game, your_seat, your_turn, outcome, legal, view, seats, ply."""

    async def history(self, after: int, limit: int) -> dict[str, Any]:
        """``history``: moves (seat, action, events), hidden, next_cursor, ply."""

    async def wait(self, timeout: float) -> None:
        """``wait_for_turn``: return when the seat is awaited, the game is over, or at ``timeout``."""

    async def play(self, move: str | None, action: dict[str, Any] | None, expected: int) -> bool:
        """``apply_move`` of one move, in notation or as an object, numbered ``expected``; False on a conflict (the
        game moved on first: nothing was played), an error if refused otherwise."""

    async def accepts(self, move: str) -> bool:
        """Whether ``apply_move`` with ``dry_run`` accepts ``move`` now."""

    async def advice(self, bot: str, seconds: float) -> str | None:
        """``suggest_move``'s move for ``bot`` at this seat, or None."""


@dataclass
class Observation:
    """Everything a seat may know when it decides, and what a thinker needs to rebuild the game from it."""

    game: str
    options: dict[str, Any]
    seats: int
    names: list[str]
    seat: int
    log: list[LoggedMove]
    view: Any
    own_signs: list[int]
    hidden: int  # moves still secret from the seat (a hidden deployment): its view cannot be checked then

    def observer(self) -> Observer:
        engine = ENGINES[self.game]
        return Observer(engine, engine.read_options(self.options), self.seats, self.seat, self.names)


def choose(observer: Observer, observation: Observation, bot: Any) -> tuple[str, dict[str, Any]] | None:
    """``bot``'s move, in notation and as an object, in the game ``observer`` rebuilds from ``observation``; None
    if it cannot be rebuilt or does not match what the seat sees."""
    engine = observer.engine
    rebuilt = observer.update(observation.log, observation.own_signs)
    if rebuilt is None or not (observation.hidden or engine.view(rebuilt, observation.seat) == observation.view):
        return None
    action = bot.choose(engine, rebuilt, observation.seat)
    return engine.notation(action), action.model_dump(mode="json")


#: A thinker: the move (notation and object) for an observation, or None (see :func:`choose`).
Think = Callable[[Observation], Awaitable[tuple[str, dict[str, Any]] | None]]


@dataclass
class SeatPlayer:
    """One seat of one game, played through ``port`` with moves from ``think`` (see the module docstring)."""

    port: SeatPort
    think: Think
    options: dict[str, Any] | None = None  # the game's options as created (else read from the view)
    bot_name: str | None = None  # the bot's registry name, for the server's advice when the game cannot be rebuilt
    seconds: float = 2.0  # the advice's thinking time
    log: list[LoggedMove] = field(default_factory=list)
    cursor: int = 0
    hidden_before: bool = False
    decisions: int = 0
    advised: int = 0
    fallbacks: int = 0

    async def play(self, max_decisions: int = 100_000, wait: float = 5.0) -> dict[str, Any] | None:
        """Answer every decision of the seat until the game ends (or ``max_decisions``); the outcome, or None."""
        while self.decisions < max_decisions:
            state = await self.port.state()
            if state["outcome"] is not None:
                return state["outcome"]
            if not state["your_turn"]:
                await self.port.wait(wait)
                continue
            await self.decide(state)
        return None

    async def decide(self, state: dict[str, Any]) -> bool:
        """One decision: observe, think, check the move is legal, send it numbered, so never played twice.
        False if the game moved on meanwhile (another seat awaited at once played first): nothing was played."""
        legal = {m for group in state["legal"] for m in group["moves"]}
        chosen = await self.think(await self.observe(state))
        move, action = chosen if chosen is not None else (None, None)
        if not await self.is_legal(move, legal) and self.bot_name is not None:
            advised = await self.port.advice(self.bot_name, self.seconds)
            if await self.is_legal(advised, legal):
                move, action = advised, None
                self.advised += 1
        if not await self.is_legal(move, legal):
            self.fallbacks += 1
            move, action = await self.port.advice("random", self.seconds), None
            if not await self.is_legal(move, legal):
                move = next(iter(sorted(legal)))
        self.decisions += 1
        return await self.port.play(None if action is not None else move, action, state["ply"] + 1)

    async def observe(self, state: dict[str, Any]) -> Observation:
        """What the seat knows now: its view, and the log it may see, brought up to date."""
        hidden = await self.read_log()
        return Observation(
            game=state["game"],
            options=self.game_options(state["view"]),
            seats=len(state["seats"]),
            names=[s["name"] for s in state["seats"]],
            seat=state["your_seat"],
            log=list(self.log),
            view=state["view"],
            own_signs=own_signs(state["view"], state["your_seat"]),
            hidden=hidden,
        )

    async def is_legal(self, move: str | None, listed: set[str]) -> bool:
        """Whether the server would accept ``move`` now: listed, or accepted by a dry run (lists may be partial)."""
        if move is None:
            return False
        return move in listed or await self.port.accepts(move)

    async def read_log(self) -> int:
        """Bring the log up to date; how many moves are still hidden from this seat. Moves are read once while
        every move is visible; while some are secret (A Game of War's deployment), the log is read afresh each
        time, since moves hidden now are shown later."""
        if self.hidden_before:
            self.log, self.cursor = [], 0
        hidden = 0
        while True:
            page = await self.port.history(self.cursor, PAGE)
            hidden += 1 if page["hidden"] is None else page["hidden"]  # None: a secret set-up, count untold
            self.log.extend(LoggedMove(m["seat"], m["action"], m["events"]) for m in page["moves"])
            if page["next_cursor"] is None:
                self.cursor = page["ply"]
                break
            self.cursor = page["next_cursor"]
        self.hidden_before = hidden > 0
        return hidden

    def game_options(self, view: dict[str, Any]) -> dict[str, Any]:
        """The game's options: as given, else the rulings the view shows (A Game of War, Cthulhu Dice), else the
        factions seated (Cthulhu Wars)."""
        if self.options is not None:
            return self.options
        if "rulings" in view:
            return view["rulings"]
        if "factions" in view:
            return {"factions": [f["faction"] for f in view["factions"]]}
        return {}


def own_signs(view: dict[str, Any], seat: int) -> list[int]:
    """The seat's own unrevealed Elder Signs, as its view shows them (Cthulhu Wars), in the order drawn."""
    factions = view.get("factions") if isinstance(view, dict) else None
    if not factions:
        return []
    signs = factions[seat].get("elder_signs")
    return list(signs) if isinstance(signs, list) else []
