"""The neutral spellbooks, a game option (rules_text ``cthulhu-wars/neutral-spellbooks`` and one section per book).

* The pool: with the option ``neutral_spellbooks`` on, a faction meeting a requirement may take any neutral book no
  faction holds instead of one of its own (``spellbook <book>``); it fills one of its six slots. Each book exists
  once: the pool is every book nobody holds, so a book leaving a faction (Recriminations) is back in it.
* Umr at-Tawil (ongoing): Build Gate costs its holder 2 Power instead of 3 (not a Cathedral).
* The Stars Are Right (Doom phase): a reveal of Elder Signs in the Doom phase also gives its holder Power equal to the
  Doom revealed, in its own Doom-phase decision or in a Doom-phase window.
* The Mao Ceremony (Gather Power): in the window at the end of Gather Power, after the Minimum Power Rule and before
  the First Player is determined, its holder may eliminate its own Cultists, one at a time, for 1 Power each: on the
  map (``mao-ceremony <unit> <area>``) or Submerged (``mao-ceremony <unit> submerged``; not with the option
  ``mao_ceremony_cultists`` "on-the-map").
* Shriveling (pre-battle, once per battle): an enemy Monster or Cultist in the battle is eliminated and its owner
  gains its current cost (``shriveling <unit> [from-gate]``).
* Recriminations (action, 1 Power): swap one held book for another available one (``recriminations <discard>
  <take>``).
* Undimensioned (action, 2 Power): rearrange your units among the Areas you occupy now (``undimensioned``, then
  ``rearrange <unit> <source>><target>`` per figure, then ``done``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import battle as battles
from tabletop.games.cthulhu_wars import board, phases, turn_actions
from tabletop.games.cthulhu_wars.actions import Action, Done, TakeSpellbook
from tabletop.games.cthulhu_wars.factions.base import Spellbook
from tabletop.games.cthulhu_wars.neutrals import registry
from tabletop.games.cthulhu_wars.neutrals.base import NeutralRule
from tabletop.games.cthulhu_wars.state import CARD, Pending
from tabletop.games.cthulhu_wars.words import unit_title

if TYPE_CHECKING:
    from tabletop.games.cthulhu_wars.state import GameState

MAO, STARS, UMR = "mao-ceremony", "stars-are-right", "umr-at-tawil"
SHRIVEL, RECRIM, UNDIM = "shriveling", "recriminations", "undimensioned"
UNDIM_DECISION = "ns-undimensioned"
GATHER = "gather"  # the window context at the end of Gather Power (windows.GATHER)
MAO_POWER = 1
UMR_DISCOUNT = 1
RECRIM_COST = 1
UNDIM_COST = 2

#: The neutral books built, in the order they are offered, and the rules section of each.
BOOKS: dict[str, Spellbook] = {
    b.name: b for b in (
        Spellbook(UMR, "Umr at-Tawil", "ongoing", "Build Gate costs you 2 Power instead of 3."),
        Spellbook(STARS, "The Stars Are Right", "doom",
                  "Revealing Elder Signs in the Doom phase also gives you Power equal to the Doom they give."),
        Spellbook(MAO, "The Mao Ceremony", "gather",
                  "At the end of Gather Power, after the Minimum Power Rule: eliminate any of your Cultists, 1 Power "
                  "each."),
        Spellbook(SHRIVEL, "Shriveling", "pre-battle",
                  "Eliminate an enemy Monster or Cultist in the battle; its owner gains Power equal to its cost."),
        Spellbook(RECRIM, "Recriminations", "action",
                  "1 Power: discard one of your spellbooks (this one too) and take another available one instead."),
        Spellbook(UNDIM, "Undimensioned", "action",
                  "2 Power: rearrange your units among the Areas you occupy now."),
    )
}  # fmt: skip
SECTIONS = {
    UMR: "neutral-umr-at-tawil", STARS: "neutral-stars-are-right", MAO: "neutral-mao-ceremony",
    SHRIVEL: "neutral-shriveling", RECRIM: "neutral-recriminations", UNDIM: "neutral-undimensioned",
}  # fmt: skip


class MaoCeremony(Action):
    """The Mao Ceremony: eliminate one of your Cultists of ``unit`` in ``area``, or a Submerged one (``submerged``),
    for 1 Power (end of Gather Power; rules_text ``cthulhu-wars/neutral-mao-ceremony``)."""

    kind: Literal["mao-ceremony"] = "mao-ceremony"
    unit: str
    area: str = ""
    submerged: bool = False


class Shrivel(Action):
    """Shriveling (pre-battle): eliminate an enemy Monster or Cultist of ``unit`` in the battle (the one on its Gate
    with ``from_gate``); its owner gains its cost (rules_text ``cthulhu-wars/neutral-shriveling``)."""

    kind: Literal["shriveling"] = "shriveling"
    unit: str
    from_gate: bool = False


class Recriminate(Action):
    """Recriminations (action, 1 Power): discard the spellbook ``discard`` of yours and take ``take``, one of your
    faction's books you do not hold or a neutral book in the pool (rules_text ``cthulhu-wars/neutral-recriminations``)."""

    kind: Literal["recriminations"] = "recriminations"
    discard: str
    take: str


class Undimension(Action):
    """Undimensioned (action, 2 Power): rearrange your units among the Areas you occupy now, moved one at a time in
    the decision that follows (rules_text ``cthulhu-wars/neutral-undimensioned``)."""

    kind: Literal["undimensioned"] = "undimensioned"


class Rearrange(Action):
    """Undimensioned: one of your figures of ``unit`` not yet rearranged goes from ``source`` to ``target``, both
    Areas you occupied when the action began."""

    kind: Literal["rearrange"] = "rearrange"
    unit: str
    source: str
    target: str


def holds(state: GameState, seat: int, book: str) -> bool:
    return book in state.seats[seat].spellbooks


def holder(state: GameState, book: str) -> int | None:
    """The seat holding ``book``, if any (each book exists once)."""
    return next((s for s, fs in enumerate(state.seats) if book in fs.spellbooks), None)


class NeutralSpellbooks(NeutralRule):
    """The neutral spellbooks' pool and the effects of the books built (``cthulhu-wars/neutral-spellbooks``)."""

    name, option, rules_section, title = "neutral-spellbooks", "neutral_spellbooks", "neutral-spellbooks", "Neutral spellbooks"
    action_models = (MaoCeremony, Shrivel, Recriminate, Undimension, Rearrange)
    rules_by_kind = {
        "mao-ceremony": SECTIONS[MAO], "shriveling": SECTIONS[SHRIVEL], "recriminations": SECTIONS[RECRIM],
        "undimensioned": SECTIONS[UNDIM], "rearrange": SECTIONS[UNDIM],
    }  # fmt: skip
    decisions = frozenset({UNDIM_DECISION})

    # ---- the pool ---------------------------------------------------------------------------------------------
    def section_of(self, action: BaseModel) -> str | None:
        """``spellbook <neutral book>`` cites the book's section."""
        name = getattr(action, "name", None) if action.kind == "spellbook" else None  # type: ignore[attr-defined]
        return SECTIONS.get(name) if isinstance(name, str) else None

    def spellbook_choices(self, state: GameState, seat: int) -> list[str]:
        """Every built book no faction holds (``cthulhu-wars/neutral-spellbooks``)."""
        return [b for b in BOOKS if holder(state, b) is None]

    # ---- Umr at-Tawil -----------------------------------------------------------------------------------------
    def gate_cost(self, state: GameState, seat: int, cost: int) -> int:
        """Umr at-Tawil: a Gate costs its holder 1 less (``cthulhu-wars/neutral-umr-at-tawil``)."""
        return cost - UMR_DISCOUNT if holds(state, seat, UMR) else cost

    # ---- The Stars Are Right -----------------------------------------------------------------------------------
    def after_reveal(self, state: GameState, seat: int, gained: int, log: list[str]) -> None:
        """The Stars Are Right: a reveal in the Doom phase also gives Power equal to the Doom
        (``cthulhu-wars/neutral-stars-are-right``)."""
        if state.phase == "doom" and gained and holds(state, seat, STARS):
            state.seats[seat].power += gained
            log.append(f"The Stars Are Right: {state.seats[seat].faction} also gains {gained} Power.")

    # ---- The Mao Ceremony --------------------------------------------------------------------------------------
    def window_options(self, state: GameState, seat: int, window: dict) -> list[BaseModel]:
        """At the end of Gather Power, one Cultist of each type in each Area the holder has one, and a Submerged one
        unless the option ``mao_ceremony_cultists`` keeps to the map (``cthulhu-wars/neutral-mao-ceremony``)."""
        if window["context"] != GATHER or not holds(state, seat, MAO):
            return []
        faction = board.faction_of(state, seat)
        fs = state.seats[seat]
        submerged = state.options.mao_ceremony_cultists == "in-play"
        options: list[BaseModel] = []
        for kind in faction.cultists():
            places = fs.units.get(kind, ())
            options += [MaoCeremony(unit=kind, area=a) for a in sorted({p for p in places if board.on_map(p)})]
            if submerged and CARD in places:
                options.append(MaoCeremony(unit=kind, submerged=True))
        return options

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str], data: dict | None = None) -> None:
        if isinstance(action, Shrivel):
            self.shrivel(state, seat, action, log)
        elif isinstance(action, Undimension):
            self.undimension(state, seat, log)
        elif isinstance(action, Rearrange):
            self.rearrange(state, seat, action, dict(data or {}), log)
        elif isinstance(action, Recriminate):
            self.recriminate(state, seat, action, log)
        else:
            self.mao(state, seat, action, log)  # type: ignore[arg-type]

    def mao(self, state: GameState, seat: int, action: MaoCeremony, log: list[str]) -> None:
        """Eliminate the Cultist (one not holding a Gate when there is such a one) and gain 1 Power."""
        fs = state.seats[seat]
        place = CARD if action.submerged else action.area
        index = fs.units[action.unit].index(CARD) if action.submerged else board.pick_figure(state, seat, action.unit, place)
        board.eliminate(state, seat, action.unit, index)
        fs.power += MAO_POWER
        where = "Submerged" if action.submerged else f"in {action.area}"
        log.append(f"The Mao Ceremony: {fs.faction} eliminates its {unit_title(action.unit)} {where} for "
                   f"{MAO_POWER} Power.")
        board.faction_of(state, seat).figure_left_by_choice(state, seat, action.unit, log)

    # ---- Shriveling --------------------------------------------------------------------------------------------
    def pre_battle_options(self, state: GameState, seat: int, battle: dict) -> list[BaseModel]:
        """Shriveling, once per battle for each side holding it with units in the battle, against a faction: each
        enemy Monster or Cultist type in the battle, off or on its Gate (never a Terror or a Great Old One;
        ``cthulhu-wars/neutral-shriveling``)."""
        enemy = battles.opponent(battle, seat)
        if (not holds(state, seat, SHRIVEL) or not isinstance(enemy, int) or seat in battle.get("shriveled", ())
                or not board.in_battle(state, seat, battle)):
            return []
        kinds = battles.enemy_losable(state, battle, seat)
        return [Shrivel(unit=o.unit, from_gate=o.from_gate)
                for o in board.loss_options(state, enemy, battle["area"], kinds, board.exempt_in(battle, enemy))]

    def odds_note(self, state: GameState, seat: int, enemy: int, area: str) -> str:
        """Shriveling may take one enemy Monster or Cultist out before the dice (the odds count it)."""
        if not holds(state, seat, SHRIVEL) or not board.units_in(state, seat, area):
            return ""
        theirs = board.faction_of(state, enemy).units_of("cultist", "monster")
        if not any(k in theirs for k in board.units_in(state, enemy, area)):
            return ""
        return (f"Shriveling: {state.seats[seat].faction} may eliminate one of {state.seats[enemy].faction}'s Monsters "
                f"or Cultists there before the dice (its owner gains its cost); the odds still count it.")

    def refund(self, state: GameState, owner: int, unit: str) -> int:
        """What a figure of ``unit`` costs its owner now: a Cultist its Recruit cost, a Monster what a Summon would
        cost (The Thousand Young, Gnoph-Keh left in the pool)."""
        faction = board.faction_of(state, owner)
        return faction.unit(unit).cost if faction.unit(unit).is_cultist else faction.summon_cost(state, owner, unit)

    def shrivel(self, state: GameState, seat: int, action: Shrivel, log: list[str]) -> None:
        battle = state.battle
        enemy = battles.opponent(battle, seat)
        battle.setdefault("shriveled", []).append(seat)
        power = self.refund(state, enemy, action.unit)
        index = board.pick_figure(state, enemy, action.unit, battle["area"], from_gate=action.from_gate,
                                  exclude=board.exempt_in(battle, enemy))
        board.eliminate(state, enemy, action.unit, index)
        state.seats[enemy].power += power
        log.append(f"Shriveling: {state.seats[seat].faction} eliminates {state.seats[enemy].faction}'s "
                   f"{unit_title(action.unit)}; {state.seats[enemy].faction} gains {power} Power.")

    # ---- Recriminations ----------------------------------------------------------------------------------------
    def available(self, state: GameState, seat: int) -> list[str]:
        """Books ``seat`` may take: its faction's own it does not hold, then the neutral books in the pool."""
        return phases.remaining_spellbooks(state, seat)

    def actions(self, state: GameState, seat: int) -> list[BaseModel]:
        """Recriminations: each book held to discard, each other available book to take (``take`` is never the
        book discarded; ``cthulhu-wars/neutral-recriminations``). Undimensioned, with units in two Areas or more
        (``cthulhu-wars/neutral-undimensioned``)."""
        fs = state.seats[seat]
        options: list[BaseModel] = []
        if holds(state, seat, RECRIM) and fs.power >= RECRIM_COST:
            takes = self.available(state, seat)
            options += [Recriminate(discard=d, take=t) for d in fs.spellbooks for t in takes]
        if holds(state, seat, UNDIM) and fs.power >= UNDIM_COST and len(board.occupied_areas(state, seat)) > 1:
            options.append(Undimension())
        return options

    def action_cost(self, state: GameState, seat: int, action: BaseModel) -> int:
        if isinstance(action, Undimension):
            return UNDIM_COST
        return RECRIM_COST if isinstance(action, Recriminate) else 0

    def recriminate(self, state: GameState, seat: int, action: Recriminate, log: list[str]) -> None:
        """The new book takes the discarded one's slot; a discarded neutral book is back in the pool for anyone,
        a discarded faction book may be taken again later. Once-only books stay spent (their flags remain)."""
        fs = state.seats[seat]
        fs.power -= RECRIM_COST
        fs.spellbooks[fs.spellbooks.index(action.discard)] = action.take
        log.append(f"Recriminations: {fs.faction} discards {book_title(state, seat, action.discard)} and takes "
                   f"{book_title(state, seat, action.take)}.")

    # ---- Undimensioned ----------------------------------------------------------------------------------------
    def undimension(self, state: GameState, seat: int, log: list[str]) -> None:
        """Pay 2 Power; the Areas occupied now are fixed as the only destinations."""
        fs = state.seats[seat]
        fs.power -= UNDIM_COST
        areas = sorted(board.occupied_areas(state, seat))
        log.append(f"Undimensioned: {fs.faction} rearranges its units among {', '.join(areas)}.")
        self.ask_rearrange(state, seat, {"areas": areas, "moved": [], "paid": []})

    def ask_rearrange(self, state: GameState, seat: int, data: dict) -> None:
        if self.rearrange_options(state, seat, data):
            state.pending.insert(0, Pending(seat, UNDIM_DECISION, data))

    def rearrange_options(self, state: GameState, seat: int, data: dict) -> list[BaseModel]:
        """Each unit type of figures not yet rearranged, from each of the fixed Areas to each other one whose Ice Age
        extra cost (once per Area) the seat can still pay."""
        fs = state.seats[seat]
        moved = {(k, i) for k, i in data["moved"]}
        taxed = self.undim_taxes(state, seat)
        targets = [a for a in data["areas"] if a in data["paid"] or taxed.get(a, 0) <= fs.power]
        found: set[tuple[str, str]] = set()
        for kind, places in fs.units.items():
            if registry.immovable(state, seat, kind):  # Byatis (cthulhu-wars/igoo-byatis)
                continue
            for i, place in enumerate(places):
                if place in data["areas"] and (kind, i) not in moved:
                    found.add((kind, place))
        return [Rearrange(unit=k, source=src, target=t) for k, src in sorted(found) for t in targets if t != src]

    def undim_taxes(self, state: GameState, seat: int) -> dict[str, int]:
        """Enemy Ice Age extra costs per Area (``cthulhu-wars/windwalker-ice-age``), unless the option
        ``undimensioned_ice_age`` is off (ruling ``undimensioned-ice-age``)."""
        return turn_actions.taxes(state, seat) if state.options.undimensioned_ice_age else {}

    def decision_options(self, state: GameState, seat: int, kind: str, data: dict) -> list[BaseModel]:
        return self.rearrange_options(state, seat, data) + [Done()]

    def rearrange(self, state: GameState, seat: int, action: Rearrange, data: dict, log: list[str]) -> None:
        """Move one figure (one off its Gate first); an Ice Age extra cost is paid when the first figure arrives in
        an Area (``cthulhu-wars/windwalker-ice-age``)."""
        fs = state.seats[seat]
        moved = [list(m) for m in data["moved"]]
        index = board.pick_figure(state, seat, action.unit, action.source, exclude=tuple((k, i) for k, i in moved))
        paid = list(data["paid"])
        if action.target not in paid:
            paid.append(action.target)
            turn_actions.pay_tax(state, seat, self.undim_taxes(state, seat).get(action.target, 0), log)
        board.place_figure(state, seat, action.unit, index, action.target)
        moved.append([action.unit, index])
        log.append(f"Undimensioned: {fs.faction}'s {unit_title(action.unit)} goes from {action.source} to "
                   f"{action.target}.")
        self.ask_rearrange(state, seat, {"areas": data["areas"], "moved": moved, "paid": paid})

    def why_not(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        reason = super().why_not(state, seat, action)
        if isinstance(action, TakeSpellbook):
            return reason or self.pool_refusal(state, seat, action)
        if isinstance(action, Undimension | Rearrange):
            return reason or self.undim_refusal(state, seat, action)
        if reason or isinstance(action, Recriminate | Shrivel):
            return reason or self.refusal(state, seat, action)
        if not isinstance(action, MaoCeremony):
            return reason
        if not holds(state, seat, MAO):
            return "you do not hold The Mao Ceremony"
        pending = state.pending[0] if state.pending else None
        if pending is None or pending.kind != "window" or pending.data.get("context") != GATHER:
            return "The Mao Ceremony is used at the end of Gather Power, after the Minimum Power Rule"
        if action.unit not in board.faction_of(state, seat).cultists():
            return f"{action.unit} is not one of your Cultists"
        if action.submerged and state.options.mao_ceremony_cultists != "in-play":
            return "only Cultists on the map may go in this game (option mao_ceremony_cultists)"
        place = CARD if action.submerged else action.area
        if place not in state.seats[seat].units.get(action.unit, ()):
            where = "Submerged" if action.submerged else f"in {action.area or 'that Area'}"
            return f"you have no {unit_title(action.unit)} {where}"
        return None


    def refusal(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        """The book's own reasons for refusing Shriveling or Recriminations; None leaves it to the general ones."""
        if isinstance(action, Shrivel):
            if not holds(state, seat, SHRIVEL):
                return "you do not hold Shriveling"
            pending = state.pending[0] if state.pending else None
            if pending is None or pending.kind != "pre-battle" or pending.seat != seat:
                return "Shriveling is a pre-battle ability: use it when asked before the dice of a battle you fight"
            if seat in (state.battle or {}).get("shriveled", ()):
                return "Shriveling is used once per battle"
            return "Shriveling takes an enemy Monster or Cultist in the battle (never a Terror or a Great Old One)"
        assert isinstance(action, Recriminate)
        fs = state.seats[seat]
        if not holds(state, seat, RECRIM):
            return "you do not hold Recriminations"
        if action.discard not in fs.spellbooks:
            return f"you hold no spellbook {action.discard!r} to discard"
        if action.take == action.discard or action.take in fs.spellbooks:
            return f"you already hold {action.take!r}; take another book"
        if action.take not in self.available(state, seat):
            owner = holder(state, action.take)
            return (f"{state.seats[owner].faction} holds {action.take!r}" if owner is not None
                    else f"{action.take!r} is neither one of your faction's books nor a neutral book in this game")
        return None


    def pool_refusal(self, state: GameState, seat: int, action: TakeSpellbook) -> str | None:
        """A neutral book another faction holds (each exists once), or one the seat holds already."""
        owner = holder(state, action.name)
        if owner == seat:
            return f"you already hold {BOOKS[action.name].title}"
        if owner is not None:
            return f"{state.seats[owner].faction} holds {BOOKS[action.name].title}; each neutral book exists once"
        return None

    def undim_refusal(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        if not holds(state, seat, UNDIM) and isinstance(action, Undimension):
            return "you do not hold Undimensioned"
        if isinstance(action, Rearrange):
            pending = state.pending[0] if state.pending else None
            if pending is None or pending.kind != UNDIM_DECISION or pending.seat != seat:
                return "rearrange answers Undimensioned: use 'undimensioned' (2 Power) as your action first"
            if action.source not in pending.data["areas"] or action.target not in pending.data["areas"]:
                return f"Undimensioned moves units only among {', '.join(pending.data['areas'])}"
            return "that figure has already been rearranged, or is not there"
        if state.phase == "action" and len(board.occupied_areas(state, seat)) < 2:
            return "Undimensioned needs your units in two Areas or more"
        return None


def book_title(state: GameState, seat: int, book: str) -> str:
    """A book's title: a neutral one's, else its faction's."""
    if book in BOOKS:
        return BOOKS[book].title
    return next((b.title for b in board.faction_of(state, seat).spellbooks if b.name == book), book)


RULE = NeutralSpellbooks()
if RULE not in registry.RULES:
    registry.register(RULE)
