"""Notation (rules_text ``cthulhu-wars/notation``) and the faction framework (``cthulhu-wars/factions``)."""

from typing import Literal

import pytest

from tabletop.core.errors import MalformedMove
from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.actions import Action, Battle, Move, Offer, Recruit
from tabletop.games.cthulhu_wars.factions import FACTIONS, default_factions, register
from tabletop.games.cthulhu_wars.factions.base import Faction, Requirement, Spellbook, UnitType

from .cw_helpers import CC, GC, new_game, play, seat


@pytest.mark.parametrize(
    "action, text",
    [
        (Move(unit="acolyte", source="north-atlantic", target="europe"), "move acolyte north-atlantic>europe"),
        (Recruit(area="europe"), "recruit europe"),
        (Battle(area="europe", enemy=CC), f"battle europe vs {CC}"),
        (Offer(shares=((GC, 2), (CC, 1))), f"offer {GC}=2,{CC}=1"),
    ],
)
def test_notation_prints_and_parses_back(action, text):
    state = new_game(3)
    assert ENGINE.notation(action) == text
    assert ENGINE.parse(text, state, 0) == action


def test_parsing_forgives_area_and_faction_names():
    state = new_game(3)
    assert ENGINE.parse("battle North Atlantic vs crawling", state, 0) == Battle(area="north-atlantic", enemy=CC)
    assert ENGINE.parse("move deep-one South pacific > NP", state, 0).target == "north-pacific"


@pytest.mark.parametrize("text", ["fly acolyte europe", "gate atlantis", "battle europe vs nobody", "summon", ""])
def test_unreadable_moves_are_malformed(text):
    with pytest.raises(MalformedMove):
        ENGINE.parse(text, new_game(3), 0)


class Chant(Action):
    kind: Literal["test-chant"] = "test-chant"


class Chanters(Faction):
    """A faction written only in a test: one module, one registration."""

    name = "test-chanters"
    title = "Chanters"
    start_symbol = "sleeper"
    rules_section = "factions"
    units = (UnitType("acolyte", "Acolyte", 6, 1, 0, "cultist"), UnitType("idol", "Idol", 1, 4, 2, "goo"))
    requirements = tuple(Requirement(f"r{i}", "test") for i in range(6))
    spellbooks = tuple(Spellbook(f"b{i}", f"B{i}", "none", "test") for i in range(6))
    action_models = (Chant,)
    action_costs = {"test-chant": 1}

    def actions(self, state, seat):
        return [Chant()] if state.seats[seat].power >= 1 else []

    def apply_action(self, state, seat, action, log):
        state.seats[seat].power -= 1
        state.seats[seat].doom += 1
        log.append("The chanters chant.")


def test_a_new_faction_plugs_in_through_the_registry():
    register(Chanters())
    try:
        state = new_game(4, factions=[GC, CC, "black-goat", "test-chanters"])
        state.turn.seat = seat(state, "test-chanters")
        state, log = play(state, "test-chanters", "test-chant")
        assert state.seats[3].doom == 1 and "The chanters chant." in log
        defaults = default_factions(5)
        assert "test-chanters" in defaults, "a registered real faction is seated by default"
    finally:
        del FACTIONS["test-chanters"]
