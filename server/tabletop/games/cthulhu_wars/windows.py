"""Out-of-turn windows (rules_text ``cthulhu-wars/out-of-turn``).

Some things may be done during another faction's turn: revealing Elder Signs, and faction
abilities that work "after any action" (Devolve). One mechanism serves them all. After each
action in the Action phase (the turn's one action, an unlimited Battle or a faction's
unlimited action; not Control Gate, Abandon Gate or a reveal) and after each faction's
Doom-phase decision, a *window* opens:

* every seat with something it may do now is asked at once (``to_move`` lists them all, so
  each is woken by ``wait_for_turn``); a seat whose only answer would be ``done`` is not asked;
* each asked seat answers with one of its out-of-turn actions or ``done`` (it passes); it
  stays in the window while it has something left to do, so it may act more than once;
* when no asked seat is left, the game goes on where it was.

What a seat may do in a window:

* reveal its Elder Signs (``reveal``), unless its own action or decision opened the window
  (it has that chance in its own turn); turned off by the option ``reveal_out_of_turn``;
* whatever its faction offers through :meth:`Faction.window_options` (Great Cthulhu's
  Devolve). Later out-of-turn abilities (High Priests, Windwalker, Sleeper) plug in there.

The window is a pending decision of kind ``window``; its data (JSON-ready) says:

* ``actor``: the seat whose action or Doom-phase decision opened it; ``context``: ``"action"`` or ``"doom"``;
* ``waiting``: the seats still asked;
* ``action``: what opened it, in words ("Battle in europe against Black Goat", "a Ritual of Annihilation");
* ``areas``: the Areas that action named (a battle's Area, a Move's destinations, where a Monster was summoned);
  ``touched``: other Areas where it moved, placed or removed figures or changed a Gate (retreats, a Move's
  sources, Avatar's swap);
* ``against``: seats the action named as its target (the enemy battled or captured from); ``affected``: other
  seats whose figures it moved or removed;
* ``near``: seats with units in any of those Areas before or after it (for standing answers, standing.py).

The actions of a turn are noted as they begin (:func:`note_action`, :func:`note_move`) together with where every
figure stood before them, so the window after them can say all this.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import board, creatures
from tabletop.games.cthulhu_wars import words as words_of
from tabletop.games.cthulhu_wars.actions import Done, RevealElderSigns, shared
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.maps import layout_cache, load_layout
from tabletop.games.cthulhu_wars.neutrals import registry as neutrals
from tabletop.games.cthulhu_wars.state import POOL, GameState, Pending

WINDOW = "window"
RULE = "cthulhu-wars/out-of-turn"
#: The context of the window at Gather Power, before the First Player is determined: only neutral material (a High
#: Priest's Oath) answers there (rules_text ``cthulhu-wars/high-priests``).
GATHER = "gather"


def seat_options(state: GameState, seat: int, window: dict[str, Any]) -> list[BaseModel]:
    """What ``seat`` may do in this window, ``done`` aside: reveals, its faction's out-of-turn abilities and the
    neutral material's (a High Priest's Oath); at Gather Power only the neutral material's."""
    if window["context"] == GATHER:
        return neutrals.window_options(state, seat, window)
    options: list[BaseModel] = []
    if seat != window["actor"] and state.options.reveal_out_of_turn and state.seats[seat].elder_signs:
        options.append(shared(RevealElderSigns))
    options.extend(board.faction_of(state, seat).window_options(state, seat, window))
    options.extend(neutrals.window_options(state, seat, window))
    return options


def open_window(state: GameState, actor: int, context: str,
                opener: dict[str, Any] | Callable[[], dict[str, Any]] | None = None) -> None:
    """After ``actor``'s action (``context`` ``"action"``) or Doom-phase decision (``"doom"``): ask every seat,
    in play order from ``actor``, that has something it may do now; nobody is asked when nobody has.

    ``opener`` says what opened the window (the keys ``action``, ``areas``, ``touched``, ``against``, ``affected``
    and ``near`` of the module docstring; :func:`action_opener` or :func:`doom_opener`); missing keys are empty. It
    may be a function giving them, called only when a seat is asked (finding what a seat may do changes nothing)."""
    window: dict[str, Any] = {"actor": actor, "context": context}
    waiting = [s for s in state.order_from(actor) if seat_options(state, s, window)]
    if waiting:
        window.update({"action": "", "areas": [], "touched": [], "against": [], "affected": [], "near": []})
        window.update((opener() if callable(opener) else opener) or {})
        window["waiting"] = waiting
        state.pending.append(Pending(waiting[0], WINDOW, window))


def doom_opener(words: str) -> dict[str, Any]:
    """What opened a window after a Doom-phase decision (``cthulhu-wars/doom``): ``words`` such as "a Ritual of
    Annihilation" or "no Ritual"; it names no Area."""
    return {"action": words}


# ---- noting the actions of a turn -------------------------------------------------------
#: What an action kind is called in a sentence, where it is not a spellbook's title (see :func:`action_title`).
TITLES = {
    "recruit": "Recruit", "gate": "Build Gate", "summon": "Summon", "awaken": "Awaken", "battle": "Battle",
    "capture": "Capture", "pass": "Pass", "avatar": "Avatar", "emerge": "Emerge", "bg-sacrifice": "Sacrifice",
    "cc-pay-4": "payment of 4 Power", "cc-pay-6": "payment of 6 Power", "cc-pay-10": "payment of 10 Power",
    "ow-beyond-one": "The Beyond One", "ww-hibernate": "Hibernate", "ww-anytime": "'anytime' action",
    "sl-lethargy": "Lethargy", "sl-slumber-return": "return from Cursed Slumber", "sl-give-three": "gift of 3 Power",
    "sl-all-gain-one": "gift of 1 Power to all", "sl-all-lose-one": "1 Power taken from all",
    "ys-give-doom": "gift of 3 Doom", "ys-desecrate": "Desecrate", "oath": "Unspeakable Oath",
    "buy-card": "taking a neutral monster card", "place-monster": "placing a neutral monster",
    "mao-ceremony": "The Mao Ceremony", "shriveling": "Shriveling", "recriminations": "Recriminations",
    "undimensioned": "Undimensioned", "rearrange": "rearranging a unit (Undimensioned)",
}  # fmt: skip
#: Action kinds whose ``faction`` field names the faction they are aimed at.
AIMED_BY_FACTION = frozenset({"avatar"})


def action_title(kind: str) -> str:
    """An action kind in words: its entry in :data:`TITLES`, else the title of the spellbook it uses ("ys-zingaya"
    -> "Zingaya"), else the kind itself."""
    if kind in TITLES:
        return TITLES[kind]
    bare = kind.split("-", 1)[1] if kind[2:3] == "-" else kind
    for faction in FACTIONS.values():
        for book in faction.spellbooks:
            if book.name == bare:
                return book.title
    return bare.replace("-", " ")


def action_record(state: GameState, seat: int, action: BaseModel) -> dict[str, Any]:
    """An action of ``seat``'s turn (not a Move) in words, with the Areas it names and the seats it is aimed at."""
    kind = action.kind  # type: ignore[attr-defined]
    fields = action.model_dump()
    unit = fields.get("unit")
    words = action_title(kind) + (f" ({words_of.unit_title(unit)})" if isinstance(unit, str) else "")
    known = area_ids(state.layout_name)
    areas = [fields[f] for f in ("area", "source", "target") if isinstance(fields.get(f), str) and fields[f] in known]
    if fields.get("source") in areas and fields.get("target") in areas:
        words += f" from {fields['source']} to {fields['target']}"
    elif areas:
        words += f" in {areas[0]}"
    against: list[int] = []
    target = fields.get("enemy") if "enemy" in fields else fields.get("faction")
    if isinstance(target, str):
        if "enemy" in fields or kind in AIMED_BY_FACTION:
            words += f" against {words_of.faction_title(side_title(target))}"
            against = [s for s, fs in enumerate(state.seats) if fs.faction == target]
        else:
            words += f" ({words_of.faction_title(target)})"
    return {"kind": kind, "words": words, "areas": list(dict.fromkeys(areas)), "against": against}


def side_title(name: str) -> str:
    """A faction's name, or the title of one of the map's creatures ("the Zoogs") when a Battle names one."""
    beast = creatures.NEUTRALS.get(name)
    return beast.title if beast else name


@layout_cache
def area_ids(layout_name: str) -> frozenset[str]:
    """The ids of a layout's Areas."""
    return frozenset(a.id for a in load_layout(layout_name).areas)


def note_action(state: GameState, seat: int, action: BaseModel) -> None:
    """An action of the turn begins (``cthulhu-wars/out-of-turn``): note it, and where everything stood before the
    first action since the last window."""
    turn = state.turn
    if turn.window_base is None:
        turn.window_base = positions(state)
    turn.since_window.append(action_record(state, seat, action))


def note_move(state: GameState, seat: int, unit: str, target: str) -> None:
    """One figure of a Move action goes to ``target``: the Move's record counts its units and destinations."""
    turn = state.turn
    last = turn.since_window[-1] if turn.since_window and turn.moving else None
    if last is None or last["kind"] != "move":
        if turn.window_base is None:
            turn.window_base = positions(state)
        last = {"kind": "move", "units": {}, "areas": [], "against": []}
        turn.since_window.append(last)
    last["units"][unit] = last["units"].get(unit, 0) + 1
    if target not in last["areas"]:
        last["areas"].append(target)
    last["words"] = f"Move ({words_of.unit_list(last['units'])}) into {', '.join(last['areas'])}"


def positions(state: GameState) -> tuple[Any, ...]:
    """Where every figure stands and who holds each Gate (compared with a later position by :func:`changes`)."""
    figures = tuple(tuple((kind, tuple(places)) for kind, places in fs.units.items()) for fs in state.seats)
    return figures, tuple(sorted(state.gates.items(), key=lambda item: item[0]))


def changes(state: GameState, base: tuple[Any, ...]) -> tuple[list[str], list[int]]:
    """The Areas where figures arrived or left, or a Gate changed hands, since ``base``; and the seats whose
    figures moved or left."""
    figures, gates = base
    areas: dict[str, None] = {}
    seats: list[int] = []
    for seat, kinds in enumerate(figures):
        now = state.seats[seat].units
        for kind, places in kinds:
            here = now.get(kind) or [POOL] * len(places)  # a card given back: all to the pool
            if len(here) == len(places) and tuple(here) == places:
                continue  # no figure of this type moved
            for old, new in zip(places, here):
                if old != new:
                    areas.update({p: None for p in (old, new) if board.on_map(p)})
                    if seat not in seats:
                        seats.append(seat)
    before = dict(gates)
    for area in sorted(set(before) | set(state.gates)):
        if before.get(area, "none") != state.gates.get(area, "none"):
            areas[area] = None
    return list(areas), seats


def action_opener(state: GameState) -> Callable[[], dict[str, Any]]:
    """What opens the window after the turn's action, for :func:`open_window` (the actions noted since the last
    window, in words, and the Areas and seats they concern: :func:`actions_opener`), worked out only if the window
    opens; the notes are cleared for the next window now."""
    turn = state.turn
    records, base = turn.since_window, turn.window_base
    turn.since_window, turn.window_base = [], None
    return lambda: actions_opener(state, records, base)


def actions_opener(state: GameState, records: list[dict[str, Any]], base: tuple[Any, ...] | None) -> dict[str, Any]:
    """What opens a window after the actions of ``records`` (their notes), ``base`` where figures stood before."""
    turn = state.turn
    named = list(dict.fromkeys(a for r in records for a in r["areas"]))
    against = list(dict.fromkeys(s for r in records for s in r["against"]))
    moved, hit = changes(state, base) if base is not None else ([], [])
    touched = [a for a in moved if a not in named]
    everywhere = set(named) | set(touched)
    near = [s for s in range(len(state.seats)) if had_units(state, base, s, everywhere)]
    return {
        "action": "; ".join(r.get("words", r["kind"]) for r in records) or "an action",
        "areas": named, "touched": touched, "against": against,
        "affected": [s for s in hit if s != turn.seat and s not in against], "near": near,
    }  # fmt: skip


def had_units(state: GameState, base: tuple[Any, ...] | None, seat: int, areas: set[str]) -> bool:
    """Whether ``seat`` has units in any of ``areas`` now, or had before the noted actions."""
    if any(not areas.isdisjoint(places) for places in state.seats[seat].units.values()):
        return True
    return base is not None and any(not areas.isdisjoint(places) for _, places in base[0][seat])


def options(state: GameState, seat: int, window: dict[str, Any]) -> list[BaseModel]:
    """A seat's answers in the window: its out-of-turn actions and ``done`` (pass)."""
    return seat_options(state, seat, window) + [shared(Done)]


def answer(state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
    """Carry out a seat's answer; the window closes once no asked seat has anything left."""
    pending = state.pending[0]
    window = pending.data
    if isinstance(action, Done):
        window["waiting"].remove(seat)
    elif isinstance(action, RevealElderSigns):
        board.reveal_elder_signs(state, seat, log)
    elif neutrals.handles(action):
        neutrals.apply_action(state, seat, action, log)
    else:
        board.faction_of(state, seat).apply_action(state, seat, action, log)
    window["waiting"] = [s for s in window["waiting"] if seat_options(state, s, window)]
    if window["waiting"]:
        pending.seat = window["waiting"][0]
    else:
        state.pending = [p for p in state.pending if p is not pending]
