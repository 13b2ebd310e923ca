"""Cthulhu Wars: maps, Power and (later) the full rules engine. Pure Python, no MCP."""
