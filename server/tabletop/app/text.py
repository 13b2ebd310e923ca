"""The one place that turns game results into the compact text a model reads.

Every tool answer has one text (``content``) written for a model: what it needs to decide, once, in
few characters. The typed answer for programs is the structured content. The helpers here keep
the texts of all tools alike: moves in notation with alternatives factored, events bounded,
seats called by their players' names.
"""

from __future__ import annotations

from typing import Any

from ..core.game import ChancePreview, Engine, LegalMoves
from ..core.text import MOVES_BUDGET, bounded_lines, factor
from ..sessions.live import LiveGame, Played
from ..sessions.storage import MoveRecord
from ..sessions.table import referee_act
from .models import Detail, MoveGroupOut

#: The most characters of events one answer repeats before pointing to history.
EVENTS_BUDGET = 1500
#: Said instead of the whole position to a seat that knows it (see ``digest.position_known``).
KNOWN = "The rest of the position is as you last saw it but for the moves above (get_state shows it whole)."
#: Heads the parts of a position told again because they changed since the seat last saw them.
CHANGED = "Changed since you last saw the position:"
#: The parts of a position (``Engine.position_parts``) that are the seat's status, told whenever its turn comes.
STATUS_PARTS = ("now", "you")
#: Said when nothing but the status changed since the seat last saw the position.
UNCHANGED = "The rest of the position is as you last saw it (get_state shows it whole)."
#: The changes are told instead of the whole position only when they take less than this share of it.
WORTH_IT = 0.7
#: How compact lists of moves are read.
FACTORED = "a/b: any one of them"


def groups_out(moves: LegalMoves, detail: Detail) -> list[MoveGroupOut]:
    """Legal moves for structured content: notations only, plus objects and summaries with detail=full."""
    return [
        MoveGroupOut(
            title=g.title,
            moves=[m.notation for m in g.moves],
            options=list(g.moves) if detail == "full" else None,
        )
        for g in moves.groups
        if g.moves  # a group of remarks only (War's marks on moves that cut a line) is for the text
    ]


def moves_lines(live: LiveGame, moves: LegalMoves, detail: Detail = "brief") -> list[str]:
    """Legal moves as text: briefly, each group on a line with its alternatives factored; in full, one
    move per line with its summary."""
    lines: list[str] = []
    for group in moves.groups:
        if detail == "full":
            if not group.moves:  # remarks on moves listed elsewhere: each move's summary says them in full
                continue
            lines.append(f"[{group.title}]")
            lines += [m.summary if m.summary.startswith(m.notation) else f"{m.notation}: {m.summary}" for m in group.moves]
            continue
        parts = group.brief or factor((m.notation for m in group.moves), live.engine.factor_separators)
        if not group.show_title:
            lines += parts
        elif sum(len(p) + 2 for p in parts) <= 160:
            lines.append(f"{group.title}: {'; '.join(parts)}")
        else:
            lines += [f"{group.title}:", *(f"  {p}" for p in parts)]
    return lines


def moves_text(live: LiveGame, moves: LegalMoves, detail: Detail = "brief", budget: int = MOVES_BUDGET) -> str:
    lines = moves_lines(live, moves, detail)
    tail = [moves.note] if moves.note else []
    if detail == "brief" and sum(len(line) for line in lines) <= 60 and len(moves.groups) == 1:
        return "\n".join([f"Your moves: {', '.join(lines)}.", *tail])
    shown = bounded_lines(lines, budget, "… {} more lines: call legal_moves with a focus (a unit, an area, an action)")
    factored = detail == "brief" and any("/" in line for line in shown)
    head = f"Your moves ({moves.count}{'; ' + FACTORED if factored else ''}):"
    return "\n".join([head, *shown, *tail])


def situation(live: LiveGame, seat: int | None, moves: LegalMoves | None, known: bool = False,
              changes: bool = False, own: bool = True) -> str:
    """The position in brief, then the seat's moves when the decision is its own, else who is awaited. A small
    decision (an out-of-turn window) is told in a few words instead of the whole position; so is the position
    when the seat knows it: with ``changes``, by the parts changed since it last saw it (games that tell their
    position by parts), else when ``known`` (from the last one it was shown and the moves it was told of since).
    ``own``: the seat itself reads the text (not the referee for it), so what it is shown is remembered."""
    engine = live.engine
    brief = engine.decision_text(live.state, seat) if seat is not None and moves is not None and moves.count else None
    if brief is None and seat is not None and own:
        brief = position_seen(live, live.state, seat, changes)
    if brief is None and known and seat is not None:
        brief = f"{engine.status(live.state, seat)}\n{KNOWN}"
    text = [brief or engine.describe(live.state, seat)]
    outcome = live.engine.outcome(live.state)
    if outcome is not None:
        return "\n".join(text)
    if moves is not None and moves.count:
        text.append(moves_text(live, moves))
    else:
        text.append(awaiting(live))
    return "\n".join(text)


def position_seen(live: LiveGame, state: Any, seat: int, changes: bool) -> str | None:
    """The position for ``seat`` in a game that tells it by parts (``Engine.position_parts``), remembered as what the
    seat last saw: with ``changes``, its status and the parts changed since it last saw them, when that is
    shorter than the whole; else the whole. None for a game that tells its position whole each time."""
    parts = live.engine.position_parts(state, seat)
    if parts is None:
        return None
    before = live.seen.get(seat)
    live.seen[seat] = parts
    whole = live.engine.describe(state, seat)
    if not changes or before is None:
        return whole
    status = [parts[key] for key in STATUS_PARTS if parts.get(key)]
    changed = changed_parts({**before, **{key: parts.get(key, "") for key in STATUS_PARTS}}, parts)
    text = "\n".join([*status, CHANGED if changed else UNCHANGED, *changed])
    return text if len(text) < len(whole) * WORTH_IT else whole


def changed_parts(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The parts of a position that differ from ``before``, as they read now; a part no longer there as "No longer:
    <what it said>"; parts with no text are never told."""
    lines = [text for key, text in after.items() if text and before.get(key) != text]
    return lines + [f"No longer: {text}" for key, text in before.items() if text and key not in after]


def status_changes(live: LiveGame, state: Any, seat: int) -> str:
    """After the seat's own move, in a game that tells its position by parts: its status parts (the phase and who is
    awaited, its own standing) that changed since it last saw them, nothing when none did, or the game's status when
    the seat never saw the position; elsewhere the game's status. The rest of what its move changed is in its
    events, and in the changes told when its turn comes again."""
    parts = live.engine.position_parts(state, seat)
    before = live.seen.get(seat)
    if parts is None or before is None:
        return live.engine.status(state, seat)
    status = {key: parts.get(key, "") for key in STATUS_PARTS}
    live.seen[seat] = {**before, **status}
    changed = changed_parts({key: before.get(key, "") for key in STATUS_PARTS}, status)
    return "\n".join(changed)


def awaiting(live: LiveGame) -> str:
    if live.pending is not None:
        who = live.seat_label(live.pending.seat)
        return f"Waiting for the referee to enter what the table showed for {who}'s move: {live.pending.request.text}."
    waiting = [live.seat_label(s) + (", thinking" if s in live.record.bots else "") for s in live.to_move()]
    return f"Waiting for {', '.join(waiting)}." if waiting else "Nobody is to move."


def events_text(events: list[str], budget: int = EVENTS_BUDGET) -> list[str]:
    return bounded_lines(events, budget, "… {} more events: see history")


def chance_text(preview: ChancePreview) -> str:
    """A chance preview in a few lines: what would be rolled or drawn, and the likeliest results."""
    lines = [f"Its result is not shown before it is played. {preview.summary}"]
    lines += [f"- {o.result}" + (f": {o.probability:.1%}" if o.probability is not None else "") for o in preview.outcomes]
    return "\n".join(lines)


def logged_text(live: LiveGame, move: MoveRecord) -> str:
    """A logged row as history tells it: "Ann: roll", or, for the referee's entry or undo in a table game, what the
    referee did ("the referee entered library, library, tomb for Ann's move")."""
    act = live.referee_act(move)
    return f"the referee {act}" if act else f"{live.seat_label(move.seat)}: {move.notation}"


def table_awaited(played: Played) -> bool:
    """Whether the table's chance is awaited in the position the answer to ``played`` describes."""
    return played.game.pending is not None and played.state_after is played.game.state


def played_text(played: Played, moves_next: LegalMoves | None) -> str:
    """What a sequence did, then what is next: the seat's moves if it decides again, else who is awaited."""
    live, shown = played.game, played.shown
    who = live.seat_label(played.seat)
    numbers = f"move {shown[0]}" if len(shown) == 1 else f"moves {shown[0]}-{shown[-1]}"
    act = referee_act(played.steps[0].action, who) if played.entry else None
    if act and played.dry_run:
        head = f"Dry run for the referee: '{played.notation}' is possible for {who}'s move and was NOT logged."
    elif act and played.already:
        head = f"Already done: the referee {act} ({numbers}); this retry changed nothing."
    elif act:
        head = f"The referee {act} ({numbers})."
    elif played.dry_run:
        head = f"Dry run for {who}: '{played.notation}' is legal and was NOT played."
    elif played.already:
        head = f"Already played: '{played.notation}' was {numbers} by {who}; this retry played nothing again."
    else:
        head = f"{who} played '{played.notation}' ({numbers})."
    lines = [head, *events_text(played.events)]
    if played.chance is not None:
        lines.append(chance_text(played.chance))
        return "\n".join(lines)
    engine, after = live.engine, played.state_after
    outcome = engine.outcome(after)
    pending = live.pending if table_awaited(played) else None
    if played.dry_run:
        lines += engine.consequences(live.state, after, played.seat)
    if outcome is not None:
        if outcome.reason not in " ".join(played.events):  # the last move's events may already say it
            lines.append(f"Game over: {outcome.reason}")
    elif pending and moves_next is not None and moves_next.count:
        lines.append(moves_text(live, moves_next))  # the referee: the entries to make
    elif pending:  # a seat: it waits for the referee's entry
        if pending.request.text not in " ".join(played.events):
            lines.append(awaiting(live))
        if moves_next is not None and moves_next.note:
            lines.append(moves_next.note)
    elif moves_next is not None and moves_next.count:
        fresh = not (played.dry_run or played.already or played.referee)  # the seat itself sees a new position
        now = engine.decision_text(after, played.seat)
        now = now or (status_changes(live, after, played.seat) if fresh else engine.status(after, played.seat))
        lines += [now] if now else []
        lines += owed_line(engine, after, played)
        lines.append(moves_text(live, moves_next))
    else:
        owed = owed_line(engine, after, played)
        waiting = [live.seat_label(s) for s in engine.to_move(after)]
        said = owed and all(who in owed[0] for who in waiting)  # the owed line already names who is awaited
        lines += owed if said else [*owed, f"Next: {', '.join(waiting)} to move."]
    return "\n".join(lines)


def owed_line(engine: Engine, after: Any, played: Played) -> list[str]:
    """What the seat must or may do next, or why its turn ended, as the game says it (nothing for the referee)."""
    owed = None if played.referee else engine.owed(after, played.seat)
    return [owed] if owed else []
