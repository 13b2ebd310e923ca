"""What a move does to its own side's lines, and what a tried sequence of moves changed.

Rules: ``game-of-war/communication`` (a unit is online on a line of its side or next to an online friend, chained;
lines are worked out again after every single move, so a move can cut off units of the side that made it) and
``game-of-war/turn`` (an offline unit cannot move, relays excepted: a move that cuts a unit off stops that unit
moving later in the same turn).

Nothing here changes a state. ``move_cuts`` is called for every legal-move listing, so it avoids recomputing
lines where it can: a side's own units never stop its lines, so moving a unit that is not a relay leaves the
side's covered squares as they are and only the chains of neighbours have to be followed again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from tabletop.core.text import factor

from .board import ARSENAL_SQUARES, SIDE_NAMES, bits, dilate, square_name
from .display import visible_sides
from .network import blockers_for, connect, side_lines, star
from .notation import play_of
from .rules import MOVE
from .state import SETUP, State
from .units import STATS, letter

#: The longest line of marks in a legal-move listing before the rest is counted (``… N more``).
MARKS_BUDGET = 320
#: The longest the dry-run board may grow, all lines together.
BOARD_BUDGET = 500
#: Where a listing's marks cut short send the reader.
MORE = " (detail=full marks each move)"
#: Units named in one mark before the rest is counted.
NAMED_UNITS = 4


class Cut(NamedTuple):
    """What one move cuts off: ``others``, the squares of the side's other units online before it and offline after
    it; ``itself``, whether the moved unit was online and ends offline."""

    others: int
    itself: bool


# ---- marks on legal moves -----------------------------------------------------------------------------
def move_cuts(state: State, moves: Iterable[tuple[int, int]]) -> dict[tuple[int, int], Cut]:
    """For the side to move's unit moves ``(origin, destination)``: those that leave some of its units offline
    that are online now, with what they cut off (game-of-war/communication). Moves that cut nothing are left out."""
    side = state.side
    units = state.units[side]
    online = state.network.online[side] & units
    cover = state.network.cover[side]
    opts = state.options
    blockers = blockers_for(side, state.units, state.relays, opts.enemy_relays_block_lines)
    by_origin: dict[int, list[int]] = {}
    for origin, destination in moves:
        by_origin.setdefault(origin, []).append(destination)
    cuts: dict[tuple[int, int], Cut] = {}
    for origin, destinations in by_origin.items():
        was_online = bool(online >> origin & 1)
        rest = units & ~(1 << origin)
        held = online & rest  # the other units online now
        if opts.adjacent_relays_reemit:  # any move may change which relays send lines: work them all out again
            for destination in destinations:
                after = online_after_move(state, origin, destination)
                _note(cuts, origin, destination, held & ~after, was_online and not after >> destination & 1)
            continue
        relay = bool(state.relays[side] >> origin & 1)
        other_relays = state.relays[side] & ~(1 << origin)
        base = cover
        if relay and cover >> origin & 1:  # a relay on a line sends lines of its own, which leave with it
            base = side_lines(state.arsenals[side], rest, other_relays, blockers, False)[0]
        # the units left behind keep the chains they still have without the mover
        kept = connect(rest & base, rest)
        lost = held & ~kept  # cut off once the mover leaves, unless it reconnects them from where it lands
        joins = base | dilate(kept)  # where the mover itself is online on arrival
        for destination in destinations:
            bit = 1 << destination
            if relay and base & bit:  # a relay landing on a line sends lines from there
                lines = relayed(base, destination, other_relays, blockers)
                after = connect((rest | bit) & lines, rest | bit)
                _note(cuts, origin, destination, held & ~after, was_online and not after & bit)
                continue
            arrives_online = bool(joins & bit)
            others = lost
            if lost and arrives_online:
                others = lost & ~connect(kept | bit, rest | bit)
            _note(cuts, origin, destination, others, was_online and not arrives_online)
    return cuts


def _note(cuts: dict[tuple[int, int], Cut], origin: int, destination: int, others: int, itself: bool) -> None:
    if others or itself:
        cuts[(origin, destination)] = Cut(others, itself)


def relayed(cover: int, sq: int, relays: int, blockers: int) -> int:
    """``cover`` (closed: every relay of ``relays`` on it already sends lines) with a relay sending from ``sq`` too,
    and every relay its lines reach in turn (game-of-war/communication)."""
    sending = relays & cover
    cover |= star(sq, blockers)
    fresh = relays & cover & ~sending
    while fresh:
        for relay in bits(fresh):
            cover |= star(relay, blockers)
        sending |= fresh
        fresh = relays & cover & ~sending
    return cover


def online_after_move(state: State, origin: int, destination: int) -> int:
    """The online units of the mover's side once its unit on ``origin`` stands on ``destination``.

    Only that side's lines are worked out: its own move changes neither what stops them (mountains and enemy units)
    nor its own arsenals (game-of-war/communication).
    """
    code = state.pieces[origin]
    side = code >> 3
    swap = (1 << origin) | (1 << destination)
    units = state.units[side] ^ swap
    relays = state.relays[side] ^ swap if state.relays[side] >> origin & 1 else state.relays[side]
    opts = state.options
    blockers = blockers_for(side, state.units, state.relays, opts.enemy_relays_block_lines)
    return side_lines(state.arsenals[side], units, relays, blockers, opts.adjacent_relays_reemit)[1]


def unit_names(state: State, mask: int, limit: int = NAMED_UNITS) -> str:
    """``C o14, I p15`` (letters as moves write them): the first ``limit`` units, then ``…``."""
    named = []
    for sq in bits(mask):
        if len(named) == limit:
            named.append("…")
            break
        named.append(f"{STATS[state.pieces[sq] & 7].letter} {square_name(sq)}")
    return ", ".join(named)


def cut_words(state: State, cut: Cut, limit: int = NAMED_UNITS) -> str:
    """What a cut does, as the marks say it: ``leaves C o14, I p15 offline``, ``leaves C o14 and itself offline``,
    ``leaves 6 units offline: I c7, C c8, I d8, I d9, …``, ``ends offline itself``."""
    if not cut.others:
        return "ends offline itself"
    count = bin(cut.others).count("1")
    names = unit_names(state, cut.others, limit)
    also = " and itself" if cut.itself else ""
    if count > limit:
        return f"leaves {count} units{also} offline: {names}"
    return f"leaves {names}{also} offline"


def cut_sentence(state: State, cut: Cut, relay: bool = False) -> str:
    """The sentence a cutting move's summary ends with (game-of-war/communication); ``relay``: the mover is a relay,
    which moves even offline."""
    if not cut.others:
        if relay:
            return " It ends offline itself (out of communication): it counts 0 in defence until reconnected."
        return (
            " It ends offline itself (out of communication): it cannot take part in this turn's attack, and cannot "
            "move next turn unless reconnected."
        )
    return (
        f" Cuts your own line: {cut_words(state, Cut(cut.others, cut.itself), limit=8)} (out of communication: an "
        "offline unit cannot move, relays excepted, nor attack, and counts 0 for its own defence)."
    )


def cut_marks(state: State, cuts: dict[tuple[int, int], Cut]) -> list[str]:
    """The lines a legal-move listing adds for moves that cut the mover's own units off, each bounded.

    Moves of one unit with the same effect share a mark (``I n13-m12/n12 (leaves C o14 offline)``); moves that cut
    only the mover itself off come on a second, shorter line.
    """
    grouped: dict[tuple[int, int, bool], list[str]] = {}
    alone: list[str] = []
    for (origin, destination), cut in cuts.items():
        text = f"{STATS[state.pieces[origin] & 7].letter} {square_name(origin)}-{square_name(destination)}"
        if cut.others:
            grouped.setdefault((origin, cut.others, cut.itself), []).append(text)
        else:
            alone.append(text)
    lines = []
    if grouped:
        parts = [
            f"{factor(texts, ' -')[0]} ({cut_words(state, Cut(others, itself))})"
            for (_, others, itself), texts in grouped.items()
        ]
        budget = MARKS_BUDGET
        if sum(len(p) + 2 for p in parts) > budget:  # every cutting move still named: one part per unit moved
            parts, budget = unit_by_unit(state, grouped), MARKS_BUDGET * 3 // 2
        lines.append(bounded_join("Cuts your own line: ", parts, budget, len(parts)))
    if alone:
        moves = factor(alone, " -")
        lines.append(bounded_join("Ends offline itself: ", moves, MARKS_BUDGET * 2 // 3, len(moves)))
    return lines


def unit_by_unit(state: State, grouped: dict[tuple[int, int, bool], list[str]]) -> list[str]:
    """The cutting moves one unit at a time, each unit's moves together with every unit one of them cuts off
    ("C d8-c6/d6/b8 (each leaves some of C c7, C e8, W f8 offline)"): shorter when moves of one unit cut off
    different units, so that a long listing still names every cutting move."""
    units: dict[int, tuple[list[str], int, bool, int]] = {}
    for (origin, others, itself), texts in grouped.items():
        moves, union, any_itself, kinds = units.get(origin, ([], 0, False, 0))
        units[origin] = (moves + texts, union | others, any_itself or itself, kinds + 1)
    parts = []
    for moves, union, itself, kinds in units.values():
        words = cut_words(state, Cut(union, itself), limit=3)
        parts.append(f"{factor(moves, ' -')[0]} ({'each ' + words.replace('leaves ', 'leaves some of ', 1) if kinds > 1 else words})")
    return parts


def bounded_join(head: str, parts: Iterable[str], budget: int, count: int, more: str = MORE) -> str:
    """``head`` and the ``count`` ``parts`` joined with ``; `` up to about ``budget`` characters, then ``… N more``
    (``more`` says where the rest is). Parts past the budget are never written."""
    text = head
    for index, part in enumerate(parts):
        piece = part if index == 0 else "; " + part
        if index and len(text) + len(piece) > budget:
            return f"{text}; … {count - index} more{more}"
        text += piece
    return text


# ---- the board a dry run leaves -------------------------------------------------------------------------
def dry_run_board(before: State, after: State, seat: int) -> list[str]:
    """What a tried sequence changed, for ``seat``: the squares whose content changed, the seat's units it cut off
    (and those still offline or reconnected), enemy units it cut off, and what was destroyed; at most about
    ``BOARD_BUDGET`` characters (game-of-war/communication, game-of-war/combat).

    Only what ``seat`` may see in both positions is compared: during the secret deployment, its own units alone.
    """
    shown = tuple(s for s in visible_sides(before, seat) if s in visible_sides(after, seat))
    moves = moves_since(before, after, seat)
    squares = [sq for move in moves for sq in move]  # in the order of the moves: where from, then where to
    squares += sorted(_touched(before, after) - set(squares))
    changed = [
        f"{square_name(sq)}: {_content(before, sq, shown)} → {_content(after, sq, shown)}"
        for sq in dict.fromkeys(squares)
        if _content(before, sq, shown) != _content(after, sq, shown)
    ]
    lines = [bounded_join("Board: ", changed, 220, len(changed), "") if changed else "Board: no square changes."]
    if before.phase == SETUP or after.phase == SETUP or seat not in (0, 1):
        return lines
    lines.append(_own_lines_text(before, after, seat, moves))
    enemy = 1 - seat
    both = before.units[enemy] & after.units[enemy]
    enemy_cut = both & before.network.online[enemy] & ~after.network.online[enemy]
    if enemy_cut:
        lines.append(f"Enemy units cut off by it: {_board_names(before, enemy_cut)}.")
    destroyed = [_destroyed(before, sq) for sq in bits(before.units[enemy] & ~after.units[enemy])]
    destroyed += [f"{SIDE_NAMES[s]}'s arsenal {square_name(sq)}" for s in (0, 1) for sq in bits(before.arsenals[s] & ~after.arsenals[s])]
    if destroyed:
        lines.append(f"Destroyed: {', '.join(destroyed)}.")
    return _bounded_block(lines, BOARD_BUDGET)


def _own_lines_text(before: State, after: State, seat: int, moves: list[tuple[int, int]]) -> str:
    """The seat's units cut off by its ``moves`` (each unit followed from where it stood), those still offline, and
    those reconnected."""
    where = {sq: sq for sq in bits(before.units[seat])}
    for origin, destination in moves:
        for start, now in where.items():
            if now == origin:
                where[start] = destination
                break
    cut, still, back = [], [], []
    for start, now in where.items():
        if not after.units[seat] >> now & 1:
            continue  # destroyed: said with the destroyed units
        was = bool(before.network.online[seat] >> start & 1)
        is_ = bool(after.network.online[seat] >> now & 1)
        name = letter(after.pieces[now]) + " " + square_name(now) + (f" (from {square_name(start)})" if now != start else "")
        if was and not is_:
            cut.append(name)
        elif not was and not is_:
            still.append(name)
        elif is_ and not was:
            back.append(name)
    parts = [f"cut off by it (online before, offline after): {_few(cut)}" if cut else "none cut off by it"]
    if still:
        parts.append(f"still offline: {_few(still)}")
    if back:
        parts.append(f"back online: {_few(back)}")
    return f"Your units: {'; '.join(parts)}."


def _few(names: list[str], limit: int = 8) -> str:
    return ", ".join(names) if len(names) <= limit else f"{', '.join(names[:limit])} and {len(names) - limit} more"


def moves_since(before: State, after: State, seat: int) -> list[tuple[int, int]]:
    """The unit moves ``seat`` made between ``before`` and ``after`` (read from the log), as ``(origin, destination)``."""
    entries = after.actions()[len(before.actions()) :]
    moves = []
    for mover, action in entries:
        wanted = play_of(action)
        if mover == seat and wanted[0] == MOVE:
            moves.append((wanted[1], wanted[2]))
    return moves


def _touched(before: State, after: State) -> set[int]:
    arsenals = ARSENAL_SQUARES[0] | ARSENAL_SQUARES[1]
    return set(before.pieces) | set(after.pieces) | set(bits(arsenals))


def _content(state: State, sq: int, shown: tuple[int, ...]) -> str:
    """A square's content as the board writes it (unit letters, ``A``/``a`` for a standing arsenal), or ``empty``."""
    code = state.pieces.get(sq)
    if code is not None and code >> 3 in shown:
        return letter(code)
    for side, mark in ((0, "A"), (1, "a")):
        if state.arsenals[side] >> sq & 1:
            return mark
    return "empty"


def _board_names(state: State, mask: int) -> str:
    return ", ".join(f"{letter(state.pieces[sq])} {square_name(sq)}" for sq in bits(mask))


def _destroyed(state: State, sq: int) -> str:
    code = state.pieces[sq]
    return f"{SIDE_NAMES[code >> 3]} {STATS[code & 7].title.lower()} {square_name(sq)}"


def _bounded_block(lines: list[str], budget: int) -> list[str]:
    """Lines kept whole while they fit in ``budget`` characters; a line that does not is cut short."""
    kept, used = [], 0
    for line in lines:
        room = budget - used
        if room <= 40:
            break
        kept.append(line if len(line) <= room else line[: room - 1] + "…")
        used += len(kept[-1]) + 1
    return kept


__all__ = ["Cut", "cut_marks", "cut_sentence", "dry_run_board", "move_cuts", "online_after_move"]
