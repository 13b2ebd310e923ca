"""Cthulhu Dice tools: rolling dice in a game or for a game at a real table."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import BaseModel, Field

from ..core.errors import BadOptions
from ..core.rng import Rng, fresh_seed
from ..games.cthulhu_dice.dice import STANDARD_BAG, DieKind, Face, draw_from_bag, roll_die
from ..sessions.manager import GameSessions
from .game_tools import ADDS, move_result
from .replies import refusals_as_tool_errors, reply


class RolledDie(BaseModel):
    die: DieKind
    face: Face


class DiceRoll(BaseModel):
    dice: list[RolledDie]
    elder_signs: int
    clues: int
    tentacles: int
    seed: int | None = Field(description="Seed of a standalone roll (repeat it to get the same faces); null in a game.")
    game_id: str | None = Field(description="For an in-game roll: the game.")
    ply: int | None = Field(description="For an in-game roll: the roll's move number (apply_move's answer, in brief).")


def register_dice_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.tool(title="Roll Cthulhu Dice", annotations=ADDS)
    @refusals_as_tool_errors
    async def roll_cthulhu_dice(
        dice: Annotated[
            list[DieKind] | None,
            Field(
                max_length=15,
                description="e.g. ['library', 'tomb']; omit: three from a full bag.",
            ),
        ] = None,
        seed: Annotated[int | None, Field(ge=0, description="For repeatable faces.")] = None,
        game_id: Annotated[str | None, Field(description="In a game: its id (with token).")] = None,
        token: Annotated[str | None, Field(description="In a game: your seat's token.")] = None,
    ) -> Annotated[CallToolResult, DiceRoll]:
        """Roll Cthulhu Dice: named dice or three from a full bag, or your roll in a game."""
        if game_id is not None:
            played = sessions.play(game_id, token, "roll")
            # in a game refereed at a table (chance: table) the roll waits for the referee to enter the faces
            faces = [] if played.pending else [RolledDie(die=d.kind, face=d.face) for d in played.state_after.last_roll]
            _, text = move_result(played)
            return reply(summary(faces, None, game_id, played.ply), text)
        if token is not None:
            raise BadOptions("A token without a game_id means nothing; pass both for an in-game roll")
        seed = fresh_seed() if seed is None else seed
        rng = Rng(seed)
        kinds = dice if dice is not None else draw_from_bag(list(STANDARD_BAG), 3, rng)
        faces = [RolledDie(die=k, face=roll_die(k, rng)) for k in kinds]
        result = summary(faces, seed, None, None)
        shown = ", ".join(f"{f.die.value}: {f.face.value.replace('_', ' ')}" for f in faces) or "no dice"
        return reply(
            result,
            f"Rolled {shown}. Elder Signs {result.elder_signs}, clues {result.clues}, tentacles {result.tentacles}.",
        )


def summary(faces: list[RolledDie], seed: int | None, game_id: str | None, ply: int | None) -> DiceRoll:
    def count(face: Face) -> int:
        return sum(f.face is face for f in faces)

    return DiceRoll(
        dice=faces,
        elder_signs=count(Face.elder_sign),
        clues=count(Face.clue),
        tentacles=count(Face.tentacle),
        seed=seed,
        game_id=game_id,
        ply=ply,
    )
