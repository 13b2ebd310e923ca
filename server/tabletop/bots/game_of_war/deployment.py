"""A Game of War: where the search bot deploys (rules ``game-of-war/setup``).

The search deploys the default opening with one change as South: the infantry of q13 stands on c18, beside its far
arsenal c20. In the default opening every unit of South stands twelve or more columns east of column c, and a
cavalry raid down that column (North's relay on c4 carrying its line past the fortress c13) reaches c20 before any
South unit can: at South's first turn the riders are five turns away and South's quickest defender seven. No choice
in play can answer a raid that is won before the first move; a guard placed there does: against the scripted
raider South then keeps its arsenals, and against the heuristic it wins as often as without the guard (the games
are in docs/bots.md, issue 41). North keeps the default opening: its far arsenal o2 falls later in the game, not
to an opening raid, and a guard beside it did not help.

The deployment is reached from whatever the side has placed so far (a seat may be handed to the bot mid-way): the
default opening at once when nothing is placed, then units off the squares of the plan taken back and the missing
ones placed, then commit. It never reads the other side's hidden deployment.
"""

from __future__ import annotations

from tabletop.games.game_of_war.board import parse_square, square_name
from tabletop.games.game_of_war.notation import action_of
from tabletop.games.game_of_war.openings import opening_units
from tabletop.games.game_of_war.setup import COMMIT, OPENING, PLACE, REMOVE, setup_plays
from tabletop.games.game_of_war.state import State
from tabletop.games.game_of_war.units import STATS, piece

from ..base import Suggestion

#: Side -> (square of the default opening, the square its unit stands on instead).
GUARDS: dict[int, tuple[str, str]] = {1: ("q13", "c18")}


def default_deployment(side: int) -> dict[int, int]:
    """Square -> piece code of ``side``'s half of the default opening (the heuristic's whole deployment)."""
    return {sq: piece(side, kind) for kind, sq in opening_units("default", side)}


def planned_deployment(side: int) -> dict[int, int]:
    """Square -> piece code of ``side``'s deployment: the default opening with its guard moved (:data:`GUARDS`)."""
    plan = default_deployment(side)
    if side in GUARDS:
        source, target = (parse_square(name) for name in GUARDS[side])
        plan[target] = plan.pop(source)
    return plan


def deployment_suggestion(state: State, seat: int) -> Suggestion:
    """The next set-up play towards :func:`planned_deployment`, and why."""
    plan = planned_deployment(seat)
    plays = setup_plays(state, seat)
    mine = {sq: code for sq, code in state.pieces.items() if code >> 3 == seat}
    if mine == plan and (COMMIT,) in plays:
        return Suggestion(action_of((COMMIT,), state), "Commit the deployment.")
    if not mine and (OPENING, "default") in plays:
        return Suggestion(action_of((OPENING, "default"), state),
                          "Deploy the default opening: every unit starts online.")
    for sq, code in mine.items():
        if plan.get(sq) != code and (REMOVE, sq) in plays:
            return Suggestion(action_of((REMOVE, sq), state), f"Take back the unit on {square_name(sq)}: "
                              "it has another square in the deployment.")
    for sq, code in plan.items():
        if sq not in mine and (PLACE, code & 7, sq) in plays:
            guard = seat in GUARDS and sq == parse_square(GUARDS[seat][1])
            why = " to guard the far arsenal against a raid down its column" if guard else ""
            return Suggestion(action_of((PLACE, code & 7, sq), state),
                              f"Place the {STATS[code & 7].title.lower()} on {square_name(sq)}{why}.")
    return Suggestion(action_of(plays[0], state), "The only set-up play open.")


__all__ = ["GUARDS", "default_deployment", "deployment_suggestion", "planned_deployment"]
