"""Cthulhu Wars rules that no test checked, found by benchmarks/mutation.py (groups cthulhu_wars and
cthulhu_wars_all): each test is written from rules_text, not from the code it guards."""

from __future__ import annotations

import pytest

from tabletop.core.errors import BadOptions
from tabletop.core.rng import answered_by
from tabletop.games.cthulhu_wars import ENGINE, board, creatures
from tabletop.games.cthulhu_wars.battle import battle_preview
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.setup import default_factions
from tabletop.games.cthulhu_wars.state import HELD, POOL

from .cw_helpers import (BG, CC, GC, SL, YS, ScriptedDice, first_answers_until, give_turn, new_game, play, put, seat, seated,
                         texts)
from .test_dreamlands import citadel, dream


class RecordingTable:
    """Stands for the people at a real table (rules_text cthulhu-wars/table): every die the engine asks for is
    recorded with its number of sides and what the request says it is for, and answered from a script."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls, self.asked = list(rolls), []

    def die(self, sides: int, what: str) -> int:
        self.asked.append((sides, what))
        return self.rolls.pop(0)

    def dice(self, count: int, sides: int, what: str) -> list[int]:
        self.asked.append((sides, what))
        return [self.rolls.pop(0) for _ in range(count)]


# ---- a table game's dice requests say which dice and where ------------------------------------------------------
def test_a_table_is_asked_for_each_sides_battle_dice_naming_the_battles_area():
    """rules_text cthulhu-wars/battle: both sides roll their Combat in dice; at a real table the request must say
    which battle the dice are for (the area), as several battles happen in a round."""
    state = new_game(3, factions=[GC, CC, BG])
    put(state, GC, "shoggoth", "north-pacific")
    put(state, CC, "flying-polyp", "north-pacific")
    give_turn(state, GC, power=4)
    table = RecordingTable([1, 1, 1])
    with answered_by(table):
        state, _ = play(state, GC, f"battle north-pacific vs {CC}")
    assert len(table.asked) == 2
    assert all(sides == 6 and what.endswith("battle dice in north-pacific") for sides, what in table.asked)


def test_the_desecrate_die_is_asked_for_with_the_area():
    """rules_text cthulhu-wars/yellow-sign, Desecrate: the King in Yellow's area rolls one die."""
    state = new_game(3, factions=[GC, YS, BG])
    put(state, YS, "king-in-yellow", "europe")
    give_turn(state, YS, power=8)
    table = RecordingTable([5])
    with answered_by(table):
        play(state, YS, "ys-desecrate undead")
    assert len(table.asked) == 1 and table.asked[0][0] == 6 and "europe" in table.asked[0][1]


def test_the_thousand_forms_die_is_a_six_sided_die():
    """rules_text cthulhu-wars/crawling-chaos, Thousand Forms: roll one die."""
    state = new_game(3, factions=[GC, CC, BG])
    state.seats[seat(state, CC)].spellbooks = ["thousand-forms"]
    give_turn(state, CC, power=1)
    put(state, CC, "nyarlathotep", "asia")
    table = RecordingTable([3])
    with answered_by(table):
        play(state, CC, "cc-thousand-forms")
    assert [sides for sides, _ in table.asked] == [6] and "Thousand Forms" in table.asked[0][1]


# ---- Nyarlathotep counts the enemy's spellbooks already when a battle is declared ------------------------------
def nyarlathotep_alone(enemy_books: list[str]):
    state = new_game(3, factions=[GC, CC, BG])
    cc = seat(state, CC)
    state.seats[cc].spellbooks = []
    state.seats[seat(state, GC)].spellbooks = enemy_books
    put(state, CC, "nyarlathotep", "north-pacific")
    put(state, GC, "deep-one", "north-pacific")
    give_turn(state, CC, power=4)
    return state


def test_nyarlathotep_with_no_spellbooks_may_battle_a_faction_that_holds_one():
    """rules_text cthulhu-wars/crawling-chaos: his Combat is Crawling Chaos's spellbooks plus those of the faction
    he battles, "both counted already when deciding whether a battle may be declared"."""
    state = nyarlathotep_alone(["immortal", "devolve"])
    assert f"battle north-pacific vs {GC}" in texts(state, CC)
    odds = battle_preview(state, seat(state, CC), "north-pacific", seat(state, GC))
    assert odds.attacker.dice == 2, "the odds shown count the enemy's two spellbooks too"


def test_nyarlathotep_with_no_spellbooks_anywhere_may_not_battle():
    """Same rule: with no spellbooks anywhere he rolls no dice, and a force with Combat 0 cannot declare a battle."""
    assert not any(t.startswith("battle") for t in texts(nyarlathotep_alone([]), CC))


# ---- a Ghoul Pained by a Zoog after Necrophagy retreats, though Black Goat is in neither side ------------------
def test_a_ghoul_pained_by_a_zoog_after_necrophagy_retreats():
    """rules_text cthulhu-wars/dreamlands-zoogs: "Necrophagy's Pain on the Zoogs removes one and Pains the Ghoul
    that came instead of the attacker"; cthulhu-wars/battle: Pained units retreat (never into an Area with Zoogs)."""
    state = dream(5)
    bg = seat(state, BG)
    area = citadel(state, "surface", 1)
    state.pieces["zoog"][0] = area
    state.pieces["zoog"][1] = area
    put(state, GC, "deep-one", area, 2)
    put(state, BG, "ghoul", next(a.id for a in state.layout.areas if a.id != area and not a.citadel))
    state.seats[bg].spellbooks = ["necrophagy"]
    give_turn(state, GC, power=4)
    state.rng = ScriptedDice([1, 1])  # Great Cthulhu misses; the Zoogs roll no dice
    state, _ = play(state, GC, f"battle {area} vs zoogs")
    assert state.pending[0].kind == "necrophagy" and ENGINE.to_move(state) == [bg]
    source = next(t.split()[1] for t in texts(state, BG) if t.startswith("necrophagy"))
    state, log = play(state, BG, f"necrophagy {source}")
    assert creatures.zoogs_in(state, area) == 1, "the Zoog that took the Pain is removed"
    assert any("Ghoul" in line and "Pain" in line for line in log)
    # Necrophagy's other Pain falls on Great Cthulhu's side (a Deep One); then the Pained units retreat, the Ghoul too
    asked = []
    while state.battle is not None and state.pending:
        who = state.pending[0].seat
        asked.append((state.seats[who].faction, state.pending[0].kind))
        state, _ = play(state, who, sorted(texts(state, state.seats[who].faction))[0])
    assert (BG, "retreat") in asked
    ghouls = state.seats[bg].units["ghoul"]
    assert area not in ghouls and sum(board.on_map(p) for p in ghouls) == 1, "the Pained Ghoul left the area"


# ---- the odds before a battle ------------------------------------------------------------------------------------
def test_the_defenders_expected_kills_are_capped_by_the_attackers_units_there():
    """rules_text cthulhu-wars/battle (odds): a side can lose at most the units it has there. One Deep One attacked
    by... facing two Hunting Horrors (4 dice): at most one unit eliminated, so the expectation is P(a 6 in 4 dice)."""
    state = new_game(3, factions=[GC, CC, BG])
    put(state, GC, "deep-one", "north-pacific")
    put(state, CC, "hunting-horror", "north-pacific", 2)
    odds = battle_preview(state, seat(state, GC), "north-pacific", seat(state, CC))
    assert odds.defender.dice == 4 and odds.attacker.dice == 1
    assert abs(odds.defender.expected_enemy_units_eliminated - (1 - (5 / 6) ** 4)) < 1e-9
    assert abs(odds.defender.expected_enemy_units_hit - (1 - (1 / 2) ** 4)) < 1e-9


def test_the_zoogs_note_gives_the_expected_zoogs_removed_and_pains_back():
    """rules_text cthulhu-wars/dreamlands-zoogs: a Kill kills a Zoog, a Pain removes one and Pains one of your units,
    Kills first. Two dice against one Zoog: removed = P(a 4, 5 or 6 among them) = 1 - (1/2)^2 = 0.75; a Pain comes
    back only when no Kill took the Zoog first: both dice no 6 and at least one Pain = (4/6)^2 - (2/6)^2... that is
    P(no 6) - P(no 6 and no Pain) = (5/6)^2 - (3/6)^2 = 0.4444."""
    note = creatures.NEUTRALS["zoogs"].odds_note(None, 2, 1)
    assert note.startswith("1 Zoog roll no dice; expect 0.75 removed and 0.44 Pains back on your units")


def test_a_zoog_that_stands_outside_a_citadel_is_eliminated_and_the_log_says_so():
    """rules_text cthulhu-wars/dreamlands-zoogs: "A Zoog moved to an Area that is not a Citadel is eliminated"."""
    state = dream(5)
    area = next(a.id for a in state.layout.areas if not a.citadel)
    state.pieces["zoog"][0] = area
    log: list[str] = []
    creatures.enforce(state, log)
    assert state.pieces["zoog"][0] == POOL
    assert log == [f"1 Zoog in {area} is eliminated (no Citadel)."]


# ---- Black Goat -----------------------------------------------------------------------------------------------
def test_ghroth_placing_an_acolyte_says_whose_and_where():
    """rules_text cthulhu-wars/black-goat, Ghroth: a roll above the Fungi areas places an Acolyte from any pool."""
    state = new_game(3, factions=[GC, BG, CC])
    state.seats[seat(state, BG)].spellbooks = ["ghroth"]
    give_turn(state, BG, power=4)
    state.seats[seat(state, GC)].units["acolyte"][5] = POOL
    state.rng = ScriptedDice([3])
    state, _ = play(state, BG, "ghroth")
    state, log = play(state, BG, f"ghroth-place {GC} to europe")
    assert f"Ghroth: an Acolyte of {GC} appears in europe." in log


# ---- the Sleeper's Ancient Sorcery and Energy Nexus ------------------------------------------------------------
def sleeper(books, factions=(GC, BG, SL)):
    state = seated(list(factions))
    state.seats[seat(state, SL)].spellbooks = list(books)
    give_turn(state, SL)
    return state


def test_a_borrowed_beyond_one_lets_a_formless_spawn_carry_a_gate():
    """rules_text cthulhu-wars/sleeper-ancient-sorcery: borrowing Opener of the Way's The Beyond One, "a Formless
    Spawn or Tsathoggua carries a Gate"."""
    from tabletop.games.cthulhu_wars.factions.opener_of_the_way import BEYOND_ONE_COST

    state = sleeper(["ancient-sorcery"], factions=(GC, "opener-of-the-way", SL))
    sl = seat(state, SL)
    home = next(a for a, held in state.gates.items() if held and held[0] == sl)
    put(state, SL, "formless-spawn", home)
    state.seats[sl].power = max(BEYOND_ONE_COST, 4)
    before = {ENGINE.notation(a) for a in ENGINE.legal_actions(state, sl)}
    state.seats[sl].flags["borrowed"] = ["opener-of-the-way"]
    carried = {ENGINE.notation(a) for a in ENGINE.legal_actions(state, sl)} - before
    assert carried and all("formless-spawn" in t and home in t for t in carried)


def test_ancient_sorcery_offers_only_the_cards_not_yet_holding_a_serpent_man():
    """rules_text cthulhu-wars/sleeper-ancient-sorcery: "at most one Serpent Man per enemy card"."""
    state = sleeper(["ancient-sorcery"], factions=(GC, CC, SL))
    sl = seat(state, SL)
    put(state, SL, "serpent-man", "north-america")
    state.seats[sl].power = 3
    assert {t for t in texts(state, SL) if t.startswith("sl-ancient")} == {
        f"sl-ancient-sorcery north-america vs {GC}", f"sl-ancient-sorcery north-america vs {CC}"}
    state.seats[sl].flags["borrowed"] = [CC]
    assert {t for t in texts(state, SL) if t.startswith("sl-ancient")} == {f"sl-ancient-sorcery north-america vs {GC}"}


def test_a_borrowed_feast_pays_for_desecrated_areas_holding_a_sleeper_unit():
    """rules_text cthulhu-wars/sleeper-ancient-sorcery: Yellow Sign's Feast borrowed gives +1 Power at Gather Power per
    Area holding a Yellow Sign Desecration token and one of your units."""
    state = sleeper(["ancient-sorcery"], factions=(GC, YS, SL))
    sl, ys = seat(state, SL), seat(state, YS)
    state.seats[ys].flags["desecrated"] = ["europe", "asia"]
    put(state, SL, "wizard", "europe")
    sleeper_faction = FACTIONS[SL]
    assert not any("Feast" in e.source for e in sleeper_faction.gather_extras(state, sl))
    state.seats[sl].flags["borrowed"] = [YS]
    feast = [e for e in sleeper_faction.gather_extras(state, sl) if "Feast" in e.source]
    assert [e.count for e in feast] == [1]


def nexus_battle(books, *serpent_men: str):
    """Great Cthulhu attacks the Sleeper's Wizard (and these Serpent Men) in the South Pacific; the Sleeper holds
    ``books`` and 4 Power, and is asked for its Energy Nexus action."""
    state = sleeper(books)
    put(state, SL, "wizard", "south-pacific")
    for area in serpent_men:
        put(state, SL, "serpent-man", area)
    state.seats[seat(state, SL)].power = 4
    put(state, GC, "deep-one", "south-pacific")
    give_turn(state, GC, power=5)
    state.rng = ScriptedDice([1] * 20)
    state, _ = play(state, GC, "battle south-pacific vs sleeper")
    assert state.pending[0].kind == "sl-nexus"
    return state


def test_energy_nexus_can_be_an_ancient_sorcery_with_a_serpent_man_in_the_battle_area():
    """rules_text cthulhu-wars/sleeper-energy-nexus: the action taken before the battle may be "one of your own
    actions there (... Ancient Sorcery with a Serpent Man there)"."""
    state = nexus_battle(["energy-nexus", "ancient-sorcery"], "south-pacific")
    sl = seat(state, SL)
    state, _ = play(state, SL, f"sl-ancient-sorcery south-pacific vs {GC}")
    assert state.seats[sl].units["serpent-man"][0] == HELD and state.seats[sl].power == 3
    assert FACTIONS[SL].borrows(state, sl, GC)


def test_a_removed_placeholder_faction_or_unknown_names_are_refused_saying_which():
    """rules_text cthulhu-wars/setup: one faction per seat, among the factions the engine has."""
    with pytest.raises(BadOptions) as gone:
        ENGINE.new_game(CthulhuWarsOptions(factions=["great-cthulhu", "stand-in-black-goat", "yellow-sign"]), 3, 1)
    assert gone.value.message.startswith("stand-in-black-goat was a placeholder faction and is gone")
    assert gone.value.legal == default_factions(len(FACTIONS)) and "ancients" in gone.value.legal
    with pytest.raises(BadOptions) as unknown:
        ENGINE.new_game(CthulhuWarsOptions(factions=["great-cthulhu", "hastur", "tsathoggua"]), 3, 1)
    assert "(unknown hastur, tsathoggua)" in unknown.value.message


def test_a_sleeper_borrowing_two_cards_keeps_both_abilities_and_carries_the_gate():
    """rules_text cthulhu-wars/sleeper-ancient-sorcery: one Serpent Man per enemy card, each card's ability borrowed
    at once: Windwalker's Hibernate beside Opener of the Way's The Beyond One, which moves the Gate and logs it."""
    state = sleeper(["ancient-sorcery"], factions=("windwalker", "opener-of-the-way", SL))
    sl = seat(state, SL)
    home = next(a for a, held in state.gates.items() if held and held[0] == sl)
    put(state, SL, "formless-spawn", home)
    state.seats[sl].power = 6
    state.seats[sl].flags["borrowed"] = ["windwalker", "opener-of-the-way"]
    options = texts(state, SL)
    carried = sorted(t for t in options if t.startswith("ow-beyond-one formless-spawn"))
    assert "ww-hibernate" in options and carried
    target = carried[0].split(">")[1]
    state, log = play(state, SL, carried[0])
    assert state.controller(target) == sl and home not in state.gates
    assert state.seats[sl].units["formless-spawn"].count(target) == 1
    assert any(target in line for line in log), "the Gate's journey is logged"


def test_energy_nexus_acts_once_a_turn_even_before_a_second_battle():
    """rules_text cthulhu-wars/sleeper-energy-nexus: the action before a battle is taken once per turn."""
    state = nexus_battle(["energy-nexus"])
    sl = seat(state, SL)
    state, _ = play(state, SL, "move wizard south-pacific>south-america")
    # the same turn, a second battle where a Wizard of the Sleeper stands: no second Nexus action
    put(state, SL, "wizard", "north-pacific")
    second = {"area": "north-pacific", "attacker": seat(state, GC), "defender": sl}
    pending_before = list(state.pending)
    FACTIONS[SL].before_battle(state, sl, second, [])
    assert state.pending == pending_before


def test_emissary_does_not_spare_nyarlathotep_once_the_enemy_great_old_one_is_killed_in_the_same_battle():
    """rules_text cthulhu-wars/crawling-chaos, Emissary of the Outer Gods: only a battle without an enemy Great Old
    One turns the Kill on Nyarlathotep into a Pain; Cthulhu, killed first, was in this battle."""
    state = new_game(3, factions=[GC, CC, BG])
    state.seats[seat(state, CC)].spellbooks = ["emissary"]
    put(state, CC, "nyarlathotep", "north-pacific")
    put(state, GC, "cthulhu", "north-pacific")
    give_turn(state, GC, power=10)
    state.rng = ScriptedDice([6] * 7)
    state, log = play(state, GC, f"battle north-pacific vs {CC}")
    assert log.index(f"{GC} takes 1 Kill: Cthulhu eliminated.") < log.index(f"{CC} takes 1 Kill: Nyarlathotep eliminated.")
    assert state.seats[seat(state, CC)].units["nyarlathotep"] == [POOL]


def test_the_citadel_victory_names_the_board_won():
    """rules_text cthulhu-wars/dreamlands-citadels: a Gate in every Citadel of one board wins; the log says which."""
    from .test_dreamlands import control_all_but_one

    for board_name, title in (("surface", "Surface"), ("underworld", "Underworld")):
        state = dream(4)
        last = control_all_but_one(state, YS, board_name)
        give_turn(state, YS, power=4)
        state, log = play(state, YS, f"control {last}")
        assert state.citadel_victory == (seat(state, YS), board_name)
        assert any(f"every Citadel of the {title}: the Citadel victory" in line for line in log)


def test_a_channel_power_reroll_at_a_real_table_asks_for_the_misses_only_by_name():
    """rules_text cthulhu-wars/opener-channel-power: pay 1 Power, reroll the misses; at a table the request says whose
    rerolled misses the dice are."""
    state = seated([GC, BG, "opener-of-the-way"], starts={"opener-of-the-way": "australia"})
    ow = seat(state, "opener-of-the-way")
    state.seats[ow].spellbooks = ["channel-power"]
    give_turn(state, "opener-of-the-way", power=5)
    put(state, GC, "deep-one", "south-pacific", 3)
    put(state, "opener-of-the-way", "spawn", "south-pacific")
    state.rng = ScriptedDice([1, 2, 6] + [1, 1, 1])
    state, _ = play(state, "opener-of-the-way", f"battle south-pacific vs {GC}")
    table = RecordingTable([5, 4])
    with answered_by(table):
        play(state, "opener-of-the-way", "ow-channel-power")
    assert table.asked == [(6, "opener-of-the-way's rerolled misses")]


@pytest.mark.parametrize("faction", [GC, "windwalker"])
def test_a_map_without_a_factions_start_symbol_is_refused_by_name(monkeypatch, faction):
    """rules_text cthulhu-wars/setup: a faction starts on its symbol; a map (a layout file) without it cannot seat
    the faction, whether the start is fixed (Great Cthulhu) or chosen among symbols (Windwalker)."""
    from tabletop.games.cthulhu_wars.maps.model import MapLayout

    symbol = FACTIONS[faction].start_symbol
    real = MapLayout.start_areas
    monkeypatch.setattr(MapLayout, "start_areas", lambda self, s: () if s == symbol else real(self, s))
    with pytest.raises(BadOptions) as refused:
        ENGINE.new_game(CthulhuWarsOptions(factions=[faction, BG, CC]), 3, 1)
    assert refused.value.message.startswith(f"{FACTIONS[faction].name} has no start area on ")
    assert refused.value.rule == "cthulhu-wars/setup"


# ---- survivors of the seed-71 sample ---------------------------------------------------------------------------
def test_the_zoogs_dice_are_asked_for_as_the_zoogs_dice():
    """rules_text cthulhu-wars/dreamlands-zoogs: at the end of a Doom phase one die is rolled per Zoog not in play (its
    Citadel); at a real table the request says so."""
    state = dream(5)
    table = RecordingTable([6, 1, 6, 6, 3, 4, 5])
    with answered_by(table):
        creatures.end_of_doom_phase(state, [])
    assert (6, "the Zoogs' dice (their Citadels)") in table.asked


def test_thousand_forms_offers_that_differ_are_logged_as_the_fallback():
    """rules_text cthulhu-wars/negotiation: offers kept secret until all are in; when they differ the rule's fallback
    applies, and the log says which happened."""
    state = new_game(3, factions=[GC, CC, BG])
    state.seats[seat(state, CC)].spellbooks = ["thousand-forms"]
    give_turn(state, CC, power=1)
    put(state, CC, "nyarlathotep", "asia")
    state.rng = ScriptedDice([3])
    state, _ = play(state, CC, "cc-thousand-forms")
    agreed, _ = play(state, GC, f"offer {GC}=2,{BG}=1")
    agreed, log = play(agreed, BG, f"offer {GC}=2,{BG}=1")
    assert "The offers agree." in log
    differ, _ = play(state, GC, f"offer {GC}=0,{BG}=3")
    differ, log = play(differ, BG, f"offer {GC}=3,{BG}=0")
    assert "The offers differ: the rule's fallback applies." in log


def test_a_game_ending_without_a_winner_says_everybody_loses():
    """rules_text cthulhu-wars/end: a faction must hold all six spellbooks to win; without one, everybody loses."""
    from tabletop.games.cthulhu_wars import victory

    state = new_game(3, factions=[GC, CC, BG])
    for fs in state.seats:
        fs.doom = 30
    log: list[str] = []
    victory.finish(state, log)
    assert state.winners == [] and log[-1] == "Game over: no faction has all six spellbooks, so everybody loses."


def test_vengeance_assigns_the_attackers_losses_when_the_yellow_sign_defends():
    """rules_text cthulhu-wars/yellow-sign, Vengeance: with Hastur in the battle the Yellow Sign assigns the enemy's
    Kills and Pains, also when it is attacked (the attacker's losses are assigned first)."""
    state = new_game(3, factions=[GC, YS, BG])
    ys, gc = seat(state, YS), seat(state, GC)
    put(state, YS, "hastur", "north-atlantic")
    put(state, GC, "deep-one", "north-atlantic")
    put(state, GC, "shoggoth", "north-atlantic")
    give_turn(state, GC, power=5)
    state.rng = ScriptedDice([1, 1, 1] + [6, 4, 1, 1, 1])  # Great Cthulhu's 3 dice miss; Hastur's 5 give a Kill
    state, _ = play(state, GC, f"battle north-atlantic vs {YS}")
    assert state.pending[0].kind == "assign" and state.pending[0].data["owner"] == gc
    assert ENGINE.to_move(state) == [ys]


def test_energy_nexus_moves_pay_the_ice_age_into_its_area():
    """rules_text cthulhu-wars/sleeper-energy-nexus: the action before the battle costs what it normally costs,
    Ice Age's extra Power included (cthulhu-wars/windwalker, Ice Age)."""
    state = sleeper(["energy-nexus"], factions=(GC, "windwalker", SL))
    sl = seat(state, SL)
    ww = state.seats[seat(state, "windwalker")]
    ww.spellbooks, ww.flags["ice-age"] = ["ice-age"], "south-america"
    put(state, SL, "wizard", "south-pacific")
    state.seats[sl].power = 1
    put(state, GC, "deep-one", "south-pacific")
    give_turn(state, GC, power=5)
    state.rng = ScriptedDice([1] * 20)
    state, _ = play(state, GC, f"battle south-pacific vs {SL}")
    options = texts(state, SL)
    assert "move wizard south-pacific>australia" in options
    assert "move wizard south-pacific>south-america" not in options, "1 Power cannot pay the move and the Ice Age"


def windwalker(books=()):
    state = seated([GC, BG, "windwalker"], starts={"windwalker": "arctic-ocean"})
    state.seats[seat(state, "windwalker")].spellbooks = list(books)
    give_turn(state, "windwalker")
    return state


def test_ice_age_moves_to_another_area_only():
    """rules_text cthulhu-wars/windwalker, Ice Age: the token is placed in an Area; placing it again moves it."""
    state = windwalker(["ice-age"])
    state.seats[seat(state, "windwalker")].power = 5
    assert "ww-ice-age africa" in texts(state, "windwalker")
    state.seats[seat(state, "windwalker")].flags["ice-age"] = "africa"
    options = texts(state, "windwalker")
    assert "ww-ice-age africa" not in options and "ww-ice-age europe" in options


def test_the_howled_enemy_may_not_decline_to_send_a_unit_away():
    """rules_text cthulhu-wars/windwalker, Howl: the enemy *must* move one of its units away."""
    state = windwalker(["howl"])
    put(state, GC, "deep-one", "north-pacific")
    put(state, "windwalker", "wendigo", "north-pacific")
    state.rng = ScriptedDice([1] * 10)
    give_turn(state, "windwalker", power=10)
    state, _ = play(state, "windwalker", f"battle north-pacific vs {GC}")
    state, _ = play(state, "windwalker", "ww-howl")
    options = texts(state, GC)
    assert options and all(t.startswith("ww-howl-away") for t in options), options


def test_cannibalism_follows_a_battle_between_two_other_factions():
    """rules_text cthulhu-wars/windwalker-cannibalism: when Windwalker is not in the battle, a Kill on either side
    lets it place a Wendigo or an Acolyte there."""
    state = windwalker(["cannibalism"])
    put(state, GC, "starspawn", "europe")
    put(state, BG, "ghoul", "europe")
    give_turn(state, GC, power=5)
    state.rng = ScriptedDice([6, 1, 1] + [1])
    state, _ = play(state, GC, f"battle europe vs {BG}")
    state = first_answers_until(state, lambda s: not s.pending or s.pending[0].kind == "ww-cannibalism"
                                or ENGINE.to_move(s) == [seat(s, "windwalker")])
    assert state.pending and state.pending[0].kind == "ww-cannibalism" and state.pending[0].data["area"] == "europe"


def test_each_pained_unit_of_one_victim_is_sent_away_before_the_next_victim_takes_its_share():
    """rules_text opener-dread-curse: each victim takes its share, then Opener of the Way sends each of its Pained
    units away, one after the other, before the next victim's share."""
    state = seated([GC, BG, "opener-of-the-way"], starts={"opener-of-the-way": "australia"})
    ow, bg = seat(state, "opener-of-the-way"), seat(state, BG)
    state.seats[ow].spellbooks = ["dread-curse"]
    give_turn(state, "opener-of-the-way", power=2)
    put(state, "opener-of-the-way", "abomination", "europe", 2)
    put(state, "opener-of-the-way", "spawn", "asia")
    put(state, BG, "ghoul", "south-pacific", 2)
    state.rng = ScriptedDice([4, 5, 4])
    state, _ = play(state, "opener-of-the-way", "ow-dread-curse south-pacific")
    state, _ = play(state, "opener-of-the-way", f"ow-curse-split {BG}:0/2,{GC}:0/1")
    state, _ = play(state, BG, "ow-curse-take pain ghoul")
    state, _ = play(state, BG, "ow-curse-take pain ghoul")
    assert [p.kind for p in state.pending[:2]] == ["ow-curse-move", "ow-curse-take"]
    state, _ = play(state, "opener-of-the-way", "ow-curse-move to antarctica")
    assert state.pending[0].kind == "ow-curse-move" and ENGINE.to_move(state) == [ow], "BG's second Ghoul first"
    state, _ = play(state, "opener-of-the-way", "ow-curse-move to antarctica")
    assert state.seats[bg].units["ghoul"].count("antarctica") == 2
    assert state.pending[0].kind == "ow-curse-take" and ENGINE.to_move(state) == [seat(state, GC)]


# ---- survivors of the seed-83 sample ---------------------------------------------------------------------------
@pytest.mark.parametrize("seats, options", [
    (2, {}), (7, {}), (5, "stored before the expansions"),
    (3, {"factions": [GC, "stand-in-black-goat", YS]}), (3, {"factions": [GC, GC, YS]}), (3, {"factions": [GC, YS]}),
])
def test_every_seating_refusal_cites_the_setup_rule(seats, options):
    """rules_text cthulhu-wars/setup: 3 to 6 players, one faction per seat, among the factions the engine has."""
    from tabletop.games.cthulhu_wars.options import KEYS_BEFORE_EXPANSIONS

    if options == "stored before the expansions":  # a 5-player game whose stored options hold only the old keys
        every = CthulhuWarsOptions().model_dump(mode="json")
        read = ENGINE.read_options({k: v for k, v in every.items() if k in KEYS_BEFORE_EXPANSIONS})
    else:
        read = CthulhuWarsOptions(**options)
    with pytest.raises(BadOptions) as refused:
        ENGINE.new_game(read, seats, 1)
    assert refused.value.rule == "cthulhu-wars/setup"


def test_the_doom_phase_log_names_the_spellbook_taken_and_the_ritual_declined():
    """rules_text cthulhu-wars/doom: each faction in turn may perform a Ritual; the log says who took which book and
    who declined."""
    state = new_game(3)
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    state, _ = play(state, GC, f"first-player {GC}")
    state, _ = play(state, GC, "direction clockwise")
    state, log = play(state, GC, "spellbook dreams")
    assert f"{GC} takes the spellbook dreams." in log
    state, log = play(state, GC, "no-ritual")
    assert f"{GC} performs no Ritual." in log


def test_the_sleepers_pay_three_costs_three_whatever_it_holds():
    """rules_text cthulhu-wars/sleeper: 'pay 3 Power' requirements cost exactly 3."""
    state = sleeper([])
    sl = seat(state, SL)
    state.seats[sl].power = 9
    state, _ = play(state, SL, f"sl-give-three {GC}")
    assert state.seats[sl].power == 6


def test_the_yellow_signs_gift_and_arctic_wind_are_logged():
    """rules_text cthulhu-wars/yellow-sign (give 3 Doom) and cthulhu-wars/windwalker (Arctic Wind): both are logged."""
    state = new_game(3, factions=[GC, YS, BG])
    give_turn(state, YS, power=8)
    state, log = play(state, YS, f"ys-give-doom {GC}")
    assert any(line.startswith(f"{YS} gives {GC} ") and line.endswith(" Doom.") for line in log)
    state = windwalker(["arctic-wind"])
    ww = seat(state, "windwalker")
    put(state, "windwalker", "ithaqua", "arctic-ocean")
    state.seats[ww].power = 5
    state, _ = play(state, "windwalker", "move ithaqua arctic-ocean>europe")
    state, log = play(state, "windwalker", "ww-arctic-wind acolyte")
    assert "Arctic Wind: an Acolyte follows Ithaqua from arctic-ocean to europe for free." in log


def test_demand_sacrifice_gives_the_elder_sign_to_a_defending_sleeper():
    """rules_text cthulhu-wars/sleeper-demand-sacrifice: the enemy gives the Sleeper an Elder Sign, whichever side
    attacked."""
    state = sleeper(["demand-sacrifice"])
    sl, gc = seat(state, SL), seat(state, GC)
    put(state, SL, "tsathoggua", "south-pacific")
    put(state, GC, "starspawn", "south-pacific")
    give_turn(state, GC, power=5)
    state.rng = ScriptedDice([1, 1, 1] + [1] * 8)
    state, _ = play(state, GC, f"battle south-pacific vs {SL}")
    state = first_answers_until(state, lambda s: not s.pending or ENGINE.to_move(s) == [sl]
                                and "sl-demand-sacrifice" in texts(s, SL))
    assert ENGINE.to_move(state) == [sl] and "sl-demand-sacrifice" in texts(state, SL), "Demand Sacrifice was never offered"
    state, _ = play(state, SL, "sl-demand-sacrifice")
    before = len(state.seats[gc].elder_signs)
    state, _ = play(state, GC, "sl-sacrifice elder-sign")
    assert len(state.seats[sl].elder_signs) == 1 and len(state.seats[gc].elder_signs) == before


def test_a_move_into_the_ice_age_is_allowed_with_exactly_its_cost_and_the_extra_power():
    """rules_text cthulhu-wars/windwalker, Ice Age: an enemy action ending there costs 1 more: a Move (1) into it needs
    exactly 2 Power."""
    state = windwalker(["ice-age"])
    state.seats[seat(state, "windwalker")].flags["ice-age"] = "europe"
    gc = seat(state, GC)
    put(state, GC, "deep-one", "north-atlantic")
    give_turn(state, GC, power=2)
    state, _ = play(state, GC, "move deep-one north-atlantic>europe")
    assert state.seats[gc].units["deep-one"].count("europe") == 1 and state.seats[gc].power == 0


def test_a_borrowed_fertility_cult_summon_is_played_and_logged():
    """rules_text cthulhu-wars/sleeper-ancient-sorcery: with a Serpent Man on Black Goat's card the Sleeper summons as
    an unlimited action after its action (Fertility Cult)."""
    state = sleeper(["ancient-sorcery"])
    sl = seat(state, SL)
    state.seats[sl].flags["borrowed"] = [BG]
    state.seats[sl].power = 6
    state, _ = play(state, SL, "summon wizard north-america")
    summons = sorted(t for t in texts(state, SL) if t.startswith("summon"))
    assert summons, "after its action, Fertility Cult offers more Summons"
    state, log = play(state, SL, summons[0])
    assert any("summon" in line.lower() for line in log)


def test_a_sleeper_hibernating_by_a_borrowed_card_sits_out_the_action_phase():
    """rules_text cthulhu-wars/sleeper-ancient-sorcery with Windwalker's Hibernate: the Sleeper takes no more turns this
    Action phase."""
    state = sleeper(["ancient-sorcery"], factions=(GC, "windwalker", SL))
    sl = seat(state, SL)
    state.seats[sl].flags["borrowed"] = ["windwalker"]
    assert not FACTIONS[SL].sits_out(state, sl)
    state, _ = play(state, SL, "ww-hibernate")
    assert FACTIONS[SL].sits_out(state, sl)
    state, _ = play(state, SL, "done")  # the end of this turn (its unlimited actions declined)
    for _ in range(6):  # the others act; the turn never comes back to the Sleeper
        if state.phase != "action" or not state.turn:
            break
        mover = ENGINE.to_move(state)[0]
        assert mover != sl
        state, _ = ENGINE.apply(state, mover, ENGINE.parse("pass", state, mover))
