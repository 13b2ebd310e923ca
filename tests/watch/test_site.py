"""The watching site over HTTP (Starlette's test client on the real app): who may watch, pages, replays, events."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

from tabletop.app.http import http_app
from tabletop.games.cthulhu_wars import board
from tabletop.games.cthulhu_wars.factions import FACTIONS
from tabletop.games.cthulhu_wars.neutrals import registry
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


#: The Ancients and every piece of neutral material (rules_text cthulhu-wars/ancients, high-priests,
#: neutral-monsters, neutral-spellbooks) on a five-player table.
EVERY_OPTION = {"factions": ["ancients", "great-cthulhu", "black-goat", "crawling-chaos", "yellow-sign"],
                "high_priests": True, "neutral_ghast": True, "neutral_gug": True, "neutral_shantak": True,
                "neutral_star_vampire": True, "neutral_spellbooks": True, "igoo_byatis": True, "igoo_abhoth": True,
                "igoo_daoloth": True, "igoo_nyogtha": True}


def drawn_titles(state) -> set[str]:
    """The titles of the unit types standing on the map, and 'Cathedral' when one is built."""
    titles = set()
    for s, fs in enumerate(state.seats):
        units = {u.name: u.title for u in board.faction_of(state, s).units}
        titles |= {units[kind] for kind, places in fs.units.items() if any(board.on_map(p) for p in places)}
        titles |= {kind.title() for _, kind in FACTIONS[fs.faction].buildings(state, s)}
    return titles


def test_a_game_with_the_ancients_and_every_neutral_option_is_watched_and_replayed(site, sessions):
    """The page, its picture and the replay follow a random game with every piece of expansion material on: every
    unit type on the map (the Ancients' Terrors, neutral monsters, High Priests) and every Cathedral is on the
    spectator's board."""
    site.headers["Authorization"] = "Bearer look"
    live, tokens = sessions.create("cthulhu-wars", EVERY_OPTION, 5, seed=11)
    chooser, seen = random.Random(11), set()
    building = ("an-cathedral", "buy-card", "place-monster", "recruit", "summon")
    while live.engine.outcome(live.state) is None and live.ply < 3000:
        seat = chooser.choice(live.to_move())
        moves = [live.engine.notation(m) for m in live.engine.legal_actions(live.state, seat)]
        favoured = [m for m in moves if m.startswith(building)]
        sessions.play(live.id, tokens[seat], chooser.choice(favoured if favoured and chooser.random() < 0.6 else moves))
        live = sessions.get(live.id)
        if live.ply % 25 == 0:
            page = site.get(f"/watch/games/{live.id}")
            assert page.status_code == 200 and "<svg" in page.text
            titles = drawn_titles(live.state)
            assert all(title in page.text for title in titles), titles - {t for t in titles if t in page.text}
            seen |= titles
    assert live.engine.outcome(live.state) is not None, "the game ended"
    neutral = {u.title for rule in registry.RULES for u in rule.units}
    assert "Cathedral" in seen and seen & neutral and seen & {"Un-Man", "Reanimated", "Yothan"}, sorted(seen)
    for ply in range(0, live.ply + 1, max(1, live.ply // 8)):
        shown = site.get(f"/watch/games/{live.id}/replay/{ply}")
        assert shown.status_code == 200 and shown.json()["ply"] == ply and "<svg" in shown.json()["svg"]
