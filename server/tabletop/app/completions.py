"""Completions for prompt and resource-template arguments: game ids, game names, rules sections."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp.types import Completion, CompletionArgument, CompletionContext, PromptReference, ResourceTemplateReference

from .. import rulebook
from ..sessions.manager import GameSessions

#: Most values one completion answers with (the protocol allows 100).
MAX_VALUES = 50


def matching(values: list[str], prefix: str) -> Completion:
    found = [v for v in values if v.lower().startswith(prefix.strip().lower())]
    return Completion(values=found[:MAX_VALUES], total=len(found), has_more=len(found) > MAX_VALUES)


def register_completions(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.completion()
    async def complete(
        ref: PromptReference | ResourceTemplateReference,
        argument: CompletionArgument,
        context: CompletionContext | None,
    ) -> Completion | None:
        """``game_id``: recent games; ``game``: game names; ``section``: the sections of the chosen game."""
        if argument.name == "game_id":
            return matching([record.id for record, _ in sessions.list(200)], argument.value)
        if argument.name == "game":
            return matching(sorted(rulebook.load_rulebook()), argument.value)
        if argument.name == "section":
            game = (context.arguments or {}).get("game") if context else None
            book = rulebook.load_rulebook()
            games = [game] if game in book else sorted(book)
            return matching([s.id for g in games for s in book[g]], argument.value)
        return None
