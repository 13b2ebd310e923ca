"""A bot playing one seat through an MCP client that holds only that seat's token.

The player sees what any agent at that seat sees: ``get_state`` (its own view and legal moves),
``history`` (the moves it may see, with what each caused) and ``wait_for_turn``; it answers with
``apply_move``. To think, it rebuilds the game from its log and view (``tabletop.bots.observe``:
the logged moves replayed with the logged dice; Elder Signs it cannot know get placeholder values,
and the bots determinise those afresh anyway), checks the rebuilt view against the server's, and
asks its bot, unchanged, for a move. The move is sent only if the server says it is legal: it is
among the moves listed, or, when the list is not complete (A Game of War's deployment lists only the
openings and describes the single placements), a dry run of it is accepted.

If a log cannot be rebuilt (a chance result printed in a form the rebuilder does not read: today
Cthulhu Dice's draws from the bag) or the rebuilt view differs from the server's, the player asks the
server's ``suggest_move`` for the same bot's choice at its seat, with its own token (``advised``
counts these; the server's bots choose from what that seat may know). Only if that fails too does it
fall back (``fallbacks``, so a tournament can report both) to the server's random bot for its seat,
and last to the first move listed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp import Client

from ..bots.observe import LoggedMove, rebuild
from ..games import ENGINES

PAGE = 200


@dataclass
class McpSeat:
    """One seat of one game, played by ``bot`` over ``client`` with ``token`` (see module docstring)."""

    client: Client
    game_id: str
    token: str
    bot: Any
    options: dict[str, Any] | None = None  # the game's options as created (War shows them in its view)
    log: list[LoggedMove] = field(default_factory=list)
    cursor: int = 0
    fallbacks: int = 0
    advised: int = 0
    decisions: int = 0
    bot_name: str | None = None  # the bot's registry name, for suggest_move when the log cannot be rebuilt
    seconds: float = 2.0  # suggest_move's thinking time
    hidden_before: bool = False

    async def call(self, tool: str, **args: Any) -> dict[str, Any]:
        result = await self.client.call_tool(tool, args)
        if result.is_error:
            raise RuntimeError(f"{tool} failed: {result.content[0].text}")
        return result.structured_content

    async def play(self, max_decisions: int = 100_000, wait: float = 5.0) -> dict[str, Any] | None:
        """Answer every decision of the seat until the game ends (or ``max_decisions``); the outcome, or None."""
        while self.decisions < max_decisions:
            state = await self.call("get_state", game_id=self.game_id, token=self.token, detail="full")
            if state["outcome"] is not None:
                return state["outcome"]
            if not state["your_turn"]:
                await self.call("wait_for_turn", game_id=self.game_id, token=self.token, timeout_seconds=wait)
                continue
            await self.decide(state)
        return None

    async def decide(self, state: dict[str, Any]) -> None:
        """One decision: rebuild, ask the bot, check the move is listed, send it."""
        engine = ENGINES[state["game"]]
        seat = state["your_seat"]
        legal = {m for group in state["legal"] for m in group["moves"]}
        hidden = await self.read_log()

        def think() -> Any:  # in a worker thread: a searching bot must not hold up the other games' connections
            rebuilt = rebuild(engine, self.game_options(engine, state["view"]), len(state["seats"]), self.log, seat,
                              own_signs(state["view"], seat), [s["name"] for s in state["seats"]])
            if rebuilt is not None and (hidden or engine.view(rebuilt, seat) == state["view"]):
                return self.bot.choose(engine, rebuilt, seat)
            return None

        action = await anyio.to_thread.run_sync(think)
        move = engine.notation(action) if action is not None else None
        if not await self.is_legal(move, legal) and self.bot_name is not None:
            advised = await self.advice(self.bot_name)
            if await self.is_legal(advised, legal):
                move, action = advised, None
                self.advised += 1
        if not await self.is_legal(move, legal):
            self.fallbacks += 1
            move, action = await self.advice("random"), None
            if not await self.is_legal(move, legal):
                move = next(iter(sorted(legal)))
        self.decisions += 1
        if action is not None:
            await self.call("apply_move", game_id=self.game_id, token=self.token, actions=[action.model_dump(mode="json")])
        else:
            await self.call("apply_move", game_id=self.game_id, token=self.token, move=move)

    async def is_legal(self, move: str | None, listed: set[str]) -> bool:
        """Whether the server would accept ``move`` now: listed, or accepted by a dry run (lists may be partial)."""
        if move is None:
            return False
        if move in listed:
            return True
        result = await self.client.call_tool("apply_move", {"game_id": self.game_id, "token": self.token,
                                                            "move": move, "dry_run": True})
        return not result.is_error

    async def advice(self, bot: str) -> str | None:
        """The move the server's bot ``bot`` would play at this seat (asked with this seat's token), or None."""
        result = await self.client.call_tool("suggest_move", {"game_id": self.game_id, "token": self.token,
                                                              "bot": bot, "seconds": self.seconds})
        return None if result.is_error else result.structured_content["move"]

    async def read_log(self) -> int:
        """Bring the log up to date; how many moves are still hidden from this seat. Moves are read once while
        every move is visible; while some are secret (A Game of War's deployment), the log is read afresh each
        time, since moves hidden now are shown later."""
        if self.hidden_before:
            self.log, self.cursor = [], 0
        hidden = 0
        while True:
            page = await self.call("history", game_id=self.game_id, token=self.token, after=self.cursor, limit=PAGE)
            hidden += 1 if page["hidden"] is None else page["hidden"]  # None: a secret set-up, count untold
            self.log.extend(LoggedMove(m["seat"], m["action"], m["events"]) for m in page["moves"])
            if page["next_cursor"] is None:
                self.cursor = page["ply"]
                break
            self.cursor = page["next_cursor"]
        self.hidden_before = hidden > 0
        return hidden

    def game_options(self, engine: Any, view: dict[str, Any]) -> Any:
        """The game's options: as given, else the rulings the view shows (A Game of War), else the factions seated."""
        if self.options is not None:
            return engine.read_options(self.options)
        if "rulings" in view:
            return engine.read_options(view["rulings"])
        if "factions" in view:
            return engine.read_options({"factions": [f["faction"] for f in view["factions"]]})
        return engine.read_options({})


def own_signs(view: dict[str, Any], seat: int) -> list[int]:
    factions = view.get("factions")
    if not factions:
        return []
    signs = factions[seat].get("elder_signs")
    return list(signs) if isinstance(signs, list) else []


__all__ = ["McpSeat"]
