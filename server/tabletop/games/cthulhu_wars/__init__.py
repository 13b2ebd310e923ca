"""Cthulhu Wars: maps, Power and the full rules engine. Pure Python, no MCP."""

from .engine import ENGINE

__all__ = ["ENGINE"]
