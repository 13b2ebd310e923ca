"""Dice with chosen results, for rules tests: a generator that replays scripted numbers."""

from __future__ import annotations

from tabletop.core.rng import Rng
from tabletop.games.cthulhu_dice.dice import KINDS, SIDES, DieKind, Face
from tabletop.games.cthulhu_dice.rules import DiceState


class ScriptedRng(Rng):
    """``below(n)`` returns the scripted values in order (each must be < n)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def copy(self) -> ScriptedRng:
        return ScriptedRng(self.values)

    def below(self, n: int) -> int:
        value = self.values.pop(0)
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
