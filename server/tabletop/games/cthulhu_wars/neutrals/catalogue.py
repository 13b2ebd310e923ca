"""Every piece of neutral material built, registered with :mod:`.registry` on import (the engine imports this)."""

from __future__ import annotations

from tabletop.games.cthulhu_wars.neutrals import high_priests, igoos, monsters, registry

for _rule in (high_priests.RULE, monsters.RULE, igoos.RULE):
    if _rule not in registry.RULES:
        registry.register(_rule)

__all__ = ["registry"]
