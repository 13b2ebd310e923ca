"""The dice model (model.transitions) against a plain enumeration of every way a roll can go.

The enumeration here shares nothing with the model or the engine: dice are individual objects,
drawn blind (every set of dice equally likely), and every die shows
each symbol with the number of its six sides that bear it (rules_text cthulhu-dice/dice: Library 3 Elder Signs, 2 Clues,
1 Tentacle; Museum 2/2/2; Tomb 1/2/3). Short bags follow the rulings as rules_text
cthulhu-dice/rulings words them. Probabilities are exact fractions. Only for small bags.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import pytest

from tabletop.games.cthulhu_dice.model import BUSTED, DiceRules, initial_state, transitions

SIDES = {0: "EEECCT", 1: "EECCTT", 2: "ECCTTT"}  # Library, Museum, Tomb
KINDS = 3


def draws(bag: list[int], count: int):
    """Every draw of ``count`` dice from ``bag`` (a list of die kinds): (dice drawn, dice left, p)."""
    picks = list(combinations(range(len(bag)), count))
    for pick in picks:
        left = [kind for i, kind in enumerate(bag) if i not in pick]
        yield [bag[i] for i in pick], left, Fraction(1, len(picks))


def hands(tentacles, clues, bag, counts, ruling):
    """Every hand rolled on continuing: (dice rolled, dice left in the bag, p)."""
    in_hand = [k for k in range(KINDS) for _ in range(clues[k])]
    bag_dice = [k for k in range(KINDS) for _ in range(bag[k])]
    signs_aside = [k for k in range(KINDS) for _ in range(counts[k] - tentacles[k] - clues[k] - bag[k])]
    need = 3 - len(in_hand)
    if need <= len(bag_dice):
        for drawn, left, p in draws(bag_dice, need):
            yield in_hand + drawn, left, p
    elif ruling == "return_elder_signs":  # the Elder Sign dice go back, then draw as usual
        for drawn, left, p in draws(bag_dice + signs_aside, need):
            yield in_hand + drawn, left, p
    elif ruling == "draw_then_return":  # the bag's last dice first, then the rest from the Elder Sign dice
        for drawn, left, p in draws(signs_aside, need - len(bag_dice)):
            yield in_hand + bag_dice + drawn, left, p
    elif ruling == "roll_fewer":  # roll what there is, if anything
        if in_hand + bag_dice:
            yield in_hand + bag_dice, [], Fraction(1)
    # must_retreat: no roll at all


def enumerate_continue(counts, tentacles, clues, bag, ruling):
    """{(Elder Signs, next dice state or BUSTED): p} by rolling every side of every die of every hand."""
    result: dict = {}
    for hand, left, p_hand in hands(tentacles, clues, bag, counts, ruling):
        for faces in product(*(set(SIDES[k]) for k in hand)):
            p = p_hand
            for kind, face in zip(hand, faces):
                p *= Fraction(SIDES[kind].count(face), 6)
            shown_t = [sum(1 for k, f in zip(hand, faces) if k == kind and f == "T") for kind in range(KINDS)]
            shown_c = [sum(1 for k, f in zip(hand, faces) if k == kind and f == "C") for kind in range(KINDS)]
            signs = faces.count("E")
            if sum(tentacles) + sum(shown_t) >= 3:
                key = (0, BUSTED)
            else:
                after_t = tuple(t + s for t, s in zip(tentacles, shown_t))
                key = (signs, after_t + tuple(shown_c) + tuple(left.count(k) for k in range(KINDS)))
            result[key] = result.get(key, 0) + p
    return result


def check(counts, state, ruling):
    dice = DiceRules(counts=counts, exhaustion=ruling)
    tentacles, clues, bag = state[:KINDS], state[KINDS : 2 * KINDS], state[2 * KINDS :]
    expected = enumerate_continue(counts, tentacles, clues, bag, ruling)
    got = transitions(dice, state)
    assert set(got) == set(expected)
    for key, p in expected.items():
        assert got[key] == pytest.approx(float(p), abs=1e-12), key
    if expected:
        assert sum(expected.values()) == 1


RULINGS = ["return_elder_signs", "draw_then_return", "roll_fewer", "must_retreat"]
BAGS = [(2, 2, 2), (3, 2, 1)]


@pytest.mark.parametrize("counts", BAGS)
def test_the_first_roll(counts):
    check(counts, initial_state(DiceRules(counts=counts)), "return_elder_signs")


@pytest.mark.parametrize("counts", BAGS)
@pytest.mark.parametrize("ruling", RULINGS)
def test_every_continue_from_every_reachable_mid_turn_state(counts, ruling):
    """Every split of the six dice into tentacles (at most 2), clues (at most 3), a bag of at most
    three dice (the short bags and the ones just enough) and Elder Signs."""
    states = 0
    for split in product(*(range(n + 1) for n in counts), repeat=3):
        tentacles, clues, bag = split[0:3], split[3:6], split[6:9]
        if sum(tentacles) > 2 or sum(clues) > 3 or sum(bag) > 3 or any(t + c + b > n for t, c, b, n in zip(tentacles, clues, bag, counts)):
            continue
        check(counts, tuple(tentacles) + tuple(clues) + tuple(bag), ruling)
        states += 1
    assert states > 40
