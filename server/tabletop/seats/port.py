"""A seat's view and moves through the sessions API: what an agent holding the seat's token gets from the MCP
tools (``get_state``, ``history``, ``wait_for_turn``, ``apply_move``), read from the same sessions calls those
tools make, without the text. The server's bot seats play through this, never through the game's state."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core.errors import GameError
from ..sessions.errors import MoveConflict
from ..sessions.manager import GameSessions


@dataclass
class SessionsPort:
    """One seat of one game, reached through ``sessions`` with the seat's ``token`` (a :class:`~.player.SeatPort`)."""

    sessions: GameSessions
    game_id: str
    token: str

    async def state(self) -> dict[str, Any]:
        def read() -> dict[str, Any]:
            live = self.sessions.get(self.game_id)
            seat = self.sessions.seat_for(live, self.token)
            mine = seat in live.to_move()
            outcome = live.engine.outcome(live.state)
            legal = live.legal_moves(seat).groups if mine else []
            return {
                "game": live.engine.name,
                "your_seat": seat,
                "your_turn": mine,
                "outcome": None if outcome is None else outcome.model_dump(mode="json"),
                "legal": [{"moves": [m.notation for m in group.moves]} for group in legal],
                "view": live.engine.view(live.state, seat),
                "seats": [{"name": name} for name in live.record.seat_names],
                "ply": self.sessions.ply_for(live, seat),
            }

        return await self.sessions.io(read)

    async def history(self, after: int, limit: int) -> dict[str, Any]:
        def read() -> dict[str, Any]:
            live = self.sessions.get(self.game_id)
            seat = self.sessions.seat_for(live, self.token)
            page = self.sessions.log_page(live, seat, after, limit, told=live.engine.outcome(live.state) is not None)
            moves = [{"seat": m.seat, "action": m.action, "events": m.events} for _, m in page.moves]
            return {"moves": moves, "hidden": page.hidden, "next_cursor": page.next_cursor, "ply": page.total}

        return await self.sessions.io(read)

    async def wait(self, timeout: float) -> None:
        await self.sessions.wait_for_turn(self.game_id, self.token, timeout)

    async def play(self, move: str | None, action: dict[str, Any] | None, expected: int) -> bool:
        try:
            await self.sessions.io(lambda: self.sessions.play(self.game_id, self.token, move if action is None else [action],
                                                        expected=expected))
        except MoveConflict:
            return False
        return True

    async def accepts(self, move: str) -> bool:
        try:
            await self.sessions.io(lambda: self.sessions.play(self.game_id, self.token, move, dry_run=True))
        except GameError:
            return False
        return True

    async def advice(self, bot: str, seconds: float) -> str | None:
        """Only the random bot's, chosen among the moves listed to the seat (a bot seat's last resort): the
        server's other advice reads the game's state, which a bot seat never does."""
        if bot != "random":
            return None
        state = await self.state()
        listed = sorted(m for group in state["legal"] for m in group["moves"])
        return random.Random(f"{self.game_id}:{state['ply']}").choice(listed) if listed else None
