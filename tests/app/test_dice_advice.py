"""cthulhu_dice_advice and cthulhu_dice_odds through the MCP client."""

from __future__ import annotations

import pytest
from mcp import Client

from tabletop.games.cthulhu_dice.solver import load_table

from .helpers import call, refused

pytestmark = pytest.mark.anyio


async def test_advice_at_the_start_is_the_tables_first_player_chance(client: Client):
    advice = await call(client, "cthulhu_dice_advice", position={"my_score": 0, "opponent_score": 0, "opponent_still_to_play": True})
    assert advice["recommended"] == "continue" and advice["win_if_retreat"] is None
    assert advice["win_if_continue"] == pytest.approx(load_table().first_player_win, abs=1e-12)
    assert advice["approximate"] is False


async def test_advice_banks_a_stash_that_wins_and_rolls_when_behind(client: Client):
    winning = await call(
        client,
        "cthulhu_dice_advice",
        position={"my_score": 9, "opponent_score": 3, "opponent_still_to_play": False, "stash": 5,
                  "tentacles": {"tomb": 1}, "elder_signs": {"library": 5}},
    )
    assert winning["recommended"] == "retreat" and winning["win_if_retreat"] == pytest.approx(1.0)
    assert winning["win_if_continue"] < winning["win_if_retreat"]
    desperate = await call(
        client,
        "cthulhu_dice_advice",
        position={"my_score": 2, "opponent_score": 12, "opponent_still_to_play": False, "stash": 1,
                  "tentacles": {"tomb": 2}, "elder_signs": {"library": 1}},
    )
    assert desperate["recommended"] == "continue", "banking 1 cannot catch up; only rolling can"
    text = (await client.call_tool("cthulhu_dice_advice", {"position": {"my_score": 2, "opponent_score": 12,
            "opponent_still_to_play": False, "stash": 1, "tentacles": {"tomb": 2}, "elder_signs": {"library": 1}}})).content[0].text
    assert text.startswith("Recommended: CONTINUE") and "%" in text


async def test_advice_for_a_live_seat_exact_for_two_and_approximate_for_three(client: Client):
    duel = await call(client, "new_game", game="cthulhu-dice", seats=2, seed=3)
    tokens = [s["token"] for s in duel["seats"]]
    await call(client, "apply_move", game_id=duel["game_id"], token=tokens[0], move="roll")
    exact = await call(client, "cthulhu_dice_advice", game_id=duel["game_id"], token=tokens[0])
    assert exact["approximate"] is False and exact["win_if_retreat"] is not None
    assert "whose turn it is" in await refused(client, "cthulhu_dice_advice", game_id=duel["game_id"], token=tokens[1])

    trio = await call(client, "new_game", game="cthulhu-dice", seats=3, seed=4)
    guess = await call(client, "cthulhu_dice_advice", game_id=trio["game_id"], token=trio["seats"][0]["token"])
    assert guess["approximate"] is True and "strongest opponent" in guess["basis"]

    variant = await call(client, "new_game", game="cthulhu-dice", seats=2, options={"goal": 20})
    text = await refused(client, "cthulhu_dice_advice", game_id=variant["game_id"], token=variant["seats"][0]["token"])
    assert "standard rules" in text
    assert "bad_options" in await refused(client, "cthulhu_dice_advice")
    impossible = {"my_score": 0, "opponent_score": 0, "opponent_still_to_play": True, "tentacles": {"tomb": 3}}
    assert "cannot be advised" in await refused(client, "cthulhu_dice_advice", position=impossible)


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
