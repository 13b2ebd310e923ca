"""What a tournament is: its game, players, schedule and limits, from the command line's quick form or a TOML file.

A tournament file (read with :mod:`tomllib`)::

    name = "dice cup"
    game = "cthulhu-dice"
    games = 40                 # in all; a multiple of the rotation (see schedule) so seats stay balanced
    seats = 2                  # players per game (default: as many as players, at least the game's minimum)
    parallel = 4               # games played at once
    legal_moves = true         # may model players call legal_moves (and see legal moves in answers)?
    [options]                  # the game's options, as new_game takes them
    [limits]
    turn_tool_calls = 20       # per decision of a model player
    turn_illegal = 3
    turn_seconds = 120
    on_limit = "random"        # "random": a random legal move, recorded as a forfeit of the decision; "loss": the game is lost
    game_moves = 2000          # a game still running after this many moves ends with nobody winning
    game_seconds = 1800        # likewise after this long
    [[players]]
    spec = "bot:optimal"
    [[players]]
    name = "gpt"
    spec = "openai:gpt-4o-mini"
    base_url = "http://127.0.0.1:8080/v1"
    key_env = "OPENAI_API_KEY"   # or key_file = "~/.openai-key"

Player specs: ``bot:NAME`` (a registered bot), ``cmd:PROGRAM ARGS...`` (any program; see players.py),
``openai:MODEL`` and ``anthropic:MODEL`` (model players; see model_player.py).

Schedule (:func:`schedule`): every group of ``seats`` players (all of them, when there are as many players as seats)
is seated in every rotation of a few orders around the table (:func:`circular_orders`): each player sits in each seat
equally often, and for 3-5 seats each player sits right after each other player equally often (who plays before
whom matters in these games). Blocks: 2 seats 2 games, 3 seats 6, 4 seats 24, 5 seats 20 (per group of players).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import shlex
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..bots.registry import BOTS
from ..games import ENGINES

KINDS = ("bot", "cmd", "openai", "anthropic")


class SpecError(ValueError):
    """A tournament cannot be run as described; the message says what to change."""


@dataclass(frozen=True)
class Limits:
    """Limits per decision (model players) and per game (everyone)."""

    turn_tool_calls: int = 20
    turn_illegal: int = 3
    turn_seconds: float = 120.0
    on_limit: str = "random"  # or "loss"
    game_moves: int = 5000
    game_seconds: float = 3600.0
    retries: int = 3  # retries of a failing model service request before the game is abandoned
    request_seconds: float = 60.0  # one request to a model service; longer is a service failure (retried)
    max_tokens: int = 1024


@dataclass(frozen=True)
class PlayerSpec:
    """One entrant: a unique display name and how it plays."""

    name: str
    spec: str  # "bot:optimal", "cmd:./agent --fast", "openai:gpt-4o-mini", "anthropic:claude-..."
    base_url: str | None = None
    key_env: str | None = None
    key_file: str | None = None
    seconds: float | None = None  # a search bot's thinking time per decision

    @property
    def kind(self) -> str:
        return self.spec.split(":", 1)[0]

    @property
    def target(self) -> str:
        return self.spec.split(":", 1)[1]


@dataclass(frozen=True)
class TournamentSpec:
    name: str
    game: str
    players: list[PlayerSpec]
    games: int
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    parallel: int = 2
    legal_moves: bool = True
    limits: Limits = field(default_factory=Limits)

    def as_json(self) -> dict[str, Any]:
        return json.loads(json.dumps(asdict(self)))

    @property
    def id(self) -> str:
        """The same tournament (same spec) always has the same id: running the same command again resumes it."""
        digest = hashlib.sha256(json.dumps(self.as_json(), sort_keys=True).encode()).hexdigest()
        return f"t-{digest[:12]}"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentSpec:
        data = dict(data)
        data["players"] = [PlayerSpec(**p) for p in data["players"]]
        data["limits"] = Limits(**data.get("limits", {}))
        return cls(**data)


def seat_range(game: str) -> tuple[int, int]:
    engine = ENGINES[game]
    return engine.min_seats, engine.max_seats


def check_player(game: str, spec: str) -> None:
    kind, _, target = spec.partition(":")
    if kind not in KINDS or not target:
        raise SpecError(f"player {spec!r}: write bot:NAME, cmd:PROGRAM, openai:MODEL or anthropic:MODEL")
    if kind == "bot" and target not in BOTS.get(game, {}):
        raise SpecError(f"{game} has no bot {target!r}; it has {', '.join(BOTS.get(game, {})) or 'none'}")
    if kind == "cmd" and not shlex.split(target):
        raise SpecError(f"player {spec!r}: name the program after cmd:")


def unique_names(specs: list[dict[str, Any]]) -> list[PlayerSpec]:
    """Players with names of their own: as given, else the spec, with #2, #3... for repeats."""
    seen: dict[str, int] = {}
    out = []
    for raw in specs:
        name = raw.get("name") or raw["spec"]
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name}#{seen[name]}"
        out.append(PlayerSpec(**{**raw, "name": name}))
    if len({p.name for p in out}) != len(out):
        raise SpecError("two players have the same name; give each its own `name`")
    return out


def build(data: dict[str, Any]) -> TournamentSpec:
    """A checked tournament from a TOML-like dict (see the module docstring)."""
    game = data.get("game")
    if game not in ENGINES:
        raise SpecError(f"unknown game {game!r}; the games are {', '.join(ENGINES)}")
    raw_players = [p if isinstance(p, dict) else {"spec": p} for p in data.get("players", [])]
    for raw in raw_players:
        if "spec" not in raw:
            raise SpecError("every player needs a spec, e.g. spec = \"bot:random\"")
        check_player(game, raw["spec"])
    players = unique_names(raw_players)
    low, high = seat_range(game)
    seats = int(data.get("seats") or min(max(len(players), low), high))
    if not low <= seats <= high:
        raise SpecError(f"{game} is for {low}-{high} players, not {seats}")
    if len(players) < seats:
        raise SpecError(f"{seats} seats need at least {seats} players; {len(players)} given")
    limits = Limits(**{**asdict(Limits()), **data.get("limits", {})})
    if limits.on_limit not in ("random", "loss"):
        raise SpecError('limits.on_limit is "random" (a random legal move, a forfeit of the decision) or "loss"')
    spec = TournamentSpec(
        name=data.get("name") or f"{game}: " + " vs ".join(p.name for p in players),
        game=game,
        players=players,
        games=int(data.get("games", 0)) or len(rotation(seats, len(players))),
        seats=seats,
        options=dict(data.get("options", {})),
        parallel=max(1, int(data.get("parallel", 2))),
        legal_moves=bool(data.get("legal_moves", True)),
        limits=limits,
    )
    block = len(rotation(seats, len(players)))
    if spec.games % block:
        raise SpecError(
            f"{spec.games} games cannot seat every player in every seat equally often; use a multiple of {block}"
        )
    return spec


def load_file(path: Path) -> TournamentSpec:
    try:
        data = tomllib.loads(path.read_text())
    except OSError as err:
        raise SpecError(f"cannot read {path}: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise SpecError(f"{path} is not valid TOML: {err}") from None
    try:
        return build(data)
    except TypeError as err:  # an unknown key in [limits] or [[players]]
        raise SpecError(f"{path}: {err}") from None


def rotation(seats: int, players: int) -> list[tuple[int, ...]]:
    """One balanced block of seatings (player indices by seat); see the module docstring."""
    block = []
    for group in itertools.combinations(range(players), seats):
        for order in circular_orders(seats):
            block += [tuple(group[order[(i + shift) % seats]] for i in range(seats)) for shift in range(seats)]
    return block


@functools.cache
def circular_orders(seats: int) -> tuple[tuple[int, ...], ...]:
    """The fewest orders around the table (seat 0's player first) in which each player follows each other one
    equally often: found by search for 3-5 seats (3: both directions; 4: all six; 5: four); for 2 seats the one
    order, and for 6 or more both directions of the one order (each seat balanced, neighbours not)."""
    if seats < 3:
        return (tuple(range(seats)),)
    if seats > 5:
        return (tuple(range(seats)), (0, *reversed(range(1, seats))))
    candidates = [(0, *rest) for rest in itertools.permutations(range(1, seats))]
    for size in range(1, len(candidates) + 1):
        for chosen in itertools.combinations(candidates, size):
            follows: dict[tuple[int, int], int] = {}
            for order in chosen:
                for i in range(seats):
                    pair = (order[i], order[(i + 1) % seats])
                    follows[pair] = follows.get(pair, 0) + 1
            if len(follows) == seats * (seats - 1) and len(set(follows.values())) == 1:
                return chosen
    raise AssertionError("unreachable: all orders together are balanced")


def schedule(spec: TournamentSpec) -> list[list[str]]:
    """Every game's players by seat, slot by slot: the balanced block repeated."""
    block = rotation(spec.seats, len(spec.players))
    return [[spec.players[i].name for i in block[slot % len(block)]] for slot in range(spec.games)]


__all__ = ["Limits", "PlayerSpec", "SpecError", "TournamentSpec", "build", "load_file", "schedule"]
