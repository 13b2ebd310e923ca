"""The games the server knows, by name (the name is also the rules_text folder)."""

from __future__ import annotations

from ..core.game import Engine
from .cthulhu_dice import ENGINE as CTHULHU_DICE
from .cthulhu_wars import ENGINE as CTHULHU_WARS
from .game_of_war import ENGINE as GAME_OF_WAR

ENGINES: dict[str, Engine] = {engine.name: engine for engine in (CTHULHU_DICE, CTHULHU_WARS, GAME_OF_WAR)}

