"""Tool schemas as clients want them: portable input schemas and lean output schemas.

Pydantic writes optional arguments as ``anyOf: [X, null]`` and nested models as ``$ref`` into
``$defs``; several MCP clients reject one or the other. Every input schema is rewritten here into
the plainest form that says the same: nested models inline, an optional argument simply not
required. Output schemas keep their structure (clients validate ``structuredContent`` against it)
but lose titles and descriptions, which only a program reads and which cost every conversation
tokens in ``tools/list``; the field descriptions stay in the pydantic models and the README.
"""

from __future__ import annotations

from typing import Any

NULL = {"type": "null"}


def portable_input(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every ``$ref`` inlined, no ``$defs``, no ``title`` and no ``anyOf`` with null."""
    defs = schema.get("$defs", {})

    def clean(node: Any) -> Any:
        if isinstance(node, list):
            return [clean(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:  # a model's own docstring is not repeated: the argument that uses it says enough
            target = {k: v for k, v in defs[node["$ref"].split("/")[-1]].items() if k != "description"}
            merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            return clean(merged)
        options = node.get("anyOf")
        if options and NULL in options:
            rest = [o for o in options if o != NULL]
            inner = rest[0] if len(rest) == 1 else {"anyOf": rest}
            outer = {k: v for k, v in node.items() if k not in ("anyOf", "default") or (k == "default" and v is not None)}
            return clean({**inner, **outer})
        return {k: clean(v) for k, v in node.items() if k not in ("title", "$defs")}

    return clean(schema)


def lean_output(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """``schema`` without titles and descriptions (the structure clients validate against is unchanged)."""
    if schema is None:
        return None

    def clean(node: Any, in_properties: bool = False) -> Any:
        if isinstance(node, list):
            return [clean(item) for item in node]
        if not isinstance(node, dict):
            return node
        if in_properties:  # keys are field names, never keywords
            return {k: clean(v) for k, v in node.items()}
        return {
            k: clean(v, in_properties=k in ("properties", "$defs"))
            for k, v in node.items()
            if k not in ("title", "description")
        }

    return clean(schema)


def plain_description(text: str | None) -> str:
    """A docstring as one paragraph: no code indentation, no hard line breaks."""
    return " ".join((text or "").split())
