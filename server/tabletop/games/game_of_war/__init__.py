"""Guy Debord's A Game of War: a pure rules engine. Rules text: rules_text/game-of-war."""

from .analysis import combat_preview, network_status
from .engine import GameOfWarEngine
from .options import GameOfWarOptions
from .state import State, build_position

ENGINE = GameOfWarEngine()

__all__ = ["ENGINE", "GameOfWarEngine", "GameOfWarOptions", "State", "build_position", "combat_preview", "network_status"]
