"""The bit-mask lines of communication against a plain square-by-square reading of the rules
(rules_text game-of-war/communication), on positions from random games."""

from __future__ import annotations

import random

from tabletop.games.game_of_war import ENGINE, GameOfWarOptions
from tabletop.games.game_of_war.board import DIRECTIONS, HEIGHT, MOUNTAINS, WIDTH, bits, index
from tabletop.games.game_of_war.rules import destinations, legal_plays, movable, play
from tabletop.games.game_of_war.units import MOVE, is_combat, is_relay


def plain_lines(state, side: int) -> tuple[set[int], set[int]]:
    """Covered squares and online units of ``side``, walking the board one square at a time."""
    enemy = 1 - side
    own = {sq for sq, code in state.pieces.items() if code >> 3 == side}
    own_relays = {sq for sq in own if is_relay(state.pieces[sq] & 7)}
    blockers = set(bits(MOUNTAINS)) | {
        sq
        for sq, code in state.pieces.items()
        if code >> 3 == enemy and (state.options.enemy_relays_block_lines or not is_relay(code & 7))
    }
    covered: set[int] = set()
    sources = list(bits(state.arsenals[side]))
    sent: set[int] = set()
    while sources:
        source = sources.pop()
        if source in sent:
            continue
        sent.add(source)
        covered.add(source)
        x0, y0 = source % WIDTH, source // WIDTH
        for dx, dy in DIRECTIONS:
            x, y = x0 + dx, y0 + dy
            while 0 <= x < WIDTH and 0 <= y < HEIGHT and index(x, y) not in blockers:
                covered.add(index(x, y))
                if index(x, y) in own_relays:
                    sources.append(index(x, y))
                x, y = x + dx, y + dy
    online = own & covered
    frontier = list(online)
    while frontier:
        sq = frontier.pop()
        for other in own - online:
            if max(abs(sq % WIDTH - other % WIDTH), abs(sq // WIDTH - other // WIDTH)) == 1:
                online.add(other)
                frontier.append(other)
    return covered, online


def neighbours(sq: int) -> list[int]:
    x0, y0 = sq % WIDTH, sq // WIDTH
    return [index(x0 + dx, y0 + dy) for dx, dy in DIRECTIONS if 0 <= x0 + dx < WIDTH and 0 <= y0 + dy < HEIGHT]


def plain_destinations(state, origin: int) -> set[int]:
    """Where the unit on ``origin`` may go, step by step (rules_text game-of-war/turn)."""
    code = state.pieces[origin]
    side, kind = code >> 3, code & 7
    enemy_arsenals = set(bits(state.arsenals[1 - side]))
    online = set(bits(state.network.online[side]))
    free = {sq for sq in range(WIDTH * HEIGHT) if sq not in state.pieces and not MOUNTAINS >> sq & 1}
    standable = free - enemy_arsenals
    raid = is_combat(kind) and not state.attack_used and origin in online and origin not in (state.retreat, state.no_attack)
    first = [sq for sq in neighbours(origin) if sq in standable]
    reached = set(first) | ({sq for sq in neighbours(origin) if sq in enemy_arsenals and sq in free} if raid else set())
    two = MOVE[kind] == 2 and not (origin == state.retreat and state.options.retreat_distance == "one")
    if two:
        for step in first:
            in_touch = state.network.cover[side] >> step & 1 or any(n in online and n != origin for n in neighbours(step))
            if is_relay(kind) or in_touch:
                reached |= {sq for sq in neighbours(step) if sq in standable or (raid and sq in enemy_arsenals and sq in free)}
    return reached - {origin}


def random_positions(count: int, seed: int):
    rng = random.Random(seed)
    game = 0
    while True:
        options = GameOfWarOptions(opening="default", enemy_relays_block_lines=game % 3 == 0, max_turns=300)
        state = ENGINE.new_game(options, 2, game)
        game += 1
        while state.phase == "play":
            state, _ = play(state, rng.choice(legal_plays(state)))
            yield state
            count -= 1
            if count == 0:
                return


def test_lines_match_a_square_by_square_reading():
    for state in random_positions(1500, seed=7):
        for side in (0, 1):
            covered, online = plain_lines(state, side)
            assert set(bits(state.network.cover[side])) == covered
            assert set(bits(state.network.online[side] & state.units[side])) == online


def test_destinations_match_a_step_by_step_reading():
    for state in random_positions(600, seed=8):
        for origin in bits(movable(state)):
            assert set(bits(destinations(state, origin))) == plain_destinations(state, origin)
