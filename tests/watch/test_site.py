"""The watching site over HTTP (Starlette's test client on the real app): who may watch, pages, replays, events."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tabletop.app.http import http_app
from tabletop.app.server import build_server
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore
from tabletop.watch.gate import COOKIE
from tabletop.watch.site import watch_app


@pytest.fixture
def sessions(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    yield GameSessions(store)
    store.close()


@pytest.fixture
def site(sessions):
    app = http_app(build_server(sessions), "127.0.0.1", "s3cret", view_token="look")
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client


def finished_dice_game(sessions: GameSessions) -> str:
    live, tokens = sessions.create("cthulhu-dice", None, ["Ann", "Bob"])
    while live.engine.outcome(live.state) is None:
        seat = live.to_move()[0]
        sessions.play(live.id, tokens[seat], "retreat" if live.state.stash >= 2 else "roll")
        live = sessions.get(live.id)
    return live.id


def test_the_site_asks_for_a_token_when_the_server_has_one(site):
    assert site.get("/watch/").status_code == 401
    assert site.get("/watch/", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert site.get("/watch/?key=wrong", follow_redirects=False).status_code == 401
    assert site.get("/watch/", headers={"Authorization": "Bearer s3cret"}).status_code == 200
    assert site.get("/watch/", headers={"Authorization": "Bearer look"}).status_code == 200


def test_the_viewing_token_opens_the_site_but_never_the_mcp_endpoint(site):
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert site.post("/mcp", json=ping, headers={"Authorization": "Bearer look"}).status_code == 401
    site.cookies.set(COOKIE, "anything")
    assert site.post("/mcp", json=ping).status_code == 401


@pytest.mark.parametrize("key", ["look", "s3cret"])
def test_a_key_in_the_address_becomes_a_cookie_and_leaves_the_address(site, key):
    answer = site.get(f"/watch/?key={key}", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/watch/"
    cookie = answer.cookies[COOKIE]
    assert key not in cookie, "the cookie holds a digest, never the token"
    assert "httponly" in answer.headers["set-cookie"].lower()
    assert site.get("/watch/").status_code == 200  # the client kept the cookie


def test_pages_replays_and_events_of_a_game(site, sessions):
    site.headers["Authorization"] = "Bearer look"
    live, tokens = sessions.create("cthulhu-dice", None, ["Ann", "Bob"])
    assert live.id in site.get("/watch/").text
    page = site.get(f"/watch/games/{live.id}")
    assert page.status_code == 200 and "Ann" in page.text and "<svg" in page.text
    assert site.get(f"/watch/games/{live.id}/replay/0").status_code == 409, "replays wait for the end"
    assert site.get("/watch/games/nope-123").status_code == 404
    assert site.get("/watch/games/nope-123/events").status_code == 404
    assert site.get("/watch/tournaments/none").status_code == 404

    done = finished_dice_game(sessions)
    total = sessions.get(done).ply
    start, one, past = (site.get(f"/watch/games/{done}/replay/{n}").json() for n in (0, 1, total + 5))
    assert start["ply"] == 0 and start["move"] is None and start["last"] == total
    assert one["move"]["n"] == 1 and one["move"]["who"] == "Ann" and one["svg"] != start["svg"]
    assert past["ply"] == total, "a move past the end shows the end"
    events = site.get(f"/watch/games/{done}/events")  # a finished game's stream says it once and ends
    assert events.headers["content-type"].startswith("text/event-stream")
    assert events.text.count("event: game") == 1 and '"over": true' in events.text


def test_without_any_token_the_site_is_open_like_the_server(sessions):
    with TestClient(http_app(build_server(sessions), "127.0.0.1", None), base_url="http://127.0.0.1") as client:
        assert client.get("/watch/").status_code == 200


def test_on_a_loopback_address_the_site_refuses_other_hosts_and_origins(site):
    """DNS rebinding: a page of evil.example resolving to 127.0.0.1 must not read the site (the SDK guards /mcp)."""
    key = {"Authorization": "Bearer look"}
    assert site.get("/watch/", headers={**key, "Host": "127.0.0.1:8765"}).status_code == 200
    assert site.get("/watch/", headers={**key, "Host": "localhost:8765", "Origin": "http://localhost:8765"}).status_code == 200
    assert site.get("/watch/", headers={**key, "Host": "evil.example:8765"}).status_code == 421
    assert site.get("/watch/", headers={**key, "Host": "127.0.0.1:8765", "Origin": "http://evil.example"}).status_code == 403


def test_on_a_public_address_the_site_leaves_hosts_to_the_operator(sessions):
    with TestClient(http_app(build_server(sessions), "0.0.0.0", None), base_url="http://games.example") as client:
        assert client.get("/watch/").status_code == 200


def test_every_page_says_what_it_may_load_and_forbids_type_guessing(tmp_path):
    sessions = GameSessions(GameStore(tmp_path / "g.sqlite3"))
    live, _ = sessions.create("cthulhu-dice", None, ["Ann", "Bob"])
    site = TestClient(watch_app(sessions, []))
    for path in ("/watch/", f"/watch/games/{live.id}", "/watch/games/nope", "/watch/static/game.js"):
        answer = site.get(path)
        assert answer.headers["x-content-type-options"] == "nosniff", path
        assert "default-src 'self'" in answer.headers["content-security-policy"], path
