"""Short text forms of every play, and the bridge between action models and play tuples.

Rules: ``game-of-war/notation``.

    C e7-g5        move the unit on e7 to g5 (the letter is optional and checked if given)
    attack h9      the turn's attack on the enemy unit on h9
    end            end the turn (also: pass)
    place C e7     set-up: place a cavalry on e7
    remove e7      set-up: take the unit on e7 back
    opening default  set-up: deploy your side of a named opening
    commit         set-up: fix your deployment

Unit letters: I infantry, C cavalry, K cannon, W swift cannon, R relay, X swift relay.
"""

from __future__ import annotations

import re
from functools import cache

from tabletop.core.errors import MalformedMove

from .actions import Action, Attack, Commit, EndTurn, Move, Place, Remove, UseOpening
from .board import parse_square, square_name
from .rules import ATTACK, END, MOVE
from .setup import COMMIT, OPENING, PLACE, REMOVE
from .state import State
from .units import KIND_BY_LETTER, KIND_BY_NAME, STATS

RULE = "game-of-war/notation"
HELP = (
    "Moves: 'C e7-g5' (unit letter optional: I C K W R X), 'attack h9', 'end'. "
    "Set-up: 'place C e7', 'remove e7', 'opening default', 'commit'. Squares: column a-y, row 1-20 (row 1 = North's edge)."
)

_SQUARE = r"([a-y](?:20|1[0-9]|[1-9]))"
_LETTER = r"([ICKWRX])"
_PATTERNS = (
    (MOVE, re.compile(rf"(?:{_LETTER}\s*)?{_SQUARE}\s*(?:-|\s)\s*{_SQUARE}", re.I)),
    (ATTACK, re.compile(rf"attack\s+{_SQUARE}", re.I)),
    (END, re.compile(r"end|pass|end turn", re.I)),
    (PLACE, re.compile(rf"place\s+{_LETTER}\s+{_SQUARE}", re.I)),
    (REMOVE, re.compile(rf"remove\s+{_SQUARE}", re.I)),
    (OPENING, re.compile(r"opening\s+([\w-]+)", re.I)),
    (COMMIT, re.compile(r"commit", re.I)),
)


def parse_play(text: str) -> tuple:
    """Read a play's text form into a play tuple; MalformedMove if it cannot be read."""
    text = text.strip()
    for kind, pattern in _PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            return _play_from_match(kind, found.groups())
    raise MalformedMove(f"Cannot read {text!r} as a move. {HELP}", rule=RULE)


def _play_from_match(kind: str, groups: tuple) -> tuple:
    if kind == MOVE:
        letter, origin, destination = groups
        unit = KIND_BY_LETTER[letter.upper()] if letter else None
        return (MOVE, _sq(origin), _sq(destination), unit)
    if kind in (ATTACK, REMOVE):
        return (kind, _sq(groups[0]))
    if kind == PLACE:
        return (PLACE, KIND_BY_LETTER[groups[0].upper()], _sq(groups[1]))
    if kind == OPENING:
        return (OPENING, groups[0].lower())
    return (kind,)


def _sq(name: str) -> int:
    sq = parse_square(name)
    assert sq is not None  # the pattern only matches square names
    return sq


def play_text(play: tuple, state: State) -> str:
    """The text form of a play tuple (the unit letter is read from ``state``)."""
    kind = play[0]
    if kind == MOVE:
        code = state.pieces[play[1]]
        return f"{STATS[code & 7].letter} {square_name(play[1])}-{square_name(play[2])}"
    if kind in (ATTACK, REMOVE):
        return f"{kind} {square_name(play[1])}"
    if kind == PLACE:
        return f"place {STATS[play[1]].letter} {square_name(play[2])}"
    if kind == OPENING:
        return f"opening {play[1]}"
    return kind


def action_text(action: Action) -> str:
    """The text form of an action model (no state needed)."""
    if isinstance(action, Move):
        letter = f"{STATS[KIND_BY_NAME[action.unit]].letter} " if action.unit else ""
        return f"{letter}{action.origin}-{action.destination}"
    if isinstance(action, Attack):
        return f"attack {action.target}"
    if isinstance(action, Place):
        return f"place {STATS[KIND_BY_NAME[action.unit]].letter} {action.square}"
    if isinstance(action, Remove):
        return f"remove {action.square}"
    if isinstance(action, UseOpening):
        return f"opening {action.name}"
    return action.kind


def play_of(action: Action) -> tuple:
    """The play tuple of an action model."""
    if isinstance(action, Move):
        unit = KIND_BY_NAME[action.unit] if action.unit else None
        return (MOVE, _sq(action.origin), _sq(action.destination), unit)
    if isinstance(action, Attack):
        return (ATTACK, _sq(action.target))
    if isinstance(action, Place):
        return (PLACE, KIND_BY_NAME[action.unit], _sq(action.square))
    if isinstance(action, Remove):
        return (REMOVE, _sq(action.square))
    if isinstance(action, UseOpening):
        return (OPENING, action.name)
    return (action.kind,)


def action_of(play: tuple, state: State | None = None) -> Action:
    """The action model of a play tuple.

    A move's unit kind is its fourth item when present (parsed text), else read from ``state``.
    """
    kind = play[0]
    if kind == MOVE:
        unit = play[3] if len(play) > 3 else state.pieces[play[1]] & 7
        return _move_model(play[1], play[2], unit)
    if kind == ATTACK:
        return _attack_model(play[1])
    if kind == PLACE:
        return Place(unit=STATS[play[1]].name, square=square_name(play[2]))
    if kind == REMOVE:
        return Remove(square=square_name(play[1]))
    if kind == OPENING:
        return UseOpening(name=play[1])
    return Commit() if kind == COMMIT else EndTurn()


@cache
def _move_model(origin: int, destination: int, unit: int | None) -> Move:
    """Action models are immutable, so each distinct move is built once and shared."""
    name = STATS[unit].name if unit is not None else None
    return Move(origin=square_name(origin), destination=square_name(destination), unit=name)


@cache
def _attack_model(target: int) -> Attack:
    return Attack(target=square_name(target))
