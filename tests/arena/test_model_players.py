"""Model players against a local stand-in of the OpenAI and Anthropic APIs (tests/arena/standin.py): a stand-in
because the real services cannot be reached from here. The arena plays on a real ``tabletop serve --http`` process
on 127.0.0.1; the stand-in answers over real HTTP through the official ``openai`` and ``anthropic`` SDKs."""

from __future__ import annotations

import json
import re

import pytest

from tabletop.arena.runner import run
from tabletop.arena.server import started_server
from tabletop.arena.spec import build
from tabletop.sessions.store import GameStore
from tabletop.sessions.tokens import seat_of

from .standin import USAGE_IN, USAGE_OUT, StandIn

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = tmp_path_factory.mktemp("arena") / "games.sqlite3"
    GameStore(db).close()  # created (and migrated) before the server opens it
    with started_server(str(db)) as endpoint:
        yield endpoint, db


async def tournament(served, tmp_path, standin: StandIn, api: str, games: int = 2, **settings):
    endpoint, db = served
    limits = {"turn_tool_calls": 6, "turn_illegal": 2, "turn_seconds": 30, "request_seconds": 1.0, "retries": 3,
              **settings.pop("limits", {})}
    spec = build({"game": "cthulhu-dice", "games": games, "parallel": 2, "limits": limits, **settings,
                  "name": f"{api} {standin.mode} {json.dumps(limits, sort_keys=True)} {settings}",
                  "players": [{"name": "model", "spec": f"{api}:test-model", "base_url": standin.url if api == "openai" else standin.root, "key_env": "STANDIN_KEY"},
                              "bot:random"]})
    store = GameStore(db)
    await run(store, spec, endpoint, tmp_path / "logs")
    games_played = store.tournament_games(spec.id)
    return store, spec, games_played


def model_stats(games):
    """The model's statistics summed over the finished games."""
    total: dict[str, float] = {}
    for g in games:
        seat = g.players.index("model")
        for key, value in g.outcome["stats"][str(seat)].items():
            total[key] = total.get(key, 0) + value
    return total


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", "sk-standin")


@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_good_tool_calls_play_whole_games_and_their_tokens_are_counted(served, tmp_path, api):
    with StandIn("good") as standin:
        store, spec, games = await tournament(served, tmp_path, standin, api)
    assert [g.status for g in games] == ["finished", "finished"], [g.outcome.get("error") for g in games]
    assert all(g.outcome["ended_by"] == "game" for g in games)
    stats = model_stats(games)
    assert stats["decisions"] > 4 and stats["illegal"] == 0 and stats["forfeits"] == 0 and stats["service_errors"] == 0
    assert stats["input_tokens"] == USAGE_IN * standin.answered[api] and stats["output_tokens"] == USAGE_OUT * standin.answered[api]
    first = standin.requests[0]["body"]
    tools = first["tools"]
    names = [t["function"]["name"] if api == "openai" else t["name"] for t in tools]
    assert names == ["get_state", "legal_moves", "apply_move", "history", "search_rules"]
    schemas = [t["function"]["parameters"] if api == "openai" else t["input_schema"] for t in tools]
    assert all("token" not in s["properties"] and "game_id" not in s["properties"] for s in schemas)
    system = first["messages"][0]["content"] if api == "openai" else first["system"]
    assert "play" in system and "held by the arena" in system


async def test_illegal_moves_reach_the_limit_and_a_random_legal_move_is_played_as_a_forfeit(served, tmp_path):
    with StandIn("illegal") as standin:
        _, _, games = await tournament(served, tmp_path, standin, "anthropic", limits={"on_limit": "random"})
    assert [g.status for g in games] == ["finished", "finished"]
    stats = model_stats(games)
    assert stats["decisions"] == 0, "no move of its own was ever accepted"
    assert stats["forfeits"] >= stats["limits_hit"] > 0
    assert stats["illegal"] == 2 * stats["limits_hit"], "two refused moves per decision, then the limit"
    refusals = [m for r in standin.requests for m in r["body"]["messages"] if m["role"] == "user" and isinstance(m["content"], list)]
    assert any("not a Cthulhu Dice move" in b["content"] for m in refusals for b in m["content"]), "the model is told why"


async def test_malformed_arguments_count_as_illegal_and_lose_the_game_when_so_configured(served, tmp_path):
    with StandIn("malformed") as standin:
        _, _, games = await tournament(served, tmp_path, standin, "openai", limits={"on_limit": "loss"})
    for g in games:
        seat = g.players.index("model")
        assert g.status == "finished" and g.outcome["ended_by"] == "loss" and g.outcome["lost_seat"] == seat
        assert g.outcome["winners"] == [1 - seat]
        assert g.outcome["stats"][str(seat)]["illegal"] == 2 and g.outcome["stats"][str(seat)]["limits_hit"] == 1
    told = [m["content"] for r in standin.requests for m in r["body"]["messages"] if m["role"] == "tool"]
    assert any("not valid JSON" in t for t in told)


async def test_an_overlong_turn_is_a_limit_and_its_late_moves_are_not_played(served, tmp_path):
    with StandIn("slow", delay=0.4) as standin:
        _, _, games = await tournament(served, tmp_path, standin, "openai", games=2, limits={"turn_seconds": 0.2})
    stats = model_stats(games)
    assert all(g.status == "finished" for g in games)
    assert stats["decisions"] == 0 and stats["limits_hit"] > 0 and stats["forfeits"] >= stats["limits_hit"]
    assert stats["service_errors"] == 0 and stats["illegal"] == 0


async def test_service_failures_and_timeouts_are_retried_and_never_counted_as_play(served, tmp_path):
    with StandIn("flaky") as standin:
        _, _, games = await tournament(served, tmp_path, standin, "anthropic", parallel=1, limits={"request_seconds": 0.5})
    stats = model_stats(games)
    assert all(g.status == "finished" and g.outcome["ended_by"] == "game" for g in games), [g.outcome.get("error") for g in games]
    assert stats["service_errors"] > 0 and stats["illegal"] == 0 and stats["limits_hit"] == 0 and stats["decisions"] > 0
    assert stats["input_tokens"] == USAGE_IN * standin.answered["anthropic"]


async def test_a_service_that_stays_down_abandons_the_game_which_is_never_counted(served, tmp_path):
    with StandIn("down") as standin:
        store, spec, games = await tournament(served, tmp_path, standin, "openai", limits={"retries": 1})
    assert [g.status for g in games] == ["abandoned", "abandoned"]
    assert all("kept failing" in g.outcome["error"] for g in games)
    from tabletop.arena.standings import standings

    assert all(row.games == 0 for row in standings(store, spec.id))


async def test_withheld_legal_moves_are_neither_offered_nor_shown(served, tmp_path):
    with StandIn("good") as standin:
        _, _, games = await tournament(served, tmp_path, standin, "openai", legal_moves=False)
    assert all(g.status == "finished" for g in games)
    for r in standin.requests:
        assert "legal_moves" not in [t["function"]["name"] for t in r["body"]["tools"]]
        sent = json.dumps(r["body"]["messages"])
        assert "Your moves" not in sent and '\\"legal\\"' not in sent


async def test_a_model_cannot_act_for_another_game_or_seat_nor_is_it_given_any_token(served, tmp_path):
    with StandIn("cheat") as standin:
        store, spec, games = await tournament(served, tmp_path, standin, "openai")
    assert all(g.status == "finished" for g in games)
    assert model_stats(games)["decisions"] > 0, "its moves were played at its own seat of its own game"
    for g in games:
        seat = g.players.index("model")
        assert all(m.seat == seat for m in store.moves(g.game_id) if m.notation == "retreat" and m.seat == seat)
        hashes = store.load_game(g.game_id).token_hashes
        for r in standin.requests:
            words = set(re.findall(r"[A-Za-z0-9_-]{20,}", json.dumps(r["body"])))
            assert not any(seat_of(w, hashes) is not None for w in words), "no seat token ever reaches the model"
