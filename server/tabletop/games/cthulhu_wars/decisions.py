"""Pending decisions and their answers (rules_text ``cthulhu-wars/turn`` and ``cthulhu-wars/battle``).

The first entry of ``state.pending`` is the decision the game awaits; its ``seat`` (or, for a
negotiation or an out-of-turn window, every seat still asked; see windows.py and rules_text
``cthulhu-wars/out-of-turn``) answers with one of :func:`decision_options`.
"""

from __future__ import annotations

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board, negotiation, phases, setup, windows, words
from tabletop.games.cthulhu_wars.actions import (
    ChooseDirection, ChooseFirstPlayer, ChooseStart, Done, Proceed, RevealElderSigns, Ritual, SkipRitual,
    TakeSpellbook, shared,
)  # fmt: skip
from tabletop.games.cthulhu_wars.factions import FACTIONS, Faction
from tabletop.games.cthulhu_wars.neutrals import registry as neutrals
from tabletop.games.cthulhu_wars.state import GameState, Pending


def awaiting(state: GameState) -> list[int]:
    """Seats whose answer the first pending decision awaits."""
    if not state.pending:
        return []
    first = state.pending[0]
    return list(first.data["waiting"]) if first.kind in ("negotiation", windows.WINDOW) else [first.seat]


def decision_options(state: GameState, seat: int) -> list[BaseModel]:
    pending = state.pending[0]
    kind, data = pending.kind, pending.data
    if kind == "spellbook":
        return [shared(TakeSpellbook, name=n) for n in phases.remaining_spellbooks(state, seat)]
    if kind == "first-player":
        return [shared(ChooseFirstPlayer, faction=state.seats[s].faction) for s in data["tied"]]
    if kind == "direction":
        return [shared(ChooseDirection, direction="clockwise"), shared(ChooseDirection, direction="counterclockwise")]
    if kind == "ritual":
        return doom_options(state, seat)
    if kind == "pre-battle":
        own = board.faction_of(state, seat).pre_battle_options(state, seat, state.battle)
        return own + neutrals.pre_battle_options(state, seat, state.battle) + [shared(Proceed)]
    if kind == "assign":
        return list(battles.assignment_options(state, state.battle, data["owner"], data["result"]))
    if kind == "retreat":
        return list(battles.retreat_options(state, data["owner"]))
    if kind == "lose":
        exclude = tuple((k, i) for k, i in data.get("exclude", ()))
        return list(board.loss_options(state, data["victim"], data["area"], data["kinds"], exclude))
    if kind == "negotiation":
        return list(negotiation.offer_options(state, data))
    if kind == windows.WINDOW:
        return windows.options(state, seat, data)
    if kind == "start-area":
        return [shared(ChooseStart, area=a) for a in setup.start_options(state, seat)]
    neutral = neutrals.decision_options(state, seat, kind, data)
    if neutral is not None:
        return neutral
    options = decision_faction(state, seat, data).decision_options(state, seat, kind, data)
    return options if options and data.get("mandatory") else options + [shared(Done)]


def doom_options(state: GameState, seat: int) -> list[BaseModel]:
    """A seat's turn in the Doom phase: a Ritual if it can pay, revealing its Elder Signs if it holds any,
    and passing (rules_text cthulhu-wars/doom)."""
    fs = state.seats[seat]
    options: list[BaseModel] = [shared(Ritual)] if fs.power >= phases.ritual_cost_for(state, seat) else []
    options += board.faction_of(state, seat).doom_options(state, seat)
    options += neutrals.doom_options(state, seat)
    if fs.elder_signs:
        options.append(shared(RevealElderSigns))
    return options + [shared(SkipRitual)]


def decision_faction(state: GameState, seat: int, data: dict) -> Faction:
    """The faction whose rules answer a faction decision: ``data["faction"]`` if given (a decision put to an
    enemy, e.g. Ghroth's victims), else the answering seat's own."""
    return FACTIONS[data["faction"]] if "faction" in data else board.faction_of(state, seat)


def resolve_decision(state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
    """Carry out an answer to the first pending decision."""
    pending = state.pending[0]
    if pending.kind == "negotiation":
        negotiation.record_offer(state, seat, action, log)
        return
    if pending.kind == windows.WINDOW:
        windows.answer(state, seat, action, log)
        if pending.data["context"] == windows.GATHER and all(p is not pending for p in state.pending):
            phases.determine_first_player(state, log)
        return
    state.pending.pop(0)
    handler = HANDLERS.get(action.kind)
    if neutrals.handles(action):
        neutral_answer(state, seat, pending, action, log)
    elif handler is not None:
        handler(state, seat, pending, action, log)
    elif action.kind != "done":
        decision_faction(state, seat, pending.data).apply_decision(state, seat, action, pending.data, log)


def take_spellbook(state: GameState, seat: int, pending: Pending, action: TakeSpellbook, log: list[str]) -> None:
    state.seats[seat].spellbooks.append(action.name)
    log.append(f"{state.seats[seat].faction} takes the spellbook {action.name}.")


def choose_first(state: GameState, seat: int, pending: Pending, action: ChooseFirstPlayer, log: list[str]) -> None:
    phases.set_first_player(state, state.seat_of(action.faction), log)


def choose_direction(state: GameState, seat: int, pending: Pending, action: ChooseDirection, log: list[str]) -> None:
    """The event names the order of play the direction gives, from the First Player (``cthulhu-wars/first-player``)."""
    direction = 1 if action.direction == "clockwise" else -1
    order = words.play_order([fs.faction for fs in state.seats], state.first_player, direction)
    log.append(f"Play goes {action.direction}: {order}.")
    phases.set_direction(state, direction, log)


def ritual(state: GameState, seat: int, pending: Pending, action: Ritual, log: list[str]) -> None:
    """A Ritual; then the other seats may act out of turn (``cthulhu-wars/out-of-turn``)."""
    phases.perform_ritual(state, seat, log)
    windows.open_window(state, seat, "doom", windows.doom_opener("a Ritual of Annihilation"))


def reveal(state: GameState, seat: int, pending: Pending, action: RevealElderSigns, log: list[str]) -> None:
    """Revealing in the Doom phase does not use up the seat's Ritual: it is asked again if it can still pay;
    otherwise its Doom-phase decision is over and the others may act out of turn."""
    board.reveal_elder_signs(state, seat, log)
    if phases.has_doom_choice(state, seat):
        state.pending.insert(0, pending)
    else:
        windows.open_window(state, seat, "doom", windows.doom_opener("Elder Signs revealed, no Ritual"))


def neutral_answer(state: GameState, seat: int, pending: Pending, action: BaseModel, log: list[str]) -> None:
    """An answer of the neutral material in a decision (a High Priest's Oath, taking a neutral monster card, placing
    or carrying one): in the Doom phase, like a reveal, it does not use up the seat's Ritual, which is asked again
    after any placements the answer brought (rules_text ``cthulhu-wars/high-priests``,
    ``cthulhu-wars/neutral-monsters``)."""
    waiting = len(state.pending)
    neutrals.apply_action(state, seat, action, log, pending.data)
    if pending.kind != "ritual":
        return
    if phases.has_doom_choice(state, seat):
        state.pending.insert(len(state.pending) - waiting, pending)  # after decisions the answer added (placements)
    else:
        windows.open_window(state, seat, "doom", windows.doom_opener(f"{windows.action_title(action.kind)}, no Ritual"))


def no_ritual(state: GameState, seat: int, pending: Pending, action: SkipRitual, log: list[str]) -> None:
    """No Ritual; then the other seats may act out of turn (``cthulhu-wars/out-of-turn``)."""
    log.append(f"{state.seats[seat].faction} performs no Ritual.")
    windows.open_window(state, seat, "doom", windows.doom_opener("no Ritual"))


def proceed(state: GameState, seat: int, pending: Pending, action: Proceed, log: list[str]) -> None:
    battles.end_pre_battle(state, seat)


def assign(state: GameState, seat: int, pending: Pending, action, log: list[str]) -> None:
    battles.apply_assignment(state, state.battle, pending.data["owner"], action, log)


def retreat(state: GameState, seat: int, pending: Pending, action, log: list[str]) -> None:
    battles.apply_retreat(state, pending.data["owner"], action, log, chooser=seat)


def lose(state: GameState, seat: int, pending: Pending, action, log: list[str]) -> None:
    board.apply_loss(state, pending.data, action, log)


def choose_start(state: GameState, seat: int, pending: Pending, action: ChooseStart, log: list[str]) -> None:
    setup.place_start(state, seat, action.area)
    log.append(f"{state.seats[seat].faction} starts in {action.area}.")


HANDLERS = {
    "spellbook": take_spellbook, "first-player": choose_first, "direction": choose_direction,
    "ritual": ritual, "reveal": reveal, "no-ritual": no_ritual, "proceed": proceed, "assign": assign,
    "retreat": retreat, "lose": lose, "start": choose_start,
}  # fmt: skip
