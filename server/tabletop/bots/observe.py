"""Rebuilding a seat's game from what that seat is shown: its public move log and its own view.

A bot playing through a client that holds only its seat's token never sees the game's state object
or its seed. It sees the move log (every move it may see, each with what it caused, as ``history``
returns them) and its own view. The rules engines are deterministic given the chance results, and
every chance result a seat may know is in the log: dice are printed as they are rolled ("rolls 3
dice [6, 2, 4]", "rolls 4", "rolled 5", "The die shows 4"; Cthulhu Dice: "Ann rolled: library clue,
tomb tentacle", the dice drawn from the bag being those after the clue dice already in hand), an
Elder Sign drawn by anyone is logged without its value ("draws an Elder Sign (hidden)") and the
values come out when their owner reveals them ("reveals Elder Signs [1, 3]"); the seat knows its own
unrevealed ones from its view.

:func:`rebuild` replays the log from a new game with a :class:`ScriptedRng`, a generator that
gives back exactly those results in order. Elder Signs whose values the seat cannot know (other
factions' unrevealed ones) get placeholder values from what is left in the bag: the rebuilt state
is one consistent with everything the seat knows, a determinisation, and bots always determinise
hidden parts afresh anyway. :func:`rebuild` returns None when the log cannot be replayed this way
(a chance result printed in a form it does not read); callers then check the rebuilt view against
the server's and fall back to something safe. An :class:`Observer` keeps a seat's rebuilt game between
its decisions and replays only the moves made since.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import GameError
from ..core.game import Engine
from ..core.rng import Rng

#: Values of the Elder Sign tokens and how many of each the bag starts with (rules ``cthulhu-wars/doom``).
ELDER_SIGN_BAG = (18, 12, 6)

_LIST = r"\[([\d,\s]*)\]"
_DICE = re.compile(rf"\brolls(?: \d+ di(?:ce|e))? {_LIST}|\b(?:rolls|rolled|die shows) (\d+)")
_REVEAL = re.compile(rf"^(\S+) reveals Elder Signs {_LIST}")
_DRAW = re.compile(r"^(\S+) draws an Elder Sign")
_ROLLED = re.compile(r" rolled: (.+?)\. Stash ")  # Cthulhu Dice: "<name> rolled: library clue, tomb tentacle. Stash 1, ..."


@dataclass
class LoggedMove:
    """One move of the log as a seat sees it."""

    seat: int
    action: dict[str, Any]
    events: list[str]


@dataclass
class Script:
    """The chance results still to be given back, in order, and the Elder Signs of each seat in draw order."""

    queue: list[tuple[str, Any]] = field(default_factory=list)
    signs: dict[str, list[int]] = field(default_factory=dict)  # faction -> values in the order drawn (known ones)
    bag: list[int] = field(default_factory=lambda: list(ELDER_SIGN_BAG))
    failed: bool = False

    def next_sign(self, faction: str) -> int:
        known = self.signs.get(faction)
        if known:
            return known.pop(0)
        left = [v for v, n in enumerate(self.bag, start=1) if n]  # a placeholder: the commonest value left
        return max(left, key=lambda v: self.bag[v - 1]) if left else 1


class ScriptedRng(Rng):
    """A generator that gives back a script's chance results instead of random ones."""

    __slots__ = ("script",)

    def __init__(self, script: Script, draws: int = 0) -> None:
        super().__init__(0, draws)
        self.script = script

    def copy(self) -> ScriptedRng:
        return ScriptedRng(self.script, self.draws)

    def next_u64(self) -> int:  # pragma: no cover - the engines draw through below()
        self.script.failed = True
        return super().next_u64()

    def pick(self, weights: Any, what: str, secret: bool = False) -> str:
        """A logged die face (Cthulhu Dice), when the script holds one next; else a draw through :meth:`below`."""
        queue = self.script.queue
        if not queue or queue[0][0] != "pick":
            return super().pick(weights, what, secret)
        value = queue.pop(0)[1]
        self.draws += 1
        if weights.get(value, 0) <= 0:
            self.script.failed = True
        return value

    def draw(self, counts: Any, count: int, what: str) -> list[str]:
        """Logged dice drawn from a bag (Cthulhu Dice), when the script holds them next; else drawn through below()."""
        queue = self.script.queue
        if not queue or queue[0][0] != "draw":
            return super().draw(counts, count, what)
        drawn, rest = queue[0][1][:count], queue[0][1][count:]
        queue[0] = ("draw", rest)
        if not rest:
            queue.pop(0)
        self.draws += 1
        left = dict(counts)
        for item in drawn:
            left[item] = left.get(item, 0) - 1
        if len(drawn) != count or min(left.values(), default=0) < 0:
            self.script.failed = True
        return drawn

    def below(self, n: int) -> int:
        self.draws += 1
        script = self.script
        if not script.queue:
            script.failed = True
            return 0
        kind, value = script.queue.pop(0)
        if kind == "die":
            if not 1 <= value <= n:
                script.failed = True
                return 0
            return value - 1
        # An Elder Sign for ``value`` (a faction): the index that picks the wanted value from the bag.
        wanted = script.next_sign(value)
        if sum(script.bag) != n or not script.bag[wanted - 1]:
            script.failed = True
            return 0
        index = sum(script.bag[: wanted - 1])
        script.bag[wanted - 1] -= 1
        return index


def chance_of(events: list[str], before: Any = None) -> list[tuple[str, Any]]:
    """The chance results a move's events show, in the order they happened (``before``: the state the move was
    played in, which says how many of Cthulhu Dice's rolled dice were clue dice already in hand)."""
    out: list[tuple[str, Any]] = []
    for line in events:
        rolled = _ROLLED.search(line)
        if rolled:
            dice = [d.split(" ", 1) for d in rolled.group(1).split(", ")]
            in_hand = sum(getattr(before, "clues", ()))
            drawn = [kind for kind, _ in dice[in_hand:]]
            out.extend(([("draw", drawn)] if drawn else []) + [("pick", face.replace(" ", "_")) for _, face in dice])
            continue
        draw = _DRAW.match(line)
        if draw:
            out.append(("sign", draw.group(1)))
            continue
        if _REVEAL.match(line):
            continue
        for found in _DICE.finditer(line):
            if found.group(1) is not None:
                out.extend(("die", int(v)) for v in found.group(1).replace(",", " ").split())
            else:
                out.append(("die", int(found.group(2))))
    return out


def reveals_of(log: list[LoggedMove]) -> dict[str, list[int]]:
    """Each faction's revealed Elder Signs, in the order revealed (so in the order drawn)."""
    out: dict[str, list[int]] = {}
    for move in log:
        for line in move.events:
            found = _REVEAL.match(line)
            if found:
                out.setdefault(found.group(1), []).extend(int(v) for v in found.group(2).replace(",", " ").split())
    return out


def rebuild(engine: Engine, options: Any, seats: int, log: list[LoggedMove], seat: int,
            own_signs: list[int] | None = None, names: list[str] | None = None) -> Any | None:
    """The state after ``log``, replayed with the logged chance results (see module docstring), or None.

    ``own_signs``: the seat's own unrevealed Elder Signs (from its view), in the order drawn.
    """
    script = Script()
    script.signs = reveals_of(log)
    try:
        state = opening(engine, options, seats, names, log[0].seat if log else None)
        factions = [str(r).split()[0] for r in engine.seat_roles(state)]
        mine = getattr(state, "seats", None)
        if mine is not None:  # Cthulhu Wars: seats hold factions by id
            factions = [fs.faction for fs in state.seats]
            script.signs.setdefault(factions[seat], [])
            script.signs[factions[seat]] = script.signs[factions[seat]] + list(own_signs or [])
        state = engine.with_generator(state, ScriptedRng(script))
        return replayed(engine, state, script, log)
    except (GameError, KeyError, ValueError, IndexError):
        return None


def replayed(engine: Engine, state: Any, script: Script, log: list[LoggedMove]) -> Any | None:
    """``state`` (drawing from ``script``) after the moves of ``log``, or None where a move does not replay exactly."""
    try:
        for move in log:
            script.queue = chance_of(move.events, state)
            action = engine.read_move(move.action, state, move.seat)
            state, events = engine.apply(state, move.seat, action)
            if script.failed or script.queue or not same_events(events, move.events):
                return None
    except (GameError, KeyError, ValueError, IndexError):
        return None
    return state


class Observer:
    """One seat's rebuilt game, kept between its decisions: the moves logged since are replayed onto it, and it is
    rebuilt from the start only when what it assumed may have changed (a move shown now that was hidden before, an
    Elder Sign drawn or revealed: placeholders may now be known) or when it stops matching the log."""

    def __init__(self, engine: Engine, options: Any, seats: int, seat: int, names: list[str] | None = None) -> None:
        self.engine, self.options, self.seats, self.seat, self.names = engine, options, seats, seat, names
        self.log: list[LoggedMove] = []
        self.signs: list[int] | None = None
        self.state: Any = None
        self.script: Script | None = None
        self.rebuilds = 0

    def update(self, log: list[LoggedMove], own_signs: list[int] | None = None) -> Any | None:
        """The state after ``log`` (see :func:`rebuild`), or None."""
        known = len(self.log)
        extends = self.state is not None and log[:known] == self.log and own_signs == self.signs
        new = log[known:] if extends else log
        if extends and not any(_DRAW.match(line) or _REVEAL.match(line) for m in new for line in m.events):
            state = replayed(self.engine, self.state, self.script, new)
        else:
            state = self.rebuild(log, own_signs)
        self.state, self.log, self.signs = state, list(log) if state is not None else [], own_signs
        return state

    def rebuild(self, log: list[LoggedMove], own_signs: list[int] | None) -> Any | None:
        self.rebuilds += 1
        state = rebuild(self.engine, self.options, self.seats, log, self.seat, own_signs, self.names)
        self.script = None if state is None else self.engine.generator(state).script
        return state


def opening(engine: Engine, options: Any, seats: int, names: list[str] | None, first: int | None) -> Any:
    """A new game whose set-up matches the log: a game that draws its first player while being set up (Cthulhu
    Wars without Great Cthulhu) gets a seed that draws the seat the log's first move shows deciding."""
    for seed in range(256):
        state = engine.new_game(options, seats, seed, names)
        if first is None or first in engine.to_move(state):
            return state
    raise ValueError("no set-up matches the log")


def same_events(replayed: list[str], logged: list[str]) -> bool:
    return replayed == logged


__all__ = ["LoggedMove", "Observer", "ScriptedRng", "Script", "chance_of", "rebuild", "reveals_of"]
