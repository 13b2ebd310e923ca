"""Games whose chance comes from a real table (option ``chance: table``), derived from the move log alone.

The log holds three kinds of rows: ordinary moves, entries (``{"enter": [...]}``: what the table showed for
the pending move's next random event) and undos (``{"undo": true}``: the last move not yet taken back is taken
back). A move that needs chance is logged, then stays *pending* until its entries are in; each entry retries
it from its start with every answer so far (``TableAnswers``). Nothing here lives only in memory: any process
rebuilds the same state, pending request and undo limit by reading the log (:func:`apply_logged`).

Undo (rules_text ``<game>/table``): the referee may take back moves back to the last entry from the table,
that entry included, and no further; so once an entry is taken back, the moves before it stand.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..core.chance import ChanceRequest, NeedChance, TableAnswers, is_undo, read_entry
from ..core.errors import BadOptions, IllegalMove, MalformedMove
from ..core.game import Engine, LegalMoves, MoveGroup, MoveOption
from ..core.rng import answered_by
from ..rulebook import find_section
from .chance import Applied, Entry, LiveGame, ServerChance, Step
from .errors import BadToken, MoveConflict
from .limits import within_limits
from .storage import MoveRecord, Store

#: Entries with at most this many possible values are listed one by one in legal_moves; larger ones by example.
LIST_UP_TO = 12


@dataclass
class Pending:
    """A logged move waiting for the table: who played it, the action, the entries so far and what is needed."""

    seat: int
    action: Any
    entries: list[list[str]]
    request: ChanceRequest


@dataclass
class TableChance(ServerChance):
    """Chance from the table: what the log says beyond the state (the moves not taken back, how far undo may go,
    a pending move), and the referee's entries and undos, which the move path logs like any move."""

    effective: list[MoveRecord] = field(default_factory=list)
    floor: int = 0
    pending: Pending | None = None
    has_referee = True

    def new_state(self, engine: Engine, options: Any, names: list[str], seed: int) -> Any:
        """A fresh table game; refused if setting it up would need the table at once."""
        try:
            return new_table_game(engine, options, names, seed)
        except NeedChance as need:
            raise BadOptions(
                f"With chance 'table', setting up would need the table at once ({need.request.what}); settle it at "
                "the table and give the result as an option instead (e.g. a fixed first player)",
                rule=table_rule(engine.name),
            ) from None

    def to_move(self, engine: Engine, state: Any) -> list[int]:
        """Nobody moves while the table's chance is awaited."""
        return [] if self.pending is not None else engine.to_move(state)

    def legal_moves(self, live: LiveGame, seat: int, focus: str | None, referee: bool = False) -> LegalMoves:
        """While the table's chance is awaited: for the referee, the entries that would answer it; for a seat,
        nothing (its token cannot enter), with a note saying so."""
        if self.pending is not None:
            if referee:
                return entry_moves(self.pending.request, live.engine.name, live.seat_label(self.pending.seat))
            return LegalMoves(groups=[], note=(
                "Only the referee enters what the table showed; nothing is yours to play until then "
                f"(rules://{table_rule(live.engine.name)})."
            ))
        return live.engine.legal_moves(live.state, seat, focus)

    def apply(self, engine: Engine, state: Any, seat: int, action: Any) -> Applied:
        """A move that needs chance is logged as it is and waits for the table's entries (the state stays)."""
        try:
            after, events = apply_at_table(engine, state, seat, action, [])
        except NeedChance as need:
            return Applied(state, [f"Awaiting the table: {need.request.text}."], True)
        return Applied(after, events, False)

    def replay(self, live: LiveGame, row: MoveRecord) -> None:
        live.state = apply_logged(live.engine, live.state, self, row, live.fresh_state)
        live.ply = row.ply

    def logged(self, live: LiveGame, rows: list[MoveRecord], state_after: Any) -> None:
        """Bring the game in memory up to rows just committed, exactly as a replay of the log would."""
        for row in rows:
            self.replay(live, row)

    def entry(self, live: LiveGame, referee: bool, sequence: list[Any], expected: int | None, store: Store) -> Entry | None:
        """An entry of what the table showed, or an undo: the referee's alone, one per call (rules_text <game>/table)."""
        if not any(read_entry(within_limits(m)) is not None or is_undo(m) for m in sequence):
            return None
        rule = table_rule(live.engine.name)
        if not referee:
            raise BadToken(
                "Only the referee enters what the table rolled or drew, and takes moves back, in this game (chance: "
                "table); a seat's token cannot. Ask the referee, who holds the token new_game returned for it",
                rule=rule,
            )
        if len(sequence) != 1:
            raise MalformedMove("An entry or an undo is sent alone, one per apply_move", rule=rule)
        if expected is not None and expected != live.ply + 1:
            return self.entered_before(live, sequence[0], expected, store)
        return self.undo(live) if is_undo(sequence[0]) else self.enter(live, sequence[0])

    def undo(self, live: LiveGame) -> Entry:
        """Take back the last move not yet taken back, as far back as the last entry from the table."""
        if len(self.effective) <= self.floor:
            raise IllegalMove(
                "Nothing can be taken back: undo goes back to the last result entered from the table and no "
                "further (the moves before it stand)" if self.floor else "Nothing can be taken back: no move was played",
                rule=table_rule(live.engine.name),
            )
        last = self.effective[-1]
        return Entry(last.seat, Step(live.ply + 1, "undo", {"undo": True}, [f"Move {last.ply} ('{last.notation}') is taken back."]))

    def enter(self, live: LiveGame, move: Any) -> Entry:
        """What the table showed for the pending move's next random event, checked against what it can show."""
        rule = table_rule(live.engine.name)
        if self.pending is None:
            raise IllegalMove("Nothing awaits the table now: enter results only when legal_moves asks for them", rule=rule)
        values = self.pending.request.check(read_entry(move), rule)
        action = {"enter": values, "secret": True} if self.pending.request.secret else {"enter": values}
        events = entry_events(live.engine, live.state, self.pending, values)
        return Entry(self.pending.seat, Step(live.ply + 1, "enter " + " ".join(values), action, events))

    @staticmethod
    def entered_before(live: LiveGame, move: Any, expected: int, store: Store) -> Entry:
        """A retried entry or undo (``expected_ply`` already used): reported again if the log has it there."""
        logged = store.moves(live.id, expected - 1, 1) if expected <= live.ply else []
        if logged:
            row, given = logged[0], read_entry(move)
            wanted = {"undo": True} if given is None else None
            same = row.action == wanted if wanted else (
                "enter" in row.action and [v.lower().replace("-", "_") for v in given] == [str(v).lower() for v in row.action["enter"]]
            )
            if same:
                return Entry(row.seat, Step(row.ply, row.notation, row.action, row.events), already=True)
        raise MoveConflict(
            f"You expected this to be move {expected}, but the game is at move {live.ply}; nothing was entered. "
            "Read legal_moves and enter again",
            rule=table_rule(live.engine.name),
        )


def table_rule(game: str) -> str:
    """The rules section on entering chance: ``<game>/table``, or for a game without one its rulings (A Game of
    War, whose one random event is described there)."""
    return f"{game}/table" if find_section(game, "table") is not None else f"{game}/rulings"


def apply_at_table(engine: Engine, state: Any, seat: int, action: Any, entries: list[list[str]]) -> tuple[Any, list[str]]:
    """``engine.apply`` with chance answered by ``entries``; raises NeedChance when it needs one more."""
    with answered_by(TableAnswers(entries)):
        return engine.apply(state, seat, action)


def new_table_game(engine: Engine, options: Any, names: list[str], seed: int) -> Any:
    """A fresh table game; NeedChance if setting it up would roll (the caller refuses such options)."""
    with answered_by(TableAnswers([])):
        return engine.new_game(options, len(names), seed, names)


def entry_events(engine: Engine, state: Any, pending: Pending, values: list[str]) -> list[str]:
    """What entering ``values`` does: the move's events once its chance is complete, else what comes next."""
    try:
        _, events = apply_at_table(engine, state, pending.seat, pending.action, [*pending.entries, values])
    except NeedChance as need:
        return [f"Entered; next: {need.request.text}."]
    return events


def apply_logged(engine: Engine, state: Any, table: TableChance, move: MoveRecord, fresh: Any) -> Any:
    """The state after one logged row of a table game (``table`` is updated in place); ``fresh`` rebuilds
    the game's initial state for an undo, which replays the moves not taken back."""
    if is_undo(move.action):
        taken = table.effective.pop()
        if "enter" in taken.action:
            table.floor = len(table.effective)
        kept, table.effective, table.pending = table.effective, [], None
        state = fresh()
        for row in kept:
            state = apply_logged(engine, state, table, row, fresh)
        return state
    table.effective.append(move)
    if "enter" in move.action:
        pending = table.pending
        assert pending is not None, "the log holds an entry only while a move awaits the table"
        pending.entries.append(move.action["enter"])
        try:
            state, _ = apply_at_table(engine, state, pending.seat, pending.action, pending.entries)
        except NeedChance as need:
            pending.request = need.request
            return state
        table.pending = None
        return state
    action = engine.read_move(move.action, state, move.seat)
    try:
        state, _ = apply_at_table(engine, state, move.seat, action, [])
    except NeedChance as need:
        table.pending = Pending(move.seat, action, [], need.request)
    return state


def as_seen_by(move: MoveRecord, viewer: int | None, referee: bool = False) -> MoveRecord:
    """A logged row as ``viewer`` (None: a spectator) may read it: an entry of a secret draw (a hidden Elder
    Sign) shows its value only to the seat it was drawn for and to the referee; others read that it was entered."""
    if not move.action.get("secret") or referee or viewer == move.seat:
        return move
    hidden = {"enter": ["hidden"] * len(move.action["enter"]), "secret": True}
    return replace(move, action=hidden, notation="enter (hidden)")


def referee_act(action: dict[str, Any], who: str) -> str | None:
    """What the referee did in a logged row of a table game, in words for texts and logs ("entered library,
    library, tomb for Ann's move", "took back the last move"), or None for a seat's move. An entry is logged
    under the seat whose move it answers, but that seat did not choose it: texts name the referee instead.
    (A seat's move the referee played for it is not marked in the log, and reads as the seat's.)"""
    if is_undo(action):
        return "took back the last move"
    values = action.get("enter") if set(action) <= {"enter", "secret"} else None
    if not isinstance(values, list) or not values:
        return None
    shown = "a hidden result" if action.get("secret") and all(v == "hidden" for v in values) else ", ".join(map(str, values))
    return f"entered {shown} for {who}'s move"


def entry_moves(request: ChanceRequest, game: str, who: str) -> LegalMoves:
    """What legal_moves shows the referee while the table is awaited: every possible entry when few, else an
    example (the same for the same request on every call)."""
    if request.kind == "die":
        values = [[str(v)] for v in range(1, request.sides + 1)]
    elif request.kind == "pick":
        values = [[k] for k, n in request.options if n > 0]
    else:
        values = []
    if not values or len(values) > LIST_UP_TO:
        values = [request.example()]
    listed = len(values) > 1 or request.kind in ("die", "pick")
    summary = "What the table showed." if listed else "An example: enter what the table showed, in any order."
    options = [MoveOption(notation="enter " + " ".join(v), action={"enter": v}, summary=summary) for v in values]
    note = (
        ("" if listed else "The entry above is only an example. ")
        + f"Only the referee enters; 'undo' takes back the last move, back to the last entry (rules://{table_rule(game)})."
    )
    return LegalMoves(groups=[MoveGroup(title=f"{who}: {request.text}", moves=options)], note=note)
