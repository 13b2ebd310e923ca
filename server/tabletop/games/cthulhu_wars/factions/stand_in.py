"""Stand-in factions (rules_text ``cthulhu-wars/factions``): printed unit statistics only.

Until the Crawling Chaos, Black Goat and Yellow Sign modules land, these let 3-, 4- and
5-player games be played and tested. Each carries its namesake's printed units (a
variable Combat is fixed at the value given here), no unique ability, and six plain
requirements that each earn a blank spellbook. :func:`~.default_factions` skips a
stand-in once a real faction with its start symbol is registered.
"""

from __future__ import annotations

from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType
from tabletop.games.cthulhu_wars.maps import FactionSymbol
from tabletop.games.cthulhu_wars.state import POOL, GameState

ACOLYTE = UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist")
REQUIREMENTS = (
    Requirement("units-in-4-areas", "Have units in 4 areas."),
    Requirement("units-in-6-areas", "Have units in 6 areas."),
    Requirement("control-2-gates", "Control 2 Gates."),
    Requirement("control-3-gates", "Control 3 Gates."),
    Requirement("awaken", "Awaken your Great Old One."),
    Requirement("doom-10", "Reach 10 Doom."),
)
SPELLBOOKS = tuple(Spellbook(f"tome-{n}", f"Tome {n}", "none", "No effect.") for n in range(1, 7))


class StandIn(Faction):
    """A faction with units and plain requirements only."""

    rules_section = "factions"
    requirements = REQUIREMENTS
    spellbooks = SPELLBOOKS
    stand_in = True

    def __init__(self, name: str, title: str, symbol: FactionSymbol, units: tuple[UnitType, ...]) -> None:
        self.name, self.title, self.start_symbol, self.units = name, title, symbol, (ACOLYTE,) + units

    def awaken_options(self, state: GameState, seat: int) -> list[tuple[str, str, int]]:
        """The Great Old One appears at a Gate you control for its printed cost."""
        goo = self.unit(self.goos()[0])
        if POOL not in state.seats[seat].units[goo.name]:
            return []
        return [(goo.name, area, goo.cost) for area in sorted(board.controlled_gates(state, seat))]

    def on_awaken(self, state: GameState, seat: int, unit: str, area: str, log: list[str]) -> None:
        state.seats[seat].flags["awakened"] = True

    def met_requirements(self, state: GameState, seat: int) -> list[str]:
        fs = state.seats[seat]
        areas = len(board.occupied_areas(state, seat))
        gates = len(board.controlled_gates(state, seat))
        checks = {
            "units-in-4-areas": areas >= 4, "units-in-6-areas": areas >= 6,
            "control-2-gates": gates >= 2, "control-3-gates": gates >= 3,
            "awaken": bool(fs.flags.get("awakened")), "doom-10": fs.doom >= 10,
        }  # fmt: skip
        return [name for name, ok in checks.items() if ok and name not in fs.requirements]


def _units(*specs: tuple[str, str, int, int, int, str]) -> tuple[UnitType, ...]:
    return tuple(UnitType(*spec) for spec in specs)


FACTIONS = (
    StandIn("stand-in-crawling-chaos", "Stand-in Crawling Chaos", "crawling-chaos", _units(
        ("nightgaunt", "Nightgaunt", 3, 1, 0, "monster"), ("flying-polyp", "Flying Polyp", 3, 2, 1, "monster"),
        ("hunting-horror", "Hunting Horror", 2, 3, 2, "monster"), ("nyarlathotep", "Nyarlathotep", 1, 10, 4, "goo"))),
    StandIn("stand-in-black-goat", "Stand-in Black Goat", "black-goat", _units(
        ("ghoul", "Ghoul", 2, 1, 0, "monster"), ("fungi", "Fungi from Yuggoth", 4, 2, 1, "monster"),
        ("dark-young", "Dark Young", 3, 3, 2, "monster"), ("shub-niggurath", "Shub-Niggurath", 1, 8, 4, "goo"))),
    StandIn("stand-in-yellow-sign", "Stand-in Yellow Sign", "yellow-sign", _units(
        ("undead", "Undead", 6, 1, 1, "monster"), ("byakhee", "Byakhee", 4, 2, 1, "monster"),
        ("hastur", "Hastur", 1, 10, 4, "goo"))),
    StandIn("stand-in-sleeper", "Stand-in Sleeper", "sleeper", _units(
        ("wizard", "Wizard", 2, 1, 0, "monster"), ("serpent-man", "Serpent Man", 3, 2, 1, "monster"),
        ("formless-spawn", "Formless Spawn", 4, 3, 2, "monster"), ("tsathoggua", "Tsathoggua", 1, 8, 4, "goo"))),
)  # fmt: skip
