"""The turn: which units may move where, which attacks are open, and what each play does.

Rules: ``game-of-war/turn``, ``game-of-war/combat``, ``game-of-war/end``.

Plays are small tuples: ``(MOVE, origin, destination)``, ``(ATTACK, target)``, ``(END,)``
with squares as indices. ``legal_plays`` lists them; ``play`` applies one already known to
be legal and returns a new state, leaving the given one untouched.
"""

from __future__ import annotations

from .board import COMBAT_ZONE, NEIGHBOURS, PASSABLE, SIDE_NAMES, bits, dilate, square_name
from .combat import CAPTURE, RETREAT, Combat, assess
from .state import NO_SQUARE, OVER, PLAY, State
from .units import MOVE as MOVE_POINTS
from .units import STATS, is_combat, is_relay

MOVE, ATTACK, END = "move", "attack", "end"
MOVES_PER_TURN = 5


def unit_title(code: int, sq: int) -> str:
    return f"{SIDE_NAMES[code >> 3]} {STATS[code & 7].title.lower()} {square_name(sq)}"


# ---- movement ----------------------------------------------------------------------------------
def movable(state: State) -> int:
    """Squares of the side to move's units that may still move this turn."""
    if state.phase != PLAY or state.moves_made >= MOVES_PER_TURN or state.moves_closed:
        return 0
    side = state.side
    if state.retreat != NO_SQUARE:
        return (1 << state.retreat) & (state.network.online[side] | state.relays[side])
    return state.units[side] & ~state.moved & (state.network.online[side] | state.relays[side])


def may_take_arsenal(state: State, sq: int, code: int) -> bool:
    """An online combat unit may destroy an empty enemy arsenal while the attack is unused."""
    return (
        is_combat(code & 7)
        and not state.attack_used
        and bool(state.network.online[code >> 3] >> sq & 1)
        and sq != state.retreat
        and sq != state.no_attack
    )


def destinations(state: State, sq: int) -> int:
    """Mask of the squares the unit on ``sq`` may move to (ignoring whose turn it is)."""
    code = state.pieces[sq]
    side, kind = code >> 3, code & 7
    opts = state.options
    occupied = state.units[0] | state.units[1]
    enemy_arsenals = state.arsenals[1 - side]
    standable = PASSABLE & ~occupied & ~enemy_arsenals
    near = NEIGHBOURS[sq]
    reach = near
    points = 1 if sq == state.retreat and opts.retreat_distance == "one" else MOVE_POINTS[kind]
    if points == 2:
        through = near & standable
        if opts.move_through_friendly:
            through |= near & state.units[side]
        if not is_relay(kind) and not opts.mounted_through_offline:
            network = state.network
            through &= network.cover[side] | dilate(network.online[side] & ~(1 << sq))
        for step in bits(through):
            reach |= NEIGHBOURS[step]
    result = reach & standable & ~(1 << sq)
    if enemy_arsenals and may_take_arsenal(state, sq, code):
        result |= reach & enemy_arsenals & ~occupied
    return result


# ---- attacks -----------------------------------------------------------------------------------
def online_fighters(state: State, side: int) -> int:
    """``side``'s combat units (relays left out) online now, as a mask of squares: those that may attack, and move
    onto an enemy arsenal (``game-of-war/communication``, ``game-of-war/combat``)."""
    return state.units[side] & state.network.online[side] & ~state.relays[side]


def attack_options(state: State) -> list[Combat]:
    """Every attack the side to move may declare now, with its assessment."""
    if state.phase != PLAY or state.attack_used or state.retreat != NO_SQUARE:
        return []
    side = state.side
    shooters = online_fighters(state, side)
    if state.no_attack != NO_SQUARE:
        shooters &= ~(1 << state.no_attack)
    if not shooters:
        return []
    futile_allowed = state.options.futile_attacks
    options = []
    for target in bits(state.units[1 - side]):
        if COMBAT_ZONE[target] & shooters:
            combat = assess(state, target)
            if combat.attack > combat.defence or (futile_allowed and combat.attack > 0):
                options.append(combat)
    return options


def legal_plays(state: State) -> list[tuple]:
    """Every legal play of the side to move, as tuples."""
    if state.phase != PLAY:
        return []
    plays: list[tuple] = [(MOVE, o, d) for o in bits(movable(state)) for d in bits(destinations(state, o))]
    plays.extend((ATTACK, c.target) for c in attack_options(state))
    if state.retreat == NO_SQUARE:
        plays.append((END,))
    return plays


# ---- applying plays ------------------------------------------------------------------------------
def play(state: State, action: tuple) -> tuple[State, list[str]]:
    """Apply a legal play; returns the new state and what happened."""
    if action[0] == MOVE:
        return move_unit(state, action[1], action[2])
    if action[0] == ATTACK:
        return attack_unit(state, action[1])
    new = state.clone()
    events = [f"{SIDE_NAMES[state.side]} ends the turn."]
    end_turn(new, events)
    return new, events


def move_unit(state: State, origin: int, destination: int) -> tuple[State, list[str]]:
    code = state.pieces[origin]
    side = code >> 3
    new = state.clone()
    new.shift(origin, destination)
    new.moved = (state.moved & ~(1 << origin)) | (1 << destination)
    new.moves_made = state.moves_made + 1
    events = [f"{unit_title(code, origin)} moves to {square_name(destination)}."]
    if origin == state.retreat:
        new.retreat = NO_SQUARE
        new.no_attack = destination
    if state.arsenals[1 - side] >> destination & 1:
        new.arsenals = _without(state.arsenals, 1 - side, destination)
        new.attack_used = True
        new.moves_closed = state.options.arsenal_capture_ends_moves
        owner = SIDE_NAMES[1 - side]
        events.append(f"{owner}'s arsenal {square_name(destination)} is destroyed; that was the attack of the turn.")
    new.refresh_network()
    check_victory(new, side, events)
    return new, events


def attack_unit(state: State, target: int) -> tuple[State, list[str]]:
    combat = assess(state, target)
    code = state.pieces[target]
    new = state.clone()
    new.attack_used = True
    result = combat.result
    verdict = {CAPTURE: "is destroyed", RETREAT: "must retreat at the start of its next turn"}.get(result, "holds")
    events = [f"Attack on {unit_title(code, target)}: {combat.attack} against {combat.defence}; it {verdict}."]
    if result == CAPTURE:
        new.take(target)
        new.refresh_network()
        check_victory(new, state.side, events)
    elif result == RETREAT:
        new.threat = target
    if new.phase != OVER:
        end_turn(new, events)
    return new, events


def end_turn(new: State, events: list[str]) -> None:
    """Pass the turn (on a fresh clone) and settle a pending retreat for the new side."""
    actor = new.side
    new.side = 1 - actor
    new.turn += 1
    new.moved = 0
    new.moves_made = 0
    new.moves_closed = False
    new.attack_used = False
    new.no_attack = NO_SQUARE
    new.retreat = NO_SQUARE
    if new.threat != NO_SQUARE:
        _settle_retreat(new, actor, events)
    limit = new.options.max_turns
    if new.phase != OVER and limit is not None and new.turn > limit:
        new.phase = OVER
        new.winner = None
        new.reason = f"Drawn: the limit of {limit} turns is reached."
        events.append(new.reason)


def _settle_retreat(new: State, actor: int, events: list[str]) -> None:
    target = new.threat
    new.threat = NO_SQUARE
    new.retreat = target
    if movable(new) and destinations(new, target):
        events.append(f"{unit_title(new.pieces[target], target)} must retreat before anything else.")
        return
    new.retreat = NO_SQUARE
    code = new.take(target)
    new.refresh_network()
    events.append(f"{unit_title(code, target)} cannot retreat and is destroyed.")
    check_victory(new, actor, events)


def _without(arsenals: tuple[int, int], side: int, sq: int) -> tuple[int, int]:
    remaining = arsenals[side] & ~(1 << sq)
    return (remaining, arsenals[1]) if side == 0 else (arsenals[0], remaining)


# ---- victory -----------------------------------------------------------------------------------
def defeat_reason(state: State, side: int) -> str | None:
    """Why ``side`` has lost, or None: arsenals gone, combat units gone, or network collapse."""
    name = SIDE_NAMES[side]
    if not state.arsenals[side]:
        return f"both of {name}'s arsenals are destroyed"
    units = state.units[side]
    if not units & ~state.relays[side]:
        return f"all of {name}'s combat units are destroyed"
    if not state.relays[side] and not units & state.network.online[side]:
        return f"both of {name}'s relays are destroyed and all its units are offline"
    return None


def check_victory(new: State, actor: int, events: list[str]) -> None:
    """End the game (on a fresh clone) if either side has lost; the actor's opponent first."""
    for loser in (1 - actor, actor):
        reason = defeat_reason(new, loser)
        if reason:
            new.phase = OVER
            new.winner = 1 - loser
            new.reason = f"{SIDE_NAMES[1 - loser]} wins: {reason}."
            events.append(new.reason)
            return
