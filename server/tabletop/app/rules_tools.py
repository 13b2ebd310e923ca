"""The rules reference as MCP resources, the search_rules tool, game states as resources, and prompts."""

from __future__ import annotations

import json
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.mcpserver.resources import TextResource
from mcp.types import CallToolResult
from pydantic import Field

from .. import rulebook
from ..core.errors import BadOptions, GameError
from ..sessions.manager import GameSessions
from .game_tools import READ_ONLY, state_of
from .models import RulesHit, RulesSearch
from .replies import refusals_as_tool_errors, reply


def register_rules(mcp: MCPServer) -> None:
    """``rules://<game>`` (the whole reference) and ``rules://<game>/<section>`` for every section."""
    for game, sections in rulebook.load_rulebook().items():
        mcp.add_resource(
            TextResource(
                uri=f"rules://{game}",
                name=f"{game} rules",
                title=f"Rules reference: {game}",
                description=f"The complete rules of {game} in plain English, with this server's rulings.",
                mime_type="text/markdown",
                text=rulebook.whole_reference(game),
            )
        )
        for section in sections:
            mcp.add_resource(
                TextResource(
                    uri=section.uri,
                    name=f"{game}/{section.id}",
                    title=section.title,
                    mime_type="text/markdown",
                    text=section.text,
                )
            )

    @mcp.resource("rules://{game}/{section}", mime_type="text/markdown", title="A section of a game's rules")
    def rules_section(game: str, section: str) -> str:
        found = rulebook.find_section(game, section)
        if found is None:
            known = ", ".join(s.id for s in rulebook.load_rulebook().get(game, [])) or "none (unknown game)"
            raise ResourceNotFoundError(f"No section '{section}' in the rules of '{game}'. Sections: {known}")
        return found.text

    @mcp.resource("rules://{game}/{section}{#passage}", mime_type="text/markdown", title="One passage of the rules")
    def rules_passage(game: str, section: str, passage: str) -> str:
        """The passage a search hit named: its heading path, then its words."""
        uri = f"rules://{game}/{section}#{passage}"
        found = rulebook.passage_at(uri)
        if found is None:
            raise ResourceNotFoundError(f"No passage {uri}; search_rules gives the passages' URIs.")
        return f"{found.path}\n\n{found.text}\n"

    @mcp.tool(title="Search the rules", annotations=READ_ONLY)
    @refusals_as_tool_errors
    async def search_rules(
        query: Annotated[str, Field(min_length=1, max_length=300, description="The question, e.g. 'three tentacles'.")],
        game: Annotated[str | None, Field(description="Only this game.")] = None,
        limit: Annotated[int, Field(ge=1, le=10, description="Most passages (default 3).")] = 3,
    ) -> Annotated[CallToolResult, RulesSearch]:
        """Search the rules: the passages that answer, best first, each quotable with its rules:// URI."""
        book = rulebook.load_rulebook()
        if game is not None and game not in book:
            raise BadOptions(f"There are no rules for '{game}'", legal=sorted(book))
        found = rulebook.search(query, game, limit)
        hits = passage_hits(found, query)
        return reply(RulesSearch(query=query, results=hits, note=search_note(found)), search_text(found, hits, query))


#: The longest passage quoted in a search answer; its text gives the first one whole and the others
#: whole while they fit in SEARCH_TEXT_BUDGET, else a short excerpt (the budget keeps the median answer to the
#: question sets of tests/rulebook under 1,200 characters).
PASSAGE_LIMIT = 700
SEARCH_TEXT_BUDGET = 900
EXCERPT_LIMIT = 160


def passage_hits(found: rulebook.SearchResult, query: str) -> list[RulesHit]:
    """The search's hits as the tool answers them: each passage quoted (at most PASSAGE_LIMIT) with its URI."""
    return [
        RulesHit(
            uri=h.passage.uri,
            game=h.passage.section.game,
            section=h.passage.section.id,
            path=h.passage.path,
            passage=rulebook.quote(h.passage, query, PASSAGE_LIMIT, found),
        )
        for h in found.hits
    ]


def search_note(found: rulebook.SearchResult) -> str | None:
    """What the answer must say beside its passages: words found nowhere, or that nothing matches."""
    parts = []
    if found.unknown:
        words = ", ".join(repr(w) for w in found.unknown)
        parts.append(f"No passage of the rules mentions {words}" + ("; ranked by the other words." if found.hits else "."))
    if not found.hits:
        parts.append("Nothing in the rules matches this question well; try other words.")
    return " ".join(parts) or None


def search_text(found: rulebook.SearchResult, hits: list[RulesHit], query: str) -> str:
    """One block per passage: its heading path and URI, then its words (later ones shorter once the budget is spent)."""
    lines, spent = [], 0
    for number, (hit, found_hit) in enumerate(zip(hits, found.hits), start=1):
        words = hit.passage if number == 1 or spent + len(hit.passage) <= SEARCH_TEXT_BUDGET else None
        words = words or rulebook.quote(found_hit.passage, query, EXCERPT_LIMIT, found)
        spent += len(words)
        lines.append(f"{number}. {hit.path} <{hit.uri}>\n{words}")
    note = search_note(found)
    return "\n".join([*lines, *([note] if note else [])])


def register_game_resources(mcp: MCPServer, sessions: GameSessions) -> None:
    @mcp.resource("game://{game_id}", mime_type="application/json", title="A game's public state")
    def game_state(game_id: str) -> str:
        """The spectator view of a game: what anyone watching the table could see."""
        try:
            live = sessions.get(game_id)
        except GameError as err:
            raise ResourceNotFoundError(str(err)) from None
        return json.dumps(state_of(sessions, live, None).model_dump(mode="json"))


PromptGameId = Annotated[str, Field(description="The game's id, as new_game returned it.")]


def register_prompts(mcp: MCPServer) -> None:
    @mcp.prompt(title="Play a seat of a game well")
    def play_seat(
        game_id: PromptGameId,
        token: Annotated[str, Field(description="The secret token of the seat to play (from new_game).")],
    ) -> str:
        """Instructions for an assistant playing one seat of a game on this server."""
        return (
            f"You are playing one seat of game {game_id} on the Tabletop MCP server; your seat token is {token}. "
            "Keep the token to yourself.\n"
            "1. Call wait_for_turn with the game id and your token. When it is your turn it answers with the "
            "position and your legal moves in notation (a/b means either alternative); read the rules resource "
            "(rules://<game>) or use search_rules for anything you are unsure of. Never rely on memory for rules.\n"
            "2. Choose only from the legal moves. Think about the odds and the other players' positions; "
            "apply_move with dry_run=true checks an idea (a move with dice shows its odds, never its result).\n"
            "3. Play with apply_move: one move, or a whole turn as `moves` (all or none). Its answer says what "
            "happened and, if the decision is yours again, your next legal moves. If a move is refused, read the "
            "reason and the rule cited, then choose again.\n"
            "4. Then call wait_for_turn again, until the game is over.\n"
            "Explain each decision in one or two sentences."
        )

    @mcp.prompt(title="Referee a position")
    def referee(game_id: PromptGameId) -> str:
        """Instructions for an assistant acting as referee of a game in progress."""
        return (
            f"You are the referee of game {game_id} on the Tabletop MCP server. Read the game with get_state and "
            "its log with history. Answer the players' questions about what happened and what is allowed from the "
            "engine's answers and the rules resources (cite the rules:// section), never from memory. If a player "
            "proposes a move, check it with apply_move and dry_run=true using that seat's token, and report the "
            "engine's verdict and reason.\n"
            "At a real table (a game made with options {\"chance\": \"table\"}) you hold the referee token "
            "new_game returned (seat -1): it plays for any seat (the seat awaited first, or prefix another: "
            "'1: pass') and only it enters dice and draws. When a move needs chance, legal_moves names what the "
            "table must show; ask the players, then apply_move 'enter' with the values (e.g. 'enter 6 5 2'); "
            "impossible values are refused with the reason. 'undo' takes back the last move, back to the last "
            "result entered and no further. Each game's rules://<game>/table (A Game of War: /rulings) says how "
            "its chance is entered."
        )

    @mcp.prompt(title="Answer a rules question")
    def rules_question(
        game: Annotated[str, Field(description="The game the question is about, e.g. 'cthulhu-wars'.")],
        question: Annotated[str, Field(description="The question, in the asker's words.")],
    ) -> str:
        """Answer a rules question from this server's rules reference."""
        return (
            f"Answer this question about {game}: {question}\n"
            f"1. Search first: call search_rules with game='{game}' and the question's key words (the rules' own "
            "terms where you know them). Each hit is a passage of the rules with its rules:// URI.\n"
            "2. Answer from the passages: quote the sentence that decides the question, word for word, with its "
            "URI (e.g. rules://cthulhu-wars/actions#build-gate). Read a whole section (rules://<game>/<section>) "
            "only when the passages do not settle it; search again with other words before reading more.\n"
            "3. Say which of this server's rulings apply (the rulings section: game options), and say plainly "
            "if the rules do not settle the question. Never answer from memory."
        )
