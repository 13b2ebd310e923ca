"""Cthulhu Dice advice from exact optimal play: roll again or retreat, and the odds of the next roll.

Exact for two and three players in every variant the engine plays (rules_text cthulhu-dice/advice):
the standard game from the shipped tables, any other variant solved on first use in the background
and cached beside the game database. While a solve runs the tool reports progress and answers
"solving, ask again" with an estimate before the client's request could time out. Four or more
players: an approximation, clearly labelled, that plays against the strongest opponent only.
"""

from __future__ import annotations

import threading
import time
from typing import Annotated, Literal

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..core.errors import BadOptions, IllegalMove
from ..core.game import JsonObject
from ..core.text import amount, chance
from ..games.cthulhu_dice import ENGINE as CTHULHU_DICE
from ..games.cthulhu_dice.advice import Situation, situation_for, within_cap
from ..games.cthulhu_dice.advisor import Advisor, Position, roll_odds
from ..games.cthulhu_dice.model import GameRules, rules_for_options
from ..games.cthulhu_dice.rules import CthulhuDiceOptions
from ..games.cthulhu_dice.tables import SolveJob, Tables, TooLarge
from ..games.cthulhu_dice.words import bag_text, clues_in_hand, counted, tentacles_text
from ..sessions.manager import GameSessions
from .game_tools import READ_ONLY
from .replies import refusals_as_tool_errors, reply

RULE = "cthulhu-dice/advice"
ODDS_RULE = "cthulhu-dice/turn"
#: How long one call waits for a solve on first use before answering "solving, ask again" (clients
#: commonly give up on a request after 60 s; progress notifications are sent meanwhile).
WAIT_SECONDS = 25.0
#: How often progress is reported while waiting.
PROGRESS_EVERY = 1.0


def zero_unless_given(schema: dict) -> None:
    """Say once that a kind counts 0 to 30 (0 if left out), not once per kind: tools/list stays short."""
    for prop in schema["properties"].values():
        for limit in ("default", "minimum", "maximum"):
            prop.pop(limit, None)


class KindCounts(BaseModel):
    """Dice per kind (a bag holds at most 30 of a kind, so no count exceeds it)."""

    model_config = ConfigDict(json_schema_extra=zero_unless_given)

    library: int = Field(default=0, ge=0, le=30)
    museum: int = Field(default=0, ge=0, le=30)
    tomb: int = Field(default=0, ge=0, le=30)

    def as_tuple(self) -> tuple[int, int, int]:
        return (self.library, self.museum, self.tomb)


#: No dice of any kind (the default of every per-kind argument).
NO_DICE = KindCounts()


def kinds(counts: tuple[int, ...]) -> KindCounts:
    return KindCounts(**dict(zip(("library", "museum", "tomb"), counts)))


class DicePosition(BaseModel):
    """A moment in a game of Cthulhu Dice: every player's banked score in seat order and yours (seats before
    yours have played this round, seats after have not), and the dice of your turn."""

    scores: list[int] = Field(min_length=2, max_length=6, description="Every player's banked score, in seat order.")
    seat: int = Field(ge=0, le=5, description="Your seat (seats after yours still play this round).")
    stash: int = Field(default=0, ge=0, le=200, description="Elder Signs rolled this turn, not banked.")
    tentacles: KindCounts = Field(default_factory=KindCounts, description="Tentacle dice set aside.")
    clues: KindCounts = Field(default_factory=KindCounts, description="Clue dice in your hand.")
    elder_signs: KindCounts = Field(default_factory=KindCounts, description="Elder Sign dice set aside.")
    bag: KindCounts | None = Field(default=None, description="In the bag; omit: all the others.")

    @model_validator(mode="after")
    def seat_in_scores(self) -> DicePosition:
        if self.seat >= len(self.scores) or any(s < 0 for s in self.scores):
            raise ValueError("seat must index scores, and scores are not negative")
        return self

    def dice(self) -> dict:
        return dict(
            stash=self.stash,
            tentacles=self.tentacles.as_tuple(),
            clues=self.clues.as_tuple(),
            elder_signs=self.elder_signs.as_tuple(),
            bag=None if self.bag is None else self.bag.as_tuple(),
        )


class SolveStatus(BaseModel):
    progress: float = Field(description="Fraction of the solve done, 0 to 1.")
    seconds_left: float = Field(description="Estimated seconds until the solve is done.")
    message: str


class DiceAdvice(BaseModel):
    status: Literal["ready", "solving"] = Field(
        description="ready: the advice below; solving: this variant is being solved exactly for the first time, "
        "ask again after solving.seconds_left."
    )
    recommended: Literal["continue", "retreat"] | None = None
    win_if_continue: float | None = Field(
        default=None, description="Chance of winning the game if you roll now and play on optimally (null if not allowed)."
    )
    win_if_retreat: float | None = Field(default=None, description="Chance of winning if you bank now (null before the first roll).")
    expected_signs_if_continue: float | None = Field(default=None, description="Elder Signs you can expect to bank this turn by rolling on.")
    expected_signs_if_retreat: int | None = Field(default=None, description="Elder Signs you bank by retreating now.")
    approximate: bool = Field(description="True for 4+ players: computed as a duel with the strongest opponent.")
    players: int = Field(description="Players in the solved game that answers (2 or 3; 2 for the approximation).")
    variant: str = Field(description="The variant solved: players, goal, bag, tie rule, bag-exhaustion ruling, and where the solution comes from.")
    basis: str = Field(description="What the numbers assume.")
    solving: SolveStatus | None = None
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


def options_of(rules: dict | None) -> CthulhuDiceOptions:
    """A game's options given as new_game takes them (BadOptions, listing the valid ones, if unreadable)."""
    return CTHULHU_DICE.read_options(rules)


def variant_name(rules: GameRules, players: int, tables: Tables) -> str:
    return f"{players} players, {rules.describe()} ({tables.source(rules, players)})"


def basis_of(situation: Situation, scores: list[int]) -> str:
    if not situation.approximate:
        return f"Exact: {situation.players}-player optimal play, each player maximising their own chance of winning."
    if situation.rival is None:
        return f"Approximate: {situation.players}-player optimal play, {situation.note}."
    note = f"; {situation.note}" if situation.note else ""
    return (
        f"Approximate: {len(scores)} players, treated as a duel with the strongest opponent "
        f"(seat {situation.rival}, {scores[situation.rival]} Elder Signs); the others are ignored{note}."
    )


#: The move to send (apply_move's notation) for each recommended choice.
MOVE_OF = {"continue": "roll", "retreat": "retreat"}


def position_text(position: DicePosition, bag: tuple[int, ...]) -> str:
    """The position advised, in the words of get_state: scores, seat, stash, tentacles and clues by kind, the bag."""
    return (
        f"Position: scores {', '.join(map(str, position.scores))} (you: seat {position.seat}); stash {position.stash}, "
        f"{tentacles_text(position.tentacles.as_tuple())}, {clues_in_hand(position.clues.as_tuple())}, {bag_text(bag)}."
    )


def advice_text(advice: DiceAdvice, bag: tuple[int, ...]) -> str:
    """The advice in the names of the moves to send (``roll``, ``retreat``), with the position it is for.
    ``bag``: the dice in the bag (the position's, or every die it does not place)."""
    move = MOVE_OF[advice.recommended]
    if advice.win_if_retreat is None:
        move += " (retreat is not allowed before the first roll of a turn)"
    elif advice.win_if_continue is None:
        move += " (roll is not allowed: the bag ran short)"
    choices = []
    if advice.win_if_continue is not None:
        choices.append(
            f"If you roll: {chance(advice.win_if_continue)} to win, expecting to bank "
            f"{amount(advice.expected_signs_if_continue)} this turn."
        )
    if advice.win_if_retreat is not None:
        choices.append(
            f"If you retreat: {chance(advice.win_if_retreat)} to win, banking {amount(advice.expected_signs_if_retreat)}."
        )
    kind = ("Approximate (duel with the leader)" if "duel" in advice.basis else "Approximate (past the score cap)") if advice.approximate else "Exact"
    return (
        f"Recommended: {move}. {' '.join(choices)} {position_text(advice.position, bag)} "
        f"{kind}: {advice.variant.split(' (')[0]}. Rule: rules://{RULE}."
    )


def solving_text(advice: DiceAdvice) -> str:
    status = advice.solving
    return (
        f"Solving this variant exactly for the first time ({advice.variant.split(' (')[0]}): {status.progress:.0%} "
        f"done, about {status.seconds_left:.0f} s left. Ask again then; the result is kept."
    )


def described_situation(position: DicePosition, rules: GameRules) -> tuple[Situation, list[int]]:
    """A position given by the caller: exact for 2 or 3 players, a duel with the strongest opponent for more."""
    dice = position.dice()
    scores, seat = list(position.scores), position.seat
    if len(scores) <= 3:
        fitted, note = within_cap(tuple(scores), rules)
        return Situation(Position(fitted, seat, **dice), len(scores), bool(note), tuple(range(len(scores))), note=note), scores
    others = [s for s in range(len(scores)) if s != seat]
    rival = max(others, key=lambda s: (scores[s], s > seat))
    seats = (seat, rival) if rival > seat else (rival, seat)
    fitted, note = within_cap(tuple(scores[s] for s in seats), rules)
    return Situation(Position(fitted, seats.index(seat), **dice), 2, True, seats, rival, note), scores


def register_dice_advice_tools(mcp: MCPServer, sessions: GameSessions) -> None:
    cache = sessions.store.cache_dir
    tables = Tables(None if cache is None else cache / "cthulhu-dice")
    advisors: dict[tuple[GameRules, int], Advisor] = {}
    advisor_lock = threading.Lock()

    def advise_now(rules: GameRules, players: int, solution, position: Position):
        with advisor_lock:
            advisor = advisors.get((rules, players))
            if advisor is None or advisor.solution is not solution:
                advisor = advisors[(rules, players)] = Advisor(solution, cached_turns=8)
                while len(advisors) > 4:
                    advisors.pop(next(iter(advisors)))
            return advisor.advise(position)

    async def wait_for(job: SolveJob, ctx: Context | None) -> bool:
        """Wait for ``job`` up to WAIT_SECONDS, reporting progress; True if it finished."""
        deadline = time.monotonic() + WAIT_SECONDS
        while not job.done.is_set():
            if ctx is not None:
                left = tables.seconds_left(job)
                await ctx.report_progress(
                    round(100 * job.fraction, 1), 100, f"Solving this variant exactly: {job.fraction:.0%}, about {left:.0f} s left"
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            await anyio.sleep(min(PROGRESS_EVERY, remaining))
        if ctx is not None and job.began is not None:
            await ctx.report_progress(100, 100, "Solved")
        return True

    @mcp.tool(title="Cthulhu Dice: advice", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def cthulhu_dice_advice(
        game_id: Annotated[str | None, Field(description="A game you play (with token).")] = None,
        token: Annotated[str | None, Field(description="Your seat token.")] = None,
        position: Annotated[DicePosition | None, Field(description="Or a position you describe.")] = None,
        rules: Annotated[JsonObject | None, Field(description="With position: new_game's options.")] = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, DiceAdvice]:
        """Cthulhu Dice: roll on or retreat? Exact win chances of both, in a game or a described position."""
        if (position is None) == (game_id is None):
            raise BadOptions("Give either game_id and token (your live seat) or a position, not both", rule=RULE)
        if game_id is not None:
            if rules is not None:
                raise BadOptions("A live game's rules are its own options; give rules only with a position", rule=RULE)
            live = sessions.get(game_id)
            if live.engine is not CTHULHU_DICE:
                raise BadOptions(f"Game {game_id} is {live.engine.title}, not Cthulhu Dice", rule=RULE)
            seat = sessions.seat_for(live, token)
            state = live.state
            if seat not in CTHULHU_DICE.to_move(state):
                raise IllegalMove("Advice is for the seat whose turn it is; it is not yours", rule=RULE)
            options = state.options
            situation = situation_for(state, seat)
            scores = list(state.scores)
            described = describe(situation, state.scores, seat)
        else:
            options = options_of(rules)
            situation, scores = described_situation(position, rules_for_options(options))
            described = position
        game_rules = rules_for_options(options)
        try:
            job = tables.request(game_rules, situation.players)
        except TooLarge as err:
            raise BadOptions(f"No exact advice for this variant: {err}", rule=RULE) from None
        finished = await wait_for(job, ctx)
        variant = variant_name(game_rules, situation.players, tables)
        common = dict(approximate=situation.approximate, players=situation.players, variant=variant,
                      basis=basis_of(situation, scores), position=described)
        if not finished:
            result = DiceAdvice(
                status="solving",
                solving=SolveStatus(progress=job.fraction, seconds_left=round(tables.seconds_left(job), 1), message=job.message),
                **common,
            )
            return reply(result, solving_text(result))
        if job.error:
            raise ToolError(f"solver_error: solving this variant failed ({job.error}); ask again to retry")
        try:
            found = await anyio.to_thread.run_sync(advise_now, game_rules, situation.players, job.solution, situation.position)
        except ValueError as err:
            raise BadOptions(f"That position cannot be advised: {err}", rule=RULE) from None
        result = DiceAdvice(
            status="ready",
            recommended=found.choice,
            win_if_continue=found.win_if_continue,
            win_if_retreat=found.win_if_retreat,
            expected_signs_if_continue=found.expected_signs_if_continue,
            expected_signs_if_retreat=found.expected_signs_if_retreat,
            **common,
        )
        return reply(result, advice_text(result, bag_of(described, options)))

    @mcp.tool(title="Cthulhu Dice: roll odds", annotations=READ_ONLY)
    @refusals_as_tool_errors
    def cthulhu_dice_odds(
        clues: Annotated[KindCounts | None, Field(description="Clue dice in your hand, e.g. {\"tomb\": 1}.")] = None,
        bag: Annotated[KindCounts | None, Field(description="In the bag; omit: all the others.")] = None,
        tentacles: Annotated[KindCounts | None, Field(description="Tentacle dice set aside this turn.")] = None,
        elder_signs: Annotated[KindCounts | None, Field(description="Elder Sign dice set aside this turn.")] = None,
        rules: Annotated[JsonObject | None, Field(description="new_game's options.")] = None,
    ) -> Annotated[CallToolResult, DiceOdds]:
        """Cthulhu Dice: exact odds of the next roll and of being downed."""
        clues, tentacles, elder_signs = (c or NO_DICE for c in (clues, tentacles, elder_signs))
        options = options_of(rules)
        dice = rules_for_options(options).dice
        placed = [c + t + e for c, t, e in zip(clues.as_tuple(), tentacles.as_tuple(), elder_signs.as_tuple())]
        full = options.bag.as_list()
        rest = bag.as_tuple() if bag is not None else tuple(n - p for n, p in zip(full, placed))
        if any(n < 0 for n in rest) or sum(clues.as_tuple()) > 3 or sum(tentacles.as_tuple()) > 2:
            bag_text = "/".join(map(str, full))
            raise BadOptions(f"Those dice do not fit a turn: at most 3 clues and 2 tentacles, within the {bag_text} bag", rule=RULE)
        try:
            odds = roll_odds(clues.as_tuple(), rest, tentacles.as_tuple(), elder_signs.as_tuple(), dice=dice)
        except ValueError:
            raise no_roll(clues.as_tuple(), rest, elder_signs.as_tuple(), options) from None
        result = DiceOdds(
            results=[RollOutcome(**vars(r)) for r in odds.results],
            chance_downed=odds.p_downed,
            expected_elder_signs=odds.expected_elder_signs,
            expected_tentacles=odds.expected_tentacles,
        )
        likely = sorted(odds.results, key=lambda r: -r.probability)[:3]
        common = "; ".join(
            f"{counted(r.elder_signs, 'Elder Sign')}, {counted(r.clues, 'clue')}, {counted(r.tentacles, 'tentacle')}: "
            f"{chance(r.probability)}"
            for r in likely
        )
        return reply(
            result,
            f"Chance of being downed: {chance(odds.p_downed)}. Expected Elder Signs "
            f"{amount(odds.expected_elder_signs)}, tentacles {amount(odds.expected_tentacles)}. Most likely: {common}. "
            f"Rule: rules://{ODDS_RULE}.",
        )


def no_roll(
    clues: tuple[int, ...], bag: tuple[int, ...], elder_signs: tuple[int, ...], options: CthulhuDiceOptions
) -> IllegalMove:
    """Why the position described cannot be rolled: the bag is short and the game's ruling on a short bag
    (rules_text cthulhu-dice/rulings, ``bag_exhaustion``) gives no roll there."""
    ruling = options.bag_exhaustion
    short = (
        f"a roll draws {3 - sum(clues)} dice to go with the {counted(sum(clues), 'clue')} in hand and the bag holds "
        f"{sum(bag)}"
    )
    if ruling == "must_retreat":
        why = f"{short}; under the ruling bag_exhaustion='must_retreat' rolling is not allowed with a short bag"
    else:
        why = (f"{short}, still too few with the {sum(elder_signs)} Elder Sign dice set aside put back "
               f"(ruling bag_exhaustion={ruling!r}): rolling is not allowed")
    return IllegalMove(
        f"No roll here: {why}; retreat is the only move (with rules={{\"bag_exhaustion\": \"roll_fewer\"}} the "
        "remaining dice are rolled)",
        rule="cthulhu-dice/rulings#running-out-of-dice-bag-exhaustion",
    )


def bag_of(position: DicePosition, options: CthulhuDiceOptions) -> tuple[int, ...]:
    """The dice in the bag: as given, or every die of the game's bag that the position does not place."""
    if position.bag is not None:
        return position.bag.as_tuple()
    placed = [sum(kind) for kind in zip(position.tentacles.as_tuple(), position.clues.as_tuple(), position.elder_signs.as_tuple())]
    return tuple(n - p for n, p in zip(options.bag.as_list(), placed))


def describe(situation: Situation, scores: list[int], seat: int) -> DicePosition:
    """A live position in the tool's words: every player's score and the caller's seat, and the dice."""
    pos = situation.position
    return DicePosition(
        scores=list(scores), seat=seat, stash=pos.stash, tentacles=kinds(pos.tentacles), clues=kinds(pos.clues),
        elder_signs=kinds(pos.elder_signs), bag=None if pos.bag is None else kinds(pos.bag),
    )
