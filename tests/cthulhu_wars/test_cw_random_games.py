"""Random legal games to the end: invariants, listed moves apply, refusals, notation and replay."""

import os
import random

import pytest

from tabletop.core.errors import GameError
from tabletop.games.cthulhu_wars import ENGINE, board
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions
from tabletop.games.cthulhu_wars.state import HELD, POOL

from .cw_helpers import random_game

#: Random games per player count; raise it for a long soak: CW_RANDOM_GAMES=1000 pytest ...
GAMES_PER_COUNT = int(os.environ.get("CW_RANDOM_GAMES", "4"))


def check_invariants(before, after, seat, action):
    """Figures conserved, Power never negative, one unit per Gate, Doom only rises; every seat awaited has a move,
    and an out-of-turn window never asks a seat whose only answer would be 'done'."""
    for fs, old in zip(after.seats, before.seats, strict=True):
        faction = FACTIONS[fs.faction]
        assert {k: len(v) for k, v in fs.units.items()} == {u.name: u.count for u in faction.units}
        assert fs.power >= 0
        assert fs.doom >= old.doom
    holders = [h for h in after.gates.values() if h]
    assert len(holders) == len(set(holders))
    for area, holder in after.gates.items():
        if holder:
            s, kind, index = holder
            assert after.seats[s].units[kind][index] == area
    for fs in after.seats:
        for owner, kind, index in fs.captives:
            assert after.seats[owner].units[kind][index] == "@captured"
    check_gate_accounting(after)
    if after.phase != "over":
        awaited = ENGINE.to_move(after)
        assert awaited and all(ENGINE.legal_actions(after, s) for s in awaited)
        if after.pending and after.pending[0].kind == "window":
            assert all(len(ENGINE.legal_actions(after, s)) > 1 for s in awaited), "a seat with only 'done' is asked"
            turn = after.turn.seat if after.turn else None
            assert all(a.kind != "reveal" or s != turn for s in awaited for a in ENGINE.legal_actions(after, s))


def check_gate_accounting(state):
    """Yog-Sothoth is a Gate exactly while he is on the map, sharing his Area with at most one normal Gate; a Gate in
    Cursed Slumber is off the map with its Cultist held, and still counts for its owner."""
    extra = 0
    for s, fs in enumerate(state.seats):
        faction = FACTIONS[fs.faction]
        yog = [p for p in fs.units.get("yog-sothoth", ()) if board.on_map(p)]
        assert faction.gate_areas(state, s) == yog
        extra += len(yog)
        slumber = fs.flags.get("slumber")
        if slumber:
            kind, index = slumber
            assert fs.units[kind][index] == HELD and (s, kind, index) not in state.gates.values()
        assert board.gate_count(state, s) == len(board.controlled_gates(state, s)) + (1 if slumber else 0)
        assert fs.units.get("serpent-man", []).count(HELD) == len(fs.flags.get("borrowed", [])) or state.phase == "doom"
    assert len(board.gate_holders(state)) == len(state.gates) + extra


#: Out-of-turn answers seen in the soak, by kind (filled by the soak tests, read by the last one).
OUT_OF_TURN: dict[str, int] = {}


def count_out_of_turn(before, after, seat, action):
    check_invariants(before, after, seat, action)
    if before.pending and before.pending[0].kind == "window" and action.kind != "done":
        OUT_OF_TURN[action.kind] = OUT_OF_TURN.get(action.kind, 0) + 1
        if action.kind == "reveal" and before.phase == "action":
            assert before.turn.seat != seat and after.seats[seat].doom > before.seats[seat].doom


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(GAMES_PER_COUNT))
def test_random_games_end_and_keep_the_invariants(players, seed):
    state, moves = random_game(players, seed, count_out_of_turn)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and ENGINE.to_move(state) == []
    assert all(len(state.seats[w].spellbooks) == 6 for w in outcome.winners)


def test_the_soak_used_the_out_of_turn_windows():
    """Runs after the soak above (file order): Elder Signs were revealed, and Devolve used, out of turn."""
    if not OUT_OF_TURN:
        for seed in range(3):
            random_game(4, seed, count_out_of_turn)
    assert OUT_OF_TURN.get("reveal", 0) > 0 and OUT_OF_TURN.get("devolve", 0) > 0, OUT_OF_TURN


#: Five-player tables seating every expansion faction with two core ones, and smaller expansion tables.
EXPANSION_TABLES = [
    ["great-cthulhu", "windwalker", "sleeper", "opener-of-the-way", "yellow-sign"],
    ["black-goat", "crawling-chaos", "windwalker", "sleeper", "opener-of-the-way"],
    ["sleeper", "opener-of-the-way", "great-cthulhu", "windwalker", "black-goat"],
    ["windwalker", "sleeper", "opener-of-the-way"],
    ["crawling-chaos", "windwalker", "opener-of-the-way", "sleeper"],
]
#: Expansion-faction moves seen in the soak, by kind.
EXPANSION_MOVES: dict[str, int] = {}


def count_expansion_moves(before, after, seat, action):
    check_invariants(before, after, seat, action)
    if action.kind.startswith(("ww-", "sl-", "ow-", "start")):
        EXPANSION_MOVES[action.kind] = EXPANSION_MOVES.get(action.kind, 0) + 1


@pytest.mark.parametrize("seed", range(max(GAMES_PER_COUNT, 2) * 2))
@pytest.mark.parametrize("table", range(len(EXPANSION_TABLES)))
def test_random_games_with_the_expansion_factions_keep_the_invariants(table, seed):
    factions = EXPANSION_TABLES[table]
    state, moves = random_game(len(factions), 100 * table + seed, count_expansion_moves, {"factions": factions})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and all(len(state.seats[w].spellbooks) == 6 for w in outcome.winners)


def test_the_expansion_soak_used_the_new_abilities():
    """Runs after the soak above (file order): the new factions' actions and decisions were played."""
    if not EXPANSION_MOVES:
        for seed in range(4):
            random_game(5, seed, count_expansion_moves, {"factions": EXPANSION_TABLES[seed % 3]})
    for kind in ("start", "ww-hibernate", "sl-death-from-below", "ow-beyond-one", "sl-all-lose-one"):
        assert EXPANSION_MOVES.get(kind, 0) > 0, (kind, EXPANSION_MOVES)


def test_every_listed_move_applies_and_round_trips_through_notation():
    state, moves = random_game(4, 11)
    rnd = random.Random(3)
    replay = ENGINE.new_game(state.options, 4, 11)
    for seat, action in moves:
        for other in rnd.sample(ENGINE.legal_actions(replay, seat), k=min(3, len(ENGINE.legal_actions(replay, seat)))):
            text = ENGINE.notation(other)
            assert ENGINE.parse(text, replay, seat) == other, text
            ENGINE.apply(replay, seat, other)
        replay, _ = ENGINE.apply(replay, seat, action)
    assert replay == state  # the same seed and moves reproduce the game


def test_illegal_moves_are_refused_with_the_state_unchanged():
    state, moves = random_game(3, 5)
    replay = ENGINE.new_game(state.options, 3, 5)
    rnd = random.Random(0)
    for seat, action in moves[:200]:
        snapshot = replay.copy()
        others = [s for s in range(3) if s not in ENGINE.to_move(replay)]
        if others:
            with pytest.raises(GameError):
                ENGINE.apply(replay, rnd.choice(others), action)
        bogus = ENGINE.parse("gate south-atlantic", replay, seat)
        if bogus not in ENGINE.legal_actions(replay, seat):
            with pytest.raises(GameError):
                ENGINE.apply(replay, seat, bogus)
        assert replay == snapshot
        replay, _ = ENGINE.apply(replay, seat, action)


def test_object_moves_are_read_too():
    state, _ = random_game(3, 2)
    fresh = ENGINE.new_game(state.options, 3, 2)
    seat = ENGINE.to_move(fresh)[0]
    fresh, _ = ENGINE.apply(fresh, seat, ENGINE.read_move({"kind": "direction", "direction": "clockwise"}, fresh, seat))
    action = ENGINE.read_move({"kind": "summon", "unit": "deep-one", "area": "south-pacific"}, fresh, seat)
    assert action in ENGINE.legal_actions(fresh, seat)
    assert POOL in fresh.seats[seat].units["deep-one"] and board.faction_of(fresh, seat).name == "great-cthulhu"


@pytest.mark.parametrize(
    "players, options",
    [
        (4, {"alternate_layout": True, "devolve_after_every_action": False, "reveal_out_of_turn": False}),
        (3, {"factions": ["yellow-sign", "windwalker", "opener-of-the-way"],
             "first_player_without_cthulhu": "seat-order"}),
        (5, {"victim_chooses_captured_cultist": False, "submerged_units_in_play": False,
             "thousand_forms_when_foes_short": "foes-lose-all", "north_atlantic_touches_north_pacific": False}),
    ],
)
def test_random_games_under_other_rulings(players, options):
    """The games end, and the rulings that show in play did what they say (rules_text cthulhu-wars/rulings)."""
    windows: list[tuple[int, int, str]] = []  # (window's actor, seat answering, move) for reveals and devolves

    def check(before, after, seat, action):
        check_invariants(before, after, seat, action)
        if before.pending and before.pending[0].kind == "window" and action.kind in ("reveal", "devolve"):
            windows.append((before.pending[0].data["actor"], seat, action.kind))

    state, _ = random_game(players, 7, check, options)
    assert ENGINE.outcome(state) is not None
    default = ENGINE.new_game(CthulhuWarsOptions(), players, 7)
    if options.get("alternate_layout"):
        assert state.layout_name == default.layout_name + "_alt"
    if options.get("reveal_out_of_turn") is False:
        assert not [w for w in windows if w[2] == "reveal" and w[0] != w[1]], "no Elder Sign revealed out of turn"
    if options.get("devolve_after_every_action") is False:
        assert windows and all(actor == seat for actor, seat, kind in windows if kind == "devolve"), windows
    if options.get("north_atlantic_touches_north_pacific") is False:
        assert state.layout_name != default.layout_name
    if options.get("first_player_without_cthulhu") == "seat-order":
        factions = options["factions"]
        assert all(ENGINE.new_game(CthulhuWarsOptions(factions=factions, first_player_without_cthulhu="seat-order"),
                                   players, seed).first_player == 0 for seed in range(6))
        drawn = {ENGINE.new_game(CthulhuWarsOptions(factions=factions), players, seed).first_player for seed in range(6)}
        assert len(drawn) > 1, "by default the first player is drawn"


def test_every_move_listed_with_the_expansion_factions_reads_back_from_notation_and_as_an_object():
    factions = EXPANSION_TABLES[0]
    state, moves = random_game(5, 21, None, {"factions": factions})
    replay = ENGINE.new_game(state.options, 5, 21)
    seen = set()
    for seat, action in moves:
        for other in ENGINE.legal_actions(replay, seat):
            if other.kind not in seen or other.kind.startswith(("ww-", "sl-", "ow-", "start")):
                assert ENGINE.parse(ENGINE.notation(other), replay, seat) == other, ENGINE.notation(other)
                assert ENGINE.read_move(other.model_dump(mode="json"), replay, seat) == other
                seen.add(other.kind)
        replay, _ = ENGINE.apply(replay, seat, action)
    assert replay == state
    assert any(k.startswith(("ww-", "sl-", "ow-")) for k in seen)
