"""What a seat is told about its next step, in a line or two (rules_text ``cthulhu-wars/turn`` and
``cthulhu-wars/out-of-turn``).

* :func:`window_text`: for a seat asked in an out-of-turn window, a short text instead of the whole position:
  what opened the window, the seat's Power and Doom, and only what it may really do there.
* :func:`owed`: after a seat's own move, what it must or may do next, or why nothing is asked of it, in every
  state a game can be in (its turn's action still owed, a Move under way, free actions left, a battle's steps,
  a window, the Doom phase, the First Player's choices, the end).

Both read the state only; the legal moves stay the engine's own list.
"""

from __future__ import annotations

from pydantic import BaseModel

from tabletop.core.text import clip, factor
from tabletop.games.cthulhu_wars import board, decisions, notation, phases, turn_actions, windows
from tabletop.games.cthulhu_wars import words as words_of
from tabletop.games.cthulhu_wars.actions import Done
from tabletop.games.cthulhu_wars.neutrals import registry as neutrals
from tabletop.games.cthulhu_wars.state import GameState

#: What a pending decision asks, in words (for "waiting for X to ...").
PENDING_WORDS = {
    "first-player": "break the tie for First Player", "direction": "choose the direction of play",
    "ritual": "decide on a Ritual", "spellbook": "take a spellbook", "pre-battle": "use pre-battle abilities",
    "assign": "assign battle results", "retreat": "retreat Pained units", "lose": "choose a unit to lose",
    "negotiation": "make an offer", "window": "act out of turn (or say 'done')",
    "start-area": "choose where its faction starts",
    # decisions of the factions' own abilities
    "avatar-swap": "choose which unit swaps places with Shub-Niggurath (Avatar)",
    "bg-eliminate": "choose a Cultist to eliminate", "blood-sacrifice": "decide on Blood Sacrifice",
    "ghroth-place": "place an Acolyte (Ghroth)", "necrophagy": "decide on Necrophagy",
    "cc-harbinger": "choose a Harbinger reward", "submerge-with": "choose units to submerge with Cthulhu",
    "ow-channel-power": "decide on Channel Power", "ow-curse-split": "share out the Dread Curse's results",
    "ow-curse-take": "take a Dread Curse result", "ow-curse-move": "move a unit the Dread Curse Pained",
    "ow-promote": "promote a unit (The Million Favored Ones)", "sl-nexus": "decide on an Energy Nexus action",
    "sl-sacrifice": "choose what to give up (Demand Sacrifice)", "sl-death-from-below": "decide on Death from Below",
    "sl-sorcery-return": "bring back a Serpent Man (Ancient Sorcery)",
    "ww-arctic-wind": "choose units to follow Ithaqua (Arctic Wind)", "ww-cannibalism": "decide on Cannibalism",
    "ww-eternal": "decide on Eternal", "ww-howl-away": "choose a unit to send away (Howl)",
    "ww-berserk": "choose a unit to eliminate (Berserkergang)", "ys-second-action": "take a second action",
    "ys-shriek-more": "choose more Byakhee to fly (Shriek of the Byakhee)",
    # decisions of the neutral material (cthulhu-wars/neutral-monsters)
    "ns-undimensioned": "rearrange your units (Undimensioned) or say done",
    "nm-place": "place a free neutral monster at a Gate", "nm-carry": "choose a Cultist to ride the Shantak (or done)",
    "an-demat-target": "choose where the units dematerialize to", "an-demat-units": "choose units to dematerialize", "an-free-summon": "place a free Monster (the Ancients' requirement)",
    "an-festival": "choose who gains 1 Power (Festival)", "an-unholy-ground": "decide on Unholy Ground",
    "an-unholy-loss": "choose the Great Old One Unholy Ground eliminates",
}  # fmt: skip
#: Free actions and window options by kind, in words (others: :func:`windows.action_title`).
FREE_ACTIONS = {"control": "control gate", "abandon": "abandon gate", "reveal": "reveal Elder Signs", "devolve": "devolve"}
#: The most characters a window's text spends on the action that opened it.
OPENER_WORDS = 140


def title(state: GameState, seat: int) -> str:
    return words_of.faction_title(state.seats[seat].faction)


def notations(actions: list[BaseModel]) -> str:
    """Actions in notation, alternatives factored ("devolve asia/europe")."""
    return ", ".join(factor((notation.to_text(a) for a in actions), " >"))


def pending_words(kind: str) -> str:
    """A pending decision in words: its entry in :data:`PENDING_WORDS`, else its kind spelt out."""
    return PENDING_WORDS.get(kind) or f"answer '{windows.action_title(kind)}'"


# ---- the out-of-turn window -----------------------------------------------------------------
def window_opener(state: GameState, seat: int, window: dict) -> str:
    """What opened the window, as ``seat`` reads it: "after Crawling Chaos's Battle in europe against you",
    "after Black Goat's Doom-phase decision (no Ritual)", "after your Move (an Acolyte) into europe"."""
    actor = window["actor"]
    action = clip(window.get("action") or "action", OPENER_WORDS)
    if seat in window.get("against", ()):
        action = action.replace(f"against {title(state, seat)}", "against you")
    who = "your" if actor == seat else f"{title(state, actor)}'s"
    if window["context"] == "doom":
        return f"after {who} Doom-phase decision ({action})"
    if window["context"] == windows.GATHER:
        return "at Gather Power, before the First Player is determined"
    hurt = " (it moved or removed units of yours)" if seat in window.get("affected", ()) else ""
    return f"after {who} {action}{hurt}"


def option_words(state: GameState, seat: int, options: list[BaseModel]) -> list[str]:
    """A seat's window options in notation, each kind once with what it does: reveals with their total, Devolve
    with its Areas, Dragon Ascending with the Power it would give."""
    fs = state.seats[seat]
    kinds: dict[str, list[BaseModel]] = {}
    for option in options:
        kinds.setdefault(option.kind, []).append(option)  # type: ignore[attr-defined]
    parts = []
    for kind, group in kinds.items():
        if kind == "reveal":
            parts.append(f"reveal (your Elder Signs {fs.elder_signs}: +{sum(fs.elder_signs)} Doom)")
        elif kind == "devolve":
            parts.append(f"{notations(group)} (an Acolyte there becomes a Deep One)")
        elif kind == "oath":
            parts.append("oath (sacrifice your High Priest: +2 Power)")
        elif kind == "ow-dragon-ascending":
            power = "/".join(str(state.seats[state.seat_of(a.faction)].power) for a in group)  # type: ignore[attr-defined]
            parts.append(f"{notations(group)} (your Power becomes {power}; once per game)")
        else:
            parts.append(notations(group))
    return parts


def window_text(state: GameState, seat: int) -> str | None:
    """For a seat asked in an out-of-turn window now: what opened it, the seat's Power and Doom, its real options
    and how to pass (``cthulhu-wars/out-of-turn``); None for any other decision or seat."""
    if not state.pending or state.pending[0].kind != windows.WINDOW:
        return None
    window = state.pending[0].data
    if seat not in window.get("waiting", ()):
        return None
    fs = state.seats[seat]
    options = option_words(state, seat, windows.seat_options(state, seat, window))
    phase = {"doom": "Doom phase", windows.GATHER: "Gather Power"}.get(window["context"], "Action phase")
    return (f"Round {state.round}, {phase}: window {window_opener(state, seat, window)}. You: {fs.power} Power, "
            f"{fs.doom} Doom. You may: {'; '.join(options)}. Say 'done' to pass.")


# ---- what a seat owes ---------------------------------------------------------------------
def owed(state: GameState, seat: int) -> str | None:
    """One line: what ``seat`` must or may do next, or why nothing is asked of it now (``cthulhu-wars/turn``)."""
    if state.phase == "over":
        won = [title(state, s) for s in state.winners or []]
        return "The game is over: " + (" and ".join(won) + " won." if won else "nobody won.")
    if state.pending:
        if seat in decisions.awaiting(state):
            return decision_owed(state, seat)
        return waiting_owed(state, seat)
    turn = state.turn
    if state.phase != "action" or turn is None:
        return None
    if turn.seat == seat:
        return turn_owed(state, seat)
    return off_turn_owed(state, seat)


def turn_owed(state: GameState, seat: int) -> str:
    """The seat whose turn it is: its action still owed, a Move under way, or the free actions left to it."""
    turn, power = state.turn, state.seats[seat].power
    if turn.moving:
        return f"Moving units ({power} Power left): move more or say 'done' to end the Move."
    if not turn.acted:
        return (f"You still owe your turn's action ({power} Power): take one, or say 'pass' to give up your "
                "remaining Power.")
    free = dict.fromkeys(a.kind for a in turn_actions.follow_up_options(state, seat))  # type: ignore[attr-defined]
    listed = ", ".join(FREE_ACTIONS.get(kind) or windows.action_title(kind) for kind in free)
    return f"Your action is used; free actions left: {listed}; say 'done' to end your turn."


def off_turn_owed(state: GameState, seat: int) -> str:
    """Another seat's turn in the Action phase: why the seat takes no turn now."""
    now = f"{title(state, state.turn.seat)}'s turn ({state.seats[state.turn.seat].power} Power)"
    power = state.seats[seat].power
    if power <= 0:
        return f"Your turns are over for this Action phase: no Power left. Now {now}."
    if board.faction_of(state, seat).sits_out(state, seat):
        return f"You sit out the rest of this Action phase (Hibernate). Now {now}."
    return f"Nothing is asked of you now: {now}; you have {power} Power for your next turn."


def waiting_owed(state: GameState, seat: int) -> str:
    """A decision of other seats is awaited: who decides what, and what comes back to this seat afterwards."""
    pending = state.pending[0]
    who = " and ".join(title(state, s) for s in decisions.awaiting(state))
    asked = "decide whether to act out of turn" if pending.kind == windows.WINDOW else pending_words(pending.kind)
    text = f"Waiting for {who} to {asked}"
    if pending.kind == windows.WINDOW and pending.data["actor"] == seat:
        text += {"action": " after your action", "doom": " after your Doom-phase decision"}.get(pending.data["context"], "")
    turn = state.turn
    if state.phase == "action" and turn is not None and turn.seat == seat:
        text += f"; then your turn goes on ({state.seats[seat].power} Power"
        text += ", your action used)." if turn.acted else ")."
    elif state.phase == "doom" and seat in state.doom_queue:
        text += "; your Doom-phase decision comes later."
    else:
        text += "."
    return text


def decision_owed(state: GameState, seat: int) -> str:
    """The decision the seat is asked now, in words, with what its moves do not say (a Ritual's cost and Doom, the
    order each direction gives, how many results to give); the moves themselves are listed apart."""
    pending = state.pending[0]
    kind, data = pending.kind, pending.data
    options = decisions.decision_options(state, seat)
    optional = any(isinstance(a, Done) for a in options)
    battle = state.battle
    where = f"Battle in {battle['area']}: " if battle else ""
    if kind == windows.WINDOW:
        real = dict.fromkeys(a.kind for a in windows.seat_options(state, seat, data))  # type: ignore[attr-defined]
        listed = ", ".join(FREE_ACTIONS.get(k) or windows.action_title(k) for k in real)
        return f"You may act out of turn ({listed}) or say 'done' to pass."
    if kind == "ritual":
        return ritual_owed(state, seat, options)
    if kind == "spellbook":
        left = phases.remaining_spellbooks(state, seat)
        own = sum(1 for b in board.faction_of(state, seat).spellbooks if b.name in left)
        pool = f" or one of the {len(left) - own} neutral spellbooks in the pool" if len(left) > own else ""
        return f"Take one of your {own} remaining spellbooks{pool} for meeting '{data['requirement']}'."
    if kind == "first-player":
        tied = [title(state, s) for s in data["tied"]]
        return f"Break the tie for First Player between {', '.join(tied[:-1])} and {tied[-1]}."
    if kind == "direction":
        factions = [s.faction for s in state.seats]
        clockwise = words_of.play_order(factions, state.first_player, 1)
        other = words_of.play_order(factions, state.first_player, -1)
        return f"Choose the direction of play: 'direction clockwise' ({clockwise}) or 'direction counterclockwise' ({other})."
    if kind == "pre-battle":
        abilities = [a for a in options if a.kind != "proceed"]  # type: ignore[attr-defined]
        return f"{where}use a pre-battle ability ({notations(abilities)}) or say 'proceed'."
    if kind == "assign":
        owner = data["owner"]
        count = battle["hits"].get(owner, {}).get(data["result"], 0)
        whose = "your" if owner == seat else f"{title(state, owner)}'s"
        result = data["result"].capitalize() + ("s" if count != 1 else "")
        return f"{where}give {count} {result} to {whose} units ({len(options)} ways; 'assign {data['result']} <units>')."
    if kind == "retreat":
        owner = data["owner"]
        whose = "your" if owner == seat else f"{title(state, owner)}'s"
        left = len(battle["pained"].get(owner, []))
        return f"{where}choose where {whose} Pained units retreat ({left} to go)."
    if kind == "lose":
        victim = data["victim"]
        whose = "your" if victim == seat else f"{title(state, victim)}'s"
        fate = "captured" if data["mode"].startswith("capture") else "eliminated"
        return f"Choose which of {whose} units in {data['area']} is {fate}."
    if kind == "negotiation":
        return f"Make your offer in the negotiation ({data['topic']}: {data['amount']} to share): 'offer …'."
    if kind == "start-area":
        return "Choose the Area where your faction starts: 'start <area>'."
    count = len(options) - optional
    tail = ", or say 'done' to decline" if optional else ""
    asked = f"{where}{pending_words(kind)}" if where else words_of.capital(pending_words(kind))
    return f"{asked}: {count} choice{'s' if count != 1 else ''}{tail}."


def ritual_owed(state: GameState, seat: int, options: list[BaseModel]) -> str:
    """The seat's Doom-phase decision: a Ritual's cost and Doom, reveals, declining (``cthulhu-wars/doom``)."""
    fs = state.seats[seat]
    choices = []
    for action in options:
        kind = action.kind  # type: ignore[attr-defined]
        if kind == "ritual":
            cost = phases.ritual_cost_for(state, seat)
            signs = board.goos_in_play(state, seat)
            extra = f", {signs} Elder Sign{'s' if signs != 1 else ''}" if signs else ""
            doom = neutrals.doom_gates(state, seat, board.gate_count(state, seat))  # The Brood (igoo-abhoth)
            choices.append(f"'ritual' ({cost} of your {fs.power} Power: +{doom} Doom{extra})")
        elif kind == "reveal":
            choices.append(f"'reveal' (Elder Signs {fs.elder_signs}: +{sum(fs.elder_signs)} Doom)")
        elif kind == "no-ritual":
            choices.append("'no-ritual'")
        else:
            choices.append(f"'{notations([action])}'")
    said = ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]
    return f"Doom phase, your decision: {said}."
