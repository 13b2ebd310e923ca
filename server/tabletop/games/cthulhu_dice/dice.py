"""The dice of Cthulhu Dice: three kinds, three faces (rules_text cthulhu-dice/dice)."""

from __future__ import annotations

from enum import Enum

from ...core.rng import Rng


class DieKind(str, Enum):
    # The three kinds of die in the bag, from safest to most dangerous (no docstring: pydantic would repeat
    # it in every schema that lists dice).

    library = "library"
    museum = "museum"
    tomb = "tomb"


class Face(str, Enum):
    elder_sign = "elder_sign"
    clue = "clue"
    tentacle = "tentacle"


KINDS: tuple[DieKind, ...] = (DieKind.library, DieKind.museum, DieKind.tomb)

#: How many of each die's six sides show an Elder Sign, a Clue and a Tentacle.
FACE_COUNTS: dict[DieKind, tuple[int, int, int]] = {
    DieKind.library: (3, 2, 1),
    DieKind.museum: (2, 2, 2),
    DieKind.tomb: (1, 2, 3),
}

#: The six sides of each die, in a fixed order, so a side index 0..5 maps to a face.
SIDES: dict[DieKind, tuple[Face, ...]] = {
    kind: (Face.elder_sign,) * es + (Face.clue,) * cl + (Face.tentacle,) * te
    for kind, (es, cl, te) in FACE_COUNTS.items()
}

#: The bag the seed describes: 8 Library, 4 Museum, 3 Tomb dice.
STANDARD_BAG: tuple[int, int, int] = (8, 4, 3)


def roll_die(kind: DieKind, rng: Rng, who: str = "") -> Face:
    """Roll one die: each of its six sides equally likely (its faces in the order of FACE_COUNTS)."""
    faces = dict(zip((f.value for f in Face), FACE_COUNTS[kind]))
    return Face(rng.pick(faces, f"{who} rolls a {kind.value} die".strip()))


def draw_from_bag(bag: list[int], count: int, rng: Rng, who: str = "") -> list[DieKind]:
    """Draw ``count`` dice uniformly at random from ``bag`` (dice per kind), removing them."""
    if not count:
        return []
    counts = {kind.value: n for kind, n in zip(KINDS, bag)}
    drawn = [DieKind(k) for k in rng.draw(counts, count, f"{who} draws {count} dice from the bag".strip())]
    for kind in drawn:
        bag[KINDS.index(kind)] -= 1
    return drawn
