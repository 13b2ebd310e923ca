"""A live game's position as the solver sees it (rules_text cthulhu-dice/advice).

Two or three players still in the game (counting only the tied leaders during a tie-break): the
position itself, answered exactly by the two- or three-player solution. Four or more: an
approximation, a duel with the strongest opponent (highest banked score, the later seat on a
tie), the others ignored.

The solution caps scores at twice the goal. A real game can go past it: a tie-break round (every
player still in the game at or above the goal) is then solved as the same tie-break moved down to
start from the goal, and any other score above the cap counts as the cap; both are labelled
approximate.
"""

from __future__ import annotations

from dataclasses import dataclass

from .advisor import Position
from .model import GameRules, rules_for_options
from .rules import DiceState
from .tables import MAX_EXACT_PLAYERS


@dataclass(frozen=True)
class Situation:
    """What the advisor is asked: ``position`` in the ``players``-player game (exact), or in a duel with
    seat ``rival`` standing for everyone else, or beyond the score cap (``approximate``, with ``note``)."""

    position: Position
    players: int
    approximate: bool
    seats: tuple[int, ...]  # the game's seats behind ``position.scores``
    rival: int | None = None
    note: str = ""


def within_cap(scores: tuple[int, ...], rules: GameRules) -> tuple[tuple[int, ...], str]:
    """Scores the solution can answer for, and a note if they had to change (see the module doc). A tie-break
    round tied at the cap itself also moves: the solution ends the game there with a shared win."""
    tie_break = min(scores) >= rules.goal
    if max(scores) <= rules.cap and not (tie_break and min(scores) >= rules.cap):
        return scores, ""
    if tie_break:
        shift = min(scores) - rules.goal
        moved = tuple(x - shift for x in scores)
        if max(moved) <= rules.cap:
            return moved, f"a tie-break past the score cap ({rules.cap}), solved as the same tie-break from {rules.goal}"
        return tuple(min(x, rules.cap) for x in moved), (
            f"a tie-break past the score cap ({rules.cap}), solved from {rules.goal} with scores above the cap counted as the cap"
        )
    return tuple(min(x, rules.cap) for x in scores), f"scores above the cap ({rules.cap}) counted as the cap"


def rules_of(state: DiceState) -> GameRules:
    """The solver's rules for a live game (its options: bag, goal, tie rule, bag-exhaustion ruling)."""
    return rules_for_options(state.options)


def situation_for(state: DiceState, seat: int) -> Situation:
    """``seat``'s position: exact for up to three players in the game, else a duel with the strongest opponent."""
    order = state.contenders if state.contenders is not None else list(range(len(state.scores)))
    dice = dict(
        stash=state.stash,
        tentacles=tuple(state.tentacles),
        clues=tuple(state.clues),
        elder_signs=tuple(state.signs),
        bag=tuple(state.bag),
    )
    rules = rules_of(state)
    if len(order) <= MAX_EXACT_PLAYERS:
        scores, note = within_cap(tuple(state.scores[s] for s in order), rules)
        return Situation(Position(scores, order.index(seat), **dice), len(order), bool(note), tuple(order), note=note)
    others = [s for s in order if s != seat]
    rival = max(others, key=lambda s: (state.scores[s], s > seat))
    still_to_play = order.index(rival) > order.index(seat)
    seats = (seat, rival) if still_to_play else (rival, seat)
    scores, note = within_cap(tuple(state.scores[s] for s in seats), rules)
    position = Position(scores, seats.index(seat), **dice)
    return Situation(position, 2, True, seats, rival, note)
