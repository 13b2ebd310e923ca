"""The neutral unit types (rules_text ``cthulhu-wars/high-priests``, ``cthulhu-wars/neutral-monsters``,
``cthulhu-wars/independent-great-old-ones``): plain data, imported by the texts too."""

from __future__ import annotations

from tabletop.games.cthulhu_wars.factions.base import UnitType

HIGH_PRIEST = "high-priest"
GHAST, GUG, SHANTAK, STAR_VAMPIRE = "ghast", "gug", "shantak", "star-vampire"
BYATIS, DAOLOTH, ABHOTH, FILTH, NYOGTHA = "byatis", "daoloth", "abhoth", "filth", "nyogtha"

#: Every neutral unit type by slug: name, title, figures (per faction for the High Priest, on the card for a
#: monster), cost, Combat, role.
UNIT_TYPES: dict[str, UnitType] = {
    u.name: u for u in (
        UnitType(HIGH_PRIEST, "High Priest", 1, 3, 0, "cultist"),
        UnitType(GHAST, "Ghast", 4, 2, 0, "monster"),
        UnitType(GUG, "Gug", 2, 1, 3, "monster"),
        UnitType(SHANTAK, "Shantak", 2, 2, 2, "monster"),
        UnitType(STAR_VAMPIRE, "Star Vampire", 3, 2, 1, "monster"),
        # Independent Great Old Ones (cthulhu-wars/independent-great-old-ones): cost is the Awaken cost
        UnitType(BYATIS, "Byatis", 1, 4, 4, "goo"),
        UnitType(DAOLOTH, "Daoloth", 1, 6, 0, "goo"),
        UnitType(ABHOTH, "Abhoth", 1, 4, 0, "goo"),  # Combat: the Filth in play
        UnitType(FILTH, "Filth", 12, 1, 0, "monster"),  # Abhoth's tokens, placed by his Filth action
        UnitType(NYOGTHA, "Nyogtha", 2, 6, 4, "goo"),  # two figures; Combat 4 attacking, 1 otherwise
    )
}  # fmt: skip
