"""Checks of what a tournament file (or the arena's command line) holds, each failing with a :class:`SpecError`
whose message is one line naming the key: no key but the known ones, numbers of the right kind within their bounds,
texts of one line, and the ``cmd:`` template, which may name only :data:`CMD_FIELDS` (``{url}``, ``{game_id}``,
``{seat}``, ``{token}``), plainly: no attribute or index (``{url.__class__}``, ``{seat[0]}``), conversion or format.
:func:`expand` is the one reading of a template, used both when the file is read and when a program is started.
"""

from __future__ import annotations

import math
import string
from collections.abc import Iterable, Mapping
from typing import Any

from ..core.text import has_control_characters

#: What a ``cmd:`` player's arguments may name, replaced before the program starts.
CMD_FIELDS = ("url", "game_id", "seat", "token")


class SpecError(ValueError):
    """A tournament cannot be run as described; the message says what to change."""


def known_keys(where: str, given: Mapping[str, Any], allowed: Iterable[str]) -> None:
    """Refuse any key of ``given`` not in ``allowed``, naming it (``where``: ``""`` at the top, else e.g. ``limits``)."""
    allowed = list(allowed)
    for key in given:
        if key not in allowed:
            place = f"{where}.{key}" if where else str(key)
            raise SpecError(f"unknown key {place[:80]!r} in the tournament; the keys{' of ' + where if where else ''} "
                            f"are: {', '.join(allowed)}")


def whole(where: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is an integer from ``low`` to ``high`` (not a bool, not 2.5)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SpecError(f"{where} is a whole number from {low:,} to {high:,}, not {shown(value)}")
    return value


def seconds(where: str, value: Any, high: float) -> float:
    """``value`` if it is a number of seconds above 0 and at most ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not (0 < value <= high):
        raise SpecError(f"{where} is a number of seconds above 0 and at most {high:,g}, not {shown(value)}")
    return value


def text(where: str, value: Any, longest: int) -> str:
    """``value`` if it is one line of printable text of at most ``longest`` characters."""
    if not isinstance(value, str) or len(value) > longest or has_control_characters(value):
        raise SpecError(f"{where} is one line of text of at most {longest} characters, not {shown(value)}")
    return value


def flag(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise SpecError(f"{where} is true or false, not {shown(value)}")
    return value


def table(where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SpecError(f"{where} is a table of keys and values, not {shown(value)}")
    return value


def expand(argument: str, values: Mapping[str, str]) -> str:
    """``argument`` with each ``{field}`` replaced by its value; a SpecError for any other use of braces (``{{`` and
    ``}}`` stand for one brace)."""
    out = []
    try:
        parts = list(string.Formatter().parse(argument))
    except ValueError as err:
        raise SpecError(f"cmd argument {argument[:60]!r}: {err} (write {{{{ and }}}} for a brace itself)") from None
    for literal, field, spec, conversion in parts:
        out.append(literal)
        if field is None:
            continue
        if field not in CMD_FIELDS or spec or conversion:
            raise SpecError(f"cmd argument {argument[:60]!r} names {{{field[:40]}{'!' + conversion if conversion else ''}"
                            f"{':' + spec[:20] if spec else ''}}}; it may name only "
                            + ", ".join(f"{{{name}}}" for name in CMD_FIELDS))
        out.append(values[field])
    return "".join(out)


def shown(value: Any) -> str:
    """A short rendering of a bad value for a one-line message."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    rendered = repr(value)
    return rendered if len(rendered) <= 40 else rendered[:37] + "..."
