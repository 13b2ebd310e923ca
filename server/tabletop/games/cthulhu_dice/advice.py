"""A live game's position as the solver sees it (rules_text cthulhu-dice/advice).

Two players: the position itself. Three or more: an approximation, a duel with the strongest
opponent (highest banked score, the later seat on a tie), the others ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import CthulhuDiceOptions, DiceState
from .solver import Position


@dataclass(frozen=True)
class Duel:
    position: Position
    rival: int
    approximate: bool


def is_solved(options: CthulhuDiceOptions) -> bool:
    """Advice exists for the standard game only: goal 13, the 8/4/3 bag and the default rulings."""
    return options == CthulhuDiceOptions()


def duel_for(state: DiceState, seat: int) -> Duel:
    """``seat``'s position against its only (or strongest) opponent."""
    order = state.contenders if state.contenders is not None else list(range(len(state.scores)))
    others = [s for s in order if s != seat]
    rival = max(others, key=lambda s: (state.scores[s], s > seat))
    position = Position(
        my_score=state.scores[seat],
        opponent_score=state.scores[rival],
        opponent_still_to_play=order.index(rival) > order.index(seat),
        stash=state.stash,
        tentacles=tuple(state.tentacles),
        clues=tuple(state.clues),
        elder_signs=tuple(state.signs),
        bag=tuple(state.bag),
    )
    return Duel(position, rival, approximate=len(others) > 1)
