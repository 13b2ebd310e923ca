"""The faction registry (rules_text ``cthulhu-wars/factions``).

Adding a faction = adding its module to this package: every module here except ``base``
defines ``FACTION`` (an instance of a :class:`~.base.Faction` subclass) or ``FACTIONS``.
"""

from __future__ import annotations

import importlib
import pkgutil

from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType

#: Faction modules: every module of this package but the framework itself.
_MODULES = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name != "base")

FACTIONS: dict[str, Faction] = {}


def register(faction: Faction) -> None:
    """Add a faction to the registry (names must be unique)."""
    if faction.name in FACTIONS and FACTIONS[faction.name] is not faction:
        raise ValueError(f"faction {faction.name!r} registered twice")
    FACTIONS[faction.name] = faction


def default_factions(count: int) -> list[str]:
    """The first ``count`` registered factions by :attr:`~.base.Faction.default_rank` (the four core factions
    in registry order, then Sleeper, Windwalker and Opener of the Way)."""
    ordered = sorted(FACTIONS.values(), key=lambda f: f.default_rank)
    return [f.name for f in ordered[:count]]


for _name in _MODULES:
    _module = importlib.import_module(f"{__name__}.{_name}")
    for _faction in getattr(_module, "FACTIONS", (getattr(_module, "FACTION", None),)):
        register(_faction)

__all__ = ["FACTIONS", "Faction", "Requirement", "Spellbook", "UnitType", "default_factions", "register"]
