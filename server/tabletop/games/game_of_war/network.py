"""Lines of communication. Rules: ``game-of-war/communication``.

Arsenals send lines along the 8 directions without limit of range. A line stops before a
mountain or an enemy unit (enemy relays let it pass unless a ruling says otherwise; passes,
fortresses and friendly units never stop it). A friendly relay standing on a line sends lines
of its own, to a fixed point. A unit on a line is online, and so is any unit next to an
online friendly unit, chained.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import MOUNTAINS, RAYS_DOWN, RAYS_UP, bits, dilate


class Network(NamedTuple):
    """Both sides' communication: squares their lines cover, and their online units."""

    cover: tuple[int, int]
    online: tuple[int, int]


def star(sq: int, blockers: int) -> int:
    """The square ``sq`` and every square its 8 lines reach before a blocker."""
    covered = 1 << sq
    for ray in RAYS_UP[sq]:
        hit = ray & blockers
        if hit:
            ray &= (hit & -hit) - 1
        covered |= ray
    for ray in RAYS_DOWN[sq]:
        hit = ray & blockers
        if hit:
            ray &= -(1 << hit.bit_length())
        covered |= ray
    return covered


def connect(seeds: int, units: int) -> int:
    """``seeds`` plus every unit of ``units`` joined to them through neighbours (8 ways)."""
    online = seeds
    frontier = seeds
    while frontier:
        frontier = dilate(frontier) & units & ~online
        online |= frontier
    return online


def side_lines(
    arsenals: int, units: int, relays: int, blockers: int, adjacent_relays_reemit: bool
) -> tuple[int, int]:
    """``(cover, online)`` for one side; ``blockers`` are the squares that stop its lines."""
    cover = 0
    emitted = 0
    sources = arsenals
    online = 0
    while sources:
        for sq in bits(sources):
            cover |= star(sq, blockers)
        emitted |= sources
        if adjacent_relays_reemit:
            online = connect(units & cover, units)
            sources = relays & online & ~emitted
        else:
            sources = relays & cover & ~emitted
    if not adjacent_relays_reemit:
        online = connect(units & cover, units)
    return cover, online


def blockers_for(side: int, units: tuple[int, int], relays: tuple[int, int], enemy_relays_block: bool) -> int:
    """The squares that stop ``side``'s lines: mountains and enemy units (enemy relays only under that ruling).

    A side's own units never stop its lines, so its own moves leave this mask as it is.
    """
    enemy = 1 - side
    blocking = units[enemy] if enemy_relays_block else units[enemy] & ~relays[enemy]
    return MOUNTAINS | blocking


def compute_network(
    arsenals: tuple[int, int],
    units: tuple[int, int],
    relays: tuple[int, int],
    enemy_relays_block: bool = False,
    adjacent_relays_reemit: bool = False,
) -> Network:
    """Both sides' lines, from the surviving arsenals, every unit's square and the relays'."""
    results = []
    for side in (0, 1):
        blockers = blockers_for(side, units, relays, enemy_relays_block)
        results.append(side_lines(arsenals[side], units[side], relays[side], blockers, adjacent_relays_reemit))
    return Network((results[0][0], results[1][0]), (results[0][1], results[1][1]))
