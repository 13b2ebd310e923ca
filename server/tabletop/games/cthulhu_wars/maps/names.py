"""Forgiving area-name matching (rules_text section ``cthulhu-wars/maps``).

A name is matched after folding case, accents, spaces, hyphens, underscores and
punctuation away. In order, a text may be an area's id or display name, the initials
of a name of two or more words ("NZ", "NAE"), the start of a name (at least three
letters, "antarc") or whole words of a name ("Zealand"). The first of these rules that
fits any area decides: one area is the answer, several are refused as ambiguous.
Anything else is refused with the closest names.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Sequence
from typing import Protocol, TypeVar

from tabletop.core.errors import MalformedMove
from tabletop.core.text import clip

RULE = "cthulhu-wars/maps"
MIN_PREFIX = 3


class UnknownArea(MalformedMove):
    """No area of the layout answers to the text given."""

    kind = "unknown_area"


class AmbiguousArea(UnknownArea):
    """The text fits more than one area of the layout."""

    kind = "ambiguous_area"


class Named(Protocol):
    """Anything with an id and a display name, such as an Area."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=Named)


def normalize(text: str) -> str:
    """Fold a name to lowercase letters and digits only: 'North-America_East' -> 'northamericaeast'."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if ch.isalnum())


def words(name: str) -> list[str]:
    """The normalized words of a name: 'North America-East' -> ['north', 'america', 'east']."""
    return [word for word in (normalize(part) for part in name.replace("-", " ").split()) if word]


def initials(name: str) -> str:
    """The first letters of a name of several words ('New Zealand' -> 'nz'); '' for one word."""
    parts = words(name)
    return "".join(word[0] for word in parts) if len(parts) > 1 else ""


def match_name(candidates: Sequence[N], text: str, where: str) -> N:
    """The one candidate ``text`` names; raise UnknownArea or AmbiguousArea otherwise."""
    every_name = [c.name for c in candidates]
    key = normalize(text)
    if not key:
        raise UnknownArea(f"An area name is needed for the {where} map", rule=RULE, legal=every_name)
    for fits in (_by_id_or_name, _by_initials, _by_prefix, _by_whole_words):
        found = [c for c in candidates if fits(c, key)]
        if len(found) == 1:
            return found[0]
        if found:
            names = [c.name for c in found]
            raise AmbiguousArea(f"{text!r} could mean {_either(names)} on the {where} map", rule=RULE, legal=names)
    raise UnknownArea(_unknown_message(candidates, text, where), rule=RULE, legal=every_name)


def close_names(candidates: Sequence[Named], text: str, limit: int = 4) -> list[str]:
    """Display names that look most like ``text``, best first."""
    by_key = {normalize(c.name): c.name for c in candidates}
    return [by_key[k] for k in difflib.get_close_matches(normalize(text), list(by_key), n=limit, cutoff=0.5)]


def _by_id_or_name(candidate: Named, key: str) -> bool:
    return key in (normalize(candidate.id), normalize(candidate.name))


def _by_initials(candidate: Named, key: str) -> bool:
    return initials(candidate.name) == key


def _by_prefix(candidate: Named, key: str) -> bool:
    return len(key) >= MIN_PREFIX and normalize(candidate.name).startswith(key)


def _by_whole_words(candidate: Named, key: str) -> bool:
    parts = words(candidate.name)
    runs = ("".join(parts[start:end]) for start in range(len(parts)) for end in range(start + 1, len(parts) + 1))
    return key in runs


def _either(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1]


def _unknown_message(candidates: Sequence[Named], text: str, where: str) -> str:
    message = f"No area called {clip(text, 60)!r} on the {where} map"
    close = close_names(candidates, text)
    return message + f" (closest: {', '.join(close)})" if close else message
