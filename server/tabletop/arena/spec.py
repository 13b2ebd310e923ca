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

Player specs: ``bot:NAME`` (a registered bot), ``cmd:PROGRAM ARGS...`` (any program; see players.py; its arguments
may name only ``{url}``, ``{game_id}``, ``{seat}`` and ``{token}``), ``openai:MODEL`` and ``anthropic:MODEL`` (model
players; see model_player.py).

Everything is checked when the file is read, before the first game (:func:`build`, :mod:`.checks`): a key not
listed above is refused, naming it; ``games`` is a whole number from 1 to :data:`MAX_GAMES`, ``parallel`` from 1 to
:data:`MAX_PARALLEL`, every limit within :data:`LIMIT_BOUNDS`; the options are read by the game itself, and
:func:`try_first_game` sets up one game with them in memory (every game has the same options and seats). The file
is a regular file of at most :data:`MAX_FILE_BYTES`, nested at most :data:`MAX_DEPTH` deep.

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
import math
import shlex
import tomllib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ..bots.registry import BOTS
from ..core.datafile import DataFileError, depth, read_text
from ..core.errors import GameError
from ..games import ENGINES
from .checks import CMD_FIELDS, SpecError, expand, flag, known_keys, seconds, shown, table, text, whole

KINDS = ("bot", "cmd", "openai", "anthropic")
#: The most games one tournament plays (a bigger contest is several tournaments).
MAX_GAMES = 10_000
#: The most players one tournament has, and games played at once.
MAX_PLAYERS, MAX_PARALLEL = 100, 64
#: The longest name (of the tournament, of a player, of a key's environment variable), and player spec, URL or path.
MAX_NAME, MAX_SPEC = 200, 1000
#: The largest tournament file read, and how deep its arrays and tables may nest.
MAX_FILE_BYTES, MAX_DEPTH = 1 << 20, 16
#: The most seconds a search bot may think per decision.
MAX_BOT_SECONDS = 600.0
#: The keys of a tournament file.
TOP_KEYS = ("name", "game", "games", "seats", "parallel", "legal_moves", "options", "limits", "players")


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


#: Each limit's bounds: (lowest, highest) for a whole number, the highest for seconds (above 0); and on_limit.
LIMIT_BOUNDS: dict[str, tuple[int, int] | float] = {
    "turn_tool_calls": (1, 1000), "turn_illegal": (0, 1000), "turn_seconds": 86_400.0, "game_moves": (1, 10_000_000),
    "game_seconds": 30 * 86_400.0, "retries": (0, 100), "request_seconds": 86_400.0, "max_tokens": (1, 1_000_000),
}  # fmt: skip
ON_LIMIT = ("random", "loss")
assert set(LIMIT_BOUNDS) | {"on_limit"} == {f.name for f in fields(Limits)}, "every limit has its bounds"


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


assert set(TOP_KEYS) == {f.name for f in fields(TournamentSpec)}, "every key of a tournament file is read"


def seat_range(game: str) -> tuple[int, int]:
    engine = ENGINES[game]
    return engine.min_seats, engine.max_seats


def check_player(game: str, spec: str) -> None:
    kind, _, target = spec.partition(":")
    if kind not in KINDS or not target:
        raise SpecError(f"player {spec[:60]!r}: write bot:NAME, cmd:PROGRAM, openai:MODEL or anthropic:MODEL")
    if kind == "bot" and target not in BOTS.get(game, {}):
        raise SpecError(f"{game} has no bot {target[:60]!r}; it has {', '.join(BOTS.get(game, {})) or 'none'}")
    if kind == "cmd":
        for argument in command_arguments(spec):
            if "{" in argument:
                expand(argument, {name: "" for name in CMD_FIELDS})


def command_arguments(spec: str) -> list[str]:
    """A ``cmd:`` player's program and arguments, as the shell would split them (templates not yet expanded)."""
    try:
        argv = shlex.split(spec.partition(":")[2])
    except ValueError as err:
        raise SpecError(f"player {spec[:60]!r}: {err}") from None
    if not argv:
        raise SpecError(f"player {spec[:60]!r}: name the program after cmd:")
    return argv


def read_players(game: str, given: Any) -> list[dict[str, Any]]:
    """Each player of the file as a table with a checked spec (a bare string is its spec)."""
    if not isinstance(given, list) or not given:
        raise SpecError('players is a list of players, e.g. players = ["bot:random", "bot:random"], not ' + shown(given))
    if len(given) > MAX_PLAYERS:
        raise SpecError(f"a tournament has at most {MAX_PLAYERS} players, not {len(given)}")
    entries = []
    for number, raw in enumerate(given, start=1):
        where = f"player {number}"
        entry = {"spec": raw} if isinstance(raw, str) else dict(table(where, raw))
        known_keys(where, entry, [f.name for f in fields(PlayerSpec)])
        entry = {key: value for key, value in entry.items() if value is not None}
        if "spec" not in entry:
            raise SpecError(f'{where} needs a spec, e.g. spec = "bot:random"')
        for key, longest in (("spec", MAX_SPEC), ("name", MAX_NAME), ("base_url", MAX_SPEC), ("key_env", MAX_NAME),
                             ("key_file", MAX_SPEC)):  # fmt: skip
            if key in entry:
                text(f"{where}: {key}", entry[key], longest)
        if "seconds" in entry:
            seconds(f"{where}: seconds", entry["seconds"], MAX_BOT_SECONDS)
        check_player(game, entry["spec"])
        entries.append(entry)
    return entries


def read_limits(given: Any) -> Limits:
    """The limits of the file (defaults for those it leaves out), each within its bounds."""
    given = table("limits", given)
    known_keys("limits", given, [f.name for f in fields(Limits)])
    for key, value in given.items():
        bounds = LIMIT_BOUNDS.get(key)
        if isinstance(bounds, tuple):
            whole(f"limits.{key}", value, *bounds)
        elif bounds is not None:
            seconds(f"limits.{key}", value, bounds)
        elif value not in ON_LIMIT:
            raise SpecError('limits.on_limit is "random" (a random legal move, a forfeit of the decision) or "loss"')
    return Limits(**{**asdict(Limits()), **given})


def read_options(game: str, given: Any) -> dict[str, Any]:
    """The game's options, read by the game itself (as new_game will), and playable by the arena."""
    options = dict(table("options", given))
    try:
        parsed = ENGINES[game].read_options(options)
    except GameError as err:
        raise SpecError(f"options: {err}") from None
    if getattr(parsed, "chance", "server") != "server":
        raise SpecError("options: the arena's games draw their own chance (chance = \"server\"); a table's chance "
                        "needs a referee at the table")
    return options


def try_first_game(spec: TournamentSpec) -> None:
    """Set up one game of the tournament in memory, with its options and number of seats, as the server will for
    every game: options that a game refuses only as it starts (Cthulhu Wars factions that do not fit the seats, a map
    without a layout for them) stop the tournament before its first game. Maps come from the folder this process
    offers (the arena's own server offers the same, from ``$TABLETOP_MAPS``)."""
    engine = ENGINES[spec.game]
    try:
        engine.new_game(engine.read_options(spec.options), spec.seats, 0, [f"seat {i}" for i in range(spec.seats)])
    except GameError as err:
        raise SpecError(f"options: {err}") from None


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
    """A checked tournament from a TOML-like dict (see the module docstring); the values are kept as given, so the
    same file always makes the same tournament id."""
    known_keys("", table("the tournament", data), TOP_KEYS)
    game = data.get("game")
    if not isinstance(game, str) or game not in ENGINES:
        raise SpecError(f"unknown game {shown(game)}; the games are {', '.join(ENGINES)}")
    players = unique_names(read_players(game, data.get("players")))
    low, high = seat_range(game)
    seats = data["seats"] if "seats" in data else min(max(len(players), low), high)
    if isinstance(seats, bool) or not isinstance(seats, int) or not low <= seats <= high:
        raise SpecError(f"seats: {game} is for {low}-{high} players, not {shown(seats)}")
    if len(players) < seats:
        raise SpecError(f"{seats} seats need at least {seats} players; {len(players)} given")
    block = block_size(seats, len(players))
    if block > MAX_GAMES:
        raise SpecError(f"{len(players)} players in {seats} seats need {block:,} games to sit in every seat equally "
                        f"often, and a tournament plays at most {MAX_GAMES:,}: take fewer players")
    games = whole("games", data["games"], 1, MAX_GAMES) if "games" in data else block
    if games % block:
        raise SpecError(f"{games} games cannot seat every player in every seat equally often; use a multiple of {block}")
    name = text("name", data["name"], MAX_NAME) if "name" in data else ""
    return TournamentSpec(
        name=name or f"{game}: " + " vs ".join(p.name for p in players),
        game=game,
        players=players,
        games=games,
        seats=seats,
        options=read_options(game, data.get("options", {})),
        parallel=whole("parallel", data.get("parallel", 2), 1, MAX_PARALLEL),
        legal_moves=flag("legal_moves", data.get("legal_moves", True)),
        limits=read_limits(data.get("limits", {})),
    )


def load_file(path: Path) -> TournamentSpec:
    """The tournament in the TOML file at ``path``; a SpecError of one line for anything wrong with it."""
    try:
        data = tomllib.loads(read_text(path, MAX_FILE_BYTES))
    except DataFileError as err:
        raise SpecError(str(err)) from None
    except tomllib.TOMLDecodeError as err:
        raise SpecError(f"{path} is not valid TOML: {' '.join(str(err).split())}") from None
    except RecursionError:
        raise SpecError(f"{path} nests arrays or tables more than {MAX_DEPTH} deep") from None
    if depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise SpecError(f"{path} nests arrays or tables more than {MAX_DEPTH} deep")
    try:
        return build(data)
    except SpecError as err:
        raise SpecError(f"{path}: {err}") from None


def block_size(seats: int, players: int) -> int:
    """How many games :func:`rotation` makes, counted without making them."""
    return math.comb(players, seats) * len(circular_orders(seats)) * seats


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


__all__ = ["Limits", "PlayerSpec", "SpecError", "TournamentSpec", "build", "load_file", "schedule", "try_first_game"]
