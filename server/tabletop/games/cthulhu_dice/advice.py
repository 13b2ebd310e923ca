"""A live game's position as the solver sees it (rules_text cthulhu-dice/advice).

Two or three players still in the game (counting only the tied leaders during a tie-break): the
position itself, answered exactly by the two- or three-player solution. Four or more: an
approximation, a duel with the strongest opponent (highest banked score, the later seat on a
tie), the others ignored.
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
    seat ``rival`` standing for everyone else (``approximate``)."""

    position: Position
    players: int
    approximate: bool
    seats: tuple[int, ...]  # the game's seats behind ``position.scores``
    rival: int | None = None


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
    if len(order) <= MAX_EXACT_PLAYERS:
        position = Position(tuple(state.scores[s] for s in order), order.index(seat), **dice)
        return Situation(position, len(order), False, tuple(order))
    others = [s for s in order if s != seat]
    rival = max(others, key=lambda s: (state.scores[s], s > seat))
    still_to_play = order.index(rival) > order.index(seat)
    position = Position.duel(state.scores[seat], state.scores[rival], still_to_play, **dice)
    seats = (seat, rival) if still_to_play else (rival, seat)
    return Situation(position, 2, True, seats, rival)
