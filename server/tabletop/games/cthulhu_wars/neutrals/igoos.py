"""The Independent Great Old Ones, each a game option (rules_text ``cthulhu-wars/independent-great-old-ones`` and one
section per card: ``igoo-byatis``, ``igoo-abhoth``, ``igoo-daoloth``, ``igoo-nyogtha``).

* Awakening (the core ``awaken <unit> <area>``, your one action): at a Gate you control (held by a unit of yours:
  Yog-Sothoth alone is no controlled Gate) in an Area where you have a Great Old One, your faction's or an Independent
  one you control; pay its cost (Byatis 4, Abhoth 4, Daoloth 6, Nyogtha 6); every figure of it is placed there and
  you take its card. A faction with no
  Great Old One of its own that :meth:`~..factions.base.Faction.awakens_independents_without_goo` (The Ancients with
  all 4 Cathedrals) needs no Great Old One there. With the option ``ancients_igoo_needs_cathedrals`` such a faction's
  Independent Great Old Ones do not help it Awaken another (ruling ``igoo-awaken``).
* It is your Great Old One for capture and protection, not a faction one: no Elder Sign at a Ritual, not counted by
  Yog-Sothoth (:func:`~..board.goos_in_play`). Immortal gives an Elder Sign for Awakening one; Harbinger pays half its
  cost (its unit cost).
* Its spellbook goes on its card when its own requirement is met (never a faction spellbook: not one of the six, out
  of Recriminations' reach); it is kept in ``flags["igoo-books"]``.
* Death: when no figure of it is in play any more (Killed, or eliminated otherwise unless the option
  ``igoo_lost_when_eliminated`` is off: ruling ``igoo-death``) the card, figure and spellbook go back to the pool,
  for anyone to Awaken again and earn the book anew.
* Byatis (``igoo-byatis``): never Moves and no ability moves him (Pained, he retreats unless the option
  ``byatis_pained_retreats`` is off: ruling ``byatis-pain``); an Elder Sign at the start of each Doom phase when no
  enemy unit is in his Area; his book (God of Forgetfulness, ``forgetfulness <area>``, 1 Power: every enemy Cultist of
  an Area next to him comes into his) when he survives a battle in which an enemy unit was Killed.
* Abhoth (``igoo-abhoth``): Combat equal to the Filth in play; his 12 Filth tokens come with the card, each a Combat-0
  Monster placed by his Filth action (``filth <area>``, 1 Power, any Area; unlimited with Fertility Cult), never
  Summoned, never Moving or Capturing (Pained, it retreats unless the option ``filth_pained_retreats`` is off: ruling
  ``filth-pain``); his book (The Brood: in the Doom phase a Gate in an Area with his Filth gives no Doom but to his
  controller, :meth:`IndependentGreatOldOnes.doom_gates`) with 4 Monster types or 8 Monsters in play. When he dies,
  his Filth on the map stays, belonging to no one (``state.pieces["ownerless-filth"]``), until someone Awakens him.
* Daoloth (``igoo-daoloth``): Cosmic Unity (pre-battle, once per battle: ``cosmic-unity <unit>``, an enemy Great Old
  One in the battle rolls no dice); his book (Interdimensional: an Abandoned Gate appears wherever he enters an Area
  without a Gate) when any Great Old One is Killed in a battle anywhere (or by Dread Curse; one Nyogtha figure of two
  is no Great Old One lost).
* Nyogtha (``igoo-nyogtha``): two figures, Combat 4 each when his side declared the battle, else 1; From Below (once one
  figure moved in a Move action the other moves free: :func:`~..registry.move_cost`; after a Capture or a declared
  Battle in one figure's Area, the decision ``igoo-from-below`` offers the same, free, in the other's Area); the card is
  lost only when both are gone (Unholy Ground takes one figure, or both with the option ``unholy_ground_both_nyogtha``:
  ruling ``unholy-ground-nyogtha``); his book (Nightmare Web: a figure back from the pool for 2 Power, ``awaken
  nyogtha <area>``, in an Area with a unit of yours) when every Nyogtha figure survives a battle against an enemy Great
  Old One, the battles of one action (From Below) counted together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board, turn_actions
from tabletop.games.cthulhu_wars.actions import Action, Done
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.factions.base import UnitType, adjacent_areas
from tabletop.games.cthulhu_wars.neutrals.base import NeutralRule
from tabletop.games.cthulhu_wars.neutrals.units import ABHOTH, BYATIS, DAOLOTH, FILTH, NYOGTHA, UNIT_TYPES
from tabletop.games.cthulhu_wars.state import POOL, Pending
from tabletop.games.cthulhu_wars.words import unit_title

if TYPE_CHECKING:
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
    from tabletop.games.cthulhu_wars.state import GameState

BOOKS = "igoo-books"  # flags: the Independent Great Old Ones whose spellbook is on their card
KILLED = "igoo-killed"  # flags: those Killed in battle since they were last in play
PLACES = "igoo-at"  # flags: where each was after the last step (Interdimensional: "enters")
DUE = "igoo-daoloth-due"  # flags: a Great Old One was Killed while Daoloth was in play (his book, at the next step)
WEB = "igoo-nyogtha-web"  # flags: this action's battles for Nightmare Web (one against an enemy GOO; a figure lost)
OWNERLESS = "ownerless-filth"  # state.pieces: the places of Filth left on the map when Abhoth died (nobody's)
FORGET_COST = 1
FILTH_COST = 1
BROOD_TYPES, BROOD_MONSTERS = 4, 8  # Abhoth's requirement: Monster types, or Monsters, in play
WEB_COST = 2  # Nightmare Web: a Nyogtha figure from the pool
NYOGTHA_ATTACKING, NYOGTHA_DEFENDING = 4, 1
FROM_BELOW = "igoo-from-below"  # the decision: a free Capture or Battle for the other Nyogtha figure


@dataclass(frozen=True)
class Independent:
    """One Independent Great Old One card: its unit type, option, rules section and spellbook."""

    unit: UnitType
    option: str
    section: str
    book: str
    requirement: str
    tokens: str | None = None  # the unit type of its tokens (Filth), held with the card

    @property
    def name(self) -> str:
        return self.unit.name


CARDS: dict[str, Independent] = {
    c.name: c for c in (
        Independent(UNIT_TYPES[BYATIS], "igoo_byatis", "igoo-byatis", "God of Forgetfulness",
                    "Byatis survives a battle in which an enemy unit was Killed"),
        Independent(UNIT_TYPES[DAOLOTH], "igoo_daoloth", "igoo-daoloth", "Interdimensional",
                    "a Great Old One is Killed anywhere"),
        Independent(UNIT_TYPES[ABHOTH], "igoo_abhoth", "igoo-abhoth", "The Brood",
                    "your faction has 4 different Monster types or 8 Monsters in play", FILTH),
        Independent(UNIT_TYPES[NYOGTHA], "igoo_nyogtha", "igoo-nyogtha", "Nightmare Web",
                    "Nyogtha survives a battle against an enemy Great Old One"),
    )
}  # fmt: skip
#: The Filth tokens' rules section (their own unit type).
TOKEN_CARDS = {c.tokens: c for c in CARDS.values() if c.tokens}


class GodOfForgetfulness(Action):
    """Byatis' spellbook (action, 1 Power): every enemy Cultist in ``area``, next to Byatis, comes into his Area
    (rules_text ``cthulhu-wars/igoo-byatis``)."""

    kind: Literal["forgetfulness"] = "forgetfulness"
    area: str


class PlaceFilth(Action):
    """Abhoth's Filth (action, 1 Power): a Filth token of your pool to ``area``, any Area of the map (rules_text
    ``cthulhu-wars/igoo-abhoth``)."""

    kind: Literal["filth"] = "filth"
    area: str


class FromBelowCapture(Action):
    """From Below: the other Nyogtha figure Captures in its Area too, free (rules_text ``cthulhu-wars/igoo-nyogtha``)."""

    kind: Literal["from-below-capture"] = "from-below-capture"
    area: str
    enemy: str


class FromBelowBattle(Action):
    """From Below: a second Battle, free, in the other Nyogtha figure's Area (rules_text ``cthulhu-wars/igoo-nyogtha``)."""

    kind: Literal["from-below-battle"] = "from-below-battle"
    area: str
    enemy: str


class CosmicUnity(Action):
    """Daoloth, pre-battle: the enemy Great Old One ``unit`` in the battle rolls no dice in it (rules_text
    ``cthulhu-wars/igoo-daoloth``)."""

    kind: Literal["cosmic-unity"] = "cosmic-unity"
    unit: str


# ---- small queries ----------------------------------------------------------------------------------------------
def holder(state: GameState, unit: str) -> int | None:
    """The seat holding the card of ``unit`` (its figure is in that seat's units), if anyone does."""
    return next((s for s, fs in enumerate(state.seats) if unit in fs.units), None)


def has_book(state: GameState, seat: int, unit: str) -> bool:
    return unit in state.seats[seat].flags.get(BOOKS, ())


def place_of(state: GameState, seat: int, unit: str) -> str | None:
    """Where ``seat``'s (first) figure of ``unit`` stands on the map, if it holds the card and it is there."""
    return next((p for p in state.seats[seat].units.get(unit, ()) if board.on_map(p)), None)


def earn_book(state: GameState, seat: int, unit: str, log: list[str]) -> None:
    """The card's spellbook goes on the card (not on the faction card: no slot of the six)."""
    fs = state.seats[seat]
    if unit in fs.units and not has_book(state, seat, unit):
        fs.flags[BOOKS] = [*fs.flags.get(BOOKS, []), unit]
        log.append(f"{fs.faction} meets {unit_title(unit)}'s requirement: {CARDS[unit].book} goes on its card.")


def helpers(state: GameState, seat: int) -> tuple[str, ...]:
    """The unit types that serve ``seat`` as "a Great Old One there" for an Awakening: its Great Old Ones, Independent
    ones included, unless it has none of its own and the option ``ancients_igoo_needs_cathedrals`` holds."""
    goos = board.faction_of(state, seat).goos()
    own = FACTIONS[state.seats[seat].faction].goos()
    if not own and state.options.ancients_igoo_needs_cathedrals:
        return own
    return goos


def awaken_areas(state: GameState, seat: int) -> list[str]:
    """Areas with a Gate a unit of ``seat`` holds (Yog-Sothoth is no controlled Gate) and a Great Old One of
    ``seat`` (see :func:`helpers`), or any such Gate for a faction that needs none there (Cathedrals)."""
    gates = sorted({area for area, held in state.gates.items() if held and held[0] == seat})
    if board.faction_of(state, seat).awakens_independents_without_goo(state, seat):
        return gates
    goos = helpers(state, seat)
    return [a for a in gates if any(k in goos for k in board.units_in(state, seat, a))]


class IndependentGreatOldOnes(NeutralRule):
    """The Independent Great Old One cards (``cthulhu-wars/independent-great-old-ones``); each has its own option."""

    name, option, rules_section, title = ("independent-great-old-ones", "", "independent-great-old-ones",
                                          "Independent Great Old Ones")
    units = tuple(c.unit for c in CARDS.values()) + tuple(UNIT_TYPES[t] for t in TOKEN_CARDS)
    action_models = (GodOfForgetfulness, CosmicUnity, PlaceFilth, FromBelowCapture, FromBelowBattle)
    rules_by_kind = {"forgetfulness": "igoo-byatis", "cosmic-unity": "igoo-daoloth", "filth": "igoo-abhoth",
                     "from-below-capture": "igoo-nyogtha", "from-below-battle": "igoo-nyogtha"}
    decisions = frozenset({FROM_BELOW})

    def unit_section(self, unit: str) -> str:
        return (CARDS.get(unit) or TOKEN_CARDS[unit]).section

    def enabled(self, options: CthulhuWarsOptions) -> bool:
        return any(getattr(options, c.option) for c in CARDS.values())

    def cards(self, options: CthulhuWarsOptions) -> list[Independent]:
        return [c for c in CARDS.values() if getattr(options, c.option)]

    # ---- Awakening -------------------------------------------------------------------------------------------
    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Each card no one holds (or whose figure is back in its holder's pool: ruling ``igoo-death``) at each Area
        of :func:`awaken_areas`, for its cost."""
        free = [c for c in self.cards(state.options) if holder(state, c.name) is None
                or (holder(state, c.name) == seat and all(p == POOL for p in state.seats[seat].units[c.name]))]
        areas = awaken_areas(state, seat) if free else []
        return [(c.name, a, c.unit.cost) for c in free for a in areas] + self.web_options(state, seat)

    def web_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """Nightmare Web: one Nyogtha figure in the pool while the other is in play, for 2 Power, in any Area with a
        unit of yours (``cthulhu-wars/igoo-nyogtha``)."""
        places = state.seats[seat].units.get(NYOGTHA, ())
        if not has_book(state, seat, NYOGTHA) or POOL not in places or all(p == POOL for p in places):
            return []
        return [(NYOGTHA, a, WEB_COST) for a in sorted(board.occupied_areas(state, seat))]

    def awaken(self, state: GameState, seat: int, unit: str, area: str, cost: int, log: list[str]) -> None:
        """Pay, take the card, place every figure of it in the pool there; Immortal hears of it."""
        fs = state.seats[seat]
        fs.power -= cost
        again = any(board.in_play(state, p) for p in fs.units.get(unit, ()))  # Nightmare Web: no new Awakening
        if unit not in fs.units:
            fs.units[unit] = [POOL] * UNIT_TYPES[unit].count
            log.append(f"{fs.faction} takes the {unit_title(unit)} card (Independent Great Old One).")
            self.take_tokens(state, seat, CARDS[unit], log)
        for index, place in enumerate(fs.units[unit]):
            if place == POOL:
                board.place_figure(state, seat, unit, index, area)
                if again:
                    break
        fs.flags.setdefault(PLACES, {})[unit] = area
        fs.flags[KILLED] = [u for u in fs.flags.get(KILLED, []) if u != unit]
        if again:
            log.append(f"Nightmare Web: {fs.faction} brings a Nyogtha figure back in {area} for {cost} Power.")
            return
        log.append(f"{fs.faction} awakens {unit_title(unit)} in {area} for {cost} Power.")
        board.faction_of(state, seat).independent_awakened(state, seat, unit, area, log)

    # ---- death, and the standing rules -------------------------------------------------------------------------
    def after_kill(self, state: GameState, owner: int, unit: str, battle: dict | None, log: list[str]) -> None:
        """A Killed Independent Great Old One is noted (ruling ``igoo-death``); any Great Old One Killed gives
        Daoloth's holder his book (``cthulhu-wars/igoo-daoloth``)."""
        fs = state.seats[owner]
        if unit in CARDS:
            fs.flags[KILLED] = [*fs.flags.get(KILLED, []), unit]
        if board.faction_of(state, owner).unit(unit).role != "goo":
            return
        if unit in CARDS and any(board.in_play(state, p) for p in fs.units[unit]):
            return  # one Nyogtha figure of two: no Great Old One is lost (official FAQ)
        seat = holder(state, DAOLOTH)
        if seat is not None and place_of(state, seat, DAOLOTH) is not None:
            state.seats[seat].flags[DUE] = True  # earned at the next step, with its event (settle)

    def settle(self, state: GameState, log: list[str]) -> None:
        """Cards whose figures are all out of play go back to the pool; Daoloth's Interdimensional; Nightmare Web once
        the action's battles are over (:meth:`settle_web`)."""
        for seat in range(len(state.seats)):
            units = state.seats[seat].units
            if CARDS.keys().isdisjoint(units):
                continue  # no card held: nothing to settle
            for unit in [u for u in CARDS if u in units]:
                if not self.lost(state, seat, unit):
                    if unit == DAOLOTH and state.seats[seat].flags.pop(DUE, False):
                        earn_book(state, seat, DAOLOTH, log)
                    self.interdimensional(state, seat, unit, log)
                    self.brood_requirement(state, seat, unit, log)
                    if unit == NYOGTHA and (state.turn is None or not state.turn.hooks_due):
                        self.settle_web(state, seat, log)  # From Below declined: the action is over
                    continue
                self.give_back(state, seat, unit, log)

    def lost(self, state: GameState, seat: int, unit: str) -> bool:
        """No figure of ``unit`` in play, and Killed (or eliminated, with the option ``igoo_lost_when_eliminated``)."""
        fs = state.seats[seat]
        if any(board.in_play(state, p) for p in fs.units[unit]):
            return False
        return state.options.igoo_lost_when_eliminated or unit in fs.flags.get(KILLED, ())

    def take_tokens(self, state: GameState, seat: int, card: Independent, log: list[str]) -> None:
        """The card's tokens join the taker's units: those left on the map without owner stay where they are, now
        the taker's; the others are in its pool (``cthulhu-wars/igoo-abhoth``)."""
        if card.tokens is None:
            return
        left = state.pieces.pop(OWNERLESS, [])
        state.seats[seat].units[card.tokens] = left + [POOL] * (UNIT_TYPES[card.tokens].count - len(left))
        if left:
            log.append(f"The {len(left)} Filth on the map without an owner are now {state.seats[seat].faction}'s.")

    def drop_tokens(self, state: GameState, seat: int, card: Independent, log: list[str]) -> None:
        """The card's tokens on the map stay there and belong to no one; the others go back with the card."""
        if card.tokens is None:
            return
        places = [p for p in state.seats[seat].units.pop(card.tokens) if board.on_map(p)]
        if places:
            state.pieces[OWNERLESS] = places
            log.append(f"{len(places)} Filth stay on the map and belong to no one.")

    def give_back(self, state: GameState, seat: int, unit: str, log: list[str]) -> None:
        """Card, figure and spellbook back to the pool (``cthulhu-wars/independent-great-old-ones``)."""
        fs = state.seats[seat]
        del fs.units[unit]
        self.drop_tokens(state, seat, CARDS[unit], log)
        book = has_book(state, seat, unit)
        fs.flags[BOOKS] = [u for u in fs.flags.get(BOOKS, []) if u != unit]
        fs.flags[KILLED] = [u for u in fs.flags.get(KILLED, []) if u != unit]
        fs.flags.get(PLACES, {}).pop(unit, None)
        if unit == DAOLOTH:
            fs.flags.pop(DUE, None)
        if unit == NYOGTHA:
            fs.flags.pop(WEB, None)
        with_book = f" and its spellbook {CARDS[unit].book}" if book else ""
        log.append(f"{unit_title(unit)} is gone from the map: its card{with_book} leaves {fs.faction} for the pool.")

    def interdimensional(self, state: GameState, seat: int, unit: str, log: list[str]) -> None:
        """Daoloth with his book, having entered an Area without a Gate since the last step: an Abandoned Gate is
        placed there (``cthulhu-wars/igoo-daoloth``)."""
        fs = state.seats[seat]
        area = place_of(state, seat, unit)
        before = fs.flags.setdefault(PLACES, {}).get(unit)
        if area == before:
            return
        fs.flags[PLACES][unit] = area
        if unit == DAOLOTH and area is not None and has_book(state, seat, unit) and not board.has_gate(state, area):
            state.gates[area] = None
            log.append(f"Interdimensional: Daoloth enters {area}, and an Abandoned Gate appears there.")

    # ---- Byatis ------------------------------------------------------------------------------------------------
    def immovable(self, state: GameState, seat: int, unit: str) -> bool:
        """Byatis never Moves and no ability moves him (``cthulhu-wars/igoo-byatis``)."""
        return unit == BYATIS

    def move_targets(self, state: GameState, seat: int, unit: str, source: str) -> list[str] | None:
        """Byatis and Filth never Move."""
        return [] if unit in (BYATIS, FILTH) else None

    def can_capture(self, state: GameState, seat: int, unit: str) -> bool | None:
        """Filth never Captures (it takes no actions); it still protects its owner's Cultists."""
        return False if unit == FILTH else None

    def doom_phase(self, state: GameState, seat: int, log: list[str]) -> None:
        """Toad of Berkeley: an Elder Sign when no enemy faction has a unit in Byatis' Area."""
        area = place_of(state, seat, BYATIS)
        if area is None or board.enemies_in(state, seat, area):
            return
        log.append(f"Toad of Berkeley: no enemy unit is with Byatis in {area}.")
        board.draw_elder_sign(state, seat, log)

    def after_any_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """With the option ``byatis_pained_retreats`` off a Pained Byatis stays where he is (ruling ``byatis-pain``),
        and with ``filth_pained_retreats`` off a Pained Filth (ruling ``filth-pain``)."""
        stay = {k for k, retreats in ((BYATIS, state.options.byatis_pained_retreats),
                                      (FILTH, state.options.filth_pained_retreats)) if not retreats}
        pained = battle["pained"].get(seat, [])
        staying = sorted({k for k, _ in pained if k in stay})
        if not staying:
            return
        battle["pained"][seat] = [[k, i] for k, i in pained if k not in stay]
        log.append(f"{' and '.join(unit_title(k) for k in staying)} never move: Pained, they stay where they are.")

    def battle_over(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """Byatis' requirement: he fought in the battle, is still on the map, and his side Killed an enemy unit. Then
        Nyogtha's (:meth:`nyogtha_battle`)."""
        if seat in battles.sides(battle) and NYOGTHA in state.seats[seat].units:
            self.nyogtha_battle(state, seat, battle, log)
        if seat not in battles.sides(battle) or [BYATIS, 0] not in battle.get("present", {}).get(seat, []):
            return
        if place_of(state, seat, BYATIS) is not None and battle["killed"].get(seat, 0) > 0:
            earn_book(state, seat, BYATIS, log)

    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        """Abhoth's Filth, and God of Forgetfulness: each Area next to Byatis where an enemy has a Cultist."""
        return self.filth_options(state, seat) + self.forget_options(state, seat)

    def forget_options(self, state: GameState, seat: int) -> list[BaseModel]:
        area = place_of(state, seat, BYATIS)
        if area is None or not has_book(state, seat, BYATIS) or state.seats[seat].power < FORGET_COST:
            return []
        return [GodOfForgetfulness(area=a) for a in adjacent_areas(state.layout_name, area)
                if self.enemy_cultists(state, seat, a)]  # fmt: skip

    def enemy_cultists(self, state: GameState, seat: int, area: str) -> list[tuple[int, str, int]]:
        """(seat, unit, index) of every enemy Cultist in ``area``."""
        found = []
        for other in board.enemies_in(state, seat, area):
            for kind in board.faction_of(state, other).cultists():
                found += [(other, kind, i) for i, p in enumerate(state.seats[other].units[kind]) if p == area]
        return found

    def action_cost(self, state: GameState, seat: int, action: BaseModel) -> int:
        if isinstance(action, PlaceFilth):
            return FILTH_COST
        return FORGET_COST if isinstance(action, GodOfForgetfulness) else 0

    def forget(self, state: GameState, seat: int, action: GodOfForgetfulness, log: list[str]) -> None:
        """1 Power; the Cultists come off any Gate they held."""
        fs = state.seats[seat]
        fs.power -= FORGET_COST
        target = place_of(state, seat, BYATIS)
        moved = self.enemy_cultists(state, seat, action.area)
        for other, kind, index in moved:
            board.place_figure(state, other, kind, index, target)
        log.append(f"God of Forgetfulness: {len(moved)} enemy Cultist{'s' if len(moved) != 1 else ''} go from "
                   f"{action.area} to Byatis in {target}.")

    # ---- Abhoth -------------------------------------------------------------------------------------------------
    def unit_combat(self, state: GameState, seat: int, unit: str, battle: dict, count: int) -> int | None:
        """Abhoth's Combat is the number of Filth in play (all his controller's: ownerless Filth exist only while he
        is not in play)."""
        if unit == NYOGTHA:
            return self.nyogtha_combat(state, seat, battle, count)
        if unit != ABHOTH:
            return None
        return count * sum(1 for p in state.seats[seat].units.get(FILTH, ()) if board.in_play(state, p))

    def summoned(self, unit: str) -> bool:
        """Filth is placed by Abhoth's Filth action, never Summoned at a Gate."""
        return unit != FILTH

    def unlimited(self, state: GameState, seat: int, kinds: frozenset[str]) -> frozenset[str]:
        """With unlimited Summons (Fertility Cult), placing Filth is unlimited too (official FAQ)."""
        return kinds | {"filth"} if "summon" in kinds and ABHOTH in state.seats[seat].units else kinds

    def filth_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """Filth: any Area of the map, with a Filth in the pool, Abhoth in play and 1 Power."""
        fs = state.seats[seat]
        if (place_of(state, seat, ABHOTH) is None or POOL not in fs.units.get(FILTH, ())
                or fs.power < FILTH_COST):
            return []
        return [PlaceFilth(area=a.id) for a in state.layout.areas]

    def place_filth(self, state: GameState, seat: int, action: PlaceFilth, log: list[str]) -> None:
        fs = state.seats[seat]
        fs.power -= FILTH_COST
        board.place_figure(state, seat, FILTH, fs.units[FILTH].index(POOL), action.area)
        log.append(f"Filth: {fs.faction} places a Filth token in {action.area}.")

    def brood_requirement(self, state: GameState, seat: int, unit: str, log: list[str]) -> None:
        """Abhoth's requirement: 4 different Monster types, or 8 Monsters, of the controller's in play (Filth counts;
        Terrors do not)."""
        if unit != ABHOTH or has_book(state, seat, ABHOTH):
            return
        fs = state.seats[seat]
        counts = [sum(1 for p in fs.units[k] if board.in_play(state, p))
                  for k in board.faction_of(state, seat).units_of("monster")]
        if sum(1 for n in counts if n) >= BROOD_TYPES or sum(counts) >= BROOD_MONSTERS:
            earn_book(state, seat, ABHOTH, log)

    def doom_gates(self, state: GameState, seat: int, count: int) -> int:
        """The Brood: in the Doom phase a Gate in an Area holding Filth gives no Doom, but to Abhoth's controller."""
        owner = holder(state, ABHOTH)
        if owner is None or owner == seat or not has_book(state, owner, ABHOTH):
            return count
        filthy = {p for p in state.seats[owner].units.get(FILTH, ()) if board.on_map(p)}
        return count - sum(1 for area in board.controlled_gates(state, seat) if area in filthy)

    # ---- Nyogtha ------------------------------------------------------------------------------------------------
    def nyogtha_combat(self, state: GameState, seat: int, battle: dict, count: int) -> int:
        """4 each when Nyogtha's faction declared the battle, 1 each otherwise."""
        return count * (NYOGTHA_ATTACKING if battle.get("attacker") == seat else NYOGTHA_DEFENDING)

    def free_move(self, state: GameState, seat: int, unit: str) -> bool:
        """From Below: once a Nyogtha figure has moved in this Move action, the other moves free."""
        turn = state.turn
        if unit != NYOGTHA or turn is None or not turn.moving or turn.seat != seat:
            return False
        moved = [i for k, i in turn.moved if k == NYOGTHA]
        return len(moved) == 1 and len(state.seats[seat].units.get(NYOGTHA, ())) > 1

    def after_action(self, state: GameState, seat: int, actor: int, log: list[str]) -> None:
        """From Below: after a Capture in a Nyogtha figure's Area, or a Battle declared there, the other figure may do
        the same in its own Area, free (asked once per action). When no From Below follows, the action's battles are
        over: Nightmare Web is settled."""
        if not self.offer_from_below(state, seat, actor):
            self.settle_web(state, seat, log)

    def offer_from_below(self, state: GameState, seat: int, actor: int) -> bool:
        """Queue the From Below decision when it applies (see :meth:`after_action`); True if queued."""
        turn = state.turn
        if actor != seat or turn is None or turn.last_action not in ("capture", "battle"):
            return False
        fs = state.seats[seat]
        if fs.flags.get("from-below") == turn.number:
            return False
        kind = turn.last_action
        area = (turn.battled[-1] if kind == "battle" else
                next(iter(turn.since_window[-1]["areas"]), None) if turn.since_window else None)
        if area is None or (kind == "battle" and fs.flags.get("nyogtha-battled") != [turn.number, area]):
            return False
        if kind == "capture" and NYOGTHA not in board.units_in(state, seat, area):
            return False
        data = {"kind": kind, "first": area}
        if not self.from_below_options(state, seat, data):
            return False
        fs.flags["from-below"] = turn.number
        state.pending.insert(0, Pending(seat, FROM_BELOW, data))
        return True

    def from_below_options(self, state: GameState, seat: int, data: dict) -> list[BaseModel]:
        """Where the other Nyogtha figure stands (not the first Area, nor one battled this turn): a Capture or a Battle
        against each enemy there, when it could be made (a Battle's Ice Age extra cost paid, but no Power)."""
        others = sorted({p for p in state.seats[seat].units.get(NYOGTHA, ()) if board.on_map(p)} - {data["first"]})
        found: list[BaseModel] = []
        taxed = turn_actions.taxes(state, seat)
        for area in others:
            for enemy in board.enemies_in(state, seat, area):
                name = state.seats[enemy].faction
                if data["kind"] == "capture" and turn_actions.can_capture(state, seat, area, enemy):
                    found.append(FromBelowCapture(area=area, enemy=name))
                elif (data["kind"] == "battle" and area not in state.turn.battled
                      and taxed.get(area, 0) <= state.seats[seat].power
                      and battles.can_battle(state, seat, area, enemy)):
                    found.append(FromBelowBattle(area=area, enemy=name))
        return found

    def decision_options(self, state: GameState, seat: int, kind: str, data: dict) -> list[BaseModel]:
        return self.from_below_options(state, seat, data) + [Done()]

    def from_below(self, state: GameState, seat: int, action: BaseModel, log: list[str]) -> None:
        """The free Capture or Battle (a Battle pays an Ice Age extra cost); then the after-action window again."""
        enemy = state.seat_of(action.enemy)  # type: ignore[attr-defined]
        area = action.area  # type: ignore[attr-defined]
        log.append(f"From Below: the other Nyogtha figure acts in {area} too, for no Power.")
        if isinstance(action, FromBelowCapture):
            kinds = [k for k in board.faction_of(state, enemy).cultists() if state.seats[enemy].count(k, area)]
            board.take_unit(state, enemy, area, kinds, "capture", seat, log)
        else:
            turn_actions.pay_tax(state, seat, turn_actions.taxes(state, seat).get(area, 0), log)
            state.turn.battled.append(area)
            battles.start_battle(state, seat, area, enemy, log)
        state.turn.last_action = action.kind  # type: ignore[attr-defined]
        state.turn.hooks_due = True

    def nyogtha_battle(self, state: GameState, seat: int, battle: dict, log: list[str]) -> None:
        """A battle this seat declared with a Nyogtha figure in it opens From Below. For Nightmare Web the battles of
        one action count together (the official FAQ's "battle Area(s)", and HRF): each is noted in ``flags[WEB]``
        (against an enemy Great Old One; a Nyogtha figure in it lost), and the book is settled when the action is over
        (:meth:`settle_web`), so a Nyogtha figure lost in the From Below battle takes back what the first earned."""
        present = [i for k, i in battle.get("present", {}).get(seat, []) if k == NYOGTHA]
        if not present:
            return
        if battle["attacker"] == seat and state.turn is not None:
            state.seats[seat].flags["nyogtha-battled"] = [state.turn.number, battle["area"]]
        enemy = battles.opponent(battle, seat)
        goos = board.faction_of(state, enemy).goos() if isinstance(enemy, int) else ()
        against_goo = any(k in goos for k, _ in battle["present"].get(enemy, []))
        survived = all(board.on_map(state.seats[seat].units[NYOGTHA][i]) for i in present)
        web = state.seats[seat].flags.setdefault(WEB, {"earned": False, "failed": False})
        web["earned"] = web["earned"] or against_goo
        web["failed"] = web["failed"] or not survived

    def settle_web(self, state: GameState, seat: int, log: list[str]) -> None:
        """The action's battles are over: Nightmare Web when one was against an enemy Great Old One and every Nyogtha
        figure in each of them survived (``cthulhu-wars/igoo-nyogtha``)."""
        web = state.seats[seat].flags.pop(WEB, None)
        if web and web["earned"] and not web["failed"]:
            earn_book(state, seat, NYOGTHA, log)

    # ---- Daoloth -----------------------------------------------------------------------------------------------
    def pre_battle_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        """Cosmic Unity, once per battle, with Daoloth in it: each enemy Great Old One type in the battle."""
        enemy = battles.opponent(battle, seat)
        if (not isinstance(enemy, int) or DAOLOTH not in board.in_battle(state, seat, battle)
                or f"cosmic-unity:{seat}" in battle.get("used", ())):
            return []
        theirs = board.in_battle(state, enemy, battle)
        return [CosmicUnity(unit=k) for k in board.faction_of(state, enemy).goos() if k in theirs]

    def cosmic_unity(self, state: GameState, seat: int, action: CosmicUnity, log: list[str]) -> None:
        battle = state.battle
        enemy = battles.opponent(battle, seat)
        battle.setdefault("used", []).append(f"cosmic-unity:{seat}")
        battle.setdefault("no_dice", {}).setdefault(enemy, []).append(action.unit)
        log.append(f"Cosmic Unity: {state.seats[enemy].faction}'s {unit_title(action.unit)} rolls no dice in this "
                   "battle.")

    def odds_note(self, state: GameState, seat: int, enemy: int, area: str) -> str:
        """Cosmic Unity may silence one enemy Great Old One's dice (the odds count them)."""
        if DAOLOTH not in board.units_in(state, seat, area):
            return ""
        goos = [k for k in board.faction_of(state, enemy).goos() if k in board.units_in(state, enemy, area)]
        if not goos:
            return ""
        return (f"Cosmic Unity: {state.seats[seat].faction}'s Daoloth may make one of {state.seats[enemy].faction}'s "
                f"Great Old Ones there ({', '.join(unit_title(g) for g in goos)}) roll no dice; the odds still count "
                "them.")

    # ---- both ----------------------------------------------------------------------------------------------------
    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str], data: dict | None = None) -> None:
        if isinstance(action, GodOfForgetfulness):
            self.forget(state, seat, action, log)
        elif isinstance(action, PlaceFilth):
            self.place_filth(state, seat, action, log)
        elif isinstance(action, FromBelowCapture | FromBelowBattle):
            self.from_below(state, seat, action, log)
        else:
            self.cosmic_unity(state, seat, action, log)  # type: ignore[arg-type]

    def notes(self, state: GameState, seat: int) -> list[str]:
        """The cards the seat holds: "great-cthulhu controls Byatis (Independent Great Old One; spellbook God of
        Forgetfulness on his card)"."""
        fs = state.seats[seat]
        notes = []
        for card in CARDS.values():
            if card.name in fs.units:
                book = (f"spellbook {card.book} on its card" if has_book(state, seat, card.name)
                        else f"spellbook {card.book} when {card.requirement}")
                tokens = (f"; {fs.units[card.tokens].count(POOL)} {unit_title(card.tokens)} in its pool"
                          if card.tokens else "")
                notes.append(f"{fs.faction} controls {card.unit.title} (Independent Great Old One; {book}{tokens}).")
        return notes

    def area_markers(self, state: GameState) -> dict[str, list[str]]:
        """Filth left without an owner when Abhoth died: "2 Filth (no owner)"."""
        places = state.pieces.get(OWNERLESS, [])
        return {a: [f"{places.count(a)} Filth (no owner)"] for a in sorted(set(places))}

    def why_not(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        unit = getattr(action, "unit", None)
        card = CARDS.get(unit) if action.kind == "awaken" else None  # type: ignore[attr-defined]
        if isinstance(action, GodOfForgetfulness):
            card = CARDS[BYATIS]
        elif isinstance(action, CosmicUnity):
            card = CARDS[DAOLOTH]
        if card is None and action.kind == "move" and unit in (BYATIS, FILTH):  # type: ignore[attr-defined]
            return f"{unit_title(unit)} never Moves"
        if action.kind == "summon" and unit == FILTH:  # type: ignore[attr-defined]
            return "Filth is not Summoned: place it with Abhoth's Filth action ('filth <area>', 1 Power, any Area)"
        if isinstance(action, PlaceFilth):
            card = CARDS[ABHOTH]
        if isinstance(action, FromBelowCapture | FromBelowBattle):
            card = CARDS[NYOGTHA]
        if card is None:
            return None
        if not getattr(state.options, card.option):
            return f"{card.unit.title} is not in this game (game option {card.option})"
        if isinstance(action, GodOfForgetfulness):
            return self.forget_refusal(state, seat, action)
        if isinstance(action, PlaceFilth):
            return self.filth_refusal(state, seat)
        if isinstance(action, FromBelowCapture | FromBelowBattle):
            pending = state.pending[0] if state.pending else None
            if pending is None or pending.kind != FROM_BELOW or pending.seat != seat:
                return ("From Below follows a Capture or Battle of yours in one Nyogtha figure's Area: the other figure "
                        "may then do the same in its Area, free, when asked")
            return "the other Nyogtha figure cannot do that there"
        if isinstance(action, CosmicUnity):
            return self.unity_refusal(state, seat)
        return self.awaken_refusal(state, seat, action, card)

    def awaken_refusal(self, state: GameState, seat: int, action: BaseModel, card: Independent) -> str | None:
        owner = holder(state, card.name)
        if owner is not None and owner != seat:
            return f"{state.seats[owner].faction} controls {card.unit.title}"
        places = state.seats[seat].units.get(card.name, ()) if owner == seat else ()
        if owner == seat and POOL not in places:
            return f"{card.unit.title} is already in play"
        if owner == seat and any(board.in_play(state, p) for p in places):
            return ("a Nyogtha figure in your pool comes back only by Nightmare Web (2 Power, in an Area with a unit of "
                    "yours), once it is on Nyogtha's card")
        if state.phase != "action" or state.turn is None or state.turn.seat != seat or state.pending:
            return None
        area = getattr(action, "area", "")
        if area not in awaken_areas(state, seat):
            return (f"an Independent Great Old One is Awakened at a Gate you control (held by a unit of yours: "
                    f"Yog-Sothoth alone is no controlled Gate) in an Area where you have a Great Old One; {area} is "
                    f"not one (you may: {', '.join(awaken_areas(state, seat)) or 'nowhere now'})")
        return None

    def forget_refusal(self, state: GameState, seat: int, action: GodOfForgetfulness) -> str | None:
        if BYATIS not in state.seats[seat].units:
            return "you do not control Byatis"
        if not has_book(state, seat, BYATIS):
            return f"God of Forgetfulness is not on Byatis' card yet (it comes when {CARDS[BYATIS].requirement})"
        area = place_of(state, seat, BYATIS)
        if area is None:
            return "Byatis is not on the map"
        if action.area not in adjacent_areas(state.layout_name, area):
            return f"{action.area} is not next to Byatis in {area}"
        if not self.enemy_cultists(state, seat, action.area):
            return f"no enemy Cultist is in {action.area}"
        return None

    def filth_refusal(self, state: GameState, seat: int) -> str | None:
        if ABHOTH not in state.seats[seat].units:
            return "you do not control Abhoth (Awaken him first)"
        if place_of(state, seat, ABHOTH) is None:
            return "Abhoth is not on the map"
        if POOL not in state.seats[seat].units[FILTH]:
            return "all 12 Filth are in play"
        return None

    def unity_refusal(self, state: GameState, seat: int) -> str | None:
        pending = state.pending[0] if state.pending else None
        if pending is None or pending.kind != "pre-battle" or pending.seat != seat:
            return "Cosmic Unity is a pre-battle ability: use it when asked before the dice of a battle Daoloth fights"
        if f"cosmic-unity:{seat}" in (state.battle or {}).get("used", ()):
            return "Cosmic Unity is used once per battle"
        return "Cosmic Unity picks an enemy Great Old One in the battle, with Daoloth in it"


RULE = IndependentGreatOldOnes()
