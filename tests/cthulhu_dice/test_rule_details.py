"""What a player or a model sees of each rule: the refusals (their rule citations and what is legal
instead), the event texts, the names, the turn counts, a finished game, copies of a state that
stay apart, and the solver's description of a game's rules.

Written from rules_text cthulhu-dice (setup, turn, end, rulings) and core/errors.py (every refusal
cites its rules section and lists what is legal instead); these are the details a mutation run
(benchmarks/mutation.py) showed no earlier test pinned down.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.core.errors import BadOptions, GameOver, IllegalMove, NotYourTurn
from tabletop.core.rng import Rng
from tabletop.games.cthulhu_dice.dice import DieKind, Face
from tabletop.games.cthulhu_dice.model import (
    CTHULHU_DICE,
    DiceRules,
    GameRules,
    elder_sign_dice,
    hand_distribution,
    initial_state,
    rules_for_options,
)
from tabletop.games.cthulhu_dice.rules import (
    BagCounts,
    CthulhuDiceOptions,
    DiceState,
    Retreat,
    Roll,
    apply,
    legal_actions,
    new_game,
    outcome,
    to_move,
)

from .rigged import rig

L, M, T = DieKind.library, DieKind.museum, DieKind.tomb
ES, CL, TE = Face.elder_sign, Face.clue, Face.tentacle
RULES_TEXT = Path(__file__).resolve().parents[2] / "rules_text" / "cthulhu-dice"


def cites(error: pytest.ExceptionInfo, section: str) -> None:
    """The refusal cites ``section`` of rules_text cthulhu-dice, and that section exists."""
    assert error.value.rule == f"cthulhu-dice/{section}"
    assert any(path.stem.endswith(f"-{section}") for path in RULES_TEXT.glob("*.md")), section
    assert f"rules://cthulhu-dice/{section}" in str(error.value)


def roll(state: DiceState, draws: list[DieKind], faces: list[Face]) -> tuple[DiceState, list[str]]:
    rig(state, draws, faces)
    return apply(state, state.seat, Roll())


def named_game(**options) -> DiceState:
    return new_game(CthulhuDiceOptions(**options), 2, seed=5, names=["Ann", "Bob"])


def finished_game() -> DiceState:
    state = named_game()
    state.scores = [13, 0]
    for _ in range(2):
        state, _ = roll(state, [L, L, L], [CL, CL, CL])
        state, _ = apply(state, state.seat, Retreat())
    assert state.phase == "over"
    return state


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [1, 7])
def test_a_wrong_number_of_players_is_refused_citing_the_setup(seats):
    with pytest.raises(BadOptions) as error:
        new_game(CthulhuDiceOptions(), seats, seed=1)
    assert error.value.message == f"Cthulhu Dice takes 2 to 6 players, not {seats}"
    cites(error, "setup")


def test_a_bag_of_five_is_refused_citing_the_rulings():
    with pytest.raises(BadOptions) as error:
        new_game(CthulhuDiceOptions(bag=BagCounts(library=5, museum=0, tomb=0)), 2, seed=1)
    assert error.value.message == "The bag needs at least 6 dice so a turn can always be played"
    cites(error, "rulings")


def test_retreating_before_the_first_roll_is_refused_and_roll_offered():
    state = named_game()
    with pytest.raises(IllegalMove) as error:
        apply(state, 0, Retreat())
    assert error.value.message == (
        "You cannot retreat before your first roll: every turn starts with a roll of three dice"
    )
    assert error.value.legal == ["roll"]
    cites(error, "turn")


def test_rolling_on_a_short_bag_under_must_retreat_is_refused_and_retreat_offered():
    state = new_game(
        CthulhuDiceOptions(bag=BagCounts(library=7, museum=0, tomb=0), bag_exhaustion="must_retreat"), 2, seed=5
    )
    for _ in range(2):
        state, _ = roll(state, [L, L, L], [ES, ES, ES])
    with pytest.raises(IllegalMove) as error:
        apply(state, 0, Roll())
    assert error.value.message == (
        "The bag holds 1 die but you need 3, and under the 'must_retreat' ruling you may not continue"
    )
    assert error.value.legal == ["retreat"]
    cites(error, "rulings")


def test_playing_out_of_turn_is_refused_naming_both_players():
    state = named_game()
    with pytest.raises(NotYourTurn) as error:
        apply(state, 1, Roll())
    assert error.value.message == "It is Ann's turn, not Bob's; wait for your turn"
    cites(error, "turn")


def test_a_finished_game_refuses_every_move_and_offers_none():
    state = finished_game()
    for seat in (0, 1):
        assert legal_actions(state, seat) == [], "no action once the game is over, not even for the seat last to play"
        with pytest.raises(GameOver) as error:
            apply(state, seat, Roll())
        assert error.value.message == "The game is over: Ann wins with 13 Elder Signs; final scores: Ann 13, Bob 0 (devoured: below 13)"
        cites(error, "end")
    assert to_move(state) == []


# --- what the players read --------------------------------------------------------------------


def test_the_roll_names_the_player_each_die_and_face_and_the_totals():
    _, events = roll(named_game(), [L, M, T], [ES, CL, TE])
    assert events == ["Ann rolled: library elder sign, museum clue, tomb tentacle. Stash 1, tentacles 1."]


def test_being_downed_is_told_with_the_tentacles_and_the_stash_lost():
    state, _ = roll(named_game(), [L, L, L], [ES, TE, TE])
    state, events = roll(state, [L, M, T], [TE, ES, CL])
    assert events == [
        "Ann rolled: library tentacle, museum elder sign, tomb clue. Stash 2, tentacles 3.",
        "Ann is downed by 3 tentacles and loses a stash of 2.",
    ]
    assert state.seat == 1 and state.scores == [0, 0]


def test_the_bag_running_short_tells_how_many_elder_sign_dice_go_back():
    state = new_game(CthulhuDiceOptions(bag=BagCounts(library=7, museum=0, tomb=0)), 2, seed=5)
    for _ in range(2):
        state, _ = roll(state, [L, L, L], [ES, ES, ES])
    state, events = roll(state, [L, L, L], [CL, CL, CL])
    assert events[0] == "The bag ran short, so the 6 Elder Sign dice set aside go back in; the stash keeps its 6."


def test_players_are_called_by_their_names_and_seat_n_without_one():
    assert named_game().names == ["Ann", "Bob"]
    state, events = roll(named_game(), [L, L, L], [CL, CL, CL])
    _, events = apply(state, 0, Retreat())
    assert events[0] == "Ann retreats and banks 0: total 0."
    unnamed = new_game(CthulhuDiceOptions(), 3, seed=5)
    assert unnamed.names == ["seat 0", "seat 1", "seat 2"]
    unnamed.names = []  # a state made before names were kept (DiceState's default)
    assert [unnamed.name(s) for s in (0, 1, 2)] == ["seat 0", "seat 1", "seat 2"]


def test_each_seat_counts_its_own_turns():
    state = named_game()
    for expected in ([1, 0], [1, 1], [2, 1], [2, 2]):
        state, _ = roll(state, [L, L, L], [CL, CL, CL])
        state, _ = apply(state, state.seat, Retreat())
        assert state.turns == expected


def test_the_outcome_of_a_game_is_known_only_at_its_end():
    assert outcome(named_game()) is None
    result = outcome(finished_game())
    assert result.winners == [0]
    assert result.reason == "Ann wins with 13 Elder Signs; final scores: Ann 13, Bob 0 (devoured: below 13)"
    assert result.scores == [13.0, 0.0]
    assert to_move(named_game()) == [0]


# --- copies of a state --------------------------------------------------------------------------


def test_a_copy_is_equal_and_shares_nothing_that_play_changes():
    state = finished_game()
    state.contenders = [0, 1]
    state.clues, state.tentacles, state.signs = [1, 0, 0], [0, 1, 0], [0, 0, 1]
    state.rng = Rng(7)
    copy = state.copy()
    fields = [f for f in DiceState.__dataclass_fields__ if f != "rng"]
    assert all(getattr(copy, f) == getattr(state, f) for f in fields)
    assert copy.winners == [0] and copy.last_roll == state.last_roll and len(copy.last_roll) == 3
    for name in fields:
        value = getattr(copy, name)
        if isinstance(value, list):
            value.append(99)
            assert getattr(state, name) != value, f"{name} is shared between a state and its copy"
    before = state.rng.copy().below(1_000_000)
    copy.rng.below(1_000_000)
    assert state.rng.below(1_000_000) == before, "the copy's dice are its own"


def test_a_copy_of_a_game_without_winners_or_contenders_keeps_none():
    copy = named_game().copy()
    assert copy.winners is None and copy.contenders is None


@pytest.mark.parametrize("action", [Roll(), Retreat()])
def test_playing_leaves_the_state_played_from_unchanged(action):
    state, _ = roll(named_game(), [L, M, T], [ES, CL, TE])
    snapshot = {f: json.dumps(getattr(state, f), default=str) for f in DiceState.__dataclass_fields__ if f != "rng"}
    if isinstance(action, Roll):
        rig(state, [L, L], [ES, ES, TE])
    position = state.rng.position if hasattr(state.rng, "position") else None
    apply(state, 0, action)
    assert {f: json.dumps(getattr(state, f), default=str) for f in snapshot} == snapshot
    if position is not None:
        assert state.rng.position == position, "the dice of the state played from were not used"


# --- the solver's rules of a game ------------------------------------------------------------------


def test_a_turn_starts_with_nothing_set_aside_and_every_die_in_the_bag():
    assert initial_state(DiceRules()) == (0, 0, 0, 0, 0, 0, 8, 4, 3)
    assert initial_state(DiceRules(counts=(3, 2))) == (0, 0, 0, 0, 3, 2)


def test_the_solver_reads_a_games_options():
    options = CthulhuDiceOptions(
        goal=9, tie_rule="shared_win", bag_exhaustion="roll_fewer", bag=BagCounts(library=5, museum=3, tomb=2)
    )
    rules = rules_for_options(options)
    assert rules == GameRules(dice=DiceRules(counts=(5, 3, 2), exhaustion="roll_fewer"), goal=9, cap=18, tie_rule="shared_win")
    assert rules_for_options(CthulhuDiceOptions()) == CTHULHU_DICE


def test_rules_survive_a_round_trip_through_json_and_describe_themselves():
    rules = GameRules(dice=DiceRules(counts=(5, 3, 2), exhaustion="draw_then_return"), goal=9, cap=18, tie_rule="shared_win")
    data = json.loads(json.dumps(rules.to_json()))
    assert data == {
        "dice": {"counts": [5, 3, 2], "faces": [[3, 2, 1], [2, 2, 2], [1, 2, 3]], "exhaustion": "draw_then_return"},
        "goal": 9,
        "cap": 18,
        "tie_rule": "shared_win",
    }
    assert GameRules.from_json(data) == rules
    assert GameRules.from_json(CTHULHU_DICE.to_json()) == CTHULHU_DICE
    other_dice = GameRules(dice=DiceRules(counts=(4, 4), faces=((2, 2, 2), (1, 1, 4))))
    assert GameRules.from_json(json.loads(json.dumps(other_dice.to_json()))) == other_dice
    assert rules.describe() == "goal 9, bag 5/3/2, ties: shared_win, short bag: draw_then_return"
    assert CTHULHU_DICE.describe() == "goal 13, bag 8/4/3, ties: tiebreak_rounds, short bag: return_elder_signs"


def test_the_fingerprint_names_the_rules_and_stays_the_same_across_versions():
    """Solved variants are cached under this name (tables.py): a file written by an earlier version must
    still be found, so the standard game's name is fixed here; any changed parameter changes it."""
    assert CTHULHU_DICE.fingerprint() == "0b20204ab9517998"
    variants = [
        GameRules(goal=12),
        GameRules(cap=27),
        GameRules(tie_rule="shared_win"),
        GameRules(dice=DiceRules(exhaustion="roll_fewer")),
        GameRules(dice=DiceRules(counts=(8, 4, 2))),
        GameRules(dice=DiceRules(faces=((3, 2, 1), (2, 2, 2), (2, 2, 2)))),
    ]
    names = {CTHULHU_DICE.fingerprint()} | {v.fingerprint() for v in variants}
    assert len(names) == len(variants) + 1
    assert GameRules.from_json(CTHULHU_DICE.to_json()).fingerprint() == CTHULHU_DICE.fingerprint()


def test_each_short_bag_ruling_draws_its_own_dice_in_the_model():
    """Mid-turn with the standard bag: a Library clue in hand, a Museum Tentacle, one Tomb die left in the
    bag, so 7 Library, 3 Museum and 2 Tomb Elder Sign dice set aside; two dice are needed (rules_text
    cthulhu-dice/rulings). Worked out by hand: returning the Elder Signs draws 2 of 7/3/3 (78 pairs);
    drawing first takes the Tomb, then 1 of the 7/3/2 returned; rolling fewer rolls the clue and the Tomb."""
    state = (0, 1, 0) + (1, 0, 0) + (0, 0, 1)

    def hands(ruling):
        return {(hand, bag): p for hand, bag, p in hand_distribution(DiceRules(exhaustion=ruling), state)}

    pairs = {(2, 0, 0): 21, (0, 2, 0): 3, (0, 0, 2): 3, (1, 1, 0): 21, (1, 0, 1): 21, (0, 1, 1): 9}
    returned = {
        (tuple(c + d for c, d in zip((1, 0, 0), drawn)), tuple(n - d for n, d in zip((7, 3, 3), drawn))): ways / 78
        for drawn, ways in pairs.items()
    }
    assert hands("return_elder_signs") == pytest.approx(returned)
    assert hands("draw_then_return") == pytest.approx(
        {((2, 0, 1), (6, 3, 2)): 7 / 12, ((1, 1, 1), (7, 2, 2)): 3 / 12, ((1, 0, 2), (7, 3, 1)): 2 / 12}
    )
    assert hands("roll_fewer") == {((1, 0, 1), (0, 0, 0)): 1.0}
    assert hands("must_retreat") == {}
    assert elder_sign_dice(DiceRules(), state) == (7, 3, 2)
