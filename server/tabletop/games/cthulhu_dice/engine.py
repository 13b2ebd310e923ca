"""Cthulhu Dice behind the common engine contract (tabletop.core.game.Engine)."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import TypeAdapter

from ...core.errors import MalformedMove
from ...core.game import ChanceOutcome, ChancePreview, Engine, Outcome
from . import rules
from ...render import Scene
from .dice import KINDS
from .picture import draw_table
from .rules import CthulhuDiceAction, CthulhuDiceOptions, DiceState, Retreat, Roll
from .advisor import RollOdds, roll_odds
from .model import rules_for_options
from .words import bag_text, clues_in_hand, counted, each_die, per_kind_text, tentacles_text

#: Words accepted for each action, so a model can write what comes naturally.
ALIASES: dict[str, type[Roll] | type[Retreat]] = {
    "roll": Roll,
    "r": Roll,
    "continue": Roll,
    "c": Roll,
    "retreat": Retreat,
    "stop": Retreat,
    "bank": Retreat,
    "s": Retreat,
}


def roll_odds_of(state: DiceState) -> RollOdds | None:
    """The exact distribution of the next roll under the game's bag and ruling, or None if rolling is not allowed."""
    dice = rules_for_options(state.options).dice
    if state.phase == "start":
        return roll_odds((0, 0, 0), tuple(state.options.bag.as_list()), dice=dice)
    try:
        return roll_odds(tuple(state.clues), tuple(state.bag), tuple(state.tentacles), tuple(state.signs), dice=dice)
    except ValueError:
        return None


def per_kind(counts: list[int]) -> dict[str, int]:
    return {kind.value: n for kind, n in zip(KINDS, counts)}


class CthulhuDice(Engine[DiceState, Roll | Retreat]):
    name: ClassVar[str] = "cthulhu-dice"
    title: ClassVar[str] = "Cthulhu Dice"
    summary: ClassVar[str] = (
        "Push-your-luck dice for 2-6 players (a Zombie Dice variant). On your turn roll three dice from a bag of 15; "
        "keep Elder Signs, re-roll Clues, and stop before three Tentacles take your turn's stash. "
        "When someone has banked 13 Elder Signs the round is completed and the highest total wins."
    )
    min_seats: ClassVar[int] = rules.MIN_SEATS
    max_seats: ClassVar[int] = rules.MAX_SEATS
    options_model: ClassVar[type[CthulhuDiceOptions]] = CthulhuDiceOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(CthulhuDiceAction)
    notation_help: ClassVar[str] = "`roll` (also `continue`) or `retreat` (also `stop`, `bank`)."

    def new_game(self, options: CthulhuDiceOptions, seats: int, seed: int, names: list[str] | None = None) -> DiceState:
        return rules.new_game(options, seats, seed, names)

    def seat_roles(self, state: DiceState) -> list[str]:
        return [f"seat {i}" for i in range(len(state.scores))]

    def seat_count(self, state: DiceState) -> int:
        return len(state.scores)

    def to_move(self, state: DiceState) -> list[int]:
        return rules.to_move(state)

    def legal_actions(self, state: DiceState, seat: int) -> list[Roll | Retreat]:
        return rules.legal_actions(state, seat)

    def apply(self, state: DiceState, seat: int, action: Roll | Retreat) -> tuple[DiceState, list[str]]:
        return rules.apply(state, seat, action)

    def outcome(self, state: DiceState) -> Outcome | None:
        return rules.outcome(state)

    def notation(self, action: Roll | Retreat) -> str:
        return action.kind

    def parse(self, text: str, state: DiceState, seat: int) -> Roll | Retreat:
        action = ALIASES.get(text.lower())
        if action is None:
            raise MalformedMove(
                f"'{text}' is not a Cthulhu Dice move; write roll or retreat",
                rule="cthulhu-dice/notation",
                legal=[self.notation(a) for a in self.legal_actions(state, seat)],
            )
        return action()

    def summarize(self, action: Roll | Retreat, state: DiceState) -> str:
        if isinstance(action, Retreat):
            total = state.scores[state.seat] + state.stash
            return f"Bank your stash of {counted(state.stash, 'Elder Sign')} (total {total}) and pass the bag."
        if state.phase == "start":
            return "Draw three dice from the bag and roll them (every turn starts with this roll)."
        held, need = sum(state.clues), state.dice_needed
        if not held:
            dice = f"draw {counted(need, 'new die', 'new dice')} from the bag and roll them"
        elif not need:
            dice = f"roll your {counted(held, 'clue die', 'clue dice')} ({each_die(state.clues)}) again, drawing none"
        else:
            dice = (
                f"roll your {counted(held, 'clue die', 'clue dice')} ({each_die(state.clues)}) "
                f"with {counted(need, 'new die', 'new dice')} from the bag"
            )
        return (
            f"Keep going: {dice}, risking your stash of {state.stash} with "
            f"{counted(state.total_tentacles, 'tentacle')} already set aside."
        )

    def chance_preview(self, state: DiceState, seat: int, action: Roll | Retreat) -> ChancePreview:
        """A roll's exact odds (rules_text cthulhu-dice/notation, dry_run): the chance of being downed and of each number of
        Elder Signs, computed from the dice in hand and in the bag, never from the generator."""
        summary = (
            f"{rolling_text(state)}, with {counted(state.total_tentacles, 'tentacle')} already set aside."
            if state.phase == "decide"
            else "Drawing three dice from the full bag and rolling them."
        )
        odds = roll_odds_of(state)
        if odds is None:
            return ChancePreview(summary=summary)
        outcomes = [ChanceOutcome(result=f"downed, losing the stash of {state.stash}", probability=odds.p_downed)]
        for signs in range(4):
            p = sum(r.probability for r in odds.results if r.elder_signs == signs and not r.downed)
            if p > 0:
                outcomes.append(ChanceOutcome(result=f"not downed, {counted(signs, 'Elder Sign')} rolled", probability=p))
        return ChancePreview(summary=summary, outcomes=outcomes)

    def view(self, state: DiceState, seat: int | None) -> dict[str, Any]:
        """Cthulhu Dice has no hidden information: every seat and spectators see the same."""
        return {
            "scores": list(state.scores),
            "goal": state.options.goal,
            "seat_to_move": None if state.phase == "over" else state.seat,
            "phase": state.phase,
            "round": state.round,
            "stash": state.stash,
            "tentacles": per_kind(state.tentacles),
            "clues_in_hand": per_kind(state.clues),
            "elder_sign_dice_set_aside": per_kind(state.signs),
            "bag": per_kind(state.bag),
            "last_roll": [{"die": d.kind.value, "face": d.face.value} for d in state.last_roll],
            "tiebreak_seats": state.contenders,
            "players": list(state.names),
            "rulings": state.options.model_dump(mode="json"),
        }

    def draw(self, state: DiceState, seat: int | None, overlays: frozenset[str], names: list[str] | None = None) -> Scene:
        return draw_table(state)

    def status(self, state: DiceState, seat: int) -> str:
        """The turn in progress and the scores: everything the roll-or-retreat decision rests on."""
        lines = self.describe(state, seat).split("\n")
        return " ".join(reversed(lines))

    def describe(self, state: DiceState, seat: int | None) -> str:
        """One or two lines: the scores, and the turn in progress (stash, tentacles and clues by kind, the bag)."""
        if state.phase == "over":
            return f"Game over: {state.end_reason}."
        scores = ", ".join(f"{state.name(i)} {s}" for i, s in enumerate(state.scores))
        head = f"Round {state.round}. Scores: {scores} (goal {state.options.goal})."
        if state.contenders is not None:
            head += f" Tie-break between {state.names_of(state.contenders)}."
        who = state.name(state.seat)
        if state.phase == "start":
            return f"{head}\n{who} to act: first roll of the turn."
        return (
            f"{head}\n{who} to act: stash {state.stash}, {tentacles_text(state.tentacles, rules.TENTACLES_TO_DOWN)}, "
            f"{clues_in_hand(state.clues)}; {bag_text(state.bag)}."
        )


def rolling_text(state: DiceState) -> str:
    """The dice a roll in mid-turn rolls: the clue dice in hand, by kind, and how many are drawn from the bag."""
    held, need = sum(state.clues), state.dice_needed
    bag = f"the bag ({per_kind_text(state.bag)})"
    if not held:
        return f"Drawing {counted(need, 'die', 'dice')} from {bag} and rolling them"
    clues = f"the {counted(held, 'clue die', 'clue dice')} in hand ({each_die(state.clues)})"
    if not need:
        return f"Rolling {clues} again, drawing none"
    return f"Rolling {clues} with {counted(need, 'die', 'dice')} drawn from {bag}"


ENGINE = CthulhuDice()
