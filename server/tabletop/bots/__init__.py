"""Engine-level agents: they choose an action from a state, with no MCP involved."""

from .base import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]
