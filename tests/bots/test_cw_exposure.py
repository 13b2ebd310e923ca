"""Cthulhu Wars evaluation: which Cultists count as open to capture (``bots/cthulhu_wars/evaluation.py``, the
exposure term; rules ``cthulhu-wars/actions``, Capture Cultist). A Great Old One captures past the victim's Monsters,
and only the victim's own Great Old One stops it; a Monster captures only where the victim has no Monster or Great
Old One. The rusher (issue 41) takes Gates this way: Monsters beside the Cultists did not make them safe."""

from __future__ import annotations

from tabletop.bots.cthulhu_wars import evaluation as ev

from cthulhu_wars.cw_helpers import CC, YS, clear, give_turn, new_game, put

W = ev.DEFAULT


def asia_with(*enemy: str, ours: tuple[str, ...] = ("hunting-horror",), area: str = "asia"):
    """Crawling Chaos's six Acolytes and its Gate in Asia with ``ours`` beside them, the Yellow Sign's ``enemy``
    figures in ``area`` and no other figure of the Yellow Sign's near (its start in Europe, next to Asia, cleared);
    Crawling Chaos to act."""
    state = new_game(4)
    clear(state, YS, "europe")
    for kind in ours:
        put(state, CC, kind, "asia")
    for kind in enemy:
        put(state, YS, kind, area)
    give_turn(state, CC, power=3)
    return state


def exposure(state) -> float:
    return ev.evaluate(state, state.seat_of(CC)).mine.exposure


def test_an_enemy_great_old_one_threatens_cultists_whatever_monsters_guard_them():
    assert exposure(asia_with("king-in-yellow")) == -W.exposed_here * 6
    assert exposure(asia_with("king-in-yellow", area="europe")) == -W.exposed_near * 6  # one Move away


def test_an_enemy_monster_does_not_threaten_cultists_a_monster_guards():
    assert exposure(asia_with("undead")) == 0.0
    assert exposure(asia_with("undead", area="europe")) == 0.0
    assert exposure(asia_with("undead", ours=())) == -W.exposed_here * 6  # nothing of ours with them


def test_our_own_great_old_one_guards_cultists_against_an_enemy_one():
    assert exposure(asia_with("king-in-yellow", ours=("nyarlathotep",))) == 0.0
    assert exposure(asia_with("king-in-yellow", area="europe", ours=("nyarlathotep",))) == 0.0
