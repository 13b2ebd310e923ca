"""Dice with chosen results, for rules tests: a generator that replays scripted numbers.

A script must be used up: every ``ScriptedRng`` made during a test is checked when the test
ends (``tests/cthulhu_dice/conftest.py``), so a rigged roll that consumed fewer numbers than
scripted (fewer dice drawn or rolled than the test believes) fails the test. Copies of a
generator (states are copied on every move) share one script and its record of use.
"""

from __future__ import annotations

from tabletop.core.rng import Rng
from tabletop.games.cthulhu_dice.dice import KINDS, SIDES, DieKind, Face
from tabletop.games.cthulhu_dice.rules import DiceState


class Script:
    """Scripted numbers and the furthest any copy of the generator got through them."""

    made: list[Script] = []  # every script of the running test, checked at its end

    def __init__(self, values: list[int]) -> None:
        self.values = tuple(values)
        self.used = 0
        Script.made.append(self)

    def unused(self) -> tuple[int, ...]:
        return self.values[self.used :]


class ScriptedRng(Rng):
    """``below(n)`` returns the scripted values in order (each must be < n)."""

    def __init__(self, values: list[int] | Script, position: int = 0) -> None:
        super().__init__(0)
        self.script = values if isinstance(values, Script) else Script(values)
        self.position = position

    @property
    def values(self) -> list[int]:
        """The numbers this generator has still to give."""
        return list(self.script.values[self.position :])

    def copy(self) -> ScriptedRng:
        return ScriptedRng(self.script, self.position)

    def below(self, n: int) -> int:
        assert self.position < len(self.script.values), "the script ran out: more dice drawn or rolled than rigged"
        value = self.script.values[self.position]
        self.position += 1
        self.script.used = max(self.script.used, self.position)
        assert 0 <= value < n, f"scripted {value} not below {n}"
        return value


def rig(state: DiceState, draws: list[DieKind], faces: list[Face]) -> DiceState:
    """Make the next roll draw ``draws`` (in order) and show ``faces`` (clue dice in hand first, then draws)."""
    bag = list(state.bag)
    ruling = state.options.bag_exhaustion
    if ruling == "return_elder_signs" and state.dice_needed > sum(bag):
        bag = [b + s for b, s in zip(bag, state.signs)]
    values = []
    for kind in draws:
        if ruling == "draw_then_return" and sum(bag) == 0:
            bag = list(state.signs)
        index = KINDS.index(kind)
        values.append(sum(bag[:index]))
        bag[index] -= 1
    hand = [k for i, k in enumerate(KINDS) for _ in range(state.clues[i])] + draws
    assert len(hand) == len(faces)
    values += [SIDES[kind].index(face) for kind, face in zip(hand, faces)]
    state.rng = ScriptedRng(values)
    return state
