"""The Dreamlands map (rules_text cthulhu-wars/dreamlands, -bhole, -zoogs, -citadels), one test per point of the seed.

The shipped map is provisional: these tests lean only on its confirmed facts where the rule is about geography
(Zura's tunnel to the Ruins of Karoth, the Karoth's neighbours, the 5-player Underworld Citadels) and otherwise on
whatever the map file says (looked up, not assumed).
"""

from __future__ import annotations

import pytest

from tabletop.core.errors import BadOptions, IllegalMove
from tabletop.games.cthulhu_wars import ENGINE, board, creatures, phases
from tabletop.games.cthulhu_wars.battle import side_combat, start_battle
from tabletop.games.cthulhu_wars.maps import load_layout
from tabletop.games.cthulhu_wars.picture import draw_map
from tabletop.games.cthulhu_wars.picture_layout import MAP_W, boxes_overlap, frame_box, map_places
from tabletop.render import Text
from tabletop.games.cthulhu_wars.state import POOL, Turn

from .cw_helpers import BG, CC, GC, OW, SL, WW, YS, ScriptedDice, give_turn, new_game, play, put, seat, seated, texts

VALE, KAROTH, KOTH, ZURA = "vale-of-pnath", "ruins-of-karoth", "tower-of-koth", "zura"


def dream(players: int = 3, seed: int = 1, **options):
    return new_game(players, seed, map="dreamlands", **options)


def move_acolyte(state, faction: str, area: str, *, control: bool = False) -> int:
    """Move one of the faction's Acolytes (one not on a Gate) to ``area``; with ``control`` it holds a Gate there."""
    s = seat(state, faction)
    held = {h[2] for h in state.gates.values() if h and h[0] == s and h[1] == "acolyte"}
    index = next(i for i, p in enumerate(state.seats[s].units["acolyte"]) if p != POOL and i not in held)
    state.seats[s].units["acolyte"][index] = area
    if control:
        state.gates[area] = (s, "acolyte", index)
    return index


def citadel(state, board: str, number: int) -> str:
    return state.layout.citadel_for(board, number).id


def doom_end(state, rolls: list[int]):
    """Run the end of a Doom phase (after the Rituals) with these dice; the log."""
    state.rng = ScriptedDice(rolls)
    log: list[str] = []
    creatures.end_of_doom_phase(state, log)
    return log


# ---- the map: boards, sides, layouts -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "players, alternate, layout, sides",
    [
        (3, False, "dreamlands_3p", ("3-player side", "3-player side")),
        (4, False, "dreamlands_4p", ("5-player side", "3-player side")),
        (4, True, "dreamlands_4p_alt", ("3-player side", "5-player side")),
        (5, False, "dreamlands_5p", ("5-player side", "5-player side")),
    ],
)
def test_each_player_count_uses_one_side_of_the_surface_and_one_of_the_underworld(players, alternate, layout, sides):
    state = dream(players, alternate_layout=alternate)
    assert state.layout_name == layout
    assert [(b.id, b.side) for b in state.layout.board_places] == list(zip(("surface", "underworld"), sides, strict=True))
    assert state.layout.is_provisional and "PROVISIONAL" in state.layout.provenance_summary


def test_four_players_get_the_5_player_surface_by_default_as_the_seed_recommends():
    assert load_layout("dreamlands_4p").recommended and not load_layout("dreamlands_4p_alt").recommended
    assert new_game(4, map="dreamlands_4p_alt").layout_name == "dreamlands_4p_alt"  # a layout named directly
    with pytest.raises(BadOptions, match="is for 4 players, not 3"):
        new_game(3, map="dreamlands_4p_alt")
    with pytest.raises(BadOptions, match="No map called 'moon'"):
        new_game(3, map="moon")


def test_each_board_has_four_tunnels_and_four_citadels_numbered_1_to_6():
    for name in ("dreamlands_3p", "dreamlands_4p", "dreamlands_4p_alt", "dreamlands_5p"):
        layout = load_layout(name)
        for board in ("surface", "underworld"):
            assert len([a for a in layout.board_areas(board) if a.tunnel]) == 4
            assert sorted(n for a in layout.citadels(board) for n in a.citadel) == [1, 2, 3, 4, 5, 6]
        assert not layout.area(VALE).citadel  # "there is no Citadel in the Vale of Pnath"


def test_the_seeds_facts_hold_on_the_shipped_map_and_are_confirmed():
    five = load_layout("dreamlands_5p")
    assert five.is_tunnel(ZURA, KAROTH) and five.area(ZURA).board == "surface" and five.area(KAROTH).board == "underworld"
    assert {KOTH, VALE} <= set(five.area(KAROTH).adjacent)
    assert five.citadel_for("underworld", 1).id == five.citadel_for("underworld", 2).id == "sea-of-pitch"
    assert five.citadel_for("underworld", 3).id == "vaults-of-zin"
    assert not five.fact_is_provisional("tunnel", ZURA, KAROTH) and not five.fact_is_provisional("adjacent", KAROTH, KOTH)
    assert not five.fact_is_provisional("citadel", "sea-of-pitch")
    assert load_layout("dreamlands_3p").fact_is_provisional("citadel", "sea-of-pitch")  # given for the 5-player side only
    assert five.fact_is_provisional("adjacent", ZURA, "oriab")  # invented: marked so


def test_areas_with_sea_in_their_name_are_oceans_on_both_boards():
    for layout in ("dreamlands_5p", "dreamlands_3p"):
        for area in load_layout(layout).areas:
            if "Sea" in area.name.split():
                assert area.type == "ocean", area.name


# ---- tunnels and a flat map -----------------------------------------------------------------------------------
def test_the_map_is_flat_adjacency_is_only_what_the_boards_show():
    layout = load_layout("dreamlands_5p")
    west, east = "hatheg-kla", "leng"  # the Surface's two far corners of the top edge
    assert east not in layout.area(west).adjacent
    assert set(layout.area(ZURA).adjacent) == {"enchanted-wood", "dylath-leen", "southern-sea", "oriab", KAROTH}


def test_a_unit_moves_through_a_tunnel_to_the_other_board():
    state = dream(5)
    put(state, GC, "deep-one", ZURA)
    give_turn(state, GC, power=4)
    assert f"move deep-one {ZURA}>{KAROTH}" in texts(state, GC)
    state, _ = play(state, GC, f"move deep-one {ZURA}>{KAROTH}")
    assert state.seats[seat(state, GC)].units["deep-one"].count(KAROTH) == 1


def test_flight_takes_two_steps_through_a_tunnel():
    """The seed's example: Nyarlathotep in Zura may fly to the Ruins of Karoth and on to the Tower of Koth or the Vale."""
    state = dream(5)
    put(state, CC, "nyarlathotep", ZURA)
    give_turn(state, CC, power=4)
    moves = texts(state, CC)
    assert {f"move nyarlathotep {ZURA}>{KAROTH}", f"move nyarlathotep {ZURA}>{KOTH}", f"move nyarlathotep {ZURA}>{VALE}"} <= moves


def test_a_pained_unit_retreats_through_a_tunnel():
    state = dream(3)
    put(state, GC, "deep-one", ZURA)
    put(state, CC, "flying-polyp", ZURA)
    put(state, CC, "nightgaunt", "enchanted-wood")
    put(state, CC, "nightgaunt", "dylath-leen")
    put(state, CC, "nightgaunt", "southern-sea")
    give_turn(state, GC, power=4)
    state.rng = ScriptedDice([1, 5])  # GC misses; CC's Polyp Pains the Deep One
    state, _ = play(state, GC, f"battle {ZURA} vs crawling")
    gc = seat(state, GC)
    assert state.seats[gc].units["deep-one"][0] == KAROTH  # the only Area free of Crawling Chaos: through the tunnel


def test_movement_abilities_reach_either_board():
    """Avatar, Seek and Destroy and Submerge/Emerge cross between the boards (the seed's examples)."""
    state = dream(3)
    bg, cc, gc = seat(state, BG), seat(state, CC), seat(state, GC)
    put(state, BG, "shub-niggurath", "plain-of-the-ghouls")  # Underworld
    give_turn(state, BG, power=4)
    assert "avatar crawling-chaos to kadath" in texts(state, BG)  # a Surface Area
    put(state, CC, "hunting-horror", KOTH)  # Underworld
    put(state, CC, "flying-polyp", ZURA)
    put(state, GC, "deep-one", ZURA)
    state.seats[cc].spellbooks = ["seek-and-destroy"]
    give_turn(state, CC, power=4)
    state, _ = play(state, CC, f"battle {ZURA} vs great-cthulhu")
    assert state.pending[0].kind == "pre-battle" and f"cc-seek-and-destroy {KOTH}" in texts(state, CC)
    fresh = dream(3)
    put(fresh, GC, "cthulhu", "sea-of-pitch")  # an Underworld sea: Submerge works there
    fresh.seats[gc].spellbooks = ["submerge"]
    give_turn(fresh, GC, power=4)
    assert "submerge" in texts(fresh, GC)
    fresh.seats[gc].units["cthulhu"][0] = "@card"  # Submerged: he may Emerge anywhere, on either board
    emerge = {a.area for a in ENGINE.legal_actions(fresh, gc) if a.kind == "emerge"}
    assert {"southern-sea", "kadath", "sea-of-pitch", VALE} <= emerge


# ---- the Bhole --------------------------------------------------------------------------------------------------
def test_the_bhole_starts_in_the_vale_of_pnath_and_the_zoogs_off_the_map():
    state = dream(4)
    assert creatures.bhole_area(state) == VALE and state.pieces["zoog"] == [POOL] * 6


def test_the_bhole_destroys_the_gate_in_its_area_and_eliminates_its_controller_as_an_enemy_would():
    state = dream(4)
    ys = seat(state, YS)
    state.seats[ys].spellbooks = ["passion"]
    index = move_acolyte(state, YS, VALE, control=True)
    power = state.seats[ys].power
    log = doom_end(state, [1] * 6)  # the Bhole stays (a Gate is there); the dice are the Zoogs'
    assert VALE not in state.gates and state.seats[ys].units["acolyte"][index] == POOL
    assert creatures.bhole_area(state) == VALE
    assert state.seats[ys].power == power + 1  # Passion: the Bhole's elimination counts as an enemy's
    assert any("destroys yellow-sign's Gate in vale-of-pnath" in line for line in log)


@pytest.mark.parametrize("roll, area", [(1, "sea-of-pitch"), (2, "sea-of-pitch"), (3, "vaults-of-zin")])
def test_without_a_gate_the_bhole_rolls_to_an_underworld_citadel_and_destroys_its_gate(roll, area):
    state = dream(5)
    bg = seat(state, BG)
    index = move_acolyte(state, BG, area, control=True)
    move_acolyte(state, BG, area)  # a second Acolyte there, untouched
    doom_end(state, [roll] + [1] * 6)
    assert creatures.bhole_area(state) == area and area not in state.gates
    assert state.seats[bg].units["acolyte"][index] == POOL and state.seats[bg].units["acolyte"].count(area) == 1


def test_the_bhole_moves_even_to_a_citadel_without_a_gate():
    state = dream(5)
    doom_end(state, [6] + [1] * 6)
    assert creatures.bhole_area(state) == citadel(state, "underworld", 6)


def test_a_dry_run_of_the_last_doom_phase_decision_never_shows_the_bhole_or_zoog_dice():
    """The creatures' dice come from the game's generator, which a dry run replaces (Engine.try_action)."""
    state = dream(3)
    state.phase, state.turn, state.pending, state.doom_queue = "doom", None, [], []
    state.doom_queue = [seat(state, CC)]
    phases.advance(state, [])
    assert state.pending[0].kind == "ritual" and ENGINE.to_move(state) == [seat(state, CC)]
    trial = ENGINE.try_action(state, seat(state, CC), ENGINE.parse("no-ritual", state, seat(state, CC)))
    assert trial.chance and trial.state_after is None and "Zoogs' dice" in trial.preview.summary
    assert state.pieces["zoog"] == [POOL] * 6 and state.rng.draws == 0


def test_the_bhole_attacks_after_every_ritual_of_the_doom_phase():
    """Rituals still count the Gate the Bhole is about to destroy; the Bhole and then the Zoogs act at the end."""
    state = dream(3)
    bg = seat(state, BG)
    move_acolyte(state, BG, VALE, control=True)
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    doom = state.seats[bg].doom
    rituals = 0
    while state.pending:
        s = ENGINE.to_move(state)[0]
        kind = state.pending[0].kind
        rituals += kind == "ritual"
        answer = {"direction": "direction clockwise", "ritual": "ritual" if s == bg else "no-ritual"}.get(kind)
        if kind == "ritual" and s == bg:
            assert VALE in state.gates  # still standing while the Rituals are made
        if answer is None:
            answer = ENGINE.notation(ENGINE.legal_actions(state, s)[0])
        state, log = ENGINE.apply(state, s, ENGINE.parse(answer, state, s))
    assert rituals == 3 and state.phase == "action" and state.round == 2
    assert state.seats[bg].doom >= doom + 2 * 2  # its two Gates in the Doom phase and in its Ritual
    assert VALE not in state.gates and len(creatures.zoog_areas(state)) >= 1


def test_a_killed_bhole_returns_home_without_rolling_and_destroys_a_gate_there():
    state = dream(4)
    state.pieces["bhole"] = [POOL]
    index = move_acolyte(state, CC, VALE, control=True)
    log = doom_end(state, [1] * 6)  # the six dice go to the Zoogs: the Bhole rolls nothing
    assert creatures.bhole_area(state) == VALE and VALE not in state.gates
    assert state.seats[seat(state, CC)].units["acolyte"][index] == POOL
    assert state.rng.at == 6 and any("does not roll" in line for line in log)


def test_the_bhole_destroys_and_eliminates_yog_sothoth_besides_a_normal_gate():
    state = seated([GC, BG, OW], starts={OW: "kadath"}, map="dreamlands")
    ow = seat(state, OW)
    put(state, OW, "yog-sothoth", "sea-of-pitch")
    move_acolyte(state, BG, "sea-of-pitch", control=True)
    state.pieces["bhole"] = ["sea-of-pitch"]
    doom_end(state, [1] * 6)
    assert state.seats[ow].units["yog-sothoth"][0] == POOL and "sea-of-pitch" not in state.gates


def bhole_battle(rolls: list[int], *, where: str = KAROTH, **options):
    """Great Cthulhu (two Deep Ones and a Shoggoth: 4 dice) battles the Bhole in ``where``."""
    state = dream(5, **options)
    state.pieces["bhole"] = [where]
    put(state, GC, "deep-one", where, 2)
    put(state, GC, "shoggoth", where)
    give_turn(state, GC, power=4)
    state.rng = ScriptedDice(rolls)
    return state


def test_the_bhole_has_combat_6_and_one_kill_destroys_it():
    state = bhole_battle([6, 1, 1, 1] + [1, 1, 1, 1, 1, 1])
    gc = seat(state, GC)
    assert f"battle {KAROTH} vs bhole" in texts(state, GC)
    state, log = play(state, GC, f"battle {KAROTH} vs bhole")
    assert any("the Bhole rolls 6 dice" in line for line in log)
    assert state.pieces["bhole"] == [POOL] and state.battle is None
    assert "kill-one" in state.seats[gc].requirements or state.pending[0].kind == "spellbook"


def test_a_pained_bhole_goes_home_and_the_attackers_pained_units_may_not_follow():
    state = bhole_battle([5, 1, 1, 1] + [6, 4, 1, 1, 1, 1])  # GC: 1 Pain; the Bhole: 1 Kill, 1 Pain
    gc = seat(state, GC)
    put(state, GC, "starspawn", VALE)  # GC units in the Vale: the Bhole goes there all the same
    state, _ = play(state, GC, f"battle {KAROTH} vs bhole")
    assert state.pending[0].kind == "assign" and ENGINE.to_move(state) == [gc]  # the attacker assigns (default)
    state, _ = play(state, GC, "assign kill deep-one")
    if state.pending and state.pending[0].kind == "assign":
        state, _ = play(state, GC, "assign pain shoggoth")
    assert creatures.bhole_area(state) == VALE
    assert state.pending[0].kind == "retreat"
    targets = {a.target for a in ENGINE.legal_actions(state, gc)}
    assert VALE not in targets and ZURA in targets  # not into the Bhole's Area; through the tunnel is fine


def test_a_bhole_pained_in_the_vale_ignores_it():
    state = bhole_battle([5, 1, 1, 1] + [1] * 6, where=VALE)
    state, log = play(state, GC, f"battle {VALE} vs bhole")
    assert creatures.bhole_area(state) == VALE and any("ignores it" in line for line in log)


def test_the_next_player_may_assign_the_bholes_results_by_option():
    state = bhole_battle([1, 1, 1, 1] + [6, 4, 1, 1, 1, 1], bhole_hits_assigned_by="next-player")
    state, _ = play(state, GC, f"battle {KAROTH} vs bhole")
    assert state.pending[0].kind == "assign" and ENGINE.to_move(state) == [state.order_from(seat(state, GC))[1]]


def pre_battle(state, faction: str, enemy) -> set[str]:
    """The pre-battle abilities ``faction`` is offered when it battles ``enemy`` (a faction or a creature) in Karoth."""
    s = seat(state, faction)
    probe = state.copy()
    give_turn(probe, faction, power=4)
    start_battle(probe, s, KAROTH, enemy if isinstance(enemy, str) and enemy in creatures.NEUTRALS else seat(probe, enemy), [])
    return {ENGINE.notation(a) for a in board.faction_of(probe, s).pre_battle_options(probe, s, probe.battle)}


def test_abilities_against_the_bhole_affect_only_your_own_units():
    """Devour, Howl, Demand Sacrifice and Abduct are offered against a faction, never against the Bhole; against Zoogs
    (Monsters) those that take a Monster are."""
    state = seated([GC, WW, SL, CC], starts={WW: "leng"}, map="dreamlands")
    ww, sl, cc = seat(state, WW), seat(state, SL), seat(state, CC)
    state.pieces["bhole"] = [KAROTH]
    state.pieces["zoog"][0] = KAROTH
    put(state, GC, "cthulhu", KAROTH)
    put(state, GC, "deep-one", KAROTH)
    put(state, WW, "wendigo", KAROTH)
    put(state, SL, "tsathoggua", KAROTH)
    put(state, CC, "nightgaunt", KAROTH)
    state.seats[ww].spellbooks, state.seats[sl].spellbooks, state.seats[cc].spellbooks = ["howl"], ["demand-sacrifice"], ["abduct"]
    for faction, ability, foe in ((GC, "devour", CC), (WW, "ww-howl", GC), (SL, "sl-demand-sacrifice", GC), (CC, "cc-abduct", GC)):
        assert ability in pre_battle(state, faction, foe), faction
        assert ability not in pre_battle(state, faction, "bhole"), faction
    assert "devour" in pre_battle(state, GC, "zoogs") and "cc-abduct" in pre_battle(state, CC, "zoogs")
    assert "ww-howl" in pre_battle(state, WW, "zoogs") and "sl-demand-sacrifice" not in pre_battle(state, SL, "zoogs")


def test_the_bhole_has_no_power_doom_or_spellbooks_for_variable_combat():
    state = seated([CC, WW, SL], starts={WW: "leng"}, map="dreamlands")
    cc, ww, sl = seat(state, CC), seat(state, WW), seat(state, SL)
    for faction, unit in ((CC, "nyarlathotep"), (WW, "ithaqua"), (SL, "tsathoggua")):
        put(state, faction, unit, KAROTH)
    state.seats[cc].spellbooks = ["abduct", "invisibility"]
    for s in (cc, ww, sl):
        state.seats[s].power = state.seats[s].doom = 20
    battle = lambda s: {"area": KAROTH, "attacker": s, "defender": "bhole"}  # noqa: E731
    assert side_combat(state, cc, battle(cc), KAROTH) == 2  # Nyarlathotep: his own spellbooks only
    assert side_combat(state, ww, battle(ww), KAROTH) == 0  # Ithaqua: half of no Doom
    assert side_combat(state, sl, battle(sl), KAROTH) == 2  # Tsathoggua: at least 2


# ---- the Zoogs ---------------------------------------------------------------------------------------------------
def test_six_zoogs_appear_in_the_first_doom_phase_on_the_surface_citadels_of_their_numbers():
    state = dream(5)
    log = doom_end(state, [6, 1, 6, 6, 3, 4, 5])  # the Bhole's die first (no Gate in the Vale), then one per Zoog
    assert any("6 not in play roll [1, 6, 6, 3, 4, 5]" in line for line in log)
    where = sorted(state.pieces["zoog"])
    expected = sorted(citadel(state, "surface", n) for n in (1, 6, 6, 3, 4, 5))
    assert where == expected and all(state.layout.area(a).board == "surface" for a in where)


def test_a_zoog_on_a_citadel_with_a_controlled_gate_forces_it_abandoned():
    state = dream(4)
    ys = seat(state, YS)
    home = state.seats[ys].flags["start-area"]  # Celephaïs, a Citadel (the one confirmed start)
    number = state.layout.area(home).citadel[0]
    log = doom_end(state, [1] + [number] + [1] * 5)
    assert state.gates[home] is None and any("must Abandon its Gate" in line for line in log)
    assert home in creatures.zoog_areas(state)


def test_nobody_controls_or_builds_a_gate_where_zoogs_are():
    state = dream(4)
    ys = seat(state, YS)
    home = state.seats[ys].flags["start-area"]
    state.gates[home] = None
    state.pieces["zoog"][0] = home
    give_turn(state, YS, power=8)
    assert not any(m.startswith("control") for m in texts(state, YS))
    with pytest.raises(IllegalMove, match="Zoogs"):
        play(state, YS, f"control {home}")
    other = citadel(state, "surface", 1)
    move_acolyte(state, YS, other)
    state.pieces["zoog"][1] = other
    assert f"gate {other}" not in texts(state, YS)
    with pytest.raises(IllegalMove, match="Zoogs"):
        play(state, YS, f"gate {other}")
    state.options = state.options.model_copy(update={"gate_in_zoog_area": "abandoned"})
    state, _ = play(state, YS, f"gate {other}")
    assert state.gates[other] is None


def test_a_gate_brought_with_its_cultist_into_a_zoog_area_is_abandoned_at_once():
    """Cursed Slumber's return (like The Beyond One) puts a Gate and its Cultist down together: Zoogs there make it
    Abandoned straight away (creatures.enforce, after every step)."""
    state = seated([SL, GC, CC], map="dreamlands")
    sl = seat(state, SL)
    area = citadel(state, "surface", 3)
    state.pieces["zoog"][0] = area
    index = move_acolyte(state, SL, "cavern-of-flame")  # stands in for the Cultist that sank with the Gate
    state.seats[sl].units["acolyte"][index] = "@held"
    state.seats[sl].flags["slumber"] = ["acolyte", index]
    state.seats[sl].spellbooks = ["cursed-slumber"]
    give_turn(state, SL, power=4)
    state, log = play(state, SL, f"sl-slumber-return {area}")
    assert state.gates[area] is None and state.seats[sl].units["acolyte"][index] == area
    assert any("must Abandon its Gate" in line for line in log)


def zoog_battle(rolls: list[int], zoogs: int = 3, **options):
    """Great Cthulhu (five Deep Ones... well, 5 dice) battles Zoogs on a Surface Citadel."""
    state = dream(5, **options)
    area = citadel(state, "surface", 1)
    for i in range(zoogs):
        state.pieces["zoog"][i] = area
    put(state, GC, "deep-one", area, 3)
    put(state, GC, "shoggoth", area)
    give_turn(state, GC, power=4)
    state.rng = ScriptedDice(rolls)
    return state, area


def test_zoogs_roll_no_dice_kills_kill_them_and_pains_remove_them_and_pain_you_kills_first():
    """The example: 3 Zoogs, 2 Kills and 3 Pains: 2 killed, 1 removed by Pain, 1 Pain on the attacker."""
    state, area = zoog_battle([6, 6, 5, 4, 4])
    gc = seat(state, GC)
    assert f"battle {area} vs zoogs" in texts(state, GC)
    state, log = play(state, GC, f"battle {area} vs zoogs")
    assert "the Zoogs roll 0 dice []: 0 Kill, 0 Pain." in log
    assert creatures.zoogs_in(state, area) == 0
    assert f"2 Zoogs in {area} are killed." in log and f"1 Zoog in {area} is removed by Pain." in log
    assert state.pending[0].kind == "assign" and ENGINE.to_move(state) == [gc]
    assert {a.result for a in ENGINE.legal_actions(state, gc)} == {"pain"}
    state, _ = play(state, GC, "assign pain shoggoth")
    assert "kill-two" in state.seats[gc].requirements or state.seats[gc].flags.get("battle-requirements")


def test_pained_units_never_retreat_into_an_area_with_zoogs():
    state, area = zoog_battle([5, 1, 1, 1, 1], zoogs=1)
    gc = seat(state, GC)
    neighbours = list(state.layout.area(area).adjacent)
    blocked = next(a for a in neighbours if state.layout.area(a).citadel)  # a Citadel beside it, with a Zoog
    state.pieces["zoog"][1] = blocked
    state, _ = play(state, GC, f"battle {area} vs zoogs")
    if state.pending and state.pending[0].kind == "assign":
        state, _ = play(state, GC, "assign pain shoggoth")
    assert state.pending[0].kind == "retreat"
    targets = {a.target for a in ENGINE.legal_actions(state, gc)}
    assert targets == set(neighbours) - {blocked}


def test_no_pained_unit_retreats_into_an_area_with_zoogs_in_a_battle_between_factions_either():
    state = dream(5)
    gc = seat(state, GC)
    where = "enchanted-wood"
    put(state, GC, "deep-one", where)
    put(state, CC, "flying-polyp", where)
    zoogs = next(a for a in state.layout.area(where).adjacent if state.layout.area(a).citadel)
    state.pieces["zoog"][0] = zoogs
    give_turn(state, GC, power=4)
    state.rng = ScriptedDice([1, 5])  # GC misses, Crawling Chaos Pains the Deep One
    state, _ = play(state, GC, f"battle {where} vs crawling")
    assert state.pending[0].kind == "retreat"
    assert {a.target for a in ENGINE.legal_actions(state, gc)} == set(state.layout.area(where).adjacent) - {zoogs}


def test_a_zoog_removed_by_pain_is_no_kill_unless_the_option_says_so():
    for counts, expected in ((False, 0), (True, 1)):
        state, area = zoog_battle([4, 1, 1, 1, 1], zoogs=1, zoog_pain_counts_as_kill=counts)
        gc = seat(state, GC)
        state, log = play(state, GC, f"battle {area} vs zoogs")
        if state.pending and state.pending[0].kind == "assign":
            state, _ = play(state, GC, "assign pain shoggoth")
        earned = set(state.seats[gc].requirements) | set(state.seats[gc].flags.get("battle-requirements", []))
        assert ("kill-one" in earned) == bool(expected), counts


def test_howl_and_devour_take_a_zoog_with_no_pain_back():
    state = seated([GC, WW, BG], starts={WW: "leng"}, map="dreamlands")
    ww, gc = seat(state, WW), seat(state, GC)
    area = citadel(state, "surface", 1)
    state.pieces["zoog"][:3] = [area] * 3
    put(state, WW, "wendigo", area, 2)
    state.seats[ww].spellbooks = ["howl"]
    give_turn(state, WW, power=4)
    state.rng = ScriptedDice([1, 1])
    state, _ = play(state, WW, f"battle {area} vs zoogs")
    state, log = play(state, WW, "ww-howl")
    assert creatures.zoogs_in(state, area) == 2 and any("Howl: a Zoog" in line for line in log)
    assert f"1 Zoog in {area} is eliminated." in log, "taken by an ability, a Zoog is eliminated (not killed)"
    put(state, GC, "cthulhu", area)
    give_turn(state, GC, power=4)
    state.rng = ScriptedDice([1] * 6)
    state, _ = play(state, GC, f"battle {area} vs zoogs")
    state, _ = play(state, GC, "devour")
    assert creatures.zoogs_in(state, area) == 1


def test_a_zoog_moved_to_an_area_that_is_no_citadel_is_eliminated():
    state = dream(3)
    bg = seat(state, BG)
    area = citadel(state, "surface", 1)
    state.pieces["zoog"][0] = area
    put(state, BG, "shub-niggurath", ZURA)  # no Citadel
    give_turn(state, BG, power=4)
    state, log = play(state, BG, f"avatar zoogs to {area}")
    assert state.seats[bg].units["shub-niggurath"][0] == area and creatures.zoogs_in(state, area) == 0
    assert state.pieces["zoog"][0] == POOL and any("no Citadel, is eliminated" in line for line in log)


def test_killed_and_eliminated_zoogs_come_back_in_the_next_doom_phase():
    state = dream(5)
    area = citadel(state, "surface", 4)
    state.pieces["zoog"] = [area, area, POOL, POOL, POOL, POOL]
    doom_end(state, [3] + [1, 1, 1, 1])  # the Bhole, then only the four Zoogs not in play roll
    assert state.pieces["zoog"].count(area) == 2 and state.pieces["zoog"].count(citadel(state, "surface", 1)) == 4
    assert state.rng.at == 5


# ---- the Citadel victory -------------------------------------------------------------------------------------------
def control_all_but_one(state, faction: str, board: str) -> str:
    """Give ``faction`` controlled Gates in three Citadels of ``board``; the fourth Citadel gets an Abandoned Gate and
    one of its Acolytes. Returns the fourth."""
    cits = [a.id for a in state.layout.citadels(board)]
    for area in cits[:-1]:
        if state.controller(area) != seat(state, faction):
            move_acolyte(state, faction, area, control=True)
    last = cits[-1]
    state.gates[last] = None
    move_acolyte(state, faction, last)
    return last


def test_gates_in_all_four_citadels_of_one_board_win_at_once_whatever_the_doom_and_spellbooks():
    state = dream(4)
    last = control_all_but_one(state, YS, "surface")
    give_turn(state, YS, power=4)
    assert ENGINE.outcome(state) is None
    state, log = play(state, YS, f"control {last}")
    outcome = ENGINE.outcome(state)
    assert state.phase == "over" and outcome.winners == [seat(state, YS)] and "Citadel victory" in outcome.reason
    assert state.seats[seat(state, YS)].spellbooks == [] and state.citadel_victory == (seat(state, YS), "surface")


def test_citadels_of_two_boards_do_not_make_four():
    state = dream(4)
    home = state.seats[seat(state, YS)].flags["start-area"]
    surface = [a.id for a in state.layout.citadels("surface") if a.id != home][:2] + [home]
    cits = surface + [state.layout.citadels("underworld")[0].id]
    for area in cits:
        if state.controller(area) != seat(state, YS):
            move_acolyte(state, YS, area, control=True)
    give_turn(state, YS, power=4)
    state, _ = play(state, YS, "pass")
    assert state.phase != "over" and state.citadel_victory is None


def test_yog_sothoth_counts_as_a_controlled_gate_in_a_citadel_even_beside_an_enemy_gate_and_zoogs():
    state = seated([GC, BG, OW], starts={OW: "kadath"}, map="dreamlands")
    ow, bg = seat(state, OW), seat(state, BG)
    cits = [a.id for a in state.layout.citadels("underworld")]
    for area in cits[:3]:
        move_acolyte(state, OW, area, control=True)
    last = cits[3]
    move_acolyte(state, BG, last, control=True)  # Black Goat holds the normal Gate there
    put(state, OW, "yog-sothoth", state.layout.area(last).adjacent[0])
    give_turn(state, OW, power=4)
    state, _ = play(state, OW, f"move yog-sothoth {state.layout.area(last).adjacent[0]}>{last}")
    assert state.phase == "over" and ENGINE.outcome(state).winners == [ow] and state.controller(last) == bg
    # Zoogs do not touch him: on the Surface too
    fresh = seated([GC, BG, OW], starts={OW: "kadath"}, map="dreamlands")
    surface = [a.id for a in fresh.layout.citadels("surface")]
    for area in surface[:3]:
        move_acolyte(fresh, OW, area, control=True)
    fresh.pieces["zoog"][0] = surface[3]
    put(fresh, OW, "yog-sothoth", surface[3])
    give_turn(fresh, OW, power=4)
    fresh, _ = play(fresh, OW, "pass")
    assert fresh.citadel_victory == (seat(fresh, OW), "surface")


def test_otherwise_the_game_ends_and_is_won_as_on_earth():
    state = dream(3)
    gc = seat(state, GC)
    state.seats[gc].spellbooks = ["devolve", "absorb", "regenerate", "dreams", "submerge", "yha-nthlei"]
    state.ritual_step = len(state.ritual_track) - 1
    state.phase, state.turn, state.pending, state.doom_queue = "doom", None, [], []
    state.rng = ScriptedDice([1] * 7)
    log: list[str] = []
    phases.advance(state, log)
    outcome = ENGINE.outcome(state)
    assert state.phase == "over" and outcome.winners == [gc] and state.citadel_victory is None
    assert any("Zoogs" in line for line in log)  # the creatures still acted before the end


# ---- rulings --------------------------------------------------------------------------------------------------------
def test_factions_may_choose_their_start_areas_by_option():
    state = new_game(3, 1, direction=None, map="dreamlands", start_areas="choose")
    assert [p.kind for p in state.pending] == ["start-area"] * 3 + ["direction"]
    assert state.gates == {} and [p.seat for p in state.pending[:3]] == [0, 1, 2]
    first = state.pending[0].seat
    state, _ = ENGINE.apply(state, first, ENGINE.parse(f"start {VALE}", state, first))
    second = state.pending[0].seat
    assert VALE not in {a.area for a in ENGINE.legal_actions(state, second)}
    default = dream(3)
    assert {fs.flags["start-area"] for fs in default.seats} == {"southern-sea", "kadath", "plain-of-the-ghouls"}
    assert not Turn(0).acted


# ---- the picture and the position text -------------------------------------------------------------------------------
@pytest.mark.parametrize("players, alternate", [(3, False), (4, False), (4, True), (5, False)])
def test_the_picture_draws_both_boards_apart_without_overlap(players, alternate):
    state = dream(players, alternate_layout=alternate)
    cards = {area: place.card for area, place in map_places(state.layout_name).areas.items()}
    for a in cards:
        for b in cards:
            if a < b:
                assert not boxes_overlap(cards[a], cards[b]), (state.layout_name, a, b)
    boxes = {p.id: frame_box(p.frame) for p in state.layout.board_places}
    for area in state.layout.areas:
        left, top, right, bottom = boxes[area.board]
        x1, y1, x2, y2 = cards[area.id]
        assert left <= x1 and x2 <= right and top <= y1 and y2 <= bottom, area.id
    assert {area.board for area in state.layout.areas if cards[area.id][2] <= MAP_W / 2} == {"surface"}


def test_the_picture_marks_tunnels_citadels_creatures_and_the_provisional_status():
    state = dream(5)
    area = citadel(state, "surface", 1)
    state.pieces["zoog"][:2] = [area, area]
    texts_drawn = [s.text for s in draw_map(state).shapes if isinstance(s, Text)]
    joined = " ".join(texts_drawn)
    assert "PROVISIONAL MAP" in joined and "Surface (5-player side)" in joined and "Underworld (5-player side)" in joined
    assert texts_drawn.count("A") == 2 and "Bhole" in texts_drawn and "2 Zoogs" in texts_drawn and "1-2" in texts_drawn
    assert "Tunnels (the purple letters join the boards)" in joined
    earth = new_game(3)
    assert "PROVISIONAL" not in " ".join(s.text for s in draw_map(earth).shapes if isinstance(s, Text))


def test_the_position_text_and_view_say_the_map_is_provisional_and_show_the_creatures():
    state = dream(4)
    state.pieces["zoog"][0] = citadel(state, "surface", 3)
    text = ENGINE.describe(state, None)
    assert "PROVISIONAL" in text and "vale-of-pnath: Bhole" in text and "1 Zoog" in text and "Citadels (die numbers)" in text
    view = ENGINE.view(state, None)
    assert view["map"]["status"] == "provisional" and view["creatures"]["bhole"] == VALE
    assert view["creatures"]["zoogs_not_in_play"] == 5
    assert "PROVISIONAL" in ENGINE.summary and "dreamlands_4p_alt" in ENGINE.summary
    assert "map" in ENGINE.view(new_game(3), None) and "creatures" not in ENGINE.view(new_game(3), None)


def test_a_zoog_moved_onto_a_citadel_makes_the_gate_there_abandoned():
    """rules_text dreamlands-zoogs: no Gate is controlled in an Area with a Zoog; a Zoog Avatar sends to Shub's
    Citadel stays there, and the faction holding the Gate there must Abandon it (the log says who)."""
    state = dream(3)
    area = citadel(state, "surface", 1)
    origin = next(c for c in (citadel(state, "surface", n) for n in range(2, 7)) if c != area)
    state.pieces["zoog"][0] = area
    put(state, BG, "shub-niggurath", origin)
    move_acolyte(state, GC, origin, control=True)
    give_turn(state, BG, power=4)
    state, log = play(state, BG, f"avatar zoogs to {area}")
    assert state.pieces["zoog"][0] == origin and state.controller(origin) is None
    assert f"Zoogs in {origin}: {GC} must Abandon its Gate there." in log
