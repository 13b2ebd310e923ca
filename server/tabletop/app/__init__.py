"""The MCP server: thin adapters from tools, resources and prompts to sessions and games."""
