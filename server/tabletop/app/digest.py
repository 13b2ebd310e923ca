"""What a seat is told first when it reads the game again: what the others did since it last decided.

``wait_for_turn``, ``get_state`` (brief) and the answer to the seat's own ``apply_move`` begin with it, so a model
never has to read ``history`` and compare two positions to learn that a unit of its was destroyed or which dice
were rolled against it. Each move of the others is told by its events (the rolls of both sides of a battle, what
it did to whose units, captures, spellbooks, Doom), in the words the log keeps, bounded; the rest is one
``history`` call away. Nothing is told that the seat may not read in the log (another side's hidden placements
stay secret), and nothing twice: the last move a seat was told of is remembered (in memory; after a restart it is
told again from its own last move).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.text import clip
from ..sessions.live import LiveGame
from ..sessions.manager import GameSessions
from ..sessions.storage import MoveRecord

#: About how many characters a digest takes before pointing to history.
DIGEST_BUDGET = 600
#: The most characters one move takes in a digest.
LINE_BUDGET = 220
#: How far back the seat's own last decision is looked for (moves); older ones are history's.
LOOKBACK = 400
#: How many moves of others a seat may be told of, in digests, before it is shown the whole position again.
DRIFT = 8


@dataclass
class Digest:
    """What a seat is told of the others' moves: the text, how many moves it tells of, whether all of them."""

    text: str
    moves: int
    whole: bool


def since_last_decision(sessions: GameSessions, live: LiveGame, seat: int | None, upto: int | None = None) -> Digest | None:
    """The digest for ``seat`` of the others' moves after its last decision (and after what it was last told),
    up to move ``upto`` (default: all); None when there is nothing to tell. Remembers what was told."""
    if seat is None or live.engine.secret_phase(live.state):  # mid-deployment nobody learns the others' moves
        return None
    end = live.ply if upto is None else upto
    told = live.told.get(seat, 0)  # what was told before need not be read again
    after = max(0, end - LOOKBACK, min(told, end))
    rows = [m for _, m in sessions.log_page(live, seat, after, end - after).moves] if end > after else []  # as seen
    start = max(last_decision(live, seat, rows, after), told)
    live.told[seat] = max(told, end)
    fresh = [m for m in rows if m.ply > start]
    for_you = [m for m in fresh if m.seat == seat and m.ply in live.answered]
    others = [m for m in fresh if not is_own_decision(live, seat, m) and m.ply not in live.answered]
    lines = repeats_counted([(m.ply, line) for m in others if (line := told_line(live, m))])
    if not lines and not for_you:
        return None
    shown: list[str] = []
    used = 0
    for _, line in reversed(lines):  # the latest moves matter most: the earliest give way
        if used + len(line) > DIGEST_BUDGET and shown:
            break
        shown.insert(0, f"- {line}")
        used += len(line)
    earlier = len(lines) - len(shown)
    if earlier:
        shown.insert(0, f"… {earlier} earlier: history after={start}")
    if for_you:
        made = ", ".join(sorted({m.notation for m in for_you}))
        shown.append(f"- Your standing answers made {len(for_you)} decision{'s' * (len(for_you) > 1)} for you ({made}).")
    return Digest("\n".join(["Since your last move:", *shown]), len(lines), not earlier)


def position_known(live: LiveGame, seat: int, digest: Digest | None) -> bool:
    """Whether ``seat`` still knows the position well enough from the last whole one it was shown and the digests
    since (at most :data:`DRIFT` moves of others, all told): then a waiting seat is given its status, not the
    whole position again. Remembers the answer: a seat told it does not know is about to be shown the position."""
    told = 0 if digest is None else digest.moves
    drift = live.drift.get(seat)
    known = drift is not None and drift + told <= DRIFT and (digest is None or digest.whole)
    live.drift[seat] = drift + told if known else 0
    return known


def repeats_counted(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Runs of the same line told once with their count ("North places a unit. (x17)"), each with its last move."""
    runs: list[tuple[int, str, int]] = []
    for ply, line in lines:
        if runs and runs[-1][1] == line:
            runs[-1] = (ply, line, runs[-1][2] + 1)
        else:
            runs.append((ply, line, 1))
    return [(ply, line if n == 1 else f"{line} (x{n})") for ply, line, n in runs]


def last_decision(live: LiveGame, seat: int, rows: list[MoveRecord], after: int) -> int:
    """The number of the seat's last own decision among ``rows``, the moves after ``after`` (not one made for it,
    not a referee's entry); ``after`` when it made none there."""
    mine = [m.ply for m in rows if is_own_decision(live, seat, m) and m.ply not in live.answered]
    return max(mine, default=after)


def is_own_decision(live: LiveGame, seat: int, move: MoveRecord) -> bool:
    return move.seat == seat and live.referee_act(move) is None


def told_line(live: LiveGame, move: MoveRecord) -> str | None:
    """One move, as the seat may read it (``GameSessions.log_page``), as the digest tells it: what it caused, else
    who played what; a bare 'done' (a Move ended, a window passed) is not worth a line."""
    act = live.referee_act(move)
    if act:
        return clip(f"the referee {act}", LINE_BUDGET)
    if move.events:
        return clip(" ".join(move.events), LINE_BUDGET)
    if move.notation == "done":
        return None
    return clip(f"{live.seat_label(move.seat)}: {move.notation}", LINE_BUDGET)
