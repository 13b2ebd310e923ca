"""Live games: create, load, act for a seat, wait for a turn, read the log.

The manager keeps each game's current state in memory and the durable truth in the store; the
memory is only a cache. Every call first catches up with moves another server process may have
logged (one indexed query for the last move number), so any number of processes can share one
database and any request can go to any of them. A per-game lock serialises moves within a
process; the store's ``(game, ply)`` key refuses a second writer from another process, and that
key, never the cache, decides who moved first.

``wait_for_turn`` sleeps until the game is signalled: by a move played in this process, or by a
move another process committed, which a PostgreSQL store hears at once (LISTEN/NOTIFY); with a
SQLite store, which cannot hear other processes, waiters also re-read the log every 0.5 s.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import anyio
import anyio.lowlevel

from ..core.errors import BadOptions, GameError, GameOver, IllegalMove, MalformedMove, NotYourTurn
from ..core.game import Engine
from ..core.rng import fresh_seed
from ..core.text import clip
from ..games import ENGINES
from .chance import Step
from .errors import BadToken, MoveConflict, UnknownGame, UnreadableGame
from .limits import MAX_ID, MAX_MOVE_TEXT, MAX_SEQUENCE, Move, as_sequence, within_limits
from .live import LiveGame, Played, chance_source
from .storage import BotSeatRecord, GameRecord, IdTaken, MoveRecord, PlyTaken, StorageError, Store, now
from .table import as_seen_by, table_rule
from .tokens import hash_token, new_token, seat_of

#: How often a waiting client re-reads the database for moves made by other processes (seconds), where
#: the store cannot hear them (SQLite); a PostgreSQL store hears them at once and waiters never poll.
CROSS_PROCESS_POLL = 0.5
#: How many random ids a new game tries before giving up (each is taken with a chance of games / 2**32).
ID_TRIES = 8
#: Games kept in memory; the least recently used beyond this are dropped and reloaded from the log on demand.
MAX_LIVE_GAMES = 512

T = TypeVar("T")

#: Names other modules and tests read from here (they live in the lower modules named).
__all__ = ["BadToken", "GameSessions", "LiveGame", "MAX_MOVE_TEXT", "MAX_SEQUENCE", "MoveConflict", "Played", "UnknownGame"]


class Waiting:
    """The wait_for_turn calls waiting on one game: how often the game was signalled since the first of them
    began, and the events to set at the next signal (each with its event loop, as signals come from any thread)."""

    __slots__ = ("signals", "waiters", "events")

    def __init__(self) -> None:
        self.signals = 0
        self.waiters = 0
        self.events: list[tuple[anyio.Event, anyio.lowlevel.EventLoopToken]] = []


def wake(event: anyio.Event, loop: anyio.lowlevel.EventLoopToken) -> None:
    """Set ``event`` on its own event loop, from any thread (that loop's included), without waiting."""
    try:
        loop.backend_class.run_sync_soon(event.set, (), loop.native_token)
    except (RuntimeError, anyio.RunFinishedError):  # that loop has ended: nobody waits any more
        pass


@dataclass(frozen=True)
class LogPage:
    """Moves of the log as one viewer may see them, numbered as it counts them."""

    moves: list[tuple[int, MoveRecord]]
    total: int  # moves the viewer may know were played
    hidden: int | None  # moves of this page still secret from the viewer; None: a secret phase, count untold
    last: int  # the number of the page's last move (``after`` when it is empty)

    @property
    def next_cursor(self) -> int | None:
        return self.last if self.last < self.total else None


@dataclass(frozen=True)
class TurnStatus:
    game: LiveGame
    seat: int
    your_turn: bool
    game_over: bool
    timed_out: bool


class GameSessions:
    """Every game of one database, loaded on demand."""

    def __init__(self, store: Store, engines: dict[str, Engine] | None = None, max_live: int = MAX_LIVE_GAMES) -> None:
        self.store = store
        self.engines = engines if engines is not None else ENGINES
        self.max_live = max_live
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._load_lock = threading.Lock()
        self._waiting: dict[str, Waiting] = {}
        self._waiting_lock = threading.Lock()
        #: How often waiters re-read the log for other processes' moves; None: never, the store hears them.
        self.poll = None if store.hears_other_processes else CROSS_PROCESS_POLL
        store.subscribe(self._heard, self._missed)
        #: Called with the game after every move played through :meth:`play`, before anyone is signalled; each
        #: may play moves for seats through :meth:`play_as` (answers it made for them) and says whether it did.
        self.followers: list[Callable[[LiveGame], bool]] = []
        #: Called with a game's id whenever it may have changed (at every signal), from any thread; each must
        #: return at once (the MCP server's game updates, app/updates.py, only queue the id).
        self.watchers: list[Callable[[str], None]] = []

    async def io(self, work: Callable[[], T]) -> T:
        """``work``, which reads or writes the store, on the event loop; in a worker thread when the store is remote
        (PostgreSQL: a network round trip, which may wait for a lock, must not hold up the event loop)."""
        return await anyio.to_thread.run_sync(work) if self.store.remote else work()

    # ---- creating and loading -------------------------------------------------------------
    def engine(self, name: str) -> Engine:
        engine = self.engines.get(name.strip().lower())
        if engine is None:
            raise BadOptions(f"There is no game called '{name}'", legal=sorted(self.engines))
        return engine

    def create(
        self, game: str, options: dict[str, Any] | None, seats: int | list[str], seed: int | None = None,
        bots: dict[int, tuple[str, float]] | None = None,
    ) -> tuple[LiveGame, list[str]]:
        """Start a game; returns it and one secret token per seat (shown once, stored hashed).

        ``bots``: seats the server plays itself, as ``{seat: (bot, seconds a decision)}``; their tokens are stored
        with the game, in the same transaction, for the bot seats' driver (``seats/``) to play them.
        """
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
        chance = chance_source(parsed)
        state = chance.new_state(engine, parsed, names, seed)
        tokens = [new_token() for _ in range(len(names) + chance.has_referee)]  # a referee's token comes last
        record = GameRecord(
            id=f"{engine.name}-{secrets.token_hex(4)}",
            game=engine.name,
            options=parsed.model_dump(mode="json"),
            seed=seed,
            seat_names=names,
            token_hashes=[hash_token(t) for t in tokens],
            created_at=now(),
            seed_chosen=chosen,
            bots={seat: bot for seat, (bot, _) in (bots or {}).items()},
        )
        held = [BotSeatRecord(seat, bot, seconds, tokens[seat]) for seat, (bot, seconds) in sorted((bots or {}).items())]
        for _ in range(ID_TRIES):
            try:
                self.store.create_game(record, held)
                break
            except IdTaken:  # another game has this id (ids are random; a fleet makes many): draw another
                record = replace(record, id=f"{engine.name}-{secrets.token_hex(4)}")
        else:
            raise StorageError(f"No free game id was found in {ID_TRIES} tries; nothing was changed, try again")
        live = LiveGame(record=record, engine=engine, options=parsed, state=state, chance=chance)
        with self._load_lock:
            self._keep(live)
        return live, tokens

    def get(self, game_id: str) -> LiveGame:
        """The game, up to date with every move in the database."""
        if len(game_id) > MAX_ID:
            raise UnknownGame(f"No game has the id '{clip(game_id, 40)}' (ids are short); new_game returns ids")
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
        try:
            options = engine.read_options(record.options)
            chance = chance_source(options)
            state = chance.new_state(engine, options, record.seat_names, record.seed)
            live = LiveGame(record=record, engine=engine, options=options, state=state, chance=chance)
            self._catch_up(live)
        except GameError as err:
            raise UnreadableGame(
                f"Game {game_id} was recorded under rules this version of the {engine.title} engine no longer "
                f"plays ({err.message}); its log is kept unchanged, but it cannot be replayed or continued here"
            ) from None
        return live

    def _catch_up(self, live: LiveGame) -> None:
        """Apply logged moves the in-memory state has not seen (caller holds the lock or owns ``live``)."""
        for row in self.store.moves(live.id, since=live.ply):
            live.chance.replay(live, row)
        self.signal(live.id)

    def ply_for(self, live: LiveGame, viewer: int | None) -> int:
        """How many moves ``viewer`` (None: a spectator) may know were played: all of them, except during a
        secret phase (a hidden deployment), when only those it may see are counted."""
        if not live.engine.secret_phase(live.state):
            return live.ply
        return len(self.visible_moves(live, viewer))

    def visible_moves(self, live: LiveGame, viewer: int | None) -> list[MoveRecord]:
        return [m for m in self.store.moves(live.id) if live.engine.move_visible(live.state, m.seat, viewer)]

    def log_page(self, live: LiveGame, viewer: int | None, after: int, limit: int, told: bool = False) -> LogPage:
        """A page of the moves ``viewer`` (None: a spectator) may see after move ``after``, each as it may read them
        (``told``: secret table entries shown, for the referee or once the game is over). During a secret phase
        nobody learns how many secret moves the others made: the viewer's own moves, numbered among themselves."""
        if live.engine.secret_phase(live.state):
            visible = self.visible_moves(live, viewer)
            numbered = list(enumerate(visible[after : after + limit], start=after + 1))
            total, hidden = len(visible), None
        else:
            page = self.store.moves(live.id, after, limit)
            shown = [m for m in page if live.engine.move_visible(live.state, m.seat, viewer)]
            numbered = [(m.ply, m) for m in shown]
            total, hidden = live.ply, len(page) - len(shown)
        last = numbered[-1][0] if numbered else after
        return LogPage([(n, as_seen_by(m, viewer, told)) for n, m in numbered], total, hidden, last)

    def forget(self, game_id: str) -> None:
        """Drop a game from memory; the next access reloads it from its log."""
        with self._load_lock:
            self._live.pop(game_id, None)

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
        seat = seat_of(token, live.record.token_hashes) if len(token) <= MAX_ID else None
        if seat is None:
            raise BadToken(f"That token does not belong to any seat of game {live.id}")
        if seat == len(live.record.seat_names):  # the referee acts for the seat awaited first
            return live.pending.seat if live.pending is not None else (live.engine.to_move(live.state) or [0])[0]
        return seat

    def is_referee(self, live: LiveGame, token: str | None) -> bool:
        """Whether ``token`` is the referee's of a table game (it acts for any seat and enters chance)."""
        hashes = live.record.token_hashes
        return bool(token) and len(token) <= MAX_ID and len(hashes) > len(live.record.seat_names) and (
            seat_of(token, hashes) == len(live.record.seat_names)
        )

    def optional_seat(self, live: LiveGame, token: str | None) -> int | None:
        """The token's seat, or None (a spectator) when no token is given."""
        return None if not token else self.seat_for(live, token)

    # ---- playing ----------------------------------------------------------------------------
    def play(
        self,
        game_id: str,
        token: str | None,
        moves: Move | list[Move],
        dry_run: bool = False,
        expected: int | None = None,
    ) -> Played:
        """Check and apply a move, or a sequence of moves as one, for the token's seat.

        A sequence is all or nothing: every move is checked in order on the position the moves before
        it leave, a refusal names the move that failed, and only then are all of them logged in one
        transaction. A move involving chance (dice, a draw) must end its sequence, because its result
        decides what comes next. Nothing is acknowledged before it is committed.

        ``expected`` (the move number the first move should get, as this seat counts moves) makes a
        retry safe: if those moves were already played by this seat, they are reported again (marked
        ``already``) instead of being played twice; any other mismatch is a conflict.

        In a game whose chance comes from the table, the referee's entry of what the table showed (or an
        undo) is played here too: the game's chance source (``table.py``) reads and checks it, and it is
        logged like any move.
        """
        live = self.get(game_id)
        seat, referee = self.seat_for(live, token), self.is_referee(live, token)
        played = self.play_as(live, seat, referee, moves, dry_run, expected)
        if played.dry_run or played.already:
            return played
        try:
            if any([follow(live) for follow in self.followers]):
                played = replace(played, state_after=live.state)  # decisions made for seats after it (standing answers)
        finally:
            self.signal(live.id)
        return played

    def play_as(
        self, live: LiveGame, seat: int, referee: bool, moves: Move | list[Move], dry_run: bool = False, expected: int | None = None,
    ) -> Played:
        """:meth:`play` for a seat already identified (by its token, or, for decisions the server makes for a seat
        by its standing answers, by the server itself); nobody is signalled and no follower is called."""
        sequence = as_sequence(moves)
        with live.lock:
            entry = live.chance.entry(live, referee, sequence, expected, self.store)
            if entry is not None:
                step = entry.step
                played = Played(live, entry.seat, [step], dry_run and not entry.already, live.state, None, [step.ply], entry.already, entry=True)
            else:
                played = self._moves(live, *chosen_seat(live, seat, referee, sequence), dry_run, expected)
            played = replace(played, referee=referee)
            if played.dry_run or played.already:
                return played
            return self._log(live, played)

    def _moves(self, live: LiveGame, seat: int, sequence: list[Move], dry_run: bool, expected: int | None) -> Played:
        """The seat's sequence checked move by move on the position the moves before it leave (nothing logged)."""
        known = self.ply_for(live, seat)
        if expected is not None and expected != known + 1:
            return self._already_played(live, seat, sequence, expected, known)
        state, steps, preview = live.state, [], None
        for index, move in enumerate(sequence):
            try:
                state, step, drew, preview = self._step(live, state, seat, move, live.ply + index + 1, dry_run)
            except GameError as err:
                err = with_legal_moves(err, live.engine, state, seat)
                raise err if len(sequence) == 1 else refused_at(err, index, len(sequence), move) from None
            steps.append(step)
            if drew and index + 1 < len(sequence):
                raise IllegalMove(
                    f"Move {index + 1} of {len(sequence)} ('{step.notation}') involves chance, so it must be the "
                    "last move of a sequence: its result decides what comes next. Nothing was played; send the "
                    "moves up to it, then the rest once you have seen its result",
                    rule=f"{live.engine.name}/notation",
                )
        secret = live.engine.secret_phase(state)
        shown = [known + i + 1 if secret else step.ply for i, step in enumerate(steps)]
        return Played(live, seat, steps, dry_run, state, preview, shown)

    def _log(self, live: LiveGame, played: Played) -> Played:
        """Commit what was played (acknowledged only once committed), then bring the game in memory up to it."""
        public = played.entry or live.engine.move_visible(played.state_after, played.seat, None)
        rows = [MoveRecord(s.ply, played.seat, s.action, s.notation, s.events, now(), public) for s in played.steps]
        try:
            self.store.append_moves(live.id, rows)
        except StorageError:
            self.forget(live.id)  # whatever the failure left behind, the next read rebuilds the game from its log
            raise
        except PlyTaken:
            self._catch_up(live)
            raise MoveConflict(
                "Another server process recorded a move in this game first; nothing was played"
                + ("" if played.entry else ". Read the state again and choose a move"),
            ) from None
        live.chance.logged(live, rows, played.state_after)
        return replace(played, state_after=live.state, pending=live.pending and live.pending.request.text)

    def _already_played(self, live: LiveGame, seat: int, sequence: list[Move], expected: int, known: int) -> Played:
        """The moves numbered from ``expected`` if this seat already played exactly these; else a conflict."""
        if expected <= known:
            if live.engine.secret_phase(live.state):
                logged = self.visible_moves(live, seat)[expected - 1 : expected - 1 + len(sequence)]
            else:
                logged = self.store.moves(live.id, expected - 1, len(sequence))
            if len(logged) == len(sequence) and all(m.seat == seat for m in logged) and self._same_moves(live, seat, sequence, logged):
                steps = [Step(m.ply, m.notation, m.action, m.events) for m in logged]
                shown = list(range(expected, expected + len(steps)))
                return Played(live, seat, steps, False, live.state, None, shown, already=True)
        raise MoveConflict(
            f"You expected your move to be move {expected}, but the game is at move {known}"
            + (" and those moves are not yours as given" if expected <= known else "")
            + "; nothing was played. Read the state and choose again",
            rule=f"{live.engine.name}/turn",
        )

    @staticmethod
    def _same_moves(live: LiveGame, seat: int, sequence: list[Move], logged: list[MoveRecord]) -> bool:
        try:
            asked = [live.engine.read_move(within_limits(m), live.state, seat).model_dump(mode="json") for m in sequence]
        except GameError:
            return False
        return asked == [m.action for m in logged]

    def _step(self, live: LiveGame, state: Any, seat: int, move: Move, ply: int, dry_run: bool):
        """One move of a sequence: ``(state after, Step, whether it involved chance, dry-run chance preview)``.

        A dry run never draws from the game's generator (``Engine.try_action``): a move involving chance
        is answered with a preview and leaves the state as it was. A real move's chance comes from the
        game's chance source: it involved chance if it drew from the generator, or if it awaits the table.
        """
        engine = live.engine
        self._check_turn(live, state, seat)
        action = engine.read_move(within_limits(move), state, seat)
        notation, dumped = engine.notation(action), action.model_dump(mode="json")
        if dry_run:
            trial = engine.try_action(state, seat, action)
            if trial.chance:
                return state, Step(ply, notation, dumped, []), True, trial.preview
            return trial.state_after, Step(ply, notation, dumped, trial.events), False, None
        after, events, chance = live.chance.apply(engine, state, seat, action)
        return after, Step(ply, notation, dumped, events), chance, None

    def _check_turn(self, live: LiveGame, state: Any, seat: int) -> None:
        engine = live.engine
        if (result := engine.outcome(state)) is not None:
            raise GameOver(f"Game {live.id} is over: {result.reason}", rule=f"{engine.name}/end")
        if live.pending is not None:
            raise NotYourTurn(
                f"The table must first enter {live.pending.request.text}; the referee does it ('enter ...')",
                rule=table_rule(engine.name),
            )
        awaited = engine.to_move(state)
        if seat not in awaited:
            who = ", ".join(live.seat_label(s) for s in awaited)
            raise NotYourTurn(
                f"It is not {live.seat_label(seat)}'s turn; the game is waiting for {who}. "
                "Call wait_for_turn to be told when it is yours",
                rule=f"{engine.name}/turn",
            )

    # ---- waiting ----------------------------------------------------------------------------
    async def wait_for_turn(self, game_id: str, token: str | None, timeout: float) -> TurnStatus:
        """Return as soon as it is the token's seat's decision or the game is over, or at ``timeout``."""
        seats: list[int] = []

        def mine(live: LiveGame) -> bool:
            """The seat's decision; for a table game's referee, any seat's decision or the table's entry."""
            seat = seats[0]
            return seat in live.to_move() or (self.is_referee(live, token) and (live.pending is not None or bool(live.to_move())))

        def decided(live: LiveGame) -> bool:
            seats[:] = [self.seat_for(live, token)]
            return live.engine.outcome(live.state) is not None or mine(live)

        live, ready = await self.wait_until(game_id, decided, timeout)
        over = live.engine.outcome(live.state) is not None
        return TurnStatus(live, seats[0], mine(live), over, timed_out=not ready)

    async def wait_for_moves(self, game_id: str, after: int, timeout: float) -> LiveGame:
        """The game as soon as it has more than ``after`` moves in its log (secret ones included), or at ``timeout``.

        For the spectator site: what it shows of the game must come from the public view, never from this count.
        """
        live, _ = await self.wait_until(game_id, lambda live: live.ply > after, timeout)
        return live

    async def wait_until(self, game_id: str, ready: Callable[[LiveGame], bool], timeout: float) -> tuple[LiveGame, bool]:
        """The game and True as soon as ``ready(game)``, or the game and False at ``timeout``.

        Reading the game and then sleeping cannot miss a move: the signals counted before the read show
        whether one came in between. On a remote store (PostgreSQL) reads run in a worker thread: a network
        round trip, which may wait for a lock, must not hold up the event loop.
        """
        deadline = anyio.current_time() + timeout
        with self._waiting_on(game_id) as waiting:
            while True:
                seen = waiting.signals
                live = await self.io(lambda: self.get(game_id))
                if ready(live):
                    return live, True
                remaining = deadline - anyio.current_time()
                if remaining <= 0:
                    return live, False
                event = anyio.Event()
                with self._waiting_lock:
                    if waiting.signals != seen:
                        continue  # signalled while reading: read again
                    waiting.events.append((event, anyio.lowlevel.current_token()))
                try:
                    with anyio.move_on_after(remaining if self.poll is None else min(remaining, self.poll)):
                        await event.wait()
                finally:
                    with self._waiting_lock:
                        waiting.events = [(e, loop) for e, loop in waiting.events if e is not event]

    @contextmanager
    def _waiting_on(self, game_id: str) -> Iterator[Waiting]:
        with self._waiting_lock:
            waiting = self._waiting.setdefault(game_id, Waiting())
            waiting.waiters += 1
        try:
            yield waiting
        finally:
            with self._waiting_lock:
                waiting.waiters -= 1
                if waiting.waiters == 0:
                    del self._waiting[game_id]

    def signal(self, game_id: str) -> None:
        """Wake every wait_for_turn waiting on this game and tell the watchers (callable from any thread)."""
        for watcher in self.watchers:
            watcher(game_id)
        with self._waiting_lock:
            waiting = self._waiting.get(game_id)
            if waiting is None:
                return
            waiting.signals += 1
            events, waiting.events = waiting.events, []
        for event, loop in events:
            wake(event, loop)

    def _heard(self, game_id: str, ply: int) -> None:
        """The store heard that moves of ``game_id`` up to ``ply`` were committed (by any process). Waiters are
        woken unless this process already has those moves (its own, say): whatever brought them here woke them."""
        with self._load_lock:
            live = self._live.get(game_id)
        if live is None or live.ply < ply:
            self.signal(game_id)

    def _missed(self) -> None:
        """The store may have missed moves (its listening connection was re-established): every waiter re-reads."""
        with self._waiting_lock:
            games = list(self._waiting)
        for game_id in games:
            self.signal(game_id)

    def waiting_games(self) -> int:
        """How many games have someone waiting on them in this process."""
        with self._waiting_lock:
            return len(self._waiting)

    def asleep(self, game_id: str) -> int:
        """How many waiters on ``game_id`` have read the game and sleep until a signal (none is mid-read)."""
        with self._waiting_lock:
            waiting = self._waiting.get(game_id)
            return 0 if waiting is None else len(waiting.events)


def chosen_seat(live: LiveGame, seat: int, referee: bool, sequence: list[Move]) -> tuple[int, list[Move]]:
    """The seat a referee's moves are for: the first awaited, or the one named as a prefix ('1: pass')."""
    first = sequence[0]
    if not referee or not isinstance(first, str) or ":" not in first or not first.split(":", 1)[0].strip().isdigit():
        return seat, sequence
    chosen = int(first.split(":", 1)[0])
    if chosen >= len(live.record.seat_names):
        raise MalformedMove(f"There is no seat {chosen}; seats are 0 to {len(live.record.seat_names) - 1}")
    return chosen, [m.split(":", 1)[1].strip() if isinstance(m, str) and m.split(":", 1)[0].strip() == str(chosen) else m for m in sequence]


def with_legal_moves(err: GameError, engine: Engine, state: Any, seat: int) -> GameError:
    """A refused move's error listing the moves legal now, alternatives factored (``C e7-d6/e6``).

    An error that already lists something else (the closest area names to a misspelt one) keeps it.
    """
    if not isinstance(err, (IllegalMove, MalformedMove)) or seat not in engine.to_move(state):
        return err
    if err.legal and not set(err.legal) <= {engine.notation(a) for a in engine.legal_actions(state, seat)}:
        return err
    return type(err)(err.message, rule=err.rule, legal=engine.legal_notations(state, seat))


def refused_at(err: GameError, index: int, count: int, move: Move) -> GameError:
    """The same refusal, saying which move of a sequence failed and that nothing was played."""
    shown = clip(move if isinstance(move, str) else json.dumps(move, default=str), 80)
    message = f"Move {index + 1} of {count} ('{shown}') was refused, so nothing was played: {err.message}"
    return type(err)(message, rule=err.rule, legal=err.legal)
