"""The map's own creatures: the Bhole and the Zoogs of the Dreamlands (rules_text ``cthulhu-wars/dreamlands-bhole``
and ``cthulhu-wars/dreamlands-zoogs``).

Nothing here does anything unless the map declares the creature (:attr:`~.maps.model.MapLayout.pieces`): the
Bhole with its home Area and the board whose Citadels it visits, the Zoogs with their number and the board whose
Citadels they appear on. Their figures live in ``state.pieces`` (``"bhole"``: one place, ``"zoog"``: one place per
figure; ``@pool`` is "not in play").

* End of each Doom phase, after the Rituals (:func:`end_of_doom_phase`): the Bhole attacks (:func:`bhole_turn`),
  then the Zoogs not in play appear (:func:`place_zoogs`). Each random event draws from ``state.rng`` in one small
  function (:func:`roll_bhole`, :func:`roll_zoogs`), so a dry run never shows it and a table's real dice could
  replace it.
* Always: no Gate is controlled in an Area with a Zoog, and a Zoog outside a Citadel is eliminated
  (:func:`enforce`, run after every step).
* Battle: each creature is a side a faction may battle (:data:`NEUTRALS`; see battle.py). It has no Power,
  Doom, spellbooks or faction of its own for any purpose, and abilities used against it affect only the
  battling faction's own units, except those that take Monsters, which take Zoogs.
"""

from __future__ import annotations

from typing import Any

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.dice import dice_distribution
from tabletop.games.cthulhu_wars.state import POOL, GameState
from tabletop.games.cthulhu_wars import words as words_of

BHOLE, ZOOG = "bhole", "zoog"
BHOLE_COMBAT = 6
#: The ``actor`` faction hooks are told about when the map itself eliminated units (the Bhole's attack).
MAP_EVENT = -1
RULE_BHOLE, RULE_ZOOGS = "cthulhu-wars/dreamlands-bhole", "cthulhu-wars/dreamlands-zoogs"


def set_up(state: GameState) -> None:
    """The Bhole in its home; the Zoogs beside the board, none in play (``cthulhu-wars/dreamlands``)."""
    pieces = state.layout.pieces
    if pieces.bhole is not None:
        state.pieces[BHOLE] = [pieces.bhole.home]
    if pieces.zoogs is not None:
        state.pieces[ZOOG] = [POOL] * pieces.zoogs.count


# ---- where they are -------------------------------------------------------------------------------------
def bhole_area(state: GameState) -> str | None:
    """The Bhole's Area (None without a Bhole, or while it is dead)."""
    places = state.pieces.get(BHOLE)
    return places[0] if places and places[0] != POOL else None


def zoogs_in(state: GameState, area: str) -> int:
    return state.pieces.get(ZOOG, []).count(area)


def zoog_areas(state: GameState) -> set[str]:
    return {p for p in state.pieces.get(ZOOG, ()) if p != POOL}


def zoogs_off_map(state: GameState) -> int:
    return state.pieces.get(ZOOG, []).count(POOL)


def blocks_gate_control(state: GameState, area: str) -> bool:
    """Whether Zoogs keep every unit from controlling a Gate in ``area`` (Yog-Sothoth is not a unit on a Gate)."""
    return ZOOG in state.pieces and zoogs_in(state, area) > 0


# ---- the Doom phase ---------------------------------------------------------------------------------------
def end_of_doom_phase(state: GameState, log: list[str]) -> None:
    """After every Ritual: the Bhole's activation and attack, then the Zoogs (``cthulhu-wars/dreamlands``)."""
    if BHOLE in state.pieces:
        bhole_turn(state, log)
    if ZOOG in state.pieces:
        place_zoogs(state, log)


def roll_bhole(state: GameState) -> int:
    """The die that sends the Bhole to a Citadel."""
    return state.rng.die(6, "the Bhole's die (its Citadel)")


def roll_zoogs(state: GameState, count: int) -> list[int]:
    """One die per Zoog not in play."""
    return state.rng.dice(count, 6, "the Zoogs' dice (their Citadels)")


def bhole_turn(state: GameState, log: list[str]) -> None:
    """A dead Bhole comes back home and attacks there without rolling; a Bhole in an Area with a Gate stays and
    attacks it; otherwise a die sends it to the Citadel of its board with that number, which it attacks
    (``cthulhu-wars/dreamlands-bhole``)."""
    home = state.layout.pieces.bhole
    area = bhole_area(state)
    if area is None:
        state.pieces[BHOLE] = [home.home]
        log.append(f"A new Bhole appears in {home.home}; it does not roll this Doom phase.")
        area = home.home
    elif not board.has_gate(state, area):
        roll = roll_bhole(state)
        area = state.layout.citadel_for(home.board, roll).id
        state.pieces[BHOLE] = [area]
        log.append(f"The Bhole rolls {roll} and moves to the Citadel {area}.")
    else:
        log.append(f"The Bhole stays in {area}, where there is a Gate.")
    bhole_attack(state, area, log)


def bhole_attack(state: GameState, area: str, log: list[str]) -> None:
    """Destroy the Gate in ``area`` and eliminate the unit controlling it (an enemy's elimination, e.g. for Passion),
    and any Gate a faction holds there without a Cultist (Yog-Sothoth). Nothing else there is touched."""
    if area in state.gates:
        holder = state.gates.pop(area)
        if holder is None:
            log.append(f"The Bhole destroys the Abandoned Gate in {area}.")
        else:
            seat, kind, index = holder
            board.eliminate(state, seat, kind, index)
            log.append(f"The Bhole destroys {state.seats[seat].faction}'s Gate in {area} and eliminates the {words_of.unit_title(kind)} on it.")
    for seat in range(len(state.seats)):
        board.faction_of(state, seat).gate_destroyed(state, seat, area, log)
    for seat in range(len(state.seats)):
        board.faction_of(state, seat).after_action(state, seat, MAP_EVENT, log)


def place_zoogs(state: GameState, log: list[str]) -> None:
    """Roll a die for every Zoog not in play and put it on the Citadel of its board with that number
    (``cthulhu-wars/dreamlands-zoogs``)."""
    waiting = [i for i, p in enumerate(state.pieces[ZOOG]) if p == POOL]
    if not waiting:
        return
    rolls = roll_zoogs(state, len(waiting))
    zoog_board = state.layout.pieces.zoogs.board
    log.append(f"Zoogs: {len(waiting)} not in play roll {rolls}.")
    for index, roll in zip(waiting, rolls, strict=True):
        arrive(state, index, state.layout.citadel_for(zoog_board, roll).id, log)


def arrive(state: GameState, index: int, area: str, log: list[str]) -> None:
    """Zoog ``index`` appears in ``area``; a Gate controlled there is Abandoned at once."""
    state.pieces[ZOOG][index] = area
    log.append(f"A Zoog appears in {area}.")
    abandon_for_zoogs(state, area, log)


def abandon_for_zoogs(state: GameState, area: str, log: list[str]) -> None:
    holder = state.gates.get(area)
    if holder is not None:
        state.gates[area] = None
        log.append(f"Zoogs in {area}: {state.seats[holder[0]].faction} must Abandon its Gate there.")


def remove_zoogs(state: GameState, area: str, count: int, log: list[str], how: str = "eliminated") -> int:
    """Take up to ``count`` Zoogs out of ``area`` (killed or eliminated alike: they come back at the next Doom
    phase); how many went."""
    places = state.pieces.get(ZOOG, [])
    gone = 0
    for i, place in enumerate(places):
        if gone < count and place == area:
            places[i] = POOL
            gone += 1
    if gone:
        log.append(f"{gone} Zoog{'s' if gone > 1 else ''} in {area} {'are' if gone > 1 else 'is'} {how}.")
    return gone


def move_zoog(state: GameState, source: str, target: str, log: list[str]) -> None:
    """A Zoog moved by an ability (Avatar): it stays only on a Citadel; anywhere else it is eliminated."""
    places = state.pieces[ZOOG]
    index = places.index(source)
    if state.layout.area(target).citadel:
        places[index] = target
        log.append(f"A Zoog is moved from {source} to {target}.")
        abandon_for_zoogs(state, target, log)
    else:
        places[index] = POOL
        log.append(f"A Zoog moved from {source} to {target}, which is no Citadel, is eliminated.")


def enforce(state: GameState, log: list[str]) -> None:
    """What always holds (run after every step): no Gate is controlled in an Area with Zoogs, and no Zoog stands
    outside a Citadel."""
    if ZOOG not in state.pieces:
        return
    layout = state.layout
    for area in sorted(zoog_areas(state)):
        if not layout.area(area).citadel:
            remove_zoogs(state, area, len(state.pieces[ZOOG]), log, "eliminated (no Citadel)")
        else:
            abandon_for_zoogs(state, area, log)


# ---- battle sides -----------------------------------------------------------------------------------------
class Creature:
    """A creature of the map as a side of a battle (battle.py asks these; a faction is never this side)."""

    name: str  # the enemy name in notation: "battle vale-of-pnath vs bhole"
    title: str
    rule: str
    plural: bool = False

    def present(self, state: GameState, area: str) -> int:
        """Figures of this creature in ``area``."""
        raise NotImplementedError

    def dice(self, state: GameState) -> int:
        return 0

    def room(self, state: GameState, area: str) -> int:
        """How many Kills it can still take in ``area``."""
        return self.present(state, area)

    def take(self, state: GameState, battle: dict, result: str, count: int, log: list[str]) -> int:
        """The battling faction's ``count`` Kills or Pains on it; returns Pains it sends back to that faction."""
        raise NotImplementedError

    def after_results(self, state: GameState, battle: dict, log: list[str]) -> None:
        """After every result and post-battle ability, before the faction's retreats."""

    def can_lose(self, state: GameState, battle: dict, roles: tuple[str, ...]) -> bool:
        """Whether an ability that makes the enemy lose a unit of ``roles`` reaches it."""
        return False

    def lose_one(self, state: GameState, battle: dict, log: list[str]) -> None:
        """An ability takes one of its figures out of the battle (Devour, Abduct, Howl)."""

    def retreat_barred(self, state: GameState, battle: dict) -> set[str]:
        """Areas the battling faction's Pained units may not retreat to."""
        return set()

    def odds_note(self, state: GameState | None, attacker_dice: int, present: int) -> str:
        return ""


class Bhole(Creature):
    """The Bhole: a Terror, Combat 6; one Kill destroys it; a Pain sends it home (``cthulhu-wars/dreamlands-bhole``)."""

    name, title, rule = "bhole", "the Bhole", RULE_BHOLE

    def present(self, state: GameState, area: str) -> int:
        return int(bhole_area(state) == area)

    def dice(self, state: GameState) -> int:
        return BHOLE_COMBAT

    def take(self, state: GameState, battle: dict, result: str, count: int, log: list[str]) -> int:
        if count <= 0 or bhole_area(state) != battle["area"]:
            return 0
        if result == "kill":
            state.pieces[BHOLE] = [POOL]
            battle["killed"][battle["attacker"]] += 1
            log.append("The Bhole is destroyed (a new one appears in its home at the end of the next Doom phase).")
        else:
            battle["bhole-pained"] = True
        return 0

    def after_results(self, state: GameState, battle: dict, log: list[str]) -> None:
        """A Pained Bhole goes home whoever is there; at home it ignores the Pain. It is never eliminated for lack
        of a retreat, and Madness cannot send it elsewhere."""
        if not battle.get("bhole-pained") or bhole_area(state) is None:
            return
        home = state.layout.pieces.bhole.home
        if bhole_area(state) == home:
            log.append(f"The Bhole is Pained in {home}, its home, and ignores it.")
        else:
            state.pieces[BHOLE] = [home]
            log.append(f"The Bhole is Pained and goes back to {home}.")

    def retreat_barred(self, state: GameState, battle: dict) -> set[str]:
        area = bhole_area(state)
        return {area} if area else set()

    def odds_note(self, state: GameState | None, attacker_dice: int, present: int) -> str:
        none = (5 / 6) ** attacker_dice
        misses = 0.5**attacker_dice
        return (f"The Bhole rolls {BHOLE_COMBAT} dice. One Kill destroys it ({1 - none:.0%}); without a Kill, any Pain "
                f"sends it to its home ({none - misses:.0%}). Abilities used against it affect only your own units.")


class Zoogs(Creature):
    """Zoogs: Monsters, Combat 0; a Kill kills one; a Pain removes one and Pains one of the battling faction's units
    (Kills first) (``cthulhu-wars/dreamlands-zoogs``)."""

    name, title, rule, plural = "zoogs", "the Zoogs", RULE_ZOOGS, True

    def present(self, state: GameState, area: str) -> int:
        return zoogs_in(state, area)

    def take(self, state: GameState, battle: dict, result: str, count: int, log: list[str]) -> int:
        area, attacker = battle["area"], battle["attacker"]
        if result == "kill":
            battle["killed"][attacker] += remove_zoogs(state, area, count, log, "killed")
            return 0
        gone = remove_zoogs(state, area, count, log, "removed by Pain")
        if gone:
            battle["zoogs-removed-by-pain"] = battle.get("zoogs-removed-by-pain", 0) + gone
            if state.options.zoog_pain_counts_as_kill:
                battle["devoured"][attacker] += gone
            log.append(f"Each Zoog removed by Pain Pains one of {state.seats[attacker].faction}'s units: {gone} Pain.")
        return gone

    def can_lose(self, state: GameState, battle: dict, roles: tuple[str, ...]) -> bool:
        return "monster" in roles and zoogs_in(state, battle["area"]) > 0

    def lose_one(self, state: GameState, battle: dict, log: list[str]) -> None:
        remove_zoogs(state, battle["area"], 1, log)

    def retreat_barred(self, state: GameState, battle: dict) -> set[str]:
        return zoog_areas(state)

    def odds_note(self, state: GameState | None, attacker_dice: int, present: int) -> str:
        dist = dice_distribution(attacker_dice)
        removed = sum(float(pr) * min(k + p, present) for (k, p), pr in dist.items())
        back = sum(float(pr) * min(p, present - min(k, present)) for (k, p), pr in dist.items())
        return (f"{present} Zoog{'s' if present != 1 else ''} roll no dice; expect {removed:.2f} removed and "
                f"{back:.2f} Pains back on your units (each Zoog removed by a Pain Pains one of yours, Kills first).")


NEUTRALS: dict[str, Creature] = {"bhole": Bhole(), "zoogs": Zoogs()}
#: Which figures in ``state.pieces`` make each battle side.
FIGURES = {"bhole": BHOLE, "zoogs": ZOOG}


def in_game(state: GameState) -> list[str]:
    """The creatures a faction could battle in this game (their names in notation)."""
    return [name for name, kind in FIGURES.items() if kind in state.pieces]


def battle_targets(state: GameState, area: str) -> list[str]:
    """The creatures standing in ``area``."""
    return [name for name in in_game(state) if NEUTRALS[name].present(state, area)]


def retreat_barred(state: GameState, battle: dict) -> set[str]:
    """Areas no Pained unit retreats to: every Area with Zoogs, and the Bhole's Area after a battle with it."""
    barred = zoog_areas(state) if ZOOG in state.pieces else set()
    defender = battle["defender"]
    if isinstance(defender, str):
        barred |= NEUTRALS[defender].retreat_barred(state, battle)
    return barred


# ---- what everyone sees -------------------------------------------------------------------------------------
def markers(state: GameState) -> dict[str, list[str]]:
    """The creatures by Area, for the position text and the picture: ``{"vale-of-pnath": ["Bhole"]}``."""
    found: dict[str, list[str]] = {}
    if (area := bhole_area(state)) is not None:
        found.setdefault(area, []).append("Bhole")
    for area in sorted(zoog_areas(state)):
        n = zoogs_in(state, area)
        found.setdefault(area, []).append(f"{n} Zoog{'s' if n > 1 else ''}")
    return found


def view(state: GameState) -> dict[str, Any] | None:
    """The creatures as data (None on a map without them)."""
    if not state.pieces:
        return None
    found: dict[str, Any] = {}
    if BHOLE in state.pieces:
        found["bhole"] = bhole_area(state)
    if ZOOG in state.pieces:
        found["zoogs"] = {a: zoogs_in(state, a) for a in sorted(zoog_areas(state))}
        found["zoogs_not_in_play"] = zoogs_off_map(state)
    return found


def describe_lines(state: GameState) -> list[str]:
    """One line on the creatures, for the position text."""
    if not state.pieces:
        return []
    parts = []
    if BHOLE in state.pieces:
        area = bhole_area(state)
        parts.append(f"the Bhole is in {area}" if area else "the Bhole is dead (it returns home at the end of the Doom phase)")
    if ZOOG in state.pieces:
        parts.append(f"{len(state.pieces[ZOOG]) - zoogs_off_map(state)} Zoogs on Citadels, {zoogs_off_map(state)} not in play "
                     "(they appear at the end of the Doom phase)")
    return ["Creatures: " + "; ".join(parts) + "."] if parts else []  # other pieces (ownerless Filth) are no creatures
