"""How every tool answers: a short text for people and models, plus the structured result.

The structured result goes in ``structuredContent`` (checked against the tool's outputSchema)
and, as the MCP specification recommends, also as JSON text for clients that only read
``content``. Refusals from the rules become ``ToolError``s so their explanation reaches the
model (other exceptions have their message withheld by the SDK).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel
from pydantic_core import to_json

from ..core.errors import GameError

P = ParamSpec("P")
R = TypeVar("R")


def reply(result: BaseModel, text: str) -> CallToolResult:
    data = result.model_dump(mode="json")
    return CallToolResult(
        content=[TextContent(type="text", text=text), TextContent(type="text", text=to_json(data).decode())],
        structured_content=data,
    )


def refusals_as_tool_errors(tool: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Turn a GameError into a ToolError whose text starts with the error kind (``illegal_move: ...``)."""

    @functools.wraps(tool)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await tool(*args, **kwargs)
        except GameError as err:
            raise ToolError(f"{err.kind}: {err}") from None

    return wrapper
