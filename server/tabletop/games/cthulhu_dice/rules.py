"""Cthulhu Dice rules: the state of a game, the two actions and how they play out.

Sections cited are in rules_text/cthulhu-dice (served as rules://cthulhu-dice/<section>).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import BadOptions, GameOver, IllegalMove, NotYourTurn
from ...core.game import Outcome
from ...core.rng import Rng
from .dice import KINDS, STANDARD_BAG, DieKind, Face, draw_from_bag, roll_die

HAND_SIZE = 3
TENTACLES_TO_DOWN = 3
MIN_SEATS, MAX_SEATS = 2, 6


class BagCounts(BaseModel):
    """How many dice of each kind the bag holds."""

    model_config = ConfigDict(extra="forbid", strict=True)

    library: int = Field(default=STANDARD_BAG[0], ge=0, le=30)
    museum: int = Field(default=STANDARD_BAG[1], ge=0, le=30)
    tomb: int = Field(default=STANDARD_BAG[2], ge=0, le=30)

    def as_list(self) -> list[int]:
        return [self.library, self.museum, self.tomb]


class CthulhuDiceOptions(BaseModel):
    """Rulings and variants, fixed when the game is created (rules_text cthulhu-dice/rulings)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    chance: Literal["server", "table"] = Field(
        default="server",
        description="Where dice and draws come from: the server, or a real table (a referee enters each result).",
    )
    goal: int = Field(default=13, ge=1, le=100, description="Elder Signs that end the game (seed: 13).")
    tie_rule: Literal["tiebreak_rounds", "shared_win"] = Field(
        default="tiebreak_rounds",
        description="Tied leaders at the end: play further rounds among themselves (default, as in Zombie Dice) "
        "or share the win.",
    )
    bag_exhaustion: Literal["return_elder_signs", "draw_then_return", "roll_fewer", "must_retreat"] = Field(
        default="return_elder_signs",
        description="When the bag has too few dice to draw back up to three: put this turn's Elder Sign dice back "
        "in the bag, the stash keeping its count, then draw (default, as in Zombie Dice); or first draw what the "
        "bag still holds, then put them back and draw the rest; or roll only the dice you can get; or you may "
        "not continue and must retreat.",
    )
    bag: BagCounts = Field(default_factory=BagCounts, description="Dice in the bag (seed: 8 Library, 4 Museum, 3 Tomb).")


class Roll(BaseModel):
    """Roll: the first roll of a turn, or continue after a roll (draw back up to three dice and roll)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["roll"] = "roll"


class Retreat(BaseModel):
    """Retreat: bank the turn's stash of Elder Signs and pass the bag on."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["retreat"] = "retreat"


CthulhuDiceAction = Annotated[Roll | Retreat, Field(discriminator="kind")]


@dataclass(frozen=True, slots=True)
class RolledDie:
    kind: DieKind
    face: Face


@dataclass(slots=True)
class DiceState:
    """A whole game. Per-kind counts are lists in the order library, museum, tomb."""

    options: CthulhuDiceOptions
    rng: Rng
    scores: list[int]
    seat: int = 0
    #: "start": the seat must make its first roll; "decide": roll again or retreat; "over".
    phase: Literal["start", "decide", "over"] = "start"
    bag: list[int] = field(default_factory=list)
    clues: list[int] = field(default_factory=lambda: [0, 0, 0])
    tentacles: list[int] = field(default_factory=lambda: [0, 0, 0])
    signs: list[int] = field(default_factory=lambda: [0, 0, 0])  # Elder Sign dice set aside this turn
    stash: int = 0
    last_roll: list[RolledDie] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)  # turns completed per seat
    round: int = 1
    #: Seats still in the game during tie-break rounds; None in normal play.
    contenders: list[int] | None = None
    #: What the players are called, in seat order (``seat N`` when the game was made without names).
    names: list[str] = field(default_factory=list)
    winners: list[int] | None = None
    end_reason: str = ""

    def copy(self) -> DiceState:
        return replace(
            self,
            rng=self.rng.copy(),
            scores=list(self.scores),
            bag=list(self.bag),
            clues=list(self.clues),
            tentacles=list(self.tentacles),
            signs=list(self.signs),
            last_roll=list(self.last_roll),
            turns=list(self.turns),
            contenders=None if self.contenders is None else list(self.contenders),
            names=list(self.names),
            winners=None if self.winners is None else list(self.winners),
        )

    def name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"seat {seat}"

    def names_of(self, seats: list[int]) -> str:
        return " and ".join(self.name(s) for s in seats)

    @property
    def total_tentacles(self) -> int:
        return sum(self.tentacles)

    @property
    def dice_needed(self) -> int:
        """Dice to draw to hold three again: 3 minus the clue dice in hand (rules_text cthulhu-dice/turn)."""
        return HAND_SIZE - sum(self.clues)


def new_game(options: CthulhuDiceOptions, seats: int, seed: int, names: list[str] | None = None) -> DiceState:
    """Seat 0 starts with the full bag (rules_text cthulhu-dice/setup)."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise BadOptions(f"Cthulhu Dice takes {MIN_SEATS} to {MAX_SEATS} players, not {seats}", rule="cthulhu-dice/setup")
    if sum(options.bag.as_list()) < HAND_SIZE + TENTACLES_TO_DOWN:
        raise BadOptions("The bag needs at least 6 dice so a turn can always be played", rule="cthulhu-dice/rulings")
    names = list(names) if names else [f"seat {s}" for s in range(seats)]
    return DiceState(
        options=options, rng=Rng(seed), scores=[0] * seats, bag=options.bag.as_list(), turns=[0] * seats, names=names
    )


def to_move(state: DiceState) -> list[int]:
    return [] if state.phase == "over" else [state.seat]


def can_continue(state: DiceState) -> bool:
    """Whether rolling is possible now under the bag-exhaustion ruling (rules_text cthulhu-dice/rulings)."""
    if state.phase == "start":
        return True
    short = state.dice_needed > sum(state.bag)
    if not short:
        return True
    if state.options.bag_exhaustion == "must_retreat":
        return False
    if state.options.bag_exhaustion == "roll_fewer":
        return sum(state.bag) + sum(state.clues) > 0
    return True  # returning the Elder Sign dice always refills enough: at most 3 clues and 2 tentacles are held


def legal_actions(state: DiceState, seat: int) -> list[Roll | Retreat]:
    if state.phase == "over" or seat != state.seat:
        return []
    if state.phase == "start":
        return [Roll()]
    return [Roll(), Retreat()] if can_continue(state) else [Retreat()]


def apply(state: DiceState, seat: int, action: Roll | Retreat) -> tuple[DiceState, list[str]]:
    """Play ``action`` for ``seat``; the input state is never changed."""
    check_turn(state, seat)
    if isinstance(action, Retreat):
        if state.phase == "start":
            raise IllegalMove(
                "You cannot retreat before your first roll: every turn starts with a roll of three dice",
                rule="cthulhu-dice/turn",
                legal=["roll"],
            )
        new = state.copy()
        return new, retreat(new)
    if not can_continue(state):
        left = sum(state.bag)
        raise IllegalMove(
            f"The bag holds {left} {'die' if left == 1 else 'dice'} but you need {state.dice_needed}, and under the "
            "'must_retreat' ruling you may not continue",
            rule="cthulhu-dice/rulings",
            legal=["retreat"],
        )
    new = state.copy()
    return new, roll(new)


def check_turn(state: DiceState, seat: int) -> None:
    if state.phase == "over":
        raise GameOver(f"The game is over: {state.end_reason}", rule="cthulhu-dice/end")
    if seat != state.seat:
        raise NotYourTurn(
            f"It is {state.name(state.seat)}'s turn, not {state.name(seat)}'s; wait for your turn", rule="cthulhu-dice/turn"
        )


def roll(state: DiceState) -> list[str]:
    """Draw up to three dice, roll them with the clues in hand, and score the faces (mutates ``state``)."""
    events: list[str] = []
    need = state.dice_needed
    ruling = state.options.bag_exhaustion
    drawn = draw_from_bag(state.bag, sum(state.bag), state.rng) if need > sum(state.bag) and ruling == "draw_then_return" else []
    if need - len(drawn) > sum(state.bag) and ruling in ("return_elder_signs", "draw_then_return"):
        events.append(return_elder_sign_dice(state))
    drawn += draw_from_bag(state.bag, min(need - len(drawn), sum(state.bag)), state.rng)
    hand = [kind for index, kind in enumerate(KINDS) for _ in range(state.clues[index])] + drawn
    state.clues = [0, 0, 0]
    state.phase = "decide"
    state.last_roll = [RolledDie(kind, roll_die(kind, state.rng)) for kind in hand]
    for die in state.last_roll:
        index = KINDS.index(die.kind)
        if die.face is Face.elder_sign:
            state.signs[index] += 1
            state.stash += 1
        elif die.face is Face.tentacle:
            state.tentacles[index] += 1
        else:
            state.clues[index] += 1
    shown = ", ".join(f"{d.kind.value} {d.face.value.replace('_', ' ')}" for d in state.last_roll)
    events.append(f"{state.name(state.seat)} rolled: {shown}. Stash {state.stash}, tentacles {state.total_tentacles}.")
    if state.total_tentacles >= TENTACLES_TO_DOWN:
        events.append(
            f"{state.name(state.seat)} is downed by {state.total_tentacles} tentacles and loses a stash of {state.stash}."
        )
        state.stash = 0
        events.extend(end_turn(state))
    return events


def return_elder_sign_dice(state: DiceState) -> str:
    """The bag ran short: the Elder Sign dice set aside go back in, the stash keeps its count (rules_text
    cthulhu-dice/rulings)."""
    returned = sum(state.signs)
    state.bag = [b + s for b, s in zip(state.bag, state.signs)]
    state.signs = [0, 0, 0]
    return f"The bag ran short, so the {returned} Elder Sign dice set aside go back in; the stash keeps its {state.stash}."


def retreat(state: DiceState) -> list[str]:
    """Bank the stash and end the turn (mutates ``state``)."""
    state.scores[state.seat] += state.stash
    events = [f"{state.name(state.seat)} retreats and banks {state.stash}: total {state.scores[state.seat]}."]
    state.stash = 0
    events.extend(end_turn(state))
    return events


def end_turn(state: DiceState) -> list[str]:
    """Return every die to the bag, pass it on, and end the game at a round's end (rules_text cthulhu-dice/end)."""
    state.turns[state.seat] += 1
    state.bag = state.options.bag.as_list()
    state.clues, state.tentacles, state.signs = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    state.phase = "start"
    order = state.contenders if state.contenders is not None else list(range(len(state.scores)))
    position = order.index(state.seat)
    if position + 1 < len(order):
        state.seat = order[position + 1]
        return []
    return end_round(state, order)


def end_round(state: DiceState, order: list[int]) -> list[str]:
    """After the last seat of a round: the game ends if someone reached the goal (rules_text cthulhu-dice/end)."""
    best = max(state.scores[s] for s in order)
    if best < state.options.goal:
        state.round += 1
        state.seat = order[0]
        return []
    leaders = [s for s in order if state.scores[s] == best]
    if len(leaders) > 1 and state.options.tie_rule == "tiebreak_rounds":
        state.contenders = leaders
        state.round += 1
        state.seat = leaders[0]
        return [f"{state.names_of(leaders)} are tied on {best}: they play a further round."]
    state.phase = "over"
    state.winners = leaders
    state.end_reason = f"{result_headline(state)}; final scores: {final_scores(state)}"
    return [f"Game over: {state.end_reason}."]


def result_headline(state: DiceState) -> str:
    """Who won a finished game and with how many Elder Signs, e.g. ``Ann wins with 14 Elder Signs``."""
    winners = state.winners or []
    best = state.scores[winners[0]] if winners else 0
    return f"{state.names_of(winners)} {'wins' if len(winners) == 1 else 'share the win'} with {best} Elder Signs"


def final_scores(state: DiceState) -> str:
    """Every player's banked score in seat order, the devoured (below the goal at the end, rules_text
    cthulhu-dice/end) marked: ``Ann 8 (devoured: below 13), Bob 14``."""
    goal = state.options.goal
    return ", ".join(
        f"{state.name(s)} {score}{f' (devoured: below {goal})' if score < goal else ''}" for s, score in enumerate(state.scores)
    )


def outcome(state: DiceState) -> Outcome | None:
    if state.phase != "over":
        return None
    return Outcome(winners=list(state.winners or []), reason=state.end_reason, scores=[float(s) for s in state.scores])
