"""What a model reads about a Cthulhu Dice game: the position, the move summaries, a roll's odds, the result,
and what the rules text says about the seed.

Each expectation is what a player needs to act without asking again: which dice are in hand (by kind,
as the advice and odds tools take them), the score of every player when the game ends, and who may
see the seed (the server's behaviour: app/game_tools.py new_game and history).
"""

from __future__ import annotations

from pathlib import Path

from tabletop.games.cthulhu_dice import ENGINE
from tabletop.games.cthulhu_dice.dice import DieKind, Face
from tabletop.games.cthulhu_dice.rules import CthulhuDiceOptions, DiceState, Retreat, Roll, apply, new_game

from .rigged import rig

L, M, T = DieKind.library, DieKind.museum, DieKind.tomb
ES, CL, TE = Face.elder_sign, Face.clue, Face.tentacle
ROOT = Path(__file__).resolve().parents[2]


def named_game(seats: int = 2) -> DiceState:
    return new_game(CthulhuDiceOptions(), seats, seed=5, names=["Ann", "Bob", "Cy", "Dee"][:seats])


def roll(state: DiceState, draws: list[DieKind], faces: list[Face]) -> tuple[DiceState, list[str]]:
    rig(state, draws, faces)
    return apply(state, state.seat, Roll())


def bank(state: DiceState, scores: list[int]) -> DiceState:
    """Give the seats these banked scores (as if earned) without playing their turns."""
    state.scores = list(scores)
    return state


def finish_round(state: DiceState) -> DiceState:
    """Every seat left in the round rolls three clues and retreats (banking nothing)."""
    start = state.round
    while state.phase != "over" and state.round == start:
        state, _ = roll(state, [L, L, L], [CL, CL, CL])
        state, _ = apply(state, state.seat, Retreat())
    return state


# --- clues in hand, by kind --------------------------------------------------------------------


def test_the_position_names_the_kind_of_each_clue_and_tentacle():
    state, _ = roll(named_game(), [M, L, M], [TE, CL, TE])
    line = ENGINE.describe(state, 0).split("\n")[1]
    assert "1 clue in hand (library)" in line
    assert "tentacles 2 (museum, museum; 3 lose the stash)" in line
    assert "bag 12 (7 library, 2 museum, 3 tomb)" in line
    status = ENGINE.status(state, 0)
    assert "1 clue in hand (library)" in status and status.startswith("Ann to act")


def test_two_clues_are_each_named_and_none_is_said_plainly():
    state, _ = roll(named_game(), [T, L, M], [CL, CL, TE])
    assert "2 clues in hand (library, tomb)" in ENGINE.describe(state, 0)
    state, _ = roll(named_game(), [L, L, L], [ES, ES, TE])
    assert "no clues in hand" in ENGINE.describe(state, 0)
    assert "tentacles 1 (library; 3 lose the stash)" in ENGINE.describe(state, 0)


def test_a_roll_and_its_dry_run_say_which_clue_dice_are_rolled_again():
    state, _ = roll(named_game(), [M, L, M], [TE, CL, TE])
    assert ENGINE.summarize(Roll(), state) == (
        "Keep going: roll your 1 clue die (library) with 2 new dice from the bag, "
        "risking your stash of 0 with 2 tentacles already set aside."
    )
    preview = ENGINE.chance_preview(state, 0, Roll())
    assert preview.summary == (
        "Rolling the 1 clue die in hand (library) with 2 dice drawn from the bag "
        "(7 library, 2 museum, 3 tomb), with 2 tentacles already set aside."
    )
    results = [o.result for o in preview.outcomes]
    assert "not downed, 1 Elder Sign rolled" in results and "not downed, 2 Elder Signs rolled" in results


def test_three_clues_are_rolled_again_without_drawing_and_no_clues_means_three_new_dice():
    three, _ = roll(named_game(), [L, M, T], [CL, CL, CL])
    assert ENGINE.summarize(Roll(), three).startswith(
        "Keep going: roll your 3 clue dice (library, museum, tomb) again, drawing none, "
        "risking your stash of 0 with 0 tentacles already set aside"
    )
    assert ENGINE.chance_preview(three, 0, Roll()).summary.startswith(
        "Rolling the 3 clue dice in hand (library, museum, tomb) again, drawing none"
    )
    none, _ = roll(named_game(), [L, L, T], [ES, ES, TE])
    assert ENGINE.summarize(Roll(), none).startswith("Keep going: draw 3 new dice from the bag and roll them, ")
    assert ENGINE.chance_preview(none, 0, Roll()).summary == (
        "Drawing 3 dice from the bag (6 library, 4 museum, 2 tomb) and rolling them, with 1 tentacle already set aside."
    )


# --- the result: every player's final score ----------------------------------------------------


def test_the_result_gives_the_winner_and_the_devoured_their_final_scores():
    state = finish_round(bank(named_game(), [8, 14]))
    assert state.phase == "over"
    assert state.end_reason == "Bob wins with 14 Elder Signs; final scores: Ann 8 (devoured: below 13), Bob 14"
    assert ENGINE.outcome(state).reason == state.end_reason
    assert ENGINE.describe(state, None) == f"Game over: {state.end_reason}."


def test_a_player_who_reached_the_goal_but_lost_is_listed_too():
    state = finish_round(bank(named_game(4), [14, 13, 12, 0]))
    assert state.end_reason == (
        "Ann wins with 14 Elder Signs; final scores: Ann 14, Bob 13, Cy 12 (devoured: below 13), Dee 0 (devoured: below 13)"
    )


def test_a_shared_win_and_a_tie_break_list_every_score():
    shared = new_game(CthulhuDiceOptions(tie_rule="shared_win"), 3, seed=3, names=["Ann", "Bob", "Cy"])
    shared = finish_round(bank(shared, [5, 14, 14]))
    assert shared.end_reason == "Bob and Cy share the win with 14 Elder Signs; final scores: Ann 5 (devoured: below 13), Bob 14, Cy 14"
    tied = finish_round(bank(named_game(3), [14, 16, 16]))
    assert tied.contenders == [1, 2] and tied.phase == "start"
    tied, _ = roll(tied, [L, L, L], [ES, ES, CL])
    tied, _ = apply(tied, 1, Retreat())
    tied = finish_round(tied)
    assert tied.end_reason == "Bob wins with 18 Elder Signs; final scores: Ann 14, Bob 18, Cy 16"


def test_the_last_move_reports_the_end_as_one_of_its_events():
    """The end reason is an event of the move that ends the game (so the move log keeps it); whoever prints a
    move's answer must not print the outcome's reason again."""
    state = bank(named_game(), [8, 13])
    state, _ = roll(state, [L, L, L], [CL, CL, CL])
    state, _ = apply(state, 0, Retreat())
    state, _ = roll(state, [L, L, L], [CL, CL, CL])
    state, events = apply(state, 1, Retreat())
    assert events == ["Bob retreats and banks 0: total 13.", f"Game over: {state.end_reason}."]


def test_the_picture_keeps_only_the_short_result():
    state = finish_round(bank(named_game(4), [14, 13, 12, 0]))
    texts = [getattr(item, "text", "") for item in ENGINE.draw(state, None, frozenset()).shapes]
    assert "Ann wins with 14 Elder Signs" in texts and not any("final scores" in t for t in texts)


# --- the seed ----------------------------------------------------------------------------------


def test_the_rules_text_says_who_sees_the_seed_as_the_server_does():
    """new_game returns the seed only if its creator chose it (every seat is told it was chosen: get_state's
    seed_chosen); a seed the server drew is shown to nobody, the creator included; history shows it once the game
    is over. Nothing may say the seed is shown to the creator otherwise."""
    rulings = (ROOT / "rules_text" / "cthulhu-dice" / "60-rulings.md").read_text()
    notation = (ROOT / "rules_text" / "cthulhu-dice" / "70-notation.md").read_text()
    readme = (ROOT / "README.md").read_text()
    for text in (rulings, notation):
        flat = " ".join(text.split())
        assert "shown to whoever creates" not in flat
        assert "seed_chosen" in flat and "history" in flat
    flat = " ".join(rulings.split())
    assert "the server draws one and shows it to nobody, the game's creator included" in flat
    assert "`new_game` returns it" in flat
    flat_readme = " ".join(readme.split())
    assert "shows it to nobody, you included" in flat_readme and "`seed_chosen`" in flat_readme


# --- other words a model reads cold ------------------------------------------------------------


def test_the_game_summary_does_not_say_the_first_to_the_goal_wins():
    """rules_text cthulhu-dice/end: reaching the goal starts the last round; the highest total then wins."""
    assert "First to 13" not in ENGINE.summary
    assert "the round is completed and the highest total wins" in ENGINE.summary


def test_counts_of_one_are_singular():
    state, _ = roll(named_game(), [L, L, L], [ES, CL, CL])
    assert ENGINE.summarize(Retreat(), state) == "Bank your stash of 1 Elder Sign (total 1) and pass the bag."
    short = new_game(CthulhuDiceOptions(bag={"library": 7, "museum": 0, "tomb": 0}, bag_exhaustion="must_retreat"), 2, seed=5)
    for _ in range(2):
        short, _ = roll(short, [L, L, L], [ES, ES, ES])
    try:
        apply(short, 0, Roll())
    except Exception as error:  # noqa: BLE001 - the refusal's words are what is checked
        assert str(error).startswith("The bag holds 1 die but you need 3")
    else:
        raise AssertionError("rolling with a short bag under must_retreat was accepted")
