"""Random games on the Dreamlands map to the end, 3, 4 and 5 players (rules_text cthulhu-wars/dreamlands): after every
move the usual invariants (figures conserved, Gates held by figures standing on them...) and the Dreamlands' own:
never more than six Zoogs and each on a Citadel (the Surface's, unless Avatar swapped one elsewhere), the Bhole always on the Underworld (or dead), no Gate controlled
in an Area with a Zoog, and a Citadel victory exactly when a faction controls a Gate in every Citadel of one board.

Two players drive the games: a uniform random one, and a "citadel seeker" that likes Gates in Citadels, walks its units
towards them, fights the creatures and rarely performs a Ritual (so games last long enough to be won at the Citadels).
Raise the counts for a long soak: CW_DREAMLANDS_GAMES=200 ./tabletop test tests/cthulhu_wars/test_dreamlands_random_games.py
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from tabletop.games.cthulhu_wars import ENGINE, board, creatures
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import POOL

from .test_cw_random_games import check_invariants

GAMES = int(os.environ.get("CW_DREAMLANDS_GAMES", "2"))
#: What the soak saw, by kind (filled by the games, read by the last test).
SEEN: Counter[str] = Counter()


def check_dreamlands(before, after, seat, action, full: bool = True) -> None:
    """The invariants after one move; ``full`` also lists every awaited seat's legal moves (check_invariants), the
    costly part, left to the uniform random games."""
    if full:
        check_invariants(before, after, seat, action)
    else:
        for fs in after.seats:
            assert {k: len(v) for k, v in fs.units.items()} == {u.name: u.count for u in board.faction_of(after, after.seat_of(fs.faction)).units}
            assert fs.power >= 0
        for area, holder in after.gates.items():
            assert holder is None or after.seats[holder[0]].units[holder[1]][holder[2]] == area
    layout = after.layout
    zoogs = after.pieces["zoog"]
    assert len(zoogs) == layout.pieces.zoogs.count == 6
    for area in creatures.zoog_areas(after):
        assert layout.area(area).citadel, area
        assert after.gates.get(area) is None, f"a Gate is controlled in {area}, where there are Zoogs"
    assert len(after.pieces["bhole"]) == 1
    bhole = after.pieces["bhole"][0]
    assert bhole == POOL or layout.area(bhole).board == "underworld"
    winner = None
    for s in range(len(after.seats)):
        held = set(board.controlled_gates(after, s))
        for name in ("surface", "underworld"):
            if {a.id for a in layout.citadels(name)} <= held and winner is None:
                winner = (s, name)
    if before.phase != "over":
        if winner is not None:
            assert after.phase == "over" and after.citadel_victory == winner and ENGINE.outcome(after).winners == [winner[0]]
        else:
            assert after.citadel_victory is None
    count(before, after, action)


def count(before, after, action) -> None:
    if action.kind == "battle" and action.enemy in creatures.NEUTRALS:
        SEEN[f"battle {action.enemy}"] += 1
    if before.pieces["bhole"][0] != POOL and after.pieces["bhole"][0] == POOL:
        SEEN["bhole killed"] += 1
    if after.doom_phases > before.doom_phases:
        SEEN["doom phase"] += 1
    if before.pieces["zoog"].count(POOL) > after.pieces["zoog"].count(POOL):
        SEEN["zoogs placed"] += 1
    if any(before.gates.get(a) and after.gates.get(a, "gone") is None for a in creatures.zoog_areas(after)):
        SEEN["gate abandoned for zoogs"] += 1
    if after.citadel_victory and not before.citadel_victory:
        SEEN[f"citadel victory {after.citadel_victory[1]}"] += 1
    if action.kind == "avatar" and action.faction == "zoogs":
        SEEN["avatar zoogs"] += 1


def seeker_weight(state, action, distance: dict[str, int], citadels: set[str]) -> float:
    kind = action.kind
    if kind in ("gate", "control") and action.area in citadels:
        return 200
    if kind == "move":
        closer = distance.get(action.target, 9) < distance.get(action.source, 9)
        return (30 if action.unit == "acolyte" else 6) if closer else 1
    if kind == "battle":
        return 30 if action.enemy in creatures.NEUTRALS else 8
    return {"pass": 0.3, "ritual": 0.05, "summon": 4, "recruit": 3}.get(kind, 2)


def play(players: int, seed: int, options: dict, seeker: bool):
    rnd = random.Random(seed)
    state = ENGINE.new_game(CthulhuWarsOptions(map="dreamlands", **options), players, seed)
    citadels = {a.id for a in state.layout.citadels()}
    distance = {c: 0 for c in citadels}
    frontier = list(citadels)
    while frontier:
        frontier = [b for a in frontier for b in state.layout.area(a).adjacent if b not in distance and not distance.update({b: distance[a] + 1})]
    moves = 0
    while ENGINE.outcome(state) is None:
        seat = rnd.choice(ENGINE.to_move(state))
        actions = ENGINE.legal_actions(state, seat)
        if seeker:
            action = rnd.choices(actions, [seeker_weight(state, a, distance, citadels) for a in actions])[0]
        else:
            action = rnd.choice(actions)
        after, _ = ENGINE.apply(state, seat, action)
        check_dreamlands(state, after, seat, action, full=not seeker)
        state = after
        moves += 1
        assert moves < 20000, "a random game must end"
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(GAMES))
def test_random_dreamlands_games_keep_the_invariants(players, seed):
    """Odd seeds: the alternate 4-player layout, and every faction choosing its start Area (option start_areas)."""
    odd = seed % 2 == 1
    state = play(players, seed, {"alternate_layout": odd, "start_areas": "choose" if odd else "symbols"}, seeker=False)
    assert ENGINE.outcome(state) is not None


#: Tables, rulings and first seeds the citadel seekers play (the expansion factions bring Yog-Sothoth, Howl, Nexus).
SEEKER_TABLES = [
    (3, {}, 2),
    (4, {}, 1000),
    (4, {"factions": ["opener-of-the-way", "black-goat", "windwalker", "great-cthulhu"], "bhole_hits_assigned_by": "next-player"}, 3000),
    (5, {"factions": ["sleeper", "opener-of-the-way", "crawling-chaos", "yellow-sign", "black-goat"],
         "zoog_pain_counts_as_kill": True, "gate_in_zoog_area": "abandoned"}, 4000),
]


@pytest.mark.parametrize("seed", range(max(GAMES - 1, 1)))
@pytest.mark.parametrize("table", range(len(SEEKER_TABLES)))
def test_citadel_seeking_games_keep_the_invariants(table, seed):
    players, options, first = SEEKER_TABLES[table]
    state = play(players, first + seed, options, seeker=True)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    if state.citadel_victory:
        assert "Citadel victory" in outcome.reason


def test_the_soak_saw_the_dreamlands_rules_at_work():
    """Runs after the games above (file order): the creatures were fought and placed, the Bhole killed, and Citadel
    victories won."""
    if not SEEN:
        for seed in range(2):
            play(4, seed, {}, seeker=True)
    for kind in ("battle bhole", "battle zoogs", "zoogs placed", "doom phase", "bhole killed", "gate abandoned for zoogs"):
        assert SEEN[kind] > 0, (kind, SEEN)
    assert SEEN["citadel victory surface"] + SEEN["citadel victory underworld"] > 0, SEEN
