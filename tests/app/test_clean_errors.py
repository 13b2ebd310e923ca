"""Clean errors through the real MCP client: arguments that fail a tool's schema are one documented refusal
(``bad_arguments``) naming the argument, what was given and what is allowed; new_game without a seat count seats
the game's smallest table; unknown prompts and resources are invalid params (-32602), logged without a traceback."""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client, MCPError
from mcp.types import INVALID_PARAMS

from test_error_kinds_documented import every_kind

from .helpers import call, refused

pytestmark = pytest.mark.anyio

#: Library internals a refusal must never show.
INTERNALS = ("pydantic", "validation error for", "errors.pydantic.dev", "Arguments", "Traceback", "instance of")
REFUSAL = re.compile(r"^Error executing tool (\w+): ([a-z_]+): ")


async def test_the_issue_examples_are_clean_refusals(client: Client):
    text = await refused(client, "apply_move", game_id="x", token="y", move="roll", expected_ply=0)
    assert text == "Error executing tool apply_move: bad_arguments: `expected_ply` is 0 (allowed: an integer of at least 1)."
    text = await refused(client, "wait_for_turn", game_id="x", token="y", timeout_seconds=120)
    assert "bad_arguments: `timeout_seconds` is 120 (allowed: a number from 0 to 50)" in text
    text = await refused(client, "apply_move", game_id="x", move="roll")
    assert "bad_arguments: `token` is missing (required: a string)" in text
    text = await refused(client, "get_state", game_id="x", detail="everything")
    assert '`detail` is "everything" (allowed: one of "brief", "full")' in text
    text = await refused(client, "new_game", game="cthulhu-dice", players=[7])
    assert "`players[0]` is 7 (allowed: a string or an object)" in text, "a union's member tags are not arguments"
    text = await refused(client, "cthulhu_dice_advice", position={"scores": [3, 4], "seat": 9, "clues": {"tomb": 31}})
    assert "`position.seat` is 9 (allowed: an integer from 0 to 5)" in text
    assert "`position.clues.tomb` is 31 (allowed: an integer of at most 30)" in text, "a bound the schema leaves out"
    text = await refused(client, "apply_move", game_id="x", token="y", move="r" * 5000)
    assert len(text) < 400 and "…" in text, "what was given is shortened"
    text = await refused(client, "cthulhu_dice_advice", position={"scores": [3, 4], "seat": 3})
    assert "(seat must index scores" in text, "a validator's own reason is said as it is"


async def test_every_tool_refuses_schema_breaking_arguments_cleanly(server):
    """For every tool and argument: a wrong type, a value out of range or outside the enum, a required one left
    out. Each is a tool error of kind bad_arguments naming the argument (or, where the value fits the schema's
    types, the game's own kind), with nothing of the validation library in it."""
    kinds = every_kind()
    async with Client(server) as client:
        tools = (await client.list_tools()).tools
        tried = 0
        for tool in tools:
            schema = tool.input_schema
            base = valid_value(schema)
            for argument, args in bad_arguments(schema, base):
                result = await client.call_tool(tool.name, args)
                text = result.content[0].text
                assert result.is_error, (tool.name, args)
                found = REFUSAL.match(text)
                assert found and found.group(1) == tool.name, text
                assert not any(word in text for word in INTERNALS), text
                if found.group(2) == "bad_arguments":
                    assert f"`{argument}" in text, (argument, text)
                else:
                    assert found.group(2) in kinds, text
                tried += 1
        assert tried > 150, tried


async def test_new_game_without_a_seat_count_seats_the_smallest_table(client: Client):
    games = {g["name"]: g for g in (await call(client, "list_games", detail="full"))["games"]}
    for name, game in games.items():
        started = await call(client, "new_game", game=name)
        assert len(started["seats"]) - ("referee" in [s["role"] for s in started["seats"]]) == game["min_seats"], name
    assert games["cthulhu-wars"]["min_seats"] == 3


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_unknown_prompts_and_resources_are_invalid_params_without_a_traceback(server, mode, caplog):
    caplog.set_level(logging.DEBUG)
    async with Client(server, mode=mode) as client:
        asked = {
            "prompt": lambda: client.get_prompt("no_such_prompt", {}),
            "prompt argument": lambda: client.get_prompt("referee", {}),
            "resource": lambda: client.read_resource("nothing://here"),
            "game": lambda: client.read_resource("game://cthulhu-dice-nope"),
            "rules": lambda: client.read_resource("rules://cthulhu-dice/no-such-section"),
        }
        messages = {}
        for what, ask in asked.items():
            with pytest.raises(MCPError) as raised:
                await ask()
            assert raised.value.error.code == INVALID_PARAMS, (what, raised.value.error)
            messages[what] = raised.value.error.message
        assert "no_such_prompt" in messages["prompt"] and "play_seat" in messages["prompt"]
        assert "game_id" in messages["prompt argument"]
        assert (await client.get_prompt("referee", {"game_id": "g"})).messages, "a known prompt still answers"
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING], caplog.text
    assert "Traceback" not in caplog.text
    assert all(r.levelno <= logging.DEBUG for r in caplog.records if "failed" in r.getMessage()), "refusals at DEBUG"


# ---- bad arguments built from an input schema -----------------------------------------------------------


def valid_value(schema: dict[str, Any]) -> Any:
    """A value ``schema`` accepts, as plain as possible (required object keys only)."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        return {k: valid_value(schema["properties"][k]) for k in schema.get("required", [])}
    if kind == "array":
        return [valid_value(schema.get("items", {"type": "string"})) for _ in range(schema.get("minItems", 0))]
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", -1) + 1)
        return max(low, 0) if schema.get("maximum", 0) >= 0 else low
    if kind == "boolean":
        return False
    return "x" * max(1, schema.get("minLength", 1))


def broken_values(schema: dict[str, Any]) -> Iterator[Any]:
    """Values that break ``schema``: a wrong type, past each bound, outside the enum."""
    kinds = schema.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    wrong = {"twelve": {"string"}, 12345: {"integer", "number"}, 1.5: {"number"}, "[]": set()}
    yield next(v for v, fits in wrong.items() if not fits & kinds)  # "[]" is read as JSON: a list
    if "enum" in schema:
        yield "no-such-choice"
    for bound, step in (("minimum", -1), ("maximum", 1), ("exclusiveMinimum", 0), ("exclusiveMaximum", 0)):
        if bound in schema:
            yield schema[bound] + step
    if "maxLength" in schema and kinds == {"string"}:
        yield "y" * (schema["maxLength"] + 1)
    if "maxItems" in schema:
        yield [valid_value(schema.get("items", {"type": "string"}))] * (schema["maxItems"] + 1)
    if schema.get("minItems"):
        yield []


def bad_arguments(schema: dict[str, Any], base: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict]]:
    """(argument, arguments) pairs: ``base`` with one argument (nested ones too) broken or left out."""
    for name, prop in schema.get("properties", {}).items():
        where = f"{path}.{name}" if path else name
        for value in broken_values(prop):
            yield where, placed(base, where, value)
        if prop.get("type") == "object" and prop.get("properties"):
            inner = copy.deepcopy(base)
            holder = reach(inner, where, create=True)
            holder[name] = {**valid_value(prop), **holder.get(name, {})}
            yield from bad_arguments(prop, inner, where)
    for name in schema.get("required", []):
        where = f"{path}.{name}" if path else name
        without = copy.deepcopy(base)
        reach(without, where, create=True).pop(name, None)
        yield where, without


def reach(args: dict, where: str, create: bool = False) -> dict:
    """The object holding the last part of the dotted ``where``."""
    node = args
    for part in where.split(".")[:-1]:
        node = node.setdefault(part, {}) if create else node[part]
    return node


def placed(base: dict, where: str, value: Any) -> dict:
    args = copy.deepcopy(base)
    reach(args, where, create=True)[where.split(".")[-1]] = value
    return args
