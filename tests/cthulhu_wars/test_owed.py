"""What a seat is told it owes after its move, in every state of a turn; why 'done' is refused; and texts a seat reads
instead of the position: submerged Cthulhu, unit names with fitting articles, the order of play, battle events
(rules_text ``cthulhu-wars/turn``, ``cthulhu-wars/battle``, ``cthulhu-wars/great-cthulhu``)."""

import random
import re

import pytest

from tabletop.core.errors import IllegalMove
from tabletop.games.cthulhu_wars import ENGINE
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.options import CthulhuWarsOptions

from .cw_helpers import BG, CC, GC, ScriptedDice, give_turn, new_game, play, put, seat


def owed(state, faction):
    return ENGINE.owed(state, seat(state, faction))


def refusal(state, faction, move):
    with pytest.raises(IllegalMove) as refused:
        play(state, faction, move)
    return str(refused.value)


def test_the_owed_line_through_one_turn():
    state = new_game(3)
    assert owed(state, GC) == ("You still owe your turn's action (8 Power): take one, or say 'pass' to give up your "
                               "remaining Power.")
    assert owed(state, CC) == "Nothing is asked of you now: Great Cthulhu's turn (8 Power); you have 8 Power for your next turn."
    state, _ = play(state, GC, "move acolyte south-pacific>north-pacific")
    assert owed(state, GC) == "Moving units (7 Power left): move more or say 'done' to end the Move."
    state, _ = play(state, GC, "done")
    assert owed(state, GC) == "Your action is used; free actions left: abandon gate; say 'done' to end your turn."
    state, _ = play(state, GC, "done")
    assert owed(state, GC).startswith("Nothing is asked of you now: Crawling Chaos's turn (8 Power)")
    state, _ = play(state, CC, "pass")
    assert owed(state, CC) == "Your turns are over for this Action phase: no Power left. Now Black Goat's turn (8 Power)."


def test_the_owed_line_in_a_battle_and_the_window_after_it():
    state = new_game(3)
    put(state, GC, "starspawn", "north-pacific")
    put(state, CC, "flying-polyp", "north-pacific")
    state.seats[seat(state, CC)].units["acolyte"][4:] = ["north-pacific"] * 2
    state.seats[seat(state, BG)].elder_signs = [2]
    state.rng = ScriptedDice([6, 5, 1, 4])
    state, _ = play(state, GC, "battle north-pacific vs crawling")
    assert owed(state, CC) == "Battle in north-pacific: give 1 Kill to your units (2 ways; 'assign kill <units>')."
    assert owed(state, GC) == ("Waiting for Crawling Chaos to assign battle results; then your turn goes on (7 Power, "
                               "your action used).")
    assert owed(state, BG) == "Waiting for Crawling Chaos to assign battle results."
    state, _ = play(state, CC, "assign kill flying-polyp")
    assert owed(state, GC) == "Battle in north-pacific: choose where your Pained units retreat (1 to go)."
    state, _ = play(state, GC, "retreat starspawn to south-pacific")
    state, _ = play(state, CC, "retreat acolyte to asia")
    assert owed(state, GC) == "Take one of your 6 remaining spellbooks for meeting 'kill-one'."
    state, _ = play(state, GC, "spellbook regenerate")
    assert owed(state, BG) == "You may act out of turn (reveal Elder Signs) or say 'done' to pass."
    assert owed(state, GC) == ("Waiting for Black Goat to decide whether to act out of turn after your action; then your "
                               "turn goes on (7 Power, your action used).")


def test_the_owed_line_from_gather_power_through_the_doom_phase():
    state = new_game(3)
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    assert owed(state, GC) == "Break the tie for First Player between Great Cthulhu, Crawling Chaos and Black Goat."
    assert owed(state, CC) == "Waiting for Great Cthulhu to break the tie for First Player."
    state, _ = play(state, GC, f"first-player {GC}")
    assert owed(state, GC) == ("Choose the direction of play: 'direction clockwise' (Great Cthulhu → Crawling Chaos → "
                               "Black Goat) or 'direction counterclockwise' (Great Cthulhu → Black Goat → Crawling Chaos).")
    state, _ = play(state, GC, "direction clockwise")
    state, _ = play(state, GC, "spellbook dreams")
    signs = state.seats[seat(state, GC)].elder_signs
    assert owed(state, GC) == (f"Doom phase, your decision: 'ritual' (5 of your 8 Power: +1 Doom), 'reveal' (Elder "
                               f"Signs {signs}: +{sum(signs)} Doom) or 'no-ritual'.")
    assert owed(state, BG) == "Waiting for Great Cthulhu to decide on a Ritual; your Doom-phase decision comes later."
    state, _ = play(state, GC, "no-ritual")
    assert owed(state, GC) == "Waiting for Crawling Chaos to decide on a Ritual."


def test_the_owed_line_at_the_end_of_the_game():
    state = new_game(3)
    state.phase, state.winners = "over", [seat(state, BG)]
    assert owed(state, GC) == "The game is over: Black Goat won."


def test_a_refused_done_says_why():
    state = new_game(3)
    text = refusal(state, GC, "done")
    assert "'done' is not legal now: you still owe your turn's action (8 Power left): take one, or say 'pass'" in text
    for s in state.order_from(state.first_player):
        state, _ = ENGINE.apply(state, s, ENGINE.parse("pass", state, s))
    state, _ = play(state, GC, f"first-player {GC}")
    text = refusal(state, GC, "done")
    assert "'done' is not legal now: you are asked to choose the direction of play, and that cannot be declined" in text
    state, _ = play(state, GC, "direction clockwise")
    state, _ = play(state, GC, "spellbook dreams")
    assert "you decline the Ritual with 'no-ritual'" in refusal(state, GC, "done")


def test_submerged_cthulhu_is_in_the_factions_line():
    state = new_game(3)
    gc = seat(state, GC)
    state.seats[gc].spellbooks = ["submerge"]
    put(state, GC, "cthulhu", "south-pacific")
    put(state, GC, "deep-one", "south-pacific", 2)
    state, _ = play(state, GC, "submerge")
    state, log = play(state, GC, "submerge-with deep-one")
    assert "A Deep One submerges with Cthulhu." in log
    state, _ = play(state, GC, "done")
    line = ENGINE.describe(state, None).split("\n")[1 + gc]
    assert line.endswith("spellbooks 1/6: submerge; Cthulhu submerged (from south-pacific) with a Deep One.")
    give_turn(state, GC, power=1)
    state, log = play(state, GC, "emerge europe")
    assert log == ["The Submerged units of great-cthulhu (a Deep One and Cthulhu) rise in europe."]
    assert "submerged" not in ENGINE.describe(state, None).split("\n")[1 + gc]


def test_the_order_of_play_is_named_with_the_direction():
    state = new_game(3, direction=None)
    first = state.first_player
    summaries = {m.notation: m.summary for g in ENGINE.legal_moves(state, first).groups for m in g.moves}
    assert summaries["direction counterclockwise"] == ("direction counterclockwise: play goes Great Cthulhu → Black Goat "
                                                        "→ Crawling Chaos")
    state, log = play(state, first, "direction counterclockwise")
    assert log[0] == "Play goes counterclockwise: Great Cthulhu → Black Goat → Crawling Chaos."
    assert ENGINE.describe(state, None).split("\n")[0].endswith(
        "Play goes counterclockwise: Great Cthulhu → Black Goat → Crawling Chaos.")


def test_unit_names_are_capitalised_with_the_right_article():
    state = new_game(3)
    state, log = play(state, GC, "move acolyte south-pacific>north-pacific")
    assert log == ["great-cthulhu moves an Acolyte from south-pacific to north-pacific."]
    state = new_game(3)
    state, log = play(state, GC, "summon deep-one south-pacific")
    assert log == ["great-cthulhu summons a Deep One in south-pacific."]
    state = new_game(3)
    state.seats[seat(state, GC)].power = 10
    state, log = play(state, GC, "awaken cthulhu south-pacific")
    assert log[0] == "great-cthulhu awakens Cthulhu in south-pacific for 10 Power."


def test_no_event_of_random_games_writes_a_unit_slug_or_a_wrong_article():
    slugs = sorted({u.name for f in FACTIONS.values() for u in f.units}, key=len, reverse=True)
    slug_after_article = re.compile(rf"\b(?:a|an|A|An) (?:{'|'.join(map(re.escape, slugs))})\b")
    wrong_article = re.compile(r"\b(?:a|A) [AEIOU][a-z]|\b(?:an|An) [B-DF-HJ-NP-TV-Z][a-z]")
    for players, seed in ((3, 11), (5, 12)):
        rnd = random.Random(seed)
        factions = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "windwalker"][:players]
        state = ENGINE.new_game(CthulhuWarsOptions(factions=factions), players, seed)
        for _ in range(600):
            if ENGINE.outcome(state) is not None:
                break
            s = rnd.choice(ENGINE.to_move(state))
            legal = ENGINE.legal_actions(state, s)
            fights = [a for a in legal if a.kind in ("battle", "capture", "summon", "awaken")]
            action = rnd.choice(fights) if fights and rnd.random() < 0.7 else rnd.choice(legal)
            state, events = ENGINE.apply(state, s, action)
            for event in events:
                assert not slug_after_article.search(event), event
                assert not wrong_article.search(event), event


def test_a_battle_tells_both_sides_dice_and_what_each_lost():
    state = new_game(3)
    put(state, GC, "starspawn", "north-pacific")
    put(state, CC, "flying-polyp", "north-pacific")
    state.seats[seat(state, CC)].units["acolyte"][4:] = ["north-pacific"] * 2
    state.rng = ScriptedDice([6, 5, 1, 4])
    events = []
    for faction, move in ((GC, "battle north-pacific vs crawling"), (CC, "assign kill flying-polyp"),
                          (GC, "retreat starspawn to south-pacific"), (CC, "retreat acolyte to asia")):
        state, log = play(state, faction, move)
        events += log
    assert events[:3] == [
        "great-cthulhu battles crawling-chaos in north-pacific.",
        "great-cthulhu rolls 3 dice [6, 5, 1]: 1 Kill, 1 Pain.",
        "crawling-chaos rolls 1 die [4]: 0 Kill, 1 Pain.",
    ]
    assert "crawling-chaos takes 1 Kill: Flying Polyp eliminated." in events
    assert "great-cthulhu takes 1 Pain: Starspawn Pained." in events
    assert "great-cthulhu's Pained Starspawn retreats from north-pacific to south-pacific." in events
    assert ("Battle in north-pacific over: great-cthulhu lost nothing; a Starspawn left the Area; none of its units "
            "stay. crawling-chaos lost a Flying Polyp; an Acolyte left the Area; an Acolyte stays.") in events


def test_madness_retreats_name_the_unit_both_areas_and_who_chose():
    state = new_game(3)
    state.seats[seat(state, CC)].spellbooks = ["madness"]
    put(state, GC, "starspawn", "north-pacific")
    put(state, BG, "fungi", "north-pacific")
    state.rng = ScriptedDice([4, 1, 1, 1])
    state, _ = play(state, GC, "battle north-pacific vs goat")
    state, log = play(state, CC, "retreat fungi to asia")
    assert log[0] == "black-goat's Pained Fungi from Yuggoth retreats from north-pacific to asia (crawling-chaos's choice)."


@pytest.mark.parametrize("factions, seed", [
    (["great-cthulhu", "crawling-chaos", "black-goat"], 23),
    (["great-cthulhu", "crawling-chaos", "opener-of-the-way", "sleeper"], 22),
    (["opener-of-the-way", "sleeper", "windwalker", "yellow-sign", "black-goat"], 21),
])
def test_every_seat_is_told_something_in_every_state_of_random_games(factions, seed):
    """owed() answers for every seat at every step (None only where nothing could be said, which no state between
    two moves is), and a window's text stays short."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(CthulhuWarsOptions(factions=factions), len(factions), seed)
    for _ in range(700):
        if ENGINE.outcome(state) is not None:
            break
        for s in range(len(factions)):
            assert ENGINE.owed(state, s), (state.phase, state.pending, state.turn)
            text = ENGINE.decision_text(state, s)
            assert text is None or (len(text) <= 350 and text.endswith("Say 'done' to pass.")), text
        s = rnd.choice(ENGINE.to_move(state))
        legal = ENGINE.legal_actions(state, s)
        eager = [a for a in legal if a.kind not in ("pass", "done", "move", "no-ritual", "ritual", "reveal")]
        state, _ = ENGINE.apply(state, s, rnd.choice(eager) if eager and rnd.random() < 0.6 else rnd.choice(legal))
    assert ENGINE.owed(state, 0).startswith("The game is over") or state.round > 1
