"""Short text notation for every action (rules_text ``cthulhu-wars/notation``).

One rule covers core and faction actions alike: the action's kind, then its fields in
order, leaving out fields at their default. Areas are written as ids when printed and
read forgivingly (any name the map accepts, spaces allowed); a target follows ``>`` after
a source and ``to`` otherwise; an enemy follows ``vs``; a true flag is written as its
name (``from-gate``, ``with-units``); lists are comma-separated (``none`` when empty).
Examples: ``move acolyte north-atlantic>europe``, ``summon deep-one south-pacific``,
``battle europe vs great-cthulhu``, ``gate europe``, ``recruit europe``,
``assign kill deep-one,acolyte``, ``offer great-cthulhu=2,black-goat=1``.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined

from tabletop.core.errors import MalformedMove
from tabletop.core.text import clip
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.maps import MapLayout
from tabletop.games.cthulhu_wars.maps.names import normalize
from tabletop.games.cthulhu_wars.neutrals.units import UNIT_TYPES as NEUTRAL_UNITS

RULE = "cthulhu-wars/notation"
AREA_FIELDS = {"area", "source", "target"}
FACTION_FIELDS = {"enemy", "faction"}
CONNECTORS = {">", "vs", "to"}


def slug(text: str) -> str:
    return text.replace("_", "-")


@functools.cache
def field_defaults(model: type[BaseModel]) -> tuple[tuple[str, Any], ...]:
    """(name, default) of every field of an action model but ``kind``."""
    return tuple((n, f.default) for n, f in model.model_fields.items() if n != "kind")


@functools.lru_cache(maxsize=65536)
def to_text(action: BaseModel) -> str:
    """The notation of an action (actions are immutable, so it is worked out once per action)."""
    return write(action)


def write(action: BaseModel) -> str:
    parts = [action.kind]
    previous = None
    values = action.__dict__  # a model's field values by name
    for name, default in field_defaults(type(action)):
        value = values[name]
        if value == default:
            continue
        if isinstance(value, bool):
            parts.append(slug(name))
        elif name == "target" and previous == "source":
            parts[-1] += f">{value}"
        elif name == "target":
            parts += ["to", value]
        elif name == "enemy":
            parts += ["vs", value]
        elif name == "units":
            parts.append(",".join(value) or "none")
        elif name == "shares":
            parts.append(",".join(f"{who}={n}" for who, n in value) or "none")
        else:
            parts.append(str(value))
        previous = name
    if parts[0] == "assign" and len(parts) == 1:
        parts.append("none")
    return " ".join(parts)


def from_text(text: str, models: dict[str, type[BaseModel]], layout: MapLayout, factions: list[str]) -> BaseModel:
    """Read one action; raise MalformedMove naming what could not be read (the caller lists what is legal)."""
    tokens = text.replace(">", " > ").split()
    if not tokens:
        raise MalformedMove("Empty move: write an action's kind, then its fields", rule=RULE)
    kind = tokens.pop(0).lower()
    model = models.get(kind)
    if model is None:
        raise MalformedMove(f"No action is called {clip(kind, 40)!r}", rule=RULE)
    values: dict[str, Any] = {}
    fields = [(n, f) for n, f in model.model_fields.items() if n != "kind"]
    for name, info in fields:
        if info.annotation is bool:
            flag = slug(name)
            values[name] = flag in tokens
            if flag in tokens:
                tokens.remove(flag)
    for name, info in fields:
        if info.annotation is bool:
            continue
        if tokens and tokens[0] in CONNECTORS:
            tokens.pop(0)
        has_default = info.default is not PydanticUndefined
        if name == "unit" and has_default and (not tokens or not is_unit(tokens[0])):
            continue
        if not tokens:
            if has_default:
                continue
            raise MalformedMove(f"'{kind}' needs its {slug(name)}: write {example(model)}", rule=RULE)
        values[name] = read_field(name, tokens, layout, factions)
    if tokens:
        raise MalformedMove(
            f"Could not read {clip(' '.join(tokens), 60)!r} in {clip(text, 80)!r}: write {example(model)}", rule=RULE
        )
    try:
        return model(**values)
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())
        raise MalformedMove(f"'{kind}' could not be read ({clip(problems, 160)}): write {example(model)}", rule=RULE) from None


def read_field(name: str, tokens: list[str], layout: MapLayout, factions: list[str]) -> Any:
    """Consume the tokens of one field (an area or faction runs to the next connector)."""
    if name in AREA_FIELDS or name in FACTION_FIELDS:
        words = []
        while tokens and tokens[0] not in CONNECTORS:
            words.append(tokens.pop(0))
        phrase = " ".join(words)
        return layout.find_area(phrase).id if name in AREA_FIELDS else match_faction(phrase, factions)
    token = tokens.pop(0)
    if name == "units":
        return () if token == "none" else tuple(unit_slug(u) for u in token.split(",") if u)
    if name == "shares":
        return read_shares(token, factions)
    if name == "unit":
        return unit_slug(token)
    return token.lower()


def read_shares(token: str, factions: list[str]) -> tuple[tuple[str, int], ...]:
    """``great-cthulhu=2,black-goat=1`` (or ``none``) as (faction, amount) pairs."""
    if token == "none":
        return ()
    shares = []
    for part in filter(None, token.split(",")):
        who, equals, amount = part.partition("=")
        if not equals or not amount.isdigit():
            raise MalformedMove(f"Write each share as faction=amount, not {clip(part, 40)!r}", rule=RULE)
        shares.append((match_faction(who, factions), int(amount)))
    return tuple(shares)


def unit_slug(text: str) -> str:
    return text.lower().replace("_", "-")


def is_unit(token: str) -> bool:
    """Whether ``token`` names a unit type of any faction or of the neutral material (a High Priest)."""
    name = unit_slug(token)
    return name in NEUTRAL_UNITS or any(name == u.name for f in FACTIONS.values() for u in f.units)


def match_faction(text: str, factions: list[str]) -> str:
    key = normalize(text)
    hits = [f for f in factions if normalize(f) == key] or [f for f in factions if key and key in normalize(f)]
    if len(hits) != 1:
        raise MalformedMove(f"{clip(text, 40)!r} does not name one faction in this game", rule=RULE, legal=factions)
    return hits[0]


def example(model: type[BaseModel]) -> str:
    return f"{model.model_fields['kind'].default} " + " ".join(
        f"<{slug(n)}>" for n in model.model_fields if n != "kind"
    )
