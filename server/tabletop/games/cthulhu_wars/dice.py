"""Combat dice (rules_text ``cthulhu-wars/battle``): each die is a Kill on 6, a Pain on 4-5, a miss otherwise.

The exact chances here need no game; battle.py turns them into a battle's odds and creatures.py into a
creature's note on how it takes results.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

P_KILL, P_PAIN, P_MISS = Fraction(1, 6), Fraction(2, 6), Fraction(3, 6)


def dice_distribution(dice: int) -> dict[tuple[int, int], Fraction]:
    """Exact chance of each (kills, pains) from ``dice`` combat dice."""
    return {
        (k, p): comb(dice, k) * comb(dice - k, p) * P_KILL**k * P_PAIN**p * P_MISS ** (dice - k - p)
        for k in range(dice + 1)
        for p in range(dice - k + 1)
    }
