"""How every tool answers: one compact text for the model, plus the structured result for programs.

The text (``content``) is written to be read (see text.py) and says nothing twice; the typed
result goes in ``structuredContent`` (checked against the tool's outputSchema). A server started
with ``--json-content`` also adds the JSON of the structured result to ``content``, for clients that
ignore ``structuredContent`` (see server.py). Refusals from the rules become ``ToolError``s so their
explanation reaches the model (other exceptions have their message withheld by the SDK).
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel

from ..core.errors import GameError
from ..core.text import clip

#: Refusals are logged here once, at DEBUG, each at most 200 characters (the SDK's own longer line is dropped).
log = logging.getLogger("tabletop.refusals")

P = ParamSpec("P")
R = TypeVar("R")


def reply(result: BaseModel, text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result.model_dump(mode="json"))


def refusals_as_tool_errors(tool: Callable[P, R]) -> Callable[P, R]:
    """Turn a GameError into a ToolError whose text starts with the error kind (``illegal_move: ...``).

    Works for ``async def`` tools (run on the event loop: the game tools, whose work takes well under a
    millisecond, and a thread hop would cost more than it saves) and for plain ``def`` tools, which the
    SDK runs in a worker thread so that their heavy work (drawing a picture, solving a dice variant)
    never holds up other clients.
    """

    def refused(err: GameError) -> ToolError:
        logged(tool.__name__, err)
        return ToolError(f"{err.kind}: {err}")

    if inspect.iscoroutinefunction(tool):

        @functools.wraps(tool)
        async def waits(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return await tool(*args, **kwargs)
            except GameError as err:
                raise refused(err) from None

        return waits  # type: ignore[return-value]

    @functools.wraps(tool)
    def works(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return tool(*args, **kwargs)
        except GameError as err:
            raise refused(err) from None

    return works


def logged(tool: str, err: GameError) -> None:
    """Log a refusal once, at DEBUG, in at most 200 characters."""
    log.debug("%s refused: %s", tool, clip(f"{err.kind}: {err}", 200))


def refused_call(tool: str, err: GameError) -> ToolError:
    """A refusal raised outside the tool's own code (its arguments failed the schema), in the shape the SDK gives
    the tool's own refusals: ``Error executing tool <tool>: <kind>: <why>``."""
    logged(tool, err)
    return ToolError(f"Error executing tool {tool}: {err.kind}: {err}")


class NoRepeatedRefusals(logging.Filter):
    """Keeps refusals at DEBUG: drops the SDK's own INFO line for a refused call (the refusal is already logged
    once, briefly, above) and lowers its INFO line for a refused resource read (an unknown game or section) to
    DEBUG, shown only when DEBUG is on."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        message = str(record.msg)
        if message.startswith(("Tool %r failed", "Tool %r rejected arguments")):
            return False
        if message.startswith("Resource %r failed"):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return log.isEnabledFor(logging.DEBUG)
        return True


def log_refusals_once() -> None:
    sdk = logging.getLogger("mcp.server.mcpserver.server")
    if not any(isinstance(f, NoRepeatedRefusals) for f in sdk.filters):
        sdk.addFilter(NoRepeatedRefusals())
