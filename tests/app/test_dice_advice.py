"""cthulhu_dice_advice and cthulhu_dice_odds through the MCP client."""

from __future__ import annotations

import stat

import pytest
from mcp import Client

from tabletop.app import dice_advice_tools
from tabletop.app.server import build_server
from tabletop.games.cthulhu_dice.solver import load_table
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

from .helpers import call, refused

pytestmark = pytest.mark.anyio

#: A small variant (goal 5, must_retreat, shared wins): solved in about a second on first use.
SMALL = {"goal": 5, "bag_exhaustion": "must_retreat", "tie_rule": "shared_win"}


async def test_advice_at_the_start_is_the_tables_first_player_chance(client: Client):
    advice = await call(client, "cthulhu_dice_advice", position={"scores": [0, 0], "seat": 0})
    assert advice["status"] == "ready" and advice["recommended"] == "continue" and advice["win_if_retreat"] is None
    assert advice["win_if_continue"] == pytest.approx(load_table(players=2).first_player_win, abs=1e-12)
    assert advice["approximate"] is False and advice["players"] == 2
    assert advice["variant"] == "2 players, goal 13, bag 8/4/3, ties: tiebreak_rounds, short bag: return_elder_signs (shipped table)"


async def test_advice_banks_a_stash_that_wins_and_rolls_when_behind(client: Client):
    winning = await call(
        client,
        "cthulhu_dice_advice",
        position={"scores": [3, 9], "seat": 1, "stash": 5,
                  "tentacles": {"tomb": 1}, "elder_signs": {"library": 5}},
    )
    assert winning["recommended"] == "retreat" and winning["win_if_retreat"] == pytest.approx(1.0)
    assert winning["win_if_continue"] < winning["win_if_retreat"]
    desperate = {"scores": [12, 2], "seat": 1, "stash": 1,
                 "tentacles": {"tomb": 2}, "elder_signs": {"library": 1}}
    result = await client.call_tool("cthulhu_dice_advice", {"position": desperate})
    assert result.structured_content["recommended"] == "continue", "banking 1 cannot catch up; only rolling can"
    text = result.content[0].text
    assert text.startswith("Recommended: roll. If you roll: ") and "%" in text and "Exact: 2 players, goal 13" in text
    assert "If you retreat: " in text and "banking 1" in text and "CONTINUE" not in text
    assert "Position: scores 12, 2 (you: seat 1); stash 1, tentacles 2 (tomb, tomb), no clues in hand, " in text
    assert "bag 12 (7 library, 4 museum, 1 tomb)" in text, "an omitted bag is every die not placed, and is said so"
    assert len(text) < 450


async def test_advice_names_the_moves_to_send_and_the_clue_dice_in_hand(client: Client):
    game = await call(client, "new_game", game="cthulhu-dice", seats=2, seed=7)
    token = game["seats"][0]["token"]
    first = (await client.call_tool("cthulhu_dice_advice", {"game_id": game["game_id"], "token": token})).content[0].text
    assert first.startswith("Recommended: roll (retreat is not allowed before the first roll of a turn). If you roll: ")
    await call(client, "apply_move", game_id=game["game_id"], token=token, move="roll")
    view = (await call(client, "get_state", game_id=game["game_id"], detail="full"))["view"]
    assert view["clues_in_hand"] == {"library": 1, "museum": 0, "tomb": 0}, "seed 7 opens with one library clue"
    result = await client.call_tool("cthulhu_dice_advice", {"game_id": game["game_id"], "token": token})
    text = result.content[0].text
    move = "roll" if result.structured_content["recommended"] == "continue" else "retreat"
    assert text.startswith(f"Recommended: {move}. ")
    assert "tentacles 2 (museum, museum), 1 clue in hand (library), bag 12 (7 library, 2 museum, 3 tomb)" in text


def test_advice_when_only_retreat_is_allowed_says_roll_is_not():
    advice = dice_advice_tools.DiceAdvice(
        status="ready", recommended="retreat", win_if_retreat=0.25, expected_signs_if_retreat=13, approximate=False,
        players=2, variant="2 players, goal 13, bag 8/4/3, ties: tiebreak_rounds, short bag: must_retreat (shipped)",
        basis="Exact", position=dice_advice_tools.DicePosition(
            scores=[0, 0], seat=0, stash=13, clues={"tomb": 1}, tentacles={"tomb": 1},
            elder_signs={"library": 8, "museum": 4, "tomb": 1}, bag={}),
    )
    text = dice_advice_tools.advice_text(advice, (0, 0, 0))
    assert text.startswith("Recommended: retreat (roll is not allowed: the bag ran short). If you retreat: 25.0% (0.25) to win")
    assert "1 clue in hand (tomb), bag 0 (0 library, 0 museum, 0 tomb)" in text


async def test_live_seats_are_exact_for_two_and_three_players_and_approximate_for_four(client: Client):
    duel = await call(client, "new_game", game="cthulhu-dice", seats=2, seed=3)
    tokens = [s["token"] for s in duel["seats"]]
    await call(client, "apply_move", game_id=duel["game_id"], token=tokens[0], move="roll")
    exact = await call(client, "cthulhu_dice_advice", game_id=duel["game_id"], token=tokens[0])
    assert exact["approximate"] is False and exact["win_if_retreat"] is not None and exact["players"] == 2
    assert "whose turn it is" in await refused(client, "cthulhu_dice_advice", game_id=duel["game_id"], token=tokens[1])

    trio = await call(client, "new_game", game="cthulhu-dice", seats=3, seed=4)
    three = await call(client, "cthulhu_dice_advice", game_id=trio["game_id"], token=trio["seats"][0]["token"])
    assert three["approximate"] is False and three["players"] == 3 and "3-player optimal play" in three["basis"]
    assert three["win_if_continue"] == pytest.approx(load_table(players=3).first_player_win, abs=1e-12)

    four = await call(client, "new_game", game="cthulhu-dice", seats=4, seed=5)
    guess = await call(client, "cthulhu_dice_advice", game_id=four["game_id"], token=four["seats"][0]["token"])
    assert guess["approximate"] is True and "strongest opponent" in guess["basis"] and guess["players"] == 2
    text = (await client.call_tool("cthulhu_dice_advice", {"game_id": four["game_id"], "token": four["seats"][0]["token"]})).content[0].text
    assert "Approximate" in text


async def test_three_player_positions_can_be_described(client: Client):
    advice = await call(client, "cthulhu_dice_advice", position={"scores": [7, 4, 9], "seat": 1})
    assert advice["players"] == 3 and advice["win_if_continue"] == pytest.approx(load_table(players=3).value((1, (7, 4, 9)))[1])
    nonsense = {"scores": [3, 14, 2], "seat": 0}
    assert "cannot be advised" in await refused(client, "cthulhu_dice_advice", position=nonsense)
    assert "seat" in await refused(client, "cthulhu_dice_advice", position={"scores": [1, 2, 3]})


async def until_ready(ask, answer: dict, most: int) -> tuple[dict, int]:
    """Ask again (at most ``most`` times) while the answer is still "solving": on a loaded machine a solve outlasts one
    call's wait. Every answer in between reports its progress and recommends nothing. The last answer, and how many
    times it asked again."""
    again = 0
    while answer["status"] == "solving" and again < most:
        assert 0 <= answer["solving"]["progress"] <= 1 and answer["recommended"] is None
        again += 1
        answer = await ask()
    return answer, again


async def test_a_variant_is_solved_on_first_use_with_progress_then_cached(client: Client, tmp_path, monkeypatch):
    game = await call(client, "new_game", game="cthulhu-dice", seats=2, options=SMALL, seed=9)
    token = game["seats"][0]["token"]
    await call(client, "apply_move", game_id=game["game_id"], token=token, move="roll")
    seen = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total, message))

    async def ask():
        arguments = {"game_id": game["game_id"], "token": token}
        return (await client.call_tool("cthulhu_dice_advice", arguments, progress_callback=progress)).structured_content

    advice, waited = await until_ready(ask, await ask(), most=200)
    assert advice["status"] == "ready" and advice["recommended"] in ("continue", "retreat")
    assert advice["variant"] == ("2 players, goal 5, bag 8/4/3, ties: shared_win, short bag: must_retreat "
                                 "(solved on first use, cached)")
    assert seen and all(total == 100 for _, total, _ in seen)
    assert waited or seen[-1][0] == 100, "solved within the first call: its progress reaches 100"
    folder = tmp_path / "games.sqlite3.cache" / "cthulhu-dice"
    files = list(folder.glob("2p-*.npz"))
    assert len(files) == 1
    for path in (folder.parent, folder):
        assert stat.S_IMODE(path.stat().st_mode) == 0o700
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600

    # Another server on the same database reads the cache: ready at once, with no time to solve.
    monkeypatch.setattr(dice_advice_tools, "WAIT_SECONDS", 0.0)
    store = GameStore(tmp_path / "games.sqlite3")
    try:
        async with Client(build_server(GameSessions(store))) as other:
            cached = await call(other, "cthulhu_dice_advice", game_id=game["game_id"], token=token)
            assert cached["status"] == "ready" and cached["win_if_continue"] == advice["win_if_continue"]
    finally:
        store.close()


async def test_a_long_solve_answers_solving_with_an_estimate_then_the_advice(client: Client, monkeypatch):
    monkeypatch.setattr(dice_advice_tools, "WAIT_SECONDS", 0.0)
    position = {"scores": [2, 3], "seat": 0, "stash": 1,
                "elder_signs": {"library": 1}, "clues": {"museum": 1}}
    rules = {"goal": 6, "bag": {"library": 6, "museum": 4, "tomb": 3}}
    first = await client.call_tool("cthulhu_dice_advice", {"position": position, "rules": rules})
    answer = first.structured_content
    assert answer["status"] == "solving" and answer["recommended"] is None
    assert 0 <= answer["solving"]["progress"] < 1 and answer["solving"]["seconds_left"] >= 0
    assert "Ask again" in first.content[0].text and len(first.content[0].text) < 400
    assert "goal 6, bag 6/4/3" in answer["variant"]
    monkeypatch.setattr(dice_advice_tools, "WAIT_SECONDS", 60.0)

    async def ask():
        return await call(client, "cthulhu_dice_advice", position=position, rules=rules)

    ready, _ = await until_ready(ask, await ask(), most=59)
    assert ready["status"] == "ready" and 0 < ready["win_if_continue"] < 1


async def test_advice_refusals(client: Client):
    variant = await call(client, "new_game", game="cthulhu-dice", seats=2, options={"goal": 20})
    assert "rules are its own" in await refused(
        client, "cthulhu_dice_advice", game_id=variant["game_id"], token=variant["seats"][0]["token"], rules={"goal": 5}
    )
    assert "bad_options" in await refused(client, "cthulhu_dice_advice")
    impossible = {"scores": [0, 0], "seat": 0, "tentacles": {"tomb": 3}}
    assert "cannot be advised" in await refused(client, "cthulhu_dice_advice", position=impossible)
    huge = {"goal": 100, "bag": {"library": 30, "museum": 30, "tomb": 30}}
    text = await refused(client, "cthulhu_dice_advice", position={"scores": [0, 0], "seat": 0}, rules=huge)
    assert "too large" in text


async def test_odds_of_the_next_roll(client: Client):
    first = await call(client, "cthulhu_dice_odds")
    assert sum(r["probability"] for r in first["results"]) == pytest.approx(1.0)
    assert first["chance_downed"] == pytest.approx(sum(r["probability"] for r in first["results"] if r["downed"]))
    # a full bag averages 8/15*3/6 + 4/15*2/6 + 3/15*1/6 Elder Signs per die
    per_die = 8 / 15 * 3 / 6 + 4 / 15 * 2 / 6 + 3 / 15 * 1 / 6
    assert first["expected_elder_signs"] == pytest.approx(3 * per_die)
    # three tomb dice in hand, two tentacles showing: downed unless no tomb shows a tentacle
    risky = await call(client, "cthulhu_dice_odds", clues={"tomb": 3}, tentacles={"museum": 2}, bag={"library": 8, "museum": 2})
    assert risky["chance_downed"] == pytest.approx(1 - (1 / 2) ** 3)
    assert "bad_options" in await refused(client, "cthulhu_dice_odds", clues={"library": 4})
    text = (await client.call_tool("cthulhu_dice_odds", {"clues": {"tomb": 3}, "tentacles": {"museum": 2},
                                                         "bag": {"library": 8, "museum": 2}})).content[0].text
    assert "Most likely: 0 Elder Signs, 1 clue, 2 tentacles: " in text and "; 1 Elder Sign, 1 clue, 1 tentacle: 16.7% (0.166667)" in text
    short = dict(clues={"library": 1}, tentacles={"museum": 1}, elder_signs={"library": 7, "museum": 3, "tomb": 2},
                 bag={"tomb": 1})
    assert "not allowed" in await refused(client, "cthulhu_dice_odds", rules={"bag_exhaustion": "must_retreat"}, **short)
    fewer = await call(client, "cthulhu_dice_odds", rules={"bag_exhaustion": "roll_fewer"}, **short)
    assert all(r["elder_signs"] + r["clues"] + r["tentacles"] == 2 for r in fewer["results"])


async def test_positions_past_the_score_cap_are_labelled_approximate(client: Client):
    advice = await call(client, "cthulhu_dice_advice", position={"scores": [30, 30], "seat": 0})
    assert advice["approximate"] is True and "tie-break past the score cap" in advice["basis"]
    assert advice["status"] == "ready" and 0 < advice["win_if_continue"] < 1
