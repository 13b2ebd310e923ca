"""Unit kinds and their numbers. Rules: ``game-of-war/units``.

A piece on the board is a small int: ``side << 3 | kind``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

INFANTRY, CAVALRY, CANNON, SWIFT_CANNON, RELAY, SWIFT_RELAY = range(6)
KINDS = (INFANTRY, CAVALRY, CANNON, SWIFT_CANNON, RELAY, SWIFT_RELAY)

UnitName = Literal["infantry", "cavalry", "cannon", "swift_cannon", "relay", "swift_relay"]


class Stats(NamedTuple):
    name: str
    title: str
    letter: str  # North's letter; South writes it in lower case
    attack: int
    defence: int
    move: int
    range: int
    count: int  # how many each side has


STATS = (
    Stats("infantry", "Infantry", "I", 4, 6, 1, 2, 9),
    Stats("cavalry", "Cavalry", "C", 4, 5, 2, 2, 4),
    Stats("cannon", "Cannon", "K", 5, 8, 1, 3, 1),
    Stats("swift_cannon", "Swift cannon", "W", 5, 8, 2, 3, 1),
    Stats("relay", "Relay", "R", 0, 1, 1, 0, 1),
    Stats("swift_relay", "Swift relay", "X", 0, 1, 2, 0, 1),
)

ATTACK = tuple(s.attack for s in STATS)
DEFENCE = tuple(s.defence for s in STATS)
MOVE = tuple(s.move for s in STATS)
RANGE = tuple(s.range for s in STATS)
KIND_BY_NAME = {s.name: k for k, s in enumerate(STATS)}
KIND_BY_LETTER = {s.letter: k for k, s in enumerate(STATS)}
FORCE = sum(s.count for s in STATS)  # 17 mobile units per side
CHARGE_ATTACK = 7
MAX_CHARGE = 4


def is_relay(kind: int) -> bool:
    return kind >= RELAY


def is_combat(kind: int) -> bool:
    return kind < RELAY


def piece(side: int, kind: int) -> int:
    return side << 3 | kind


def letter(code: int) -> str:
    """Upper case for North, lower case for South."""
    char = STATS[code & 7].letter
    return char if code >> 3 == 0 else char.lower()
