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

The window is a pending decision of kind ``window`` whose data says who opened it
(``actor``), when (``context``: ``"action"`` or ``"doom"``) and which seats are still asked
(``waiting``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import Done, RevealElderSigns
from tabletop.games.cthulhu_wars.state import GameState, Pending

WINDOW = "window"
RULE = "cthulhu-wars/out-of-turn"


def seat_options(state: GameState, seat: int, window: dict[str, Any]) -> list[BaseModel]:
    """What ``seat`` may do in this window, ``done`` aside."""
    options: list[BaseModel] = []
    if seat != window["actor"] and state.options.reveal_out_of_turn and state.seats[seat].elder_signs:
        options.append(RevealElderSigns())
    options.extend(board.faction_of(state, seat).window_options(state, seat, window))
    return options


def open_window(state: GameState, actor: int, context: str) -> None:
    """After ``actor``'s action (``context`` ``"action"``) or Doom-phase decision (``"doom"``): ask every seat,
    in play order from ``actor``, that has something it may do now; nobody is asked when nobody has."""
    window: dict[str, Any] = {"actor": actor, "context": context}
    waiting = [s for s in state.order_from(actor) if seat_options(state, s, window)]
    if waiting:
        window["waiting"] = waiting
        state.pending.append(Pending(waiting[0], WINDOW, window))


def options(state: GameState, seat: int, window: dict[str, Any]) -> list[BaseModel]:
    """A seat's answers in the window: its out-of-turn actions and ``done`` (pass)."""
    return seat_options(state, seat, window) + [Done()]


def answer(state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
    """Carry out a seat's answer; the window closes once no asked seat has anything left."""
    pending = state.pending[0]
    window = pending.data
    if isinstance(action, Done):
        window["waiting"].remove(seat)
    elif isinstance(action, RevealElderSigns):
        board.reveal_elder_signs(state, seat, log)
    else:
        board.faction_of(state, seat).apply_action(state, seat, action, log)
    window["waiting"] = [s for s in window["waiting"] if seat_options(state, s, window)]
    if window["waiting"]:
        pending.seat = window["waiting"][0]
    else:
        state.pending = [p for p in state.pending if p is not pending]
