"""The shipped tables against values worked out independently of the solver.

Positions where the last seat of a round faces a leader at the score cap (26, twice the goal)
have a value that needs no game tree: that seat can at best tie at the cap, and players tied
at the cap share the win (the model's cap, ``GameRules``), so its chance of winning is the
share times the chance that *one turn* brings ``k`` more Elder Signs, playing "roll until the
stash holds k". Rolling can never be worse there: stopping short loses as surely as being
downed. That chance is computed here from rules_text cthulhu-dice/dice (Library 3 Elder Signs,
2 Clues, 1 Tentacle; Museum 2/2/2; Tomb 1/2/3; a bag of 8/4/3), /turn (draw back up to three,
Clues stay in hand, three Tentacles down the player) and /rulings (the default short-bag ruling:
the Elder Sign dice set aside go back in the bag, the stash keeps its count), drawing the dice
one at a time; nothing of the solver or the model is used.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from tabletop.games.cthulhu_dice.solver import load_table

SIDES = {0: "EEECCT", 1: "EECCTT", 2: "ECCTTT"}  # Library, Museum, Tomb
BAG = (8, 4, 3)
CAP = 26


def draws(bag: tuple[int, ...], count: int):
    """Every way of drawing ``count`` dice one at a time: (dice drawn per kind, bag left, p)."""
    if count == 0:
        yield (0, 0, 0), bag, 1.0
        return
    for kind in range(3):
        if bag[kind]:
            left = tuple(n - (i == kind) for i, n in enumerate(bag))
            for drawn, rest, p in draws(left, count - 1):
                yield tuple(d + (i == kind) for i, d in enumerate(drawn)), rest, p * bag[kind] / sum(bag)


def rolls(hand: tuple[int, ...]):
    """Every side of every die in ``hand``: (Elder Signs, clues per kind, tentacles per kind, p)."""
    results = [(0, (0, 0, 0), (0, 0, 0), 1.0)]
    for kind in (k for k in range(3) for _ in range(hand[k])):
        results = [
            (
                signs + (face == "E"),
                tuple(n + (face == "C" and i == kind) for i, n in enumerate(clues)),
                tuple(n + (face == "T" and i == kind) for i, n in enumerate(tentacles)),
                p * SIDES[kind].count(face) / 6,
            )
            for signs, clues, tentacles, p in results
            for face in "ECT"
        ]
    return results


@lru_cache(maxsize=None)
def reach(tentacles: tuple[int, ...], clues: tuple[int, ...], bag: tuple[int, ...], missing: int) -> float:
    """The chance of adding ``missing`` more Elder Signs this turn, rolling until they are in."""
    if missing <= 0:
        return 1.0
    need = 3 - sum(clues)
    pool = bag
    if need > sum(bag):  # the Elder Sign dice set aside go back in
        pool = tuple(n - t - c for n, t, c in zip(BAG, tentacles, clues))
    looped = onward = 0.0
    for drawn, left, p_draw in draws(pool, need):
        for signs, shown_clues, shown_tentacles, p_roll in rolls(tuple(c + d for c, d in zip(clues, drawn))):
            held = tuple(a + b for a, b in zip(tentacles, shown_tentacles))
            if sum(held) >= 3:
                continue  # downed
            after = (held, shown_clues, left, missing - signs)
            if after == (tentacles, clues, bag, missing):
                looped += p_draw * p_roll  # three clues rolled again: the same position
            else:
                onward += p_draw * p_roll * reach(*after)
    return onward / (1 - looped)


def one_turn(k: int) -> float:
    return reach((0, 0, 0), (0, 0, 0), BAG, k)


def test_the_enumeration_itself_by_hand():
    three = list(draws(BAG, 3))
    assert sum(p for _, _, p in three) == pytest.approx(1.0)
    assert sum(p for drawn, _, p in three if drawn == (0, 0, 3)) == pytest.approx(3 / 15 * 2 / 14 * 1 / 13)
    tomb = {(s, c, t): p for s, c, t, p in rolls((0, 0, 1))}
    assert tomb == {(1, (0, 0, 0), (0, 0, 0)): 1 / 6, (0, (0, 0, 1), (0, 0, 0)): 2 / 6, (0, (0, 0, 0), (0, 0, 1)): 3 / 6}
    # Three Library clues in hand and two Tentacles: the next roll of those three dice alone decides
    # (any Tentacle downs; only clues roll the same position again): P = P(>= 1 Elder Sign, no Tentacle)
    # / (1 - P(three clues)).
    no_tentacle, three_clues = (5 / 6) ** 3, (2 / 6) ** 3
    assert reach((0, 2, 0), (3, 0, 0), (5, 2, 3), 1) == pytest.approx((no_tentacle - three_clues) / (1 - three_clues))
    # Rolling until one Elder Sign: downed only by a Tentacle before any Elder Sign.
    assert 1 > one_turn(1) > one_turn(2) > one_turn(3) > one_turn(4) > one_turn(5) > 0


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_two_players_last_seat_against_a_leader_at_the_cap(k):
    table = load_table(players=2)
    assert table.second_to_move[CAP, CAP - k] == pytest.approx(one_turn(k) / 2, abs=1e-12)


@pytest.mark.parametrize("k", [1, 3, 5])
def test_three_players_last_seat_against_one_or_two_leaders_at_the_cap(k):
    table = load_table(players=3)
    one_leader = table.value((2, (CAP, 20, CAP - k)))
    assert one_leader[2] == pytest.approx(one_turn(k) / 2, abs=1e-12)
    assert one_leader[1] == 0.0 and one_leader[0] == pytest.approx(1 - one_turn(k) / 2, abs=1e-12)
    two_leaders = table.value((2, (CAP, CAP, CAP - k)))
    assert two_leaders[2] == pytest.approx(one_turn(k) / 3, abs=1e-12)
    assert two_leaders[0] == pytest.approx(two_leaders[1]) == pytest.approx((1 - one_turn(k) / 3) / 2, abs=1e-12)
