"""A Game of War: where the search bot deploys (rules ``game-of-war/setup``).

The search deploys the default opening with some of its units placed elsewhere (:data:`MOVES`), one change for each
side's far arsenal, the one a raid goes for:

* **South: a guard on c18.** In the default opening every unit of South stands twelve or more columns east of column
  c, and a cavalry raid down that column (North's relay on c4 carrying its line past the fortress c13) reaches c20
  before any South unit can: at South's first turn the riders are five turns away and South's quickest defender
  seven. No choice in play can answer a raid that is won before the first move; the infantry of q13 placed on c18
  does: against the scripted raider South then keeps its arsenals, and against the heuristic it wins as often as
  without it.
* **North: the army east of its mountains.** The default opening masses North west of the mountains (j3-j9), and
  South's army, coming north up columns l-q, stands between it and the far arsenal o2: a raid there is won by the
  position, whatever single guards are sent (a guard on o2 alone is destroyed, a pair is taken a unit at a time).
  Six infantry and both cannons stand instead on rows 6-8 of columns k-m, east of the chain and across South's way
  north (online by h4's diagonal through the pass j6, where another infantry stays); two infantry on n3 and o3 and
  two cavalry on o4 and p4 stand by o2, with the army near enough to meet what comes at them; the other two cavalry
  and both relays stay west for the raid down column c. The raider still goes for o2 (6 guards within four squares,
  h4 7). The games against the scripted raider and the heuristic are in docs/bots.md, issue 41.

Every unit still starts online. The deployment is reached from whatever the side has placed so far (a seat may be
handed to the bot mid-way): the default opening at once when nothing is placed, then units off the squares of the
plan taken back and the missing ones placed, then commit. It never reads the other side's hidden deployment.
"""

from __future__ import annotations

from tabletop.games.game_of_war.board import parse_square, square_name
from tabletop.games.game_of_war.notation import action_of
from tabletop.games.game_of_war.openings import opening_units
from tabletop.games.game_of_war.setup import COMMIT, OPENING, PLACE, REMOVE, setup_plays
from tabletop.games.game_of_war.state import State
from tabletop.games.game_of_war.units import STATS, piece

from ..base import Suggestion

#: Side -> the units of the default opening placed elsewhere: (its square in the opening, the square instead).
MOVES: dict[int, tuple[tuple[str, str], ...]] = {
    0: (("f7", "k8"), ("g7", "l8"), ("e8", "m8"), ("g8", "o3"), ("i7", "k7"), ("h8", "n3"), ("i8", "l6"),
        ("f9", "m6"), ("h7", "l7"), ("f8", "m7"), ("c7", "o4"), ("d7", "p4")),
    1: (("q13", "c18"),),
}
#: Side -> why its units stand where :data:`MOVES` puts them (the set-up play's explanation).
WHY: dict[int, str] = {
    0: "east of the mountains, across South's way to the far arsenal o2 or beside it",
    1: "to guard the far arsenal against a raid down its column",
}


def default_deployment(side: int) -> dict[int, int]:
    """Square -> piece code of ``side``'s half of the default opening (the heuristic's whole deployment)."""
    return {sq: piece(side, kind) for kind, sq in opening_units("default", side)}


def planned_deployment(side: int) -> dict[int, int]:
    """Square -> piece code of ``side``'s deployment: the default opening with the units of :data:`MOVES` moved."""
    plan = default_deployment(side)
    for source, target in MOVES.get(side, ()):
        plan[parse_square(target)] = plan.pop(parse_square(source))
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
            moved = any(sq == parse_square(target) for _, target in MOVES.get(seat, ()))
            why = f" {WHY[seat]}" if moved else ""
            return Suggestion(action_of((PLACE, code & 7, sq), state),
                              f"Place the {STATS[code & 7].title.lower()} on {square_name(sq)}{why}.")
    return Suggestion(action_of(plays[0], state), "The only set-up play open.")


__all__ = ["MOVES", "WHY", "default_deployment", "deployment_suggestion", "planned_deployment"]
