"""High Priests, a game option (rules_text ``cthulhu-wars/high-priests``).

* Each faction has one High Priest in its pool from set-up: a Cultist (role ``cultist``), so it is Recruited like
  any Cultist for its cost, 3 Power, gives 1 Power at Gather Power, builds and controls Gates, can be captured, and
  counts for every rule that says Cultist but for none that says Acolyte.
* Unspeakable Oath (``oath``): its owner sacrifices it, back to the pool, for 2 Power. Asked after any faction's
  action (the out-of-turn window, the acting faction included), at Gather Power (a window before the First Player is
  determined) and in the Doom phase (in the seat's own Doom-phase decision and the windows after each decision).
  The Doom phase only with the option ``high_priest_oath_in_doom_phase`` (default on; ruling
  ``high-priest-oath-timing``). A High Priest on the map is sacrificed, and one Submerged with Cthulhu only with the
  option ``high_priest_oath_when_submerged`` (ruling ``high-priest-submerged``). One held in Cursed Slumber is
  sacrificed too (official FAQ): the Sleeper's faction then Abandons the Gate on its card (``figure_left_by_choice``;
  option ``high_priest_slumber_gate``, ruling ``high-priest-slumber``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.actions import Action
from tabletop.games.cthulhu_wars.neutrals.base import NeutralRule
from tabletop.games.cthulhu_wars.neutrals.units import HIGH_PRIEST, UNIT_TYPES
from tabletop.games.cthulhu_wars.state import CARD, HELD, POOL

if TYPE_CHECKING:
    from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
    from tabletop.games.cthulhu_wars.state import GameState

OATH_POWER = 2


class UnspeakableOath(Action):
    """Sacrifice your High Priest on the map (back to your pool) for 2 Power (rules_text ``cthulhu-wars/high-priests``)."""

    kind: Literal["oath"] = "oath"


OATH = UnspeakableOath()


class HighPriests(NeutralRule):
    """One High Priest per faction and its Unspeakable Oath (``cthulhu-wars/high-priests``)."""

    name, option, rules_section, title = "high-priests", "high_priests", "high-priests", "High Priests"
    units = (UNIT_TYPES[HIGH_PRIEST],)
    action_models = (UnspeakableOath,)

    def starting_units(self, options: CthulhuWarsOptions) -> dict[str, list[str]]:
        return {HIGH_PRIEST: [POOL] * UNIT_TYPES[HIGH_PRIEST].count}

    def sacrificable(self, state: GameState, seat: int) -> int | None:
        """The index of the seat's High Priest if the Oath may take it: on the map, on a Gate in Cursed Slumber, or
        Submerged with the option ``high_priest_oath_when_submerged``."""
        places = state.seats[seat].units.get(HIGH_PRIEST, ())
        submerged = state.options.high_priest_oath_when_submerged
        return next((i for i, p in enumerate(places)
                     if not p.startswith("@") or p == HELD or (submerged and p == CARD)), None)  # fmt: skip

    def window_options(self, state: GameState, seat: int, window: dict) -> list[BaseModel]:
        """After any action, at Gather Power and (option) in the Doom phase."""
        if window["context"] == "doom" and not state.options.high_priest_oath_in_doom_phase:
            return []
        return [OATH] if self.sacrificable(state, seat) is not None else []

    def doom_options(self, state: GameState, seat: int) -> list[BaseModel]:
        """In the seat's own Doom-phase decision too (before a Ritual it could not pay otherwise), with the option."""
        if not state.options.high_priest_oath_in_doom_phase:
            return []
        return [OATH] if self.sacrificable(state, seat) is not None else []

    def apply_action(self, state: GameState, seat: int, action: BaseModel, log: list[str], data: dict | None = None) -> None:
        """Back to the pool (a Gate it controlled is Abandoned), +2 Power; the faction hears that one of its figures
        left by its own choice (Passion counts only losses to enemies; a Gate in Cursed Slumber is Abandoned)."""
        index = self.sacrificable(state, seat)
        fs = state.seats[seat]
        area = fs.units[HIGH_PRIEST][index]
        board.place_figure(state, seat, HIGH_PRIEST, index, POOL)
        fs.power += OATH_POWER
        where = {CARD: "Submerged", HELD: "in Cursed Slumber"}.get(area, f"in {area}")
        log.append(f"Unspeakable Oath: {fs.faction} sacrifices its High Priest {where} for {OATH_POWER} Power.")
        board.faction_of(state, seat).figure_left_by_choice(state, seat, HIGH_PRIEST, log)

    def why_not(self, state: GameState, seat: int, action: BaseModel) -> str | None:
        reason = super().why_not(state, seat, action)
        if reason or action.kind != "oath":  # type: ignore[attr-defined]
            return reason
        place = next(iter(state.seats[seat].units.get(HIGH_PRIEST, ())), POOL)
        if place == CARD and not state.options.high_priest_oath_when_submerged:
            return "your High Priest is Submerged (game option high_priest_oath_when_submerged allows the Oath there)"
        if self.sacrificable(state, seat) is None:
            return "your High Priest is not on the map (Recruit it first: 'recruit high-priest <area>', 3 Power)"
        if state.phase == "doom" and not state.options.high_priest_oath_in_doom_phase:
            return "the Oath is not sworn in the Doom phase in this game (option high_priest_oath_in_doom_phase)"
        return None


RULE = HighPriests()
