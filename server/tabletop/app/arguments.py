"""Arguments that fail a tool's input schema, refused in words a model can act on.

The SDK validates every call's arguments with the pydantic model it built from the tool's signature
and, when they fail, would send the model pydantic's own report (the internal model's class name,
a pydantic.dev link per error). Here that report becomes one refusal of the documented kind
``bad_arguments`` in the same shape as every other refusal (``bad_arguments: ...``): for each
argument at fault its name, what was given (shortened) and what is allowed, said from the input
schema the client was shown in ``tools/list``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from ..core.errors import GameError
from ..core.text import clip

#: At most this many arguments are named in one refusal (the rest are counted), each given value shortened to
#: GIVEN_CHARS and each "allowed" to ALLOWED_CHARS.
MAX_NAMED, GIVEN_CHARS, ALLOWED_CHARS = 5, 60, 240

#: Pydantic's bounds (an error's ``ctx``) as the JSON Schema keywords describe() reads, for numbers and for sizes.
NUMBER_BOUNDS = {"ge": "minimum", "gt": "exclusiveMinimum", "le": "maximum", "lt": "exclusiveMaximum"}
SIZE_BOUNDS = {"min_length": "min", "max_length": "max"}

#: Marks a validator's own reason among the phrases collected for an argument (said as it is, not as "allowed").
REASON = "\0"

TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
}


class BadArguments(GameError):
    """A tool's arguments do not fit its input schema: a wrong type, a number out of range, a missing argument."""

    kind = "bad_arguments"


def refusal(err: ValidationError, schema: dict[str, Any]) -> BadArguments:
    """The refusal for arguments that failed ``schema`` (the tool's input schema as tools/list shows it)."""
    faults: dict[str, tuple[str | None, list[str]]] = {}
    for error in err.errors(include_url=False):
        path, node = locate(error["loc"], schema)
        given = None if error["type"] == "missing" else shown(error.get("input"))
        allowed = allowed_text(error, node)
        _, said = faults.setdefault(path, (given, []))
        if allowed not in said:
            said.append(allowed)
    parts = [fault(path, given, said) for path, (given, said) in list(faults.items())[:MAX_NAMED]]
    if len(faults) > MAX_NAMED:
        parts.append(f"and {len(faults) - MAX_NAMED} more")
    return BadArguments("; ".join(parts))


def fault(path: str, given: str | None, said: list[str]) -> str:
    """One argument's fault, e.g. "`seat` is 9 (allowed: an integer from 0 to 5)"; a validator's own reason is
    given as it is: "`position` is {...} (seat must index scores)"."""
    reasons = [s.removeprefix(REASON) for s in said if s.startswith(REASON)]
    allowed = [s for s in said if not s.startswith(REASON)]
    what = "; ".join([*reasons, *(["allowed: " + " or ".join(allowed)] if allowed else [])])
    if given is None:
        return f"`{path}` is missing (required: {clip(' or '.join(allowed), ALLOWED_CHARS)})"
    return f"`{path}` is {given} ({clip(what, ALLOWED_CHARS)})"


def shown(value: Any) -> str:
    """A given value as JSON, shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return clip(text, GIVEN_CHARS)


def locate(loc: tuple[int | str, ...], schema: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """The argument an error's ``loc`` names (``position.seat``, ``moves[2]``) and its schema (None if unknown).

    Pydantic puts the member of a union it tried into ``loc`` (``players.0.str``); such tags are not arguments
    and are left out: a part counts only where the schema has that property, item or key.
    """
    path, node = "", schema
    for part in loc:
        if node is None:
            break
        if isinstance(part, int):
            path, node = f"{path}[{part}]", node.get("items") if isinstance(node.get("items"), dict) else None
        elif part in node.get("properties", {}):
            path, node = f"{path}.{part}" if path else part, node["properties"][part]
        elif isinstance(node.get("additionalProperties"), dict):
            path, node = f"{path}.{part}" if path else part, node["additionalProperties"]
    return path or "arguments", node


def allowed_text(error: dict[str, Any], node: dict[str, Any] | None) -> str:
    """What the argument may be: the validator's own reason, or the schema (with the bound that failed) in words."""
    ctx = error.get("ctx") or {}
    if error["type"] in ("value_error", "assertion_error") and "error" in ctx:
        return REASON + str(ctx["error"]).rstrip(".")
    if node is None:  # not in the schema shown: say what pydantic says, without its class names
        return error["msg"].removeprefix("Input should be ").split(" or instance of ")[0]
    return describe(with_bounds(node, ctx))


def with_bounds(node: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """``node`` with the bounds of a failed check added where the schema does not say them itself."""
    merged = dict(node)
    for key, keyword in NUMBER_BOUNDS.items():
        if key in ctx and not isinstance(ctx[key], str):
            merged.setdefault(keyword, ctx[key])
    for key, end in SIZE_BOUNDS.items():
        if key in ctx:
            keyword = f"{end}Length" if node.get("type") == "string" else f"{end}Items"
            merged.setdefault(keyword, ctx[key])
    return merged


def describe(node: dict[str, Any]) -> str:
    """A schema in a few words: 'an integer from 0 to 5', 'one of "brief", "full"', 'a string or an object'."""
    if "enum" in node:
        return "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in node["enum"])
    kinds = node.get("type") or []
    kinds = [kinds] if isinstance(kinds, str) else kinds
    if not kinds:
        return "a JSON value"
    words = " or ".join(TYPE_WORDS.get(k, k) for k in kinds)
    if len(kinds) > 1:
        return words
    kind = kinds[0]
    if kind in ("integer", "number"):
        return words + number_range(node)
    if kind == "string":
        return words + size(node, "Length", "characters")
    if kind == "array":
        items = node.get("items")
        each = f", each {describe(items)}" if isinstance(items, dict) and items else ""
        return words + size(node, "Items", "items") + each
    if kind == "object" and node.get("properties"):
        required = node.get("required", [])
        keys = ", ".join(node["properties"])
        needs = f"; {', '.join(required)} required" if required else ""
        return f"{words} (keys: {keys}{needs})"
    return words


def number_range(node: dict[str, Any]) -> str:
    """' from 0 to 50', ' of at least 1', ' below 100', or '' for a number without bounds."""
    low, high, above, below = (
        plain(node.get(k)) for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
    )
    if low is not None and high is not None:
        return f" from {low} to {high}"
    said = []
    if low is not None:
        said.append(f"of at least {low}")
    if above is not None:
        said.append(f"above {above}")
    if high is not None:
        said.append(f"of at most {high}")
    if below is not None:
        said.append(f"below {below}")
    return (" " + " and ".join(said)) if said else ""


def plain(bound: Any) -> Any:
    """A bound as written by a person: 50 rather than 50.0."""
    return int(bound) if isinstance(bound, float) and bound.is_integer() else bound


def size(node: dict[str, Any], suffix: str, unit: str) -> str:
    """' of 1 to 200 characters', ' of at most 50 items', or '' when the size is free."""
    low, high = node.get(f"min{suffix}"), node.get(f"max{suffix}")
    if low is not None and high is not None:
        return f" of {low} to {high} {unit}"
    if high is not None:
        return f" of at most {high} {unit}"
    if low:
        return f" of at least {low} {unit}"
    return ""
