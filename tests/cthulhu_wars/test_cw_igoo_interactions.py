"""Where factions' abilities meet the neutral material (Independent Great Old Ones) and each other: the Sleeper's
borrowed Dematerialization and Immortal, The Beyond One carrying an Independent Great Old One, and Howl and
Dematerialization never offered when only Byatis could go (rules_text ``cthulhu-wars/sleeper-ancient-sorcery``,
``opener-of-the-way``, ``windwalker-howl``, ``ancients``, ``igoo-byatis``), written from the fact sheets."""

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.phases import start_doom_phase
from tabletop.games.cthulhu_wars.state import HELD, POOL, Pending

from .cw_helpers import BG, GC, OW, SL, WW, ScriptedDice, clear, give_turn, play, put, seat, seated, texts

AN = "ancients"
SL_HOME = "north-america"  # the Sleeper symbol on the 3-player map
AN_HOME = "australia"
EVERY_IGOO = {"igoo_byatis": True, "igoo_daoloth": True, "igoo_abhoth": True, "igoo_nyogtha": True}
FIGURES = {"byatis": 1, "daoloth": 1, "abhoth": 1, "nyogtha": 2}


def hold(state, faction, unit, area):
    """``faction`` holds the card of ``unit`` with every figure in ``area`` (test set-up)."""
    s = seat(state, faction)
    state.seats[s].units[unit] = [area] * FIGURES[unit]
    if unit == "abhoth":
        state.seats[s].units["filth"] = [POOL] * 12
    state.seats[s].flags.setdefault("igoo-at", {})[unit] = area
    return s


def doom_turn(state, faction):
    """``faction``'s Doom-phase decision, a Doom phase under way."""
    s = seat(state, faction)
    state.phase, state.turn = "doom", None
    state.doom_phases = max(state.doom_phases, 1)
    state.pending = [Pending(s, "ritual")]
    state.seats[s].power = 0
    return state


# ---- 1. The Sleeper borrows Dematerialization -----------------------------------------------------------------
def sorcery_on_the_ancients():
    """The Sleeper puts a Serpent Man on The Ancients' card in the Action phase."""
    state = seated([GC, SL, AN], starts={AN: AN_HOME})
    sl = seat(state, SL)
    state.seats[sl].spellbooks = ["ancient-sorcery"]
    put(state, SL, "serpent-man", SL_HOME)
    give_turn(state, SL, power=3)
    assert f"sl-ancient-sorcery {SL_HOME} vs {AN}" in texts(state, SL), "The Ancients' card may be chosen"
    state, log = play(state, SL, f"sl-ancient-sorcery {SL_HOME} vs {AN}")
    assert state.seats[sl].units["serpent-man"][0] == HELD and any("Dematerialization" in line for line in log)
    return state, sl


def test_a_sleeper_borrowing_dematerialization_uses_it_in_the_next_doom_phase_once():
    """Facts: Ancient Sorcery on The Ancients borrows Dematerialization; the borrow lasts until the end of the next
    Doom phase (official card; HRF clears borrowed abilities at the end of the Doom phase)."""
    state, sl = sorcery_on_the_ancients()
    give_turn(state, SL, power=2)
    assert not any(t.startswith("an-dematerialize") for t in texts(state, SL)), "a Doom-phase ability only"
    start_doom_phase(state, [])
    state, _ = play(state, SL, "sl-sorcery-return asia")
    assert state.seats[sl].units["serpent-man"][0] == "asia"
    doom_turn(state, SL)
    assert f"an-dematerialize {SL_HOME}" in texts(state, SL) and "an-dematerialize asia" in texts(state, SL)
    state, log = play(state, SL, f"an-dematerialize {SL_HOME}")
    assert any(f"{SL}'s units in {SL_HOME}" in line for line in log)
    state, _ = play(state, SL, "an-demat-to europe")
    assert "done" not in texts(state, SL), "at least one figure goes"
    state, _ = play(state, SL, "an-demat-unit acolyte from-gate")
    state, _ = play(state, SL, "an-demat-unit acolyte")
    state, _ = play(state, SL, "done")
    fs = state.seats[sl]
    assert fs.units["acolyte"].count("europe") == 2 and state.controller(SL_HOME) is None, "it left its Gate"
    assert state.pending[0].kind == "ritual" and state.pending[0].seat == sl, "the Doom-phase turn goes on"
    assert not any(t.startswith("an-dematerialize") for t in texts(state, SL)), "once per Doom phase"
    state.doom_phases += 1
    assert not any(t.startswith("an-dematerialize") for t in texts(state, SL)), "the borrow ended with that Doom phase"


def test_a_sleeper_that_borrowed_something_else_has_no_dematerialization():
    state = seated([GC, SL, AN], starts={AN: AN_HOME})
    sl = seat(state, SL)
    state.seats[sl].flags["borrowed"] = [GC]
    start_doom_phase(state, [])
    doom_turn(state, SL)
    assert not any(t.startswith("an-dematerialize") for t in texts(state, SL))
    with pytest.raises(IllegalMove):
        play(state, SL, f"an-dematerialize {SL_HOME}")


# ---- 2. A borrowed Immortal and the Independent Great Old Ones -----------------------------------------------
def sleeper_at_home_with_tsathoggua(borrowed, power=4):
    state = seated([GC, SL, BG], **EVERY_IGOO)
    sl = seat(state, SL)
    put(state, SL, "tsathoggua", SL_HOME)
    state.seats[sl].flags["borrowed"] = list(borrowed)
    give_turn(state, SL, power=power)
    return state, sl


@pytest.mark.parametrize("borrowed,signs", [([GC], 1), ([BG], 0), ([], 0)])
def test_a_borrowed_immortal_gives_an_elder_sign_for_awakening_an_independent_great_old_one(borrowed, signs):
    """Facts: Immortal gives 1 Elder Sign for Awakening any Great Old One, Independent ones included; a Sleeper
    borrowing Immortal has it as Great Cthulhu does."""
    state, sl = sleeper_at_home_with_tsathoggua(borrowed)
    state, log = play(state, SL, f"awaken byatis {SL_HOME}")
    assert state.seats[sl].units["byatis"] == [SL_HOME]
    assert len(state.seats[sl].elder_signs) == signs
    assert any("Immortal (borrowed)" in line for line in log) is bool(signs)


def test_a_borrowed_immortal_gives_nothing_for_a_nyogtha_figure_brought_back_by_nightmare_web():
    """Facts: no Elder Sign from Immortal for re-Awakening a single Nyogtha unit."""
    state, sl = sleeper_at_home_with_tsathoggua([GC], power=2)
    hold(state, SL, "nyogtha", "europe")
    state.seats[sl].units["nyogtha"][1] = POOL
    state.seats[sl].flags["igoo-books"] = ["nyogtha"]
    state, _ = play(state, SL, f"awaken nyogtha {SL_HOME}")
    assert sorted(state.seats[sl].units["nyogtha"]) == sorted(["europe", SL_HOME])
    assert state.seats[sl].elder_signs == []


# ---- 3. The Beyond One carries an Independent Great Old One -----------------------------------------------------
def opener_game():
    state = seated([GC, BG, OW], starts={OW: "europe"}, **EVERY_IGOO)
    give_turn(state, OW, power=3)
    return state, seat(state, OW)


@pytest.mark.parametrize("unit", ["daoloth", "abhoth", "nyogtha"])
def test_the_beyond_one_carries_a_gate_with_an_independent_great_old_one(unit):
    """Facts: The Beyond One moves a Gate with one of your units costing 3 or more; an Independent Great Old One is
    yours and costs its Awaken cost (4 or 6). One Nyogtha figure goes alone (From Below pairs Common Actions)."""
    state, ow = opener_game()
    hold(state, OW, unit, "europe")
    assert f"ow-beyond-one {unit} europe>asia" in texts(state, OW)
    state, _ = play(state, OW, f"ow-beyond-one {unit} europe>asia")
    fs = state.seats[ow]
    assert fs.units[unit].count("asia") == 1 and state.controller("asia") == ow and "europe" not in state.gates
    assert fs.units[unit].count("europe") == FIGURES[unit] - 1
    assert fs.power == 2


def test_byatis_carries_no_gate_and_the_refusal_says_why():
    """Facts: Byatis may not Move and no movement ability moves him, the Beyond One carrier included."""
    state, ow = opener_game()
    hold(state, OW, "byatis", "europe")
    assert not any(t.startswith("ow-beyond-one byatis") for t in texts(state, OW))
    with pytest.raises(IllegalMove) as err:
        play(state, OW, "ow-beyond-one byatis europe>asia")
    assert "Byatis never moves" in str(err.value)
    with pytest.raises(IllegalMove) as err:
        play(state, OW, "ow-beyond-one acolyte europe>asia")
    assert "costing 3 or more" in str(err.value)


def test_an_enemy_independent_great_old_one_cancels_the_beyond_one_there():
    """Facts: an Independent Great Old One cancels an enemy's Beyond One."""
    state, ow = opener_game()
    put(state, OW, "abomination", "europe")
    assert "ow-beyond-one abomination europe>asia" in texts(state, OW)
    hold(state, GC, "byatis", "europe")
    assert not any(t.startswith("ow-beyond-one") for t in texts(state, OW))


def test_a_sleeper_borrowing_the_beyond_one_carries_a_gate_with_its_independent_great_old_one():
    state = seated([GC, SL, OW], starts={OW: "europe"}, **EVERY_IGOO)
    sl = seat(state, SL)
    state.seats[sl].flags["borrowed"] = [OW]
    hold(state, SL, "abhoth", SL_HOME)
    hold(state, SL, "byatis", SL_HOME)
    give_turn(state, SL, power=1)
    options = texts(state, SL)
    assert f"ow-beyond-one abhoth {SL_HOME}>asia" in options
    assert not any(t.startswith("ow-beyond-one byatis") for t in options)
    state, _ = play(state, SL, f"ow-beyond-one abhoth {SL_HOME}>asia")
    assert state.seats[sl].units["abhoth"] == ["asia"] and state.controller("asia") == sl
    assert state.seats[sl].units["byatis"] == [SL_HOME]


# ---- 4. Howl and Dematerialization are not offered when only Byatis could go ------------------------------------
def howl_game():
    state = seated([GC, BG, WW], starts={WW: "arctic-ocean"}, **EVERY_IGOO)
    ww = seat(state, WW)
    state.seats[ww].spellbooks = ["howl"]
    put(state, WW, "wendigo", "europe")
    return state, ww


def probe(state, ww, enemy):
    return {"area": "europe", "attacker": ww, "defender": enemy, "used": []}


def pre_battle_kinds(state, ww, enemy):
    """What Windwalker may do before a battle it declares in europe against ``enemy``."""
    return [a.kind for a in board.faction_of(state, ww).pre_battle_options(state, ww, probe(state, ww, enemy))]


def test_howl_is_not_offered_when_byatis_is_the_enemys_only_unit_in_the_battle():
    """Facts: Howl makes the enemy move one of its units away; no ability moves Byatis."""
    state, ww = howl_game()
    gc = hold(state, GC, "byatis", "europe")
    assert pre_battle_kinds(state, ww, gc) == []
    state.rng = ScriptedDice([1] * 20)
    give_turn(state, WW, power=3)
    state, _ = play(state, WW, f"battle europe vs {GC}")
    assert "ww-howl" not in texts(state, WW)
    with pytest.raises(IllegalMove):
        play(state, WW, "ww-howl")


def test_howl_with_byatis_and_another_unit_sends_only_the_other_away():
    state, ww = howl_game()
    gc = hold(state, GC, "byatis", "europe")
    put(state, GC, "deep-one", "europe")
    assert pre_battle_kinds(state, ww, gc) == ["ww-howl"]
    state.rng = ScriptedDice([1] * 20)
    give_turn(state, WW, power=3)
    state, _ = play(state, WW, f"battle europe vs {GC}")
    state, _ = play(state, WW, "ww-howl")
    options = texts(state, GC)
    assert options and all(t.startswith("ww-howl-away deep-one to ") for t in options)


def test_howl_reaches_a_terror_which_is_a_unit():
    """Howl names a unit, not a Monster: a Yothan (a Terror) alone in the battle can be sent away."""
    state = seated([GC, WW, AN], starts={WW: "arctic-ocean", AN: AN_HOME})
    ww, an = seat(state, WW), seat(state, AN)
    state.seats[ww].spellbooks = ["howl"]
    put(state, WW, "wendigo", "europe")
    put(state, AN, "yothan", "europe")
    assert pre_battle_kinds(state, ww, an) == ["ww-howl"]


def test_dematerialization_never_offers_an_area_where_only_byatis_stands():
    """Facts: units that abilities cannot move (Byatis) are not offered for Dematerialization."""
    state = seated([GC, BG, AN], starts={AN: AN_HOME}, **EVERY_IGOO)
    an = hold(state, AN, "byatis", "europe")
    hold(state, AN, "abhoth", "asia")
    doom_turn(state, AN)
    options = texts(state, AN)
    assert "an-dematerialize europe" not in options
    assert {f"an-dematerialize {AN_HOME}", "an-dematerialize asia"} <= options, "Abhoth may go"
    put(state, AN, "un-man", "europe")
    state, _ = play(state, AN, "an-dematerialize europe")
    state, _ = play(state, AN, "an-demat-to asia")
    assert texts(state, AN) == {"an-demat-unit un-man"}, "Byatis stays"
    state, _ = play(state, AN, "an-demat-unit un-man")
    assert state.pending[0].kind == "ritual", "nothing more could go: no 'done'-only question"
    assert state.seats[an].units["byatis"] == ["europe"]


def test_no_doom_phase_turn_for_dematerialization_when_byatis_is_all_the_ancients_have():
    state = seated([GC, BG, AN], starts={AN: AN_HOME}, **EVERY_IGOO)
    an = seat(state, AN)
    clear(state, AN, AN_HOME)
    state.gates[AN_HOME] = None
    hold(state, AN, "byatis", "europe")
    doom_turn(state, AN)
    assert board.faction_of(state, an).doom_options(state, an) == []
    assert not any(t.startswith("an-dematerialize") for t in texts(state, AN))
