"""Tabletop MCP: board games for AI assistants, backed by real rules engines."""

__version__ = "0.1.0"
