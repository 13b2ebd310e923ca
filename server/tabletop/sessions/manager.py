"""Live games: create, load, act for a seat, wait for a turn, read the log.

The manager keeps each game's current state in memory and the durable truth in the store.
Every call first catches up with moves another server process may have logged, so several
processes can share one database file. A per-game lock serialises moves; the store's
``(game, ply)`` key refuses a second writer from another process.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import anyio
from pydantic import BaseModel

from ..core.errors import BadOptions, GameError, GameOver, NotYourTurn
from ..core.game import ChancePreview, Engine
from ..core.rng import fresh_seed
from ..games import ENGINES
from .store import GameRecord, GameStore, MoveRecord, PlyTaken, now
from .tokens import hash_token, new_token, seat_of

#: How often a waiting client re-reads the database for moves made by other processes (seconds).
CROSS_PROCESS_POLL = 0.5
#: Games kept in memory; the least recently used beyond this are dropped and reloaded from the log on demand.
MAX_LIVE_GAMES = 512


class UnknownGame(GameError):
    kind = "unknown_game"


class BadToken(GameError):
    kind = "bad_token"


class MoveConflict(GameError):
    kind = "conflict"


@dataclass(eq=False)
class LiveGame:
    """One game in memory: its record, rules, current state and how many moves it has."""

    record: GameRecord
    engine: Engine
    options: BaseModel
    state: Any
    ply: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    waiter: anyio.Event | None = None

    @property
    def id(self) -> str:
        return self.record.id

    def to_move(self) -> list[int]:
        return self.engine.to_move(self.state)

    def seat_label(self, seat: int) -> str:
        default = f"seat {seat}"
        extras = [x for x in (self.record.seat_names[seat], self.engine.seat_roles(self.state)[seat]) if x != default]
        return f"{default} ({', '.join(extras)})" if extras else default

    def notify(self) -> None:
        """Wake every wait_for_turn waiting on this game."""
        event, self.waiter = self.waiter, None
        if event is not None:
            event.set()


@dataclass(frozen=True)
class Played:
    """A move that was accepted (or, on a dry run, would be).

    A dry run of a move involving chance carries ``chance`` (a preview of what it could do) instead of
    its result: ``events`` is empty and ``state_after`` is the unchanged position.
    """

    game: LiveGame
    seat: int
    ply: int
    notation: str
    action: dict[str, Any]
    events: list[str]
    dry_run: bool
    state_after: Any
    chance: ChancePreview | None = None


@dataclass(frozen=True)
class TurnStatus:
    game: LiveGame
    seat: int
    your_turn: bool
    game_over: bool
    timed_out: bool


class GameSessions:
    """Every game of one database, loaded on demand."""

    def __init__(
        self, store: GameStore, engines: dict[str, Engine] | None = None, max_live: int = MAX_LIVE_GAMES
    ) -> None:
        self.store = store
        self.engines = engines if engines is not None else ENGINES
        self.max_live = max_live
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._load_lock = threading.Lock()

    # ---- creating and loading -------------------------------------------------------------
    def engine(self, name: str) -> Engine:
        engine = self.engines.get(name.strip().lower())
        if engine is None:
            raise BadOptions(f"There is no game called '{name}'", legal=sorted(self.engines))
        return engine

    def create(
        self, game: str, options: dict[str, Any] | None, seats: int | list[str], seed: int | None = None
    ) -> tuple[LiveGame, list[str]]:
        """Start a game; returns it and one secret token per seat (shown once, stored hashed)."""
        engine = self.engine(game)
        names = [f"seat {i}" for i in range(seats)] if isinstance(seats, int) else [n.strip() for n in seats]
        if not engine.min_seats <= len(names) <= engine.max_seats:
            raise BadOptions(
                f"{engine.title} takes {engine.min_seats} to {engine.max_seats} seats, not {len(names)}",
                rule=f"{engine.name}/setup",
            )
        parsed = engine.read_options(options)
        chosen = seed is not None
        seed = fresh_seed() if seed is None else seed
        state = engine.new_game(parsed, len(names), seed)
        tokens = [new_token() for _ in names]
        record = GameRecord(
            id=f"{engine.name}-{secrets.token_hex(4)}",
            game=engine.name,
            options=parsed.model_dump(mode="json"),
            seed=seed,
            seat_names=names,
            token_hashes=[hash_token(t) for t in tokens],
            created_at=now(),
            seed_chosen=chosen,
        )
        self.store.create_game(record)
        live = LiveGame(record=record, engine=engine, options=parsed, state=state)
        with self._load_lock:
            self._keep(live)
        return live, tokens

    def get(self, game_id: str) -> LiveGame:
        """The game, up to date with every move in the database."""
        with self._load_lock:
            live = self._live.get(game_id)
            if live is None:
                live = self._load(game_id)
            self._keep(live)
        if self.store.last_ply(game_id) > live.ply:
            with live.lock:
                self._catch_up(live)
        return live

    def _keep(self, live: LiveGame) -> None:
        """Mark ``live`` as most recently used, dropping the least recently used games beyond ``max_live``
        (caller holds the load lock). A dropped game is only forgotten: its log reloads it on demand."""
        self._live[live.id] = live
        self._live.move_to_end(live.id)
        while len(self._live) > self.max_live:
            self._live.popitem(last=False)

    def _load(self, game_id: str) -> LiveGame:
        record = self.store.load_game(game_id)
        if record is None:
            raise UnknownGame(
                f"No game has the id '{game_id}'; new_game returns ids, and list_games shows them",
            )
        engine = self.engine(record.game)
        options = engine.read_options(record.options)
        live = LiveGame(record=record, engine=engine, options=options, state=engine.new_game(options, len(record.seat_names), record.seed))
        self._catch_up(live)
        return live

    def _catch_up(self, live: LiveGame) -> None:
        """Apply logged moves the in-memory state has not seen (caller holds the lock or owns ``live``)."""
        for move in self.store.moves(live.id, since=live.ply):
            live.state = replay_move(live.engine, live.state, move)
            live.ply = move.ply
        live.notify()

    def replay(self, game_id: str) -> Any:
        """Rebuild a game from its seed and log alone, ignoring the cache (for audits and tests)."""
        return self._load(game_id).state

    def list(self, limit: int = 50) -> list[tuple[GameRecord, int]]:
        return self.store.list_games(limit)

    # ---- seats ------------------------------------------------------------------------------
    def seat_for(self, live: LiveGame, token: str | None) -> int:
        if not token:
            raise BadToken(
                "A seat token is required to act; new_game returned one token per seat",
            )
        seat = seat_of(token, live.record.token_hashes)
        if seat is None:
            raise BadToken(f"That token does not belong to any seat of game {live.id}")
        return seat

    def optional_seat(self, live: LiveGame, token: str | None) -> int | None:
        """The token's seat, or None (a spectator) when no token is given."""
        return None if not token else self.seat_for(live, token)

    # ---- playing ----------------------------------------------------------------------------
    def play(self, game_id: str, token: str | None, move: str | dict[str, Any], dry_run: bool = False) -> Played:
        """Check and apply one move for the token's seat; log it before acknowledging it."""
        live = self.get(game_id)
        seat = self.seat_for(live, token)
        with live.lock:
            engine, state = live.engine, live.state
            self._check_turn(live, seat)
            action = engine.read_move(move, state, seat)
            notation = engine.notation(action)
            if dry_run:
                trial = engine.try_action(state, seat, action)
                after = state if trial.chance else trial.state_after
                return Played(
                    live, seat, live.ply + 1, notation, action.model_dump(mode="json"), trial.events, True, after,
                    trial.preview,
                )
            new_state, events = engine.apply(state, seat, action)
            played = Played(live, seat, live.ply + 1, notation, action.model_dump(mode="json"), events, False, new_state)
            try:
                self.store.append_move(live.id, MoveRecord(played.ply, seat, played.action, notation, events, now()))
            except PlyTaken:
                self._catch_up(live)
                raise MoveConflict(
                    "Another server process recorded a move in this game first; nothing was played. "
                    "Read the state again and choose a move",
                ) from None
            live.state, live.ply = new_state, played.ply
        live.notify()
        return played

    def _check_turn(self, live: LiveGame, seat: int) -> None:
        engine = live.engine
        if (result := engine.outcome(live.state)) is not None:
            raise GameOver(f"Game {live.id} is over: {result.reason}", rule=f"{engine.name}/end")
        awaited = live.to_move()
        if seat not in awaited:
            who = ", ".join(live.seat_label(s) for s in awaited)
            raise NotYourTurn(
                f"It is not {live.seat_label(seat)}'s turn; the game is waiting for {who}. "
                "Call wait_for_turn to be told when it is yours",
                rule=f"{engine.name}/turn",
            )

    async def wait_for_turn(self, game_id: str, token: str | None, timeout: float) -> TurnStatus:
        """Return as soon as it is the token's seat's decision or the game is over, or at ``timeout``."""
        deadline = anyio.current_time() + timeout
        while True:
            live = self.get(game_id)
            seat = self.seat_for(live, token)
            over = live.engine.outcome(live.state) is not None
            mine = seat in live.to_move()
            remaining = deadline - anyio.current_time()
            if over or mine or remaining <= 0:
                return TurnStatus(live, seat, mine, over, timed_out=not (over or mine))
            if live.waiter is None:
                live.waiter = anyio.Event()
            with anyio.move_on_after(min(remaining, CROSS_PROCESS_POLL)):
                await live.waiter.wait()

    def history(self, game_id: str, since: int = 0) -> tuple[LiveGame, list[MoveRecord]]:
        live = self.get(game_id)
        return live, self.store.moves(game_id, since)


def replay_move(engine: Engine, state: Any, move: MoveRecord) -> Any:
    """Apply a logged move again; the log only holds accepted moves, so this must succeed."""
    action = engine.read_move(move.action, state, move.seat)
    new_state, _ = engine.apply(state, move.seat, action)
    return new_state
