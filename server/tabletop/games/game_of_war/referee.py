"""Why a play is refused: each check raises IllegalMove citing its rule and listing what is
legal instead, so a refusal explains itself. Rules: ``game-of-war/turn``,
``game-of-war/communication``, ``game-of-war/combat``.
"""

from __future__ import annotations

from tabletop.core.errors import IllegalMove

from .board import SIDE_NAMES, bits, square_name
from .combat import assess
from .rules import ATTACK, MOVE, MOVES_PER_TURN, attack_options, destinations, legal_plays, movable, unit_title
from .state import NO_SQUARE, State
from .units import STATS, is_relay

TURN, COMMUNICATION, COMBAT = "game-of-war/turn", "game-of-war/communication", "game-of-war/combat"


def check_play(state: State, action: tuple, alternatives) -> None:
    """Raise IllegalMove unless ``action`` is legal for the side to move.

    ``alternatives(plays)`` turns a list of plays into their notation for the error.
    """
    if action[0] == MOVE:
        _check_move(state, action[1], action[2], action[3] if len(action) > 3 else None, alternatives)
    elif action[0] == ATTACK:
        _check_attack(state, action[1], alternatives)
    elif state.retreat != NO_SQUARE:
        unit = unit_title(state.pieces[state.retreat], state.retreat)
        _refuse(f"{unit} must retreat before the turn can end", TURN, state, alternatives)


def _refuse(message: str, rule: str, state: State, alternatives, plays=None) -> None:
    raise IllegalMove(message, rule=rule, legal=alternatives(legal_plays(state) if plays is None else plays))


def _check_move(state: State, origin: int, destination: int, kind: int | None, alternatives) -> None:
    side = state.side
    code = state.pieces.get(origin)
    if code is None or code >> 3 != side:
        _refuse(f"{SIDE_NAMES[side]} has no unit on {square_name(origin)}", TURN, state, alternatives)
    if kind is not None and code & 7 != kind:
        actual, claimed = STATS[code & 7].title.lower(), STATS[kind].title.lower()
        _refuse(f"The unit on {square_name(origin)} is a {actual}, not a {claimed}", TURN, state, alternatives)
    if not movable(state) >> origin & 1:
        _refuse(_why_not_movable(state, origin, code), _rule_for_immobile(state, origin, code), state, alternatives)
    if not destinations(state, origin) >> destination & 1:
        own = [(MOVE, origin, d) for d in bits(destinations(state, origin))]
        _refuse(
            f"{unit_title(code, origin)} cannot reach {square_name(destination)} "
            f"(free squares within its move of {_points(state, origin, code)}; no mountains, no occupied squares)",
            TURN,
            state,
            alternatives,
            own,
        )


def _points(state: State, origin: int, code: int) -> int:
    if origin == state.retreat and state.options.retreat_distance == "one":
        return 1
    return STATS[code & 7].move


def _why_not_movable(state: State, origin: int, code: int) -> str:
    if state.retreat != NO_SQUARE:
        return f"{unit_title(state.pieces[state.retreat], state.retreat)} must retreat first"
    if state.moves_made >= MOVES_PER_TURN:
        return f"{SIDE_NAMES[state.side]} has already moved {MOVES_PER_TURN} units this turn"
    if state.moves_closed:
        return "Destroying an arsenal ended this turn's movement"
    if state.moved >> origin & 1:
        return f"{unit_title(code, origin)} has already moved this turn"
    if not is_relay(code & 7) and not state.network.online[state.side] >> origin & 1:
        return f"{unit_title(code, origin)} is offline (out of communication) and cannot move"
    return f"{unit_title(code, origin)} cannot move now"


def _rule_for_immobile(state: State, origin: int, code: int) -> str:
    offline = not state.network.online[state.side] >> origin & 1 and not is_relay(code & 7)
    return COMMUNICATION if offline and state.retreat == NO_SQUARE else TURN


def _check_attack(state: State, target: int, alternatives) -> None:
    attacks = [(ATTACK, c.target) for c in attack_options(state)]
    if (ATTACK, target) in attacks:
        return
    side = state.side
    code = state.pieces.get(target)
    if state.attack_used:
        message = f"{SIDE_NAMES[side]} has already used this turn's attack"
    elif state.retreat != NO_SQUARE:
        message = f"{unit_title(state.pieces[state.retreat], state.retreat)} must retreat first"
    elif code is None or code >> 3 == side:
        message = f"There is no enemy unit on {square_name(target)}"
    else:
        combat = assess(state, target)
        if combat.attack == 0:
            message = f"{unit_title(code, target)} is not within range of any online combat unit"
        else:
            message = (
                f"An attack on {unit_title(code, target)} would fail: {combat.attack} against "
                f"{combat.defence} (it must exceed the defence)"
            )
        _refuse(message, COMBAT, state, alternatives, attacks or None)
    _refuse(message, TURN if state.attack_used or state.retreat != NO_SQUARE else COMBAT, state, alternatives)

