"""Hidden deployment and the die for the first player. Rules: ``game-of-war/setup``.

Each side places its 17 units on empty, non-mountain squares of its own territory (one at a
time, or a whole named opening at once), may take them back, and commits when all are down.
Nobody sees the other side's deployment until both have committed; then a die decides who
moves first. Set-up plays: ``(PLACE, kind, square)``, ``(REMOVE, square)``,
``(OPENING, name)``, ``(COMMIT,)``.
"""

from __future__ import annotations

from tabletop.core.errors import IllegalMove

from .board import MOUNTAINS, SIDE_NAMES, TERRITORY, bits, square_name
from .openings import OPENINGS, opening_units
from .state import PLAY, State
from .units import FORCE, KINDS, STATS, piece

PLACE, REMOVE, OPENING, COMMIT = "place", "remove", "opening", "commit"
RULE = "game-of-war/setup"


def remaining(state: State, side: int) -> dict[int, int]:
    """Units of each kind ``side`` has still to place."""
    left = {kind: STATS[kind].count for kind in KINDS}
    for _, code in state.side_pieces(side):
        left[code & 7] -= 1
    return left


def free_squares(state: State, side: int) -> int:
    """Mask of the empty, non-mountain squares of ``side``'s territory."""
    return TERRITORY[side] & ~MOUNTAINS & ~(state.units[0] | state.units[1])


def setup_plays(state: State, side: int) -> list[tuple]:
    """Every set-up play open to ``side`` (none once it has committed)."""
    if state.committed[side]:
        return []
    left = remaining(state, side)
    free = list(bits(free_squares(state, side)))
    plays: list[tuple] = [(PLACE, kind, sq) for kind in KINDS if left[kind] for sq in free]
    plays.extend((REMOVE, sq) for sq in bits(state.units[side]))
    plays.extend((OPENING, name) for name in OPENINGS)
    if not any(left.values()):
        plays.append((COMMIT,))
    return plays


def check_setup_play(state: State, side: int, action: tuple) -> None:
    """Raise IllegalMove unless ``action`` is a legal set-up play for ``side``."""
    legal = setup_plays(state, side)
    if action in legal:
        return
    kind = action[0]
    if state.committed[side]:
        raise IllegalMove(f"{SIDE_NAMES[side]} has already committed its deployment", rule=RULE)
    if kind == PLACE:
        unit, sq = action[1], action[2]
        if not remaining(state, side)[unit]:
            message = f"Every {STATS[unit].title.lower()} of {SIDE_NAMES[side]} is already placed"
        elif not TERRITORY[side] >> sq & 1:
            message = f"{square_name(sq)} is outside {SIDE_NAMES[side]}'s territory"
        else:
            message = f"{square_name(sq)} is not free (a mountain or another unit)"
    elif kind == REMOVE:
        message = f"{SIDE_NAMES[side]} has no placed unit on {square_name(action[1])}"
    elif kind == OPENING:
        message = f"There is no opening named {action[1]!r}; known: {', '.join(OPENINGS)}"
    else:
        message = f"Commit needs all {FORCE} units placed ({FORCE - bin(state.units[side]).count('1')} left)"
    raise IllegalMove(message, rule=RULE)


def apply_setup_play(state: State, side: int, action: tuple) -> tuple[State, list[str]]:
    """Apply a legal set-up play; starts the game when the second side commits.

    The events name the unit and the square: a deployment move is logged once, and only its own side may read it
    until both sides have committed (``Engine.move_visible``), after which both deployments are on the board anyway.
    """
    new = state.clone()
    name = SIDE_NAMES[side]
    kind = action[0]
    if kind == PLACE:
        new.put(action[2], piece(side, action[1]))
        unit = STATS[action[1]]
        events = [f"{name} places {unit.letter} ({unit.title.lower()}) at {square_name(action[2])}{_left(new, side)}."]
    elif kind == REMOVE:
        code = new.take(action[1])
        unit = STATS[code & 7]
        events = [f"{name} takes back {unit.letter} ({unit.title.lower()}) from {square_name(action[1])}{_left(new, side)}."]
    elif kind == OPENING:
        deploy_opening(new, side, action[1])
        events = [f"{name} deploys its side of the opening {action[1]!r} (all {FORCE} units)."]
    else:
        new.committed = (True, new.committed[1]) if side == 0 else (new.committed[0], True)
        events = [f"{name} commits its deployment."]
        if all(new.committed):
            begin_play(new, events)
    new.refresh_network()
    return new, events


def _left(state: State, side: int) -> str:
    left = sum(remaining(state, side).values())
    return f"; {left} still to place" if left else "; all placed, ready to commit"


def deploy_opening(new: State, side: int, name: str) -> None:
    """Replace ``side``'s placed units (on a fresh clone) by its side of an opening."""
    for sq in list(bits(new.units[side])):
        new.take(sq)
    for kind, sq in opening_units(name, side):
        new.put(sq, piece(side, kind))


def begin_play(new: State, events: list[str]) -> None:
    """Both deployments are down: roll for the first player and start turn 1."""
    rule = new.options.first_player
    if rule == "die":
        new.rng = new.rng.copy()
        new.die = new.rng.die(6, "the die for the first player (North on 1-3)")
        new.side = 0 if new.die <= 3 else 1
        events.append(f"Deployments revealed. The die shows {new.die}: {SIDE_NAMES[new.side]} moves first.")
    else:
        new.side = 0 if rule == "north" else 1
        events.append(f"Deployments revealed. {SIDE_NAMES[new.side]} moves first.")
    new.phase = PLAY
    new.committed = (True, True)
    new.turn = 1
