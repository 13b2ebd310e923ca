"""Simple Cthulhu Dice players, as opponents and yardsticks for the optimal one.

They read the rules' state directly (rules_text cthulhu-dice/turn): the first roll of a turn is
forced, so each only decides between continuing and retreating after a roll.
"""

from __future__ import annotations

from ..games.cthulhu_dice.advice import duel_for, is_solved
from ..games.cthulhu_dice.engine import CthulhuDice
from .base import Suggestion
from ..games.cthulhu_dice.rules import DiceState, Retreat, Roll
from ..games.cthulhu_dice.solver import Advisor, default_advisor


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
    """Plays the solver's choice: maximises its chance of winning (exact with two players;
    against the strongest opponent with more, rules_text cthulhu-dice/advice)."""

    name = "optimal"

    def __init__(self, advisor: Advisor | None = None) -> None:
        self.advisor = advisor or default_advisor()

    def choose(self, engine: CthulhuDice, state: DiceState, seat: int) -> Roll | Retreat:
        if state.phase == "start":
            return Roll()
        stop = not self.advisor.continues(duel_for(state, seat).position)
        return stop_or_roll(engine, state, seat, stop)

    def suggest(self, engine: CthulhuDice, state: DiceState, seat: int, budget: object = None) -> Suggestion:
        """The optimal choice with its chances of winning (rules_text cthulhu-dice/advice)."""
        action = self.choose(engine, state, seat)
        if state.phase == "start" or not is_solved(state.options):
            return Suggestion(action, "The first roll of a turn is forced." if state.phase == "start" else
                              "Exact advice exists for the standard rules only; this rolls on below two tentacles.")
        duel = duel_for(state, seat)
        found = self.advisor.advise(duel.position)
        odds = [f"chance of winning if you roll on: {found.win_if_continue:.1%}"]
        if found.win_if_retreat is not None:
            odds.append(f"chance of winning if you retreat now: {found.win_if_retreat:.1%}")
        basis = "approximate: a duel with the strongest opponent" if duel.approximate else "exact two-player optimal play"
        words = f"{'Roll on' if isinstance(action, Roll) else 'Retreat'}: it gives the better chance of winning ({basis})."
        return Suggestion(action, words, terms={"win if rolling on": round(found.win_if_continue, 4)}, odds=odds,
                          value=round(max(found.win_if_continue, found.win_if_retreat or 0.0), 4))
