"""Why a play is refused: each check raises IllegalMove naming what actually stops it, citing its rule and listing
what is legal instead, so a refusal explains itself. Rules: ``game-of-war/turn``, ``game-of-war/communication``,
``game-of-war/combat`` and ``game-of-war/rulings`` (where a ruling is what stops a move).
"""

from __future__ import annotations

from tabletop.core.errors import IllegalMove

from .board import MOUNTAINS, NEIGHBOURS, SIDE_NAMES, WIDTH, bits, dilate, square_name
from .combat import assess
from .network import blockers_for, side_lines
from .notation import play_of
from .rules import (
    ATTACK,
    MOVE,
    MOVES_PER_TURN,
    attack_options,
    destinations,
    legal_plays,
    may_take_arsenal,
    movable,
    unit_title,
)
from .state import NO_SQUARE, State
from .units import STATS, is_relay

TURN, COMMUNICATION, COMBAT = "game-of-war/turn", "game-of-war/communication", "game-of-war/combat"
RULINGS = "game-of-war/rulings"


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
        _refuse(f"{SIDE_NAMES[side]} has no unit on {square_name(origin)}{_moved_away(state, origin)}", TURN, state, alternatives)
    if kind is not None and code & 7 != kind:
        actual, claimed = STATS[code & 7].title.lower(), STATS[kind].title.lower()
        _refuse(f"The unit on {square_name(origin)} is a {actual}, not a {claimed}", TURN, state, alternatives)
    if not movable(state) >> origin & 1:
        _refuse(*_why_not_movable(state, origin, code), state, alternatives)
    if not destinations(state, origin) >> destination & 1:
        own = [(MOVE, origin, d) for d in bits(destinations(state, origin))]
        why, rule = _why_unreachable(state, origin, destination, code)
        _refuse(f"{unit_title(code, origin)} cannot reach {square_name(destination)}: {why}", rule, state, alternatives, own)


def _points(state: State, origin: int, code: int) -> int:
    if origin == state.retreat and state.options.retreat_distance == "one":
        return 1
    return STATS[code & 7].move


def _why_not_movable(state: State, origin: int, code: int) -> tuple[str, str]:
    """Why the unit on ``origin`` may not move now, and the rule that says so (checked in the order
    ``rules.movable`` applies them)."""
    if state.retreat != NO_SQUARE:
        return f"{unit_title(state.pieces[state.retreat], state.retreat)} must retreat first", TURN
    if state.moves_made >= MOVES_PER_TURN:
        return f"{SIDE_NAMES[state.side]} has already moved {MOVES_PER_TURN} units this turn", TURN
    if state.moves_closed:
        return "Destroying an arsenal ended this turn's movement (ruling arsenal_capture_ends_moves)", RULINGS
    if state.moved >> origin & 1:
        return f"{unit_title(code, origin)} has already moved this turn", TURN
    if not is_relay(code & 7) and not state.network.online[state.side] >> origin & 1:
        why = _cut_this_turn(state, origin)
        return f"{unit_title(code, origin)} is offline (out of communication) and cannot move{why}", COMMUNICATION
    return f"{unit_title(code, origin)} cannot move now", TURN


# ---- why a unit cannot reach a square (the checks of ``rules.destinations``, one by one) ---------------------------
def _why_unreachable(state: State, origin: int, destination: int, code: int) -> tuple[str, str]:
    """The first thing that stops the unit on ``origin`` reaching ``destination``, in words, and its rule."""
    side, kind = code >> 3, code & 7
    points = _points(state, origin, code)
    gap = _distance(origin, destination)
    dest = square_name(destination)
    if gap == 0:
        return "moving back onto the starting square is not a move", TURN
    if gap > points:
        if points == 1 and STATS[kind].move == 2:
            return f"a forced retreat is one square (ruling retreat_distance); {dest} is {gap} squares away", RULINGS
        return f"it moves {_squares(points)} and {dest} is {gap} squares away", TURN
    problem = _square_problem(state, destination, side)
    if problem == ARSENAL and not may_take_arsenal(state, origin, code):
        return _why_no_arsenal(state, origin, code), TURN
    if problem and problem != ARSENAL:
        return f"{dest} is {problem}", TURN
    middles = list(bits(NEIGHBOURS[origin] & NEIGHBOURS[destination])) if gap == 2 else []
    reasons, offline = [], []
    friendly = False
    checks_lines = not is_relay(kind) and not state.options.mounted_through_offline
    for step in middles:
        blocked = _square_problem(state, step, side)
        if blocked == ARSENAL:
            blocked = "an enemy arsenal"
        own = state.pieces.get(step, -1) >> 3 == side
        if own and state.options.move_through_friendly:
            blocked = ""
        if blocked:
            friendly |= own
            reasons.append(f"{square_name(step)} is {blocked}")
        elif checks_lines and not _in_communication(state, step, origin, side):
            offline.append(square_name(step))
    if offline:
        one = len(offline) == 1
        reasons.append(
            f"{_listed(offline)} {'is' if one else 'are'} out of communication (no line of {SIDE_NAMES[side]}'s "
            f"reaches {'it' if one else 'them'} and no other online unit of {SIDE_NAMES[side]}'s stands next to "
            f"{'it' if one else 'them'})"
        )
    if not reasons:  # not expected: every check of ``rules.destinations`` is named above
        return "it is not among the squares it may move to now", TURN
    way = {1: "the only square it could pass through is", 2: "both squares it could pass through are"}.get(
        len(middles), f"all {len(middles)} squares it could pass through are"
    )
    text = f"{way} closed: {'; '.join(reasons)}"
    if friendly:
        text += ". A two-square move may not pass over a friendly unit (ruling move_through_friendly)"
    if offline:
        text += ". A two-square move may not pass through a square out of communication (ruling mounted_through_offline)"
    return text, RULINGS if offline else TURN


ARSENAL = "an enemy arsenal (only an online combat unit may enter it, destroying it)"


def _square_problem(state: State, sq: int, side: int) -> str:
    """Why a unit of ``side`` may not stand on ``sq`` (nor step through it), or ``""`` when it may."""
    if MOUNTAINS >> sq & 1:
        return "a mountain"
    code = state.pieces.get(sq)
    if code is not None:
        return f"occupied by {unit_title(code, sq)}"
    if state.arsenals[1 - side] >> sq & 1:
        return ARSENAL
    return ""


def _in_communication(state: State, sq: int, origin: int, side: int) -> bool:
    """The ruling's test for a square passed through: a line of the side reaches it, or another online unit of the
    side stands next to it, as the network stands before the move (game-of-war/rulings)."""
    network = state.network
    return bool((network.cover[side] | dilate(network.online[side] & ~(1 << origin))) >> sq & 1)


def _why_no_arsenal(state: State, origin: int, code: int) -> str:
    """Why this unit may not move onto the empty enemy arsenal it could otherwise reach (game-of-war/turn)."""
    if is_relay(code & 7):
        return "only a combat unit (not a relay) may destroy an enemy arsenal by moving onto it"
    if state.attack_used:
        return "destroying an arsenal counts as the turn's attack, which is already used"
    if origin == state.retreat or origin == state.no_attack:
        return "a unit retreating this turn may not destroy an arsenal"
    return "it is offline, and only an online combat unit may destroy an arsenal"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _distance(a: int, b: int) -> int:
    return max(abs(a % WIDTH - b % WIDTH), abs(a // WIDTH - b // WIDTH))


def _squares(points: int) -> str:
    return "one square" if points == 1 else f"{points} squares"


# ---- moves made earlier this turn ---------------------------------------------------------------------------
def _turn_moves(state: State) -> list[tuple[int, int]]:
    """This turn's moves so far as ``(origin, destination)``, oldest first, read from the log ([] if unreadable)."""
    entries = state.actions()[-state.moves_made :] if state.moves_made else []
    moves = []
    for seat, action in entries:
        wanted = play_of(action)
        if seat != state.side or wanted[0] != MOVE:
            return []
        moves.append((wanted[1], wanted[2]))
    return moves


def _moved_away(state: State, sq: int) -> str:
    """`` (the move I n13-m12 took it away earlier this turn)`` when one did, else ``""``."""
    for origin, destination in _turn_moves(state):
        if origin == sq and destination in state.pieces:
            return f" (the move {_move_text(state, origin, destination)} took it away earlier this turn)"
    return ""


def _cut_this_turn(state: State, sq: int) -> str:
    """Which earlier move of this turn cut the unit on ``sq`` off, when one did (game-of-war/communication): the
    turn's moves are taken back one by one and the side's lines worked out again."""
    moves = _turn_moves(state)
    if not moves or any(d == sq for _, d in moves):
        return ""
    side = state.side
    units, relays = state.units[side], state.relays[side]
    positions = []
    for origin, destination in reversed(moves):  # undo: the unit goes back from destination to origin
        swap = (1 << origin) | (1 << destination)
        units ^= swap
        if relays >> destination & 1:
            relays ^= swap
        positions.append((units, relays))
    positions.reverse()  # positions[i]: before the turn's move i
    opts = state.options
    blockers = blockers_for(side, state.units, state.relays, opts.enemy_relays_block_lines)
    online = [
        side_lines(state.arsenals[side], u, r, blockers, opts.adjacent_relays_reemit)[1] for u, r in positions
    ]
    online.append(state.network.online[side])
    for index in reversed(range(len(moves))):  # the last move that took it from online to offline
        origin, destination = moves[index]
        if online[index] >> sq & 1 and not online[index + 1] >> sq & 1:
            return (
                f": the move {_move_text(state, origin, destination)} earlier this turn cut its line "
                "(legal_moves marks such moves under 'Cuts your own line')"
            )
    return ""


def _move_text(state: State, origin: int, destination: int) -> str:
    code = state.pieces.get(destination)
    letter = f"{STATS[code & 7].letter} " if code is not None else ""
    return f"{letter}{square_name(origin)}-{square_name(destination)}"


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

