"""Simple Cthulhu Dice players, as opponents and yardsticks for the optimal one.

They read the rules' state directly (rules_text cthulhu-dice/turn): the first roll of a turn is
forced, so each only decides between continuing and retreating after a roll.
"""

from __future__ import annotations

from ..games.cthulhu_dice.advice import rules_of, situation_for
from ..games.cthulhu_dice.advisor import Advisor, default_advisor
from ..games.cthulhu_dice.engine import CthulhuDice
from ..games.cthulhu_dice.rules import DiceState, Retreat, Roll
from .base import Suggestion


class CautiousBot:
    """Retreats as soon as two tentacles show (one more would down it)."""

    name = "retreat-at-2-tentacles"

    def choose(self, engine: CthulhuDice, state: DiceState, seat: int) -> Roll | Retreat:
        return stop_or_roll(engine, state, seat, state.total_tentacles >= 2)


class ThresholdBot:
    """Retreats once the turn's stash reaches ``threshold`` Elder Signs, or at two tentacles."""

    def __init__(self, threshold: int) -> None:
        self.threshold = threshold
        self.name = f"stash-{threshold}"

    def choose(self, engine: CthulhuDice, state: DiceState, seat: int) -> Roll | Retreat:
        return stop_or_roll(engine, state, seat, state.stash >= self.threshold or state.total_tentacles >= 2)


def stop_or_roll(engine: CthulhuDice, state: DiceState, seat: int, stop: bool) -> Roll | Retreat:
    """Retreat if the bot wants to and may; otherwise roll (falling back to retreat when rolling is barred)."""
    legal = engine.legal_actions(state, seat)
    if stop and Retreat() in legal:
        return Retreat()
    return Roll() if Roll() in legal else Retreat()


class OptimalBot:
    """Plays the solver's choice: maximises its own chance of winning, exactly with two or three players in
    the game, against the strongest opponent with more (rules_text cthulhu-dice/advice). ``advisors`` by
    number of players: by default the shipped tables of the standard game."""

    name = "optimal"

    def __init__(self, advisors: dict[int, Advisor] | None = None) -> None:
        self.advisors = advisors if advisors is not None else {}

    def advisor(self, players: int) -> Advisor:
        if players not in self.advisors:
            self.advisors[players] = default_advisor(players)
        return self.advisors[players]

    def choose(self, engine: CthulhuDice, state: DiceState, seat: int) -> Roll | Retreat:
        if state.phase == "start":
            return Roll()
        situation = situation_for(state, seat)
        advisor = self.advisor(situation.players)
        if advisor.rules != rules_of(state):
            raise ValueError("this bot's tables are for other rules than this game's")
        stop = not advisor.continues(situation.position)
        return stop_or_roll(engine, state, seat, stop)

    def suggest(self, engine: CthulhuDice, state: DiceState, seat: int, budget: object = None) -> Suggestion:
        """The optimal choice with its chances of winning (rules_text cthulhu-dice/advice)."""
        if state.phase == "start":
            return Suggestion(Roll(), "The first roll of a turn is forced.")
        situation = situation_for(state, seat)
        advisor = self.advisor(situation.players)
        if advisor.rules != rules_of(state):
            raise ValueError("this bot plays the standard rules only; cthulhu_dice_advice solves this game's variant")
        found = advisor.advise(situation.position)
        action = stop_or_roll(engine, state, seat, found.choice == "retreat")
        odds = []
        if found.win_if_continue is not None:
            odds.append(f"chance of winning if you roll on: {found.win_if_continue:.1%}")
        if found.win_if_retreat is not None:
            odds.append(f"chance of winning if you retreat now: {found.win_if_retreat:.1%}")
        basis = f"approximate: {situation.note or 'a duel with the strongest opponent'}" if situation.approximate else (
            f"exact {situation.players}-player optimal play")
        words = f"{'Roll on' if isinstance(action, Roll) else 'Retreat'}: it gives the better chance of winning ({basis})."
        best = max(x for x in (found.win_if_continue, found.win_if_retreat) if x is not None)
        terms = {} if found.win_if_continue is None else {"win if rolling on": round(found.win_if_continue, 4)}
        return Suggestion(action, words, terms=terms, odds=odds, value=round(best, 4))
