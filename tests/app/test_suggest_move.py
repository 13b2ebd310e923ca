"""suggest_move over the real MCP client: a legal move with its reasons, bounded in time, refused cleanly."""

from __future__ import annotations

import pytest

from .helpers import call, refused

pytestmark = pytest.mark.anyio


async def new(client, game: str, **args):
    made = await call(client, "new_game", game=game, **args)
    return made["game_id"], [s["token"] for s in made["seats"]], made["to_move"]


async def legal_notations(client, game_id: str, token: str) -> set[str]:
    moves = await call(client, "legal_moves", game_id=game_id, token=token, detail="full")
    return {n for g in moves["groups"] for n in g["moves"]}


async def test_a_war_suggestion_is_a_legal_move_with_its_reasons_and_can_be_played(client):
    game_id, tokens, to_move = await new(client, "game-of-war", options={"opening": "default"}, seed=0)
    seat = to_move[0]
    result = await client.call_tool("suggest_move", {"game_id": game_id, "token": tokens[seat], "seconds": 1})
    assert not result.is_error, result.content[0].text
    found = result.structured_content
    assert found["move"] in await legal_notations(client, game_id, tokens[seat])
    assert found["bot"].startswith("heuristic") and found["explanation"] and found["terms"]
    assert "not played" in result.content[0].text
    assert found["seconds"] < 10
    state = await call(client, "get_state", game_id=game_id)
    assert state["ply"] == 0, "advice plays nothing"
    await call(client, "apply_move", game_id=game_id, token=tokens[seat], actions=[found["action"]])


async def test_the_search_bot_advises_within_its_time(client):
    game_id, tokens, to_move = await new(client, "game-of-war", options={"opening": "default"}, seed=1)
    seat = to_move[0]
    found = await call(client, "suggest_move", game_id=game_id, token=tokens[seat], bot="search", seconds=0.3)
    assert found["move"] in await legal_notations(client, game_id, tokens[seat])
    assert "whole turns" in found["explanation"] and found["seconds"] < 5


async def test_cthulhu_wars_suggestions_cite_their_terms_and_odds(client):
    game_id, tokens, to_move = await new(client, "cthulhu-wars", seats=3, seed=4)
    for _ in range(6):  # through the opening decisions to a turn with choices
        seat = (await call(client, "get_state", game_id=game_id))["to_move"][0]
        found = await call(client, "suggest_move", game_id=game_id, token=tokens[seat], seconds=0.5)
        assert found["move"] in await legal_notations(client, game_id, tokens[seat])
        await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=found["move"])
    seat = (await call(client, "get_state", game_id=game_id))["to_move"][0]
    found = await call(client, "suggest_move", game_id=game_id, token=tokens[seat], bot="search", seconds=0.5)
    assert found["move"] in await legal_notations(client, game_id, tokens[seat])
    assert found["explanation"]


async def test_the_expansion_factions_in_the_dreamlands_are_advised_and_their_advice_plays(client):
    """Windwalker, Sleeper and Opener of the Way on the Dreamlands: the start-Area choices and the first turns,
    every seat following the heuristic's advice over the real client."""
    options = {"factions": ["sleeper", "windwalker", "opener-of-the-way"], "map": "dreamlands"}
    game_id, tokens, _ = await new(client, "cthulhu-wars", seats=3, seed=6, options=options)
    for _ in range(8):
        seat = (await call(client, "get_state", game_id=game_id))["to_move"][0]
        found = await call(client, "suggest_move", game_id=game_id, token=tokens[seat], seconds=0.5)
        assert found["move"] in await legal_notations(client, game_id, tokens[seat])
        await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=found["move"])


async def test_cthulhu_dice_uses_the_optimal_bot(client):
    game_id, tokens, _ = await new(client, "cthulhu-dice", seats=2, seed=3)
    await call(client, "apply_move", game_id=game_id, token=tokens[0], move="roll")
    state = await call(client, "get_state", game_id=game_id)
    if 0 in state["to_move"]:
        found = await call(client, "suggest_move", game_id=game_id, token=tokens[0])
        assert found["bot"].startswith("optimal") and found["move"] in ("roll", "retreat")
        assert any("chance of winning" in o for o in found["odds"])


async def test_refusals_are_clean(client):
    game_id, tokens, to_move = await new(client, "game-of-war", options={"opening": "default"}, seed=0)
    seat = to_move[0]
    text = await refused(client, "suggest_move", game_id=game_id, token="not-a-token")
    assert "bad_token:" in text
    text = await refused(client, "suggest_move", game_id=game_id, token=tokens[1 - seat])
    assert "not_your_turn:" in text
    text = await refused(client, "suggest_move", game_id=game_id, token=tokens[seat], bot="alphazero")
    assert "bad_options:" in text and "heuristic" in text
    text = await refused(client, "suggest_move", game_id=game_id, token=tokens[seat], seconds=60)
    assert "seconds" in text
    text = await refused(client, "suggest_move", game_id="game-of-war-00000000", token=tokens[seat])
    assert "unknown_game:" in text


async def test_a_finished_game_is_refused(client):
    game_id, tokens, _ = await new(client, "game-of-war", options={"opening": "default", "max_turns": 1}, seed=0)
    state = await call(client, "get_state", game_id=game_id)
    seat = state["to_move"][0]
    await call(client, "apply_move", game_id=game_id, token=tokens[seat], move="end")
    text = await refused(client, "suggest_move", game_id=game_id, token=tokens[seat])
    assert "game_over:" in text
