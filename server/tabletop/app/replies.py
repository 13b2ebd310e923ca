"""How every tool answers: one compact text for the model, plus the structured result for programs.

The text (``content``) is written to be read (see text.py) and says nothing twice; the typed
result goes in ``structuredContent`` (checked against the tool's outputSchema). A server started
with ``--json-content`` also adds the JSON of the structured result to ``content``, for clients that
ignore ``structuredContent`` (see server.py). Refusals from the rules become ``ToolError``s so their
explanation reaches the model (other exceptions have their message withheld by the SDK).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel

from ..core.errors import GameError

P = ParamSpec("P")
R = TypeVar("R")


def reply(result: BaseModel, text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result.model_dump(mode="json"))


def refusals_as_tool_errors(tool: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Turn a GameError into a ToolError whose text starts with the error kind (``illegal_move: ...``)."""

    @functools.wraps(tool)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await tool(*args, **kwargs)
        except GameError as err:
            raise ToolError(f"{err.kind}: {err}") from None

    return wrapper
