"""The turn (rules_text ``cthulhu-wars/turn``): Gather Power, First Player, Doom phase, Action phase.

:func:`advance` carries a (copied) state forward after every accepted action until the
game awaits a decision: it runs battles, ongoing-ability hooks, spellbook awards, the
end of each Action-phase turn and the phases between two Action phases. Round 1 is
only an Action phase.
"""

from __future__ import annotations

from tabletop.games.cthulhu_wars import board, citadels, creatures, victory, windows
from tabletop.games.cthulhu_wars.battle import step_battle
from tabletop.games.cthulhu_wars.factions import Faction
from tabletop.games.cthulhu_wars.neutrals import registry as neutrals
from tabletop.games.cthulhu_wars.power import ExtraIncome, GatherPowerResult, PowerSources, gather_power
from tabletop.games.cthulhu_wars.state import GameState, Pending
from tabletop.games.cthulhu_wars.turn_actions import has_follow_up


def advance(state: GameState, log: list[str]) -> None:
    """Run every step that needs no decision.

    Spellbook requirements are checked when an action is complete: not while a Move action is under way, a
    battle is being fought or a decision of the action is awaited (``cthulhu-wars/factions``). Reaching 30 Doom
    in the Action phase, by any means, ends the game at the end of the current turn (``cthulhu-wars/end``). On a
    map with creatures and Citadels, their standing rules are kept and the Citadel victory is checked at every
    step (``cthulhu-wars/dreamlands``). Once the turn passes to the next seat nothing is checked again: passing it
    changes nothing those checks read, and the new turn waits for its seat's action.
    """
    while state.phase != "over":
        creatures.enforce(state, log)
        if citadels.check(state, log):
            return
        if state.pending:
            return
        if state.battle is not None:
            step_battle(state, log)
            continue
        neutrals.settle(state, log)  # e.g. an Independent Great Old One's card back to the pool
        if state.pending:
            continue
        if not (state.turn and state.turn.moving):
            award_spellbooks(state, log)
            if state.pending:
                return
        if state.phase == "action":
            if victory.doom_reached(state):
                state.ending = True
            if state.turn and state.turn.hooks_due and not state.turn.moving:
                state.turn.hooks_due = False
                run_after_action_hooks(state, log)
                continue
            if not end_of_turn(state, log):
                return
            if state.phase == "action" and state.turn is not None and not state.turn.acted:
                return  # the next seat's turn has begun: nothing has happened since the checks above to check again
        elif state.phase == "doom":
            next_ritual(state, log)
        else:
            return


# ---- spellbooks -----------------------------------------------------------------------
def award_spellbooks(state: GameState, log: list[str]) -> None:
    """Record requirements met since the last check; each earns a spellbook choice (and maybe an Elder Sign)."""
    for seat, fs in enumerate(state.seats):
        faction = board.faction_of(state, seat)
        if all_requirements_recorded(faction, fs.requirements):
            continue
        for name in faction.met_requirements(state, seat):
            if name in fs.requirements:
                continue
            fs.requirements.append(name)
            log.append(f"{fs.faction} meets the requirement '{name}'.")
            if any(r.name == name and r.elder_sign for r in faction.requirements):
                board.draw_elder_sign(state, seat, log)
            state.pending.insert(0, Pending(seat, "spellbook", {"requirement": name}))


def all_requirements_recorded(faction: Faction, recorded: list[str]) -> bool:
    """Whether every requirement of the faction is already recorded: a recorded requirement stays met (nothing
    removes one), so no check can earn anything more (``cthulhu-wars/factions``)."""
    return len(recorded) >= len(faction.requirements) and all(r.name in recorded for r in faction.requirements)


def remaining_spellbooks(state: GameState, seat: int) -> list[str]:
    """The faction's books not yet taken, then any the neutral material offers instead (the neutral spellbooks'
    pool, ``cthulhu-wars/neutral-spellbooks``)."""
    owned = state.seats[seat].spellbooks
    own = [b.name for b in board.faction_of(state, seat).spellbooks if b.name not in owned]
    return own + [b for b in neutrals.spellbook_choices(state, seat) if b not in owned]


# ---- the Action phase -----------------------------------------------------------------
def start_action_phase(state: GameState, log: list[str]) -> None:
    state.phase = "action"
    state.turn = None
    seat = first_active(state, state.first_player)
    if seat is None:
        end_action_phase(state, log)
    else:
        state.new_turn(seat)
        log.append(f"Action phase of round {state.round}: {state.seats[seat].faction} acts first.")


def active(state: GameState, seat: int) -> bool:
    """A seat takes turns while it has Power and does not sit the phase out (Hibernate; ``cthulhu-wars/turn``)."""
    return state.seats[seat].power > 0 and not board.faction_of(state, seat).sits_out(state, seat)


def first_active(state: GameState, start: int) -> int | None:
    return next((s for s in state.order_from(start) if active(state, s)), None)


def turn_over(state: GameState) -> bool:
    """The turn ends once its action is done and the seat says ``done`` or has no unlimited action left
    (``cthulhu-wars/turn``); a seat at 0 Power can do nothing more."""
    turn = state.turn
    if turn is None:
        return True
    if turn.moving:
        return False
    if not turn.acted:
        return state.seats[turn.seat].power <= 0
    return turn.closed or not has_follow_up(state, turn.seat)


def run_after_action_hooks(state: GameState, log: list[str]) -> None:
    """After any player's action: ongoing abilities that need no choice (e.g. Passion), then the out-of-turn
    window (e.g. Elder Sign reveals, Devolve; ``cthulhu-wars/out-of-turn``), which says what the action was and
    where it happened."""
    actor = state.turn.seat
    for seat in range(len(state.seats)):
        board.faction_of(state, seat).after_action(state, seat, actor, log)
    windows.open_window(state, actor, "action", windows.action_opener(state))


def end_of_turn(state: GameState, log: list[str]) -> bool:
    """Pass the turn on if it is over; False when the current seat still has to act."""
    if not turn_over(state):
        return False
    turn = state.turn
    if state.ending:
        victory.finish(state, log)
        return True
    nxt = None
    if turn is not None:
        nxt = next((s for s in state.order_from(turn.seat)[1:] + [turn.seat] if active(state, s)), None)
    if nxt is None:
        end_action_phase(state, log)
    else:
        state.new_turn(nxt)
    return True


def end_action_phase(state: GameState, log: list[str]) -> None:
    """Everyone is out of Power: Gather Power, then First Player, then the Doom phase."""
    state.turn = None
    state.round += 1
    gather(state, log)
    if all(fs.power == 0 for fs in state.seats):
        log.append("Nobody gathered any Power: the game cannot go on.")
        victory.finish(state, log)
        return
    windows.open_window(state, state.first_player, windows.GATHER, {"action": "Gather Power"})
    if not state.pending:  # else the First Player is determined when the window closes (decisions.py)
        determine_first_player(state, log)


# ---- Gather Power ---------------------------------------------------------------------
def power_sources(state: GameState, seat: int, highest: int | None) -> PowerSources:
    faction = board.faction_of(state, seat)
    extras: list[ExtraIncome] = faction.gather_extras(state, seat)
    for other in range(len(state.seats)):  # what the others' abilities give this seat (Worship Services)
        if other != seat:
            extras += board.faction_of(state, other).gives_income(state, other, seat)
    return PowerSources(
        cultists=board.cultists_in_play(state, seat),
        controlled_gates=board.gate_count(state, seat),
        abandoned_gates=len(board.abandoned_gates(state)),
        captured_cultists=len(state.seats[seat].captives),
        extra=extras,
        highest_power=highest,
    )


def projected_gather(state: GameState) -> list[GatherPowerResult]:
    """What every faction would gather now, Minimum Power Rule included (for the gather_power tool)."""
    sources = [power_sources(state, s, None) for s in range(len(state.seats))]
    highest = max(gather_power(held).total for held in sources)
    return [gather_power(held.model_copy(update={"highest_power": highest})) for held in sources]


def gather(state: GameState, log: list[str]) -> None:
    """Every faction gathers at once; then the Minimum Power Rule; captives go home."""
    for fs, result in zip(state.seats, projected_gather(state), strict=True):
        fs.power = result.total
        log.append(f"{fs.faction} gathers {result.total} Power" + (" (Minimum Power Rule)." if result.minimum_power_applied else "."))
    for fs in state.seats:
        for owner, kind, index in fs.captives:
            board.place_figure(state, owner, kind, index, "@pool")
        fs.captives = []


# ---- First Player ---------------------------------------------------------------------
def determine_first_player(state: GameState, log: list[str]) -> None:
    """Most Power goes first; the current First Player breaks ties; then picks the direction."""
    top = max(fs.power for fs in state.seats)
    tied = [s for s, fs in enumerate(state.seats) if fs.power == top]
    if len(tied) == 1:
        set_first_player(state, tied[0], log)
    else:
        state.pending.append(Pending(state.first_player, "first-player", {"tied": tied}))


def set_first_player(state: GameState, seat: int, log: list[str]) -> None:
    state.first_player = seat
    log.append(f"{state.seats[seat].faction} is First Player.")
    state.pending.append(Pending(seat, "direction"))


def set_direction(state: GameState, direction: int, log: list[str]) -> None:
    """Direction chosen: the Doom phase follows, or in round 1 (only an Action phase) the Action phase
    (``cthulhu-wars/first-player``)."""
    state.direction = direction
    if state.round == 1:
        start_action_phase(state, log)
    else:
        start_doom_phase(state, log)


# ---- the Doom phase -------------------------------------------------------------------
def start_doom_phase(state: GameState, log: list[str]) -> None:
    """Doom for each controlled Gate, faction Doom-phase abilities, then Rituals in play order."""
    state.phase = "doom"
    state.doom_phases += 1
    for seat, fs in enumerate(state.seats):
        gates = neutrals.doom_gates(state, seat, board.gate_count(state, seat))  # The Brood (cthulhu-wars/igoo-abhoth)
        fs.doom += gates
        log.append(f"{fs.faction} gains {gates} Doom for its Gates.")
    for seat in state.order_from(state.first_player):
        board.faction_of(state, seat).doom_phase(state, seat, log)
    state.doom_queue = state.order_from(state.first_player)


def next_ritual(state: GameState, log: list[str]) -> None:
    """Ask the next seat in Doom order that can act: a Ritual if it can pay, revealing Elder Signs if it holds
    any (rules_text cthulhu-wars/doom); when all have had the chance, end the Doom phase."""
    while state.doom_queue:
        seat = state.doom_queue.pop(0)
        if has_doom_choice(state, seat):
            state.pending.append(Pending(seat, "ritual"))
            return
    end_doom_phase(state, log)


def has_doom_choice(state: GameState, seat: int) -> bool:
    """A Ritual it can pay, Elder Signs to reveal, an answer of the neutral material (a High Priest's Oath) or of its
    faction (Dematerialization, ``cthulhu-wars/ancients``)."""
    fs = state.seats[seat]
    return (fs.power >= ritual_cost_for(state, seat) or bool(fs.elder_signs) or bool(neutrals.doom_options(state, seat))
            or bool(board.faction_of(state, seat).doom_options(state, seat)))


def ritual_cost_for(state: GameState, seat: int) -> int:
    """What a Ritual costs ``seat`` now: the track's value, unless its faction says otherwise (Herald)."""
    return board.faction_of(state, seat).ritual_cost(state, seat, state.ritual_cost)


def perform_ritual(state: GameState, seat: int, log: list[str], gate_doom_factor: int = 1) -> None:
    """Pay the track cost, move the marker, Doom per controlled Gate (times ``gate_doom_factor``: Dragon
    Descending), an Elder Sign per Great Old One of the faction in play and any its faction adds (Consecration,
    ``cthulhu-wars/ancients-consecration``) (``cthulhu-wars/doom``)."""
    fs = state.seats[seat]
    cost = ritual_cost_for(state, seat)
    fs.power -= cost
    doom = neutrals.doom_gates(state, seat, board.gate_count(state, seat)) * gate_doom_factor
    fs.doom += doom
    state.ritual_step = min(state.ritual_step + 1, len(state.ritual_track) - 1)
    log.append(f"{fs.faction} performs a Ritual of Annihilation for {cost} Power: +{doom} Doom.")
    for _ in range(board.goos_in_play(state, seat) + board.faction_of(state, seat).ritual_extra_elder_signs(state, seat)):
        board.draw_elder_sign(state, seat, log)
    fs.flags["rituals"] = fs.flags.get("rituals", 0) + 1


def end_doom_phase(state: GameState, log: list[str]) -> None:
    """Every seat had its Ritual chance: the map's creatures act (the Bhole, then the Zoogs), then the game ends if
    30 Doom or Instant Death was reached, else the Action phase begins (``cthulhu-wars/doom``)."""
    creatures.end_of_doom_phase(state, log)
    if victory.end_triggered(state):
        victory.finish(state, log)
    else:
        start_action_phase(state, log)
