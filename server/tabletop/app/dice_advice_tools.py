"""Cthulhu Dice advice from exact optimal play: roll again or retreat, and the odds of the next roll.

Two players: exact (the solver's table, rules_text cthulhu-dice/advice). Three or more: an
approximation, clearly labelled, that plays against the strongest opponent only.
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import BadOptions, IllegalMove
from ..games.cthulhu_dice import ENGINE as CTHULHU_DICE
from ..games.cthulhu_dice.advice import Duel, duel_for, is_solved
from ..games.cthulhu_dice.rules import CthulhuDiceOptions, DiceState
from ..games.cthulhu_dice.solver import Position, advise, roll_odds
from ..sessions.manager import GameSessions
from .game_tools import READ_ONLY
from .replies import refusals_as_tool_errors, reply

RULE = "cthulhu-dice/advice"
ODDS_RULE = "cthulhu-dice/turn"


def zero_unless_given(schema: dict) -> None:
    """Say once that a kind counts 0 to 15 (0 if left out), not once per kind: tools/list stays short."""
    for prop in schema["properties"].values():
        for limit in ("default", "minimum", "maximum"):
            prop.pop(limit, None)


class KindCounts(BaseModel):
    """Dice per kind (the bag holds at most 15, so no count exceeds it)."""

    model_config = ConfigDict(json_schema_extra=zero_unless_given)

    library: int = Field(default=0, ge=0, le=15)
    museum: int = Field(default=0, ge=0, le=15)
    tomb: int = Field(default=0, ge=0, le=15)

    def as_tuple(self) -> tuple[int, int, int]:
        return (self.library, self.museum, self.tomb)


#: No dice of any kind (the default of every per-kind argument).
NO_DICE = KindCounts()


class DicePosition(BaseModel):
    """A moment in a two-player game of Cthulhu Dice (8 Library, 4 Museum, 3 Tomb; goal 13)."""

    my_score: int = Field(ge=0, le=200, description="Elder Signs you have banked.")
    opponent_score: int = Field(ge=0, le=200, description="Elder Signs your opponent has banked.")
    opponent_still_to_play: bool = Field(description="Whether your opponent still plays this round.")
    stash: int = Field(default=0, ge=0, le=100, description="Elder Signs rolled this turn, not banked.")
    tentacles: KindCounts = Field(default_factory=KindCounts, description="Tentacle dice set aside.")
    clues: KindCounts = Field(default_factory=KindCounts, description="Clue dice in your hand.")
    elder_signs: KindCounts = Field(default_factory=KindCounts, description="Elder Sign dice set aside.")
    bag: KindCounts | None = Field(default=None, description="Dice in the bag; omit for all the others.")

    def as_position(self) -> Position:
        return Position(
            my_score=self.my_score,
            opponent_score=self.opponent_score,
            opponent_still_to_play=self.opponent_still_to_play,
            stash=self.stash,
            tentacles=self.tentacles.as_tuple(),
            clues=self.clues.as_tuple(),
            elder_signs=self.elder_signs.as_tuple(),
            bag=None if self.bag is None else self.bag.as_tuple(),
        )


class DiceAdvice(BaseModel):
    recommended: Literal["continue", "retreat"]
    win_if_continue: float = Field(description="Chance of winning the game if you roll now and play on optimally.")
    win_if_retreat: float | None = Field(description="Chance of winning if you bank now (null before the first roll).")
    expected_signs_if_continue: float = Field(description="Elder Signs you can expect to bank this turn by rolling on.")
    expected_signs_if_retreat: int | None = Field(description="Elder Signs you bank by retreating now.")
    approximate: bool = Field(description="True for 3+ players: computed as a duel with the strongest opponent.")
    basis: str = Field(description="What the numbers assume.")
    position: DicePosition


class RollOutcome(BaseModel):
    elder_signs: int
    clues: int
    tentacles: int
    probability: float
    downed: bool = Field(description="Whether this roll brings the turn's tentacles to three.")


class DiceOdds(BaseModel):
    results: list[RollOutcome]
    chance_downed: float
    expected_elder_signs: float
    expected_tentacles: float
    rule: str = Field(default=ODDS_RULE, description="The rules_text section these odds rest on.")


def described(position: Position) -> DicePosition:
    """The solver's position in the tool's words."""

    def kinds(counts: tuple[int, ...]) -> KindCounts:
        return KindCounts(**dict(zip(("library", "museum", "tomb"), counts)))

    return DicePosition(
        my_score=position.my_score,
        opponent_score=position.opponent_score,
        opponent_still_to_play=position.opponent_still_to_play,
        stash=position.stash,
        tentacles=kinds(position.tentacles),
        clues=kinds(position.clues),
        elder_signs=kinds(position.elder_signs),
        bag=None if position.bag is None else kinds(position.bag),
    )


def basis_of(duel: Duel | None, state: DiceState | None) -> str:
    if duel is None or not duel.approximate:
        return "Exact: two-player optimal play, maximising your chance of winning."
    return (
        f"Approximate: {len(state.scores)} players, treated as a duel with the strongest opponent "
        f"(seat {duel.rival}, {state.scores[duel.rival]} Elder Signs); the others are ignored."
    )


def advice_text(advice: DiceAdvice) -> str:
    retreat = (
        f"retreat now (bank {advice.expected_signs_if_retreat}) wins {advice.win_if_retreat:.1%}"
        if advice.win_if_retreat is not None
        else "retreating is not allowed before the first roll"
    )
    return (
        f"Recommended: {advice.recommended.upper()}. Rolling on wins {advice.win_if_continue:.1%} "
        f"(expect to bank {advice.expected_signs_if_continue:.2f} this turn); {retreat}. {advice.basis} "
        f"Rule: rules://{RULE}."
    )


def register_dice_advice_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.tool(title="Cthulhu Dice: roll on or retreat?", annotations=READ_ONLY)
    @refusals_as_tool_errors
    def cthulhu_dice_advice(
        game_id: Annotated[str | None, Field(description="A game you play (with token).")] = None,
        token: Annotated[str | None, Field(description="Your seat's token.")] = None,
        position: Annotated[DicePosition | None, Field(description="Or a two-player position.")] = None,
    ) -> Annotated[CallToolResult, DiceAdvice]:
        """Cthulhu Dice: roll on or retreat? Exact chances of winning either way, for your seat in a game or a position you describe."""
        if (position is None) == (game_id is None):
            raise BadOptions("Give either game_id and token (your live seat) or a position, not both", rule=RULE)
        duel, state = None, None
        if game_id is not None:
            live = sessions.get(game_id)
            if live.engine is not CTHULHU_DICE:
                raise BadOptions(f"Game {game_id} is {live.engine.title}, not Cthulhu Dice", rule=RULE)
            seat = sessions.seat_for(live, token)
            state = live.state
            if seat not in CTHULHU_DICE.to_move(state):
                raise IllegalMove("Advice is for the seat whose turn it is; it is not yours", rule=RULE)
            if not is_solved(state.options):
                raise BadOptions("Advice is solved for the standard rules only (goal 13, 8/4/3 bag, default rulings)", rule=RULE)
            duel = duel_for(state, seat)
            position = described(duel.position)
        try:
            found = advise(position.as_position())
        except ValueError as err:
            raise BadOptions(f"That position cannot be advised: {err}", rule=RULE) from None
        result = DiceAdvice(
            recommended=found.choice,
            win_if_continue=found.win_if_continue,
            win_if_retreat=found.win_if_retreat,
            expected_signs_if_continue=found.expected_signs_if_continue,
            expected_signs_if_retreat=found.expected_signs_if_retreat,
            approximate=duel is not None and duel.approximate,
            basis=basis_of(duel, state),
            position=position,
        )
        return reply(result, advice_text(result))

    @mcp.tool(title="Cthulhu Dice: roll odds", annotations=READ_ONLY)
    @refusals_as_tool_errors
    def cthulhu_dice_odds(
        clues: Annotated[KindCounts | None, Field(description="Clue dice in your hand, e.g. {\"tomb\": 1}.")] = None,
        bag: Annotated[KindCounts | None, Field(description="Dice in the bag; omit for all the others.")] = None,
        tentacles: Annotated[KindCounts | None, Field(description="Tentacle dice set aside this turn.")] = None,
        elder_signs: Annotated[KindCounts | None, Field(description="Elder Sign dice set aside this turn.")] = None,
    ) -> Annotated[CallToolResult, DiceOdds]:
        """Cthulhu Dice: exact odds of the next roll and of being downed, from the dice in hand and in the bag."""
        clues, tentacles, elder_signs = (c or NO_DICE for c in (clues, tentacles, elder_signs))
        placed = [c + t + e for c, t, e in zip(clues.as_tuple(), tentacles.as_tuple(), elder_signs.as_tuple())]
        full = CthulhuDiceOptions().bag.as_list()
        rest = bag.as_tuple() if bag is not None else tuple(n - p for n, p in zip(full, placed))
        if any(n < 0 for n in rest) or sum(clues.as_tuple()) > 3 or sum(tentacles.as_tuple()) > 2:
            raise BadOptions("Those dice do not fit a turn: at most 3 clues and 2 tentacles, within the 8/4/3 bag", rule=RULE)
        odds = roll_odds(clues.as_tuple(), rest, tentacles.as_tuple(), elder_signs.as_tuple())
        result = DiceOdds(
            results=[RollOutcome(**vars(r)) for r in odds.results],
            chance_downed=odds.p_downed,
            expected_elder_signs=odds.expected_elder_signs,
            expected_tentacles=odds.expected_tentacles,
        )
        likely = sorted(odds.results, key=lambda r: -r.probability)[:3]
        common = "; ".join(f"{r.elder_signs} signs/{r.clues} clues/{r.tentacles} tentacles {r.probability:.1%}" for r in likely)
        return reply(
            result,
            f"Chance of being downed: {odds.p_downed:.1%}. Expected Elder Signs {odds.expected_elder_signs:.2f}, "
            f"tentacles {odds.expected_tentacles:.2f}. Most likely: {common}. Rule: rules://{ODDS_RULE}.",
        )
