"""How texts name units, factions and the order of play (rules_text ``cthulhu-wars/factions`` for the unit names).

Notation writes a unit type as its slug (``deep-one``); a sentence names it as the rules print it, with an article
that fits: "an Acolyte", "a Deep One", "2 Deep Ones", and a Great Old One by its name alone ("Cthulhu"), since each
is a single figure.
"""

from __future__ import annotations

import functools

from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.neutrals.units import UNIT_TYPES as NEUTRAL_UNITS

#: Unit titles whose plural is the same word.
SAME_PLURAL = frozenset({
    "Byakhee", "Dark Young", "Fungi from Yuggoth", "Gnoph-Keh", "Formless Spawn", "Spawn of Yog-Sothoth",
    "Starspawn", "Undead", "Reanimated",
})  # fmt: skip
#: Great Old Ones whose printed name takes "the" in a sentence.
WITH_THE = frozenset({"King in Yellow"})


@functools.cache
def _titles() -> dict[str, tuple[str, str]]:
    """Every unit slug of every faction -> (its printed title, its role)."""
    found: dict[str, tuple[str, str]] = {}
    for faction in FACTIONS.values():
        for unit in faction.units:
            found.setdefault(unit.name, (unit.title, unit.role))
    for unit in NEUTRAL_UNITS.values():  # High Priests (cthulhu-wars/high-priests)
        found.setdefault(unit.name, (unit.title, unit.role))
    return found


def unit_title(kind: str) -> str:
    """The printed name of a unit type: ``deep-one`` -> "Deep One" (an unknown slug is capitalised word by word)."""
    known = _titles().get(kind)
    return known[0] if known else " ".join(w.capitalize() for w in kind.replace("_", "-").split("-"))


def is_goo(kind: str) -> bool:
    known = _titles().get(kind)
    return bool(known) and known[1] == "goo"


def plural(title: str) -> str:
    if title in SAME_PLURAL:
        return title
    if title.endswith("Man"):
        return title[:-3] + "Men"
    return title + "s"


def article(word: str) -> str:
    """'a' or 'an' before ``word`` (by its first letter: "an Acolyte", "an Undead", "a Byakhee")."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def a_unit(kind: str) -> str:
    """One figure of ``kind`` in a sentence: "an Acolyte", "a Deep One", "Cthulhu", "the King in Yellow"."""
    title = unit_title(kind)
    if is_goo(kind):
        return f"the {title}" if title in WITH_THE else title
    return f"{article(title)} {title}"


def capital(text: str) -> str:
    """``text`` with its first letter in capitals, for the start of a sentence ("An Acolyte ...")."""
    return text[:1].upper() + text[1:]


def units(kind: str, count: int) -> str:
    """``count`` figures of ``kind``: "an Acolyte", "2 Acolytes", "Cthulhu"."""
    if count == 1:
        return a_unit(kind)
    return f"{count} {plural(unit_title(kind))}"


def unit_list(counts: dict[str, int]) -> str:
    """Figures by type in a sentence: "2 Acolytes and a Deep One"."""
    parts = [units(kind, n) for kind, n in counts.items() if n]
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]


def faction_title(name: str) -> str:
    """A faction's printed name ("Great Cthulhu"), or the name as given if it is none (a creature's title)."""
    faction = FACTIONS.get(name)
    return faction.title if faction else name


def play_order(factions: list[str], first: int, direction: int) -> str:
    """The factions in turn order from the seat ``first``, e.g. "Great Cthulhu → Crawling Chaos → Black Goat"
    (``direction`` +1 clockwise, in seat order; -1 the other way; ``cthulhu-wars/first-player``)."""
    n = len(factions)
    return " → ".join(faction_title(factions[(first + direction * k) % n]) for k in range(n))
