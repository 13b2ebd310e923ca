"""The dice and the bag (rules_text cthulhu-dice/dice) as a real table is asked for them: found unchecked by
benchmarks/mutation.py (group cthulhu_dice, module dice.py)."""

from __future__ import annotations

from tabletop.core.rng import Rng, answered_by
from tabletop.games.cthulhu_dice.dice import DieKind, Face, draw_from_bag, roll_die


class RecordingTable:
    """The people at a real table (rules_text cthulhu-dice/table): records what each request offers and says."""

    def __init__(self, answers: list) -> None:
        self.answers, self.asked = list(answers), []

    def pick(self, weights: dict[str, int], what: str, secret: bool = False) -> str:
        self.asked.append(("pick", weights, what))
        return self.answers.pop(0)

    def draw(self, counts: dict[str, int], count: int, what: str) -> list[str]:
        self.asked.append(("draw", counts, count, what))
        return self.answers.pop(0)


def test_each_die_is_rolled_with_its_own_sides():
    """The table of sides: Library 3/2/1, Museum 2/2/2, Tomb 1/2/3 (Elder Sign / Clue / Tentacle)."""
    table = RecordingTable(["tentacle", "clue", "elder_sign"])
    with answered_by(table):
        faces = [roll_die(kind, Rng(1), "Ann") for kind in (DieKind.library, DieKind.museum, DieKind.tomb)]
    assert faces == [Face.tentacle, Face.clue, Face.elder_sign]
    assert table.asked == [
        ("pick", {"elder_sign": 3, "clue": 2, "tentacle": 1}, "Ann rolls a library die"),
        ("pick", {"elder_sign": 2, "clue": 2, "tentacle": 2}, "Ann rolls a museum die"),
        ("pick", {"elder_sign": 1, "clue": 2, "tentacle": 3}, "Ann rolls a tomb die"),
    ]


def test_a_request_without_a_player_name_reads_cleanly():
    table = RecordingTable(["clue", ["tomb"]])
    with answered_by(table):
        roll_die(DieKind.tomb, Rng(1))
        draw_from_bag([0, 0, 3], 1, Rng(1))
    assert [entry[-1] for entry in table.asked] == ["rolls a tomb die", "draws 1 dice from the bag"]


def test_drawing_takes_the_dice_out_of_the_bag_and_offers_what_is_in_it():
    """Dice are drawn blind from the bag: the table is offered the bag's contents, and the drawn dice leave it."""
    bag = [8, 4, 3]
    table = RecordingTable([["library", "tomb", "tomb"]])
    with answered_by(table):
        drawn = draw_from_bag(bag, 3, Rng(1), "Ann")
    assert drawn == [DieKind.library, DieKind.tomb, DieKind.tomb]
    assert bag == [7, 4, 1]
    assert table.asked == [("draw", {"library": 8, "museum": 4, "tomb": 3}, 3, "Ann draws 3 dice from the bag")]


def test_drawing_no_dice_asks_nothing_and_changes_nothing():
    bag, rng = [1, 0, 0], Rng(5)
    table = RecordingTable([])
    with answered_by(table):
        assert draw_from_bag(bag, 0, rng, "Ann") == []
    assert bag == [1, 0, 0] and table.asked == [] and rng.draws == 0
