"""Who may open a seat's page, against a real `tabletop serve --http` process: the seat's link sets a cookie for that
seat's page only; without it (no cookie, another seat's, another game's, a referee's token, a wrong key) a page,
its view, its events and its moves show nothing of the seat; moves come only from the page itself (JSON, own
origin); a foreign Host is refused (DNS rebinding); `/watch` keeps working. Also the MCP side: people's seats
get links, not tokens, and a server without play pages refuses them."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from mcp import Client

from app.helpers import call, refused
from tabletop.app.server import build_server
from tabletop.play import seat_path
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore

from .conftest import TOKEN, mcp_client

pytestmark = pytest.mark.anyio


def key_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["key"][0]


async def test_a_seat_link_sets_a_cookie_for_that_seat_only_and_everything_else_is_locked_out(served):
    http, client = mcp_client(served)
    async with http, client:
        made = await call(client, "new_game", game="cthulhu-dice",
                          players=[{"name": "Ann", "person": True}, {"name": "Bob", "person": True}, "Cy"])
        other = await call(client, "new_game", game="cthulhu-dice", players=["Di", "Ed"])
        table = await call(client, "new_game", game="cthulhu-dice", players=["Fay", "Gus"], options={"chance": "table"})
        gid = made["game_id"]
        ann, bob, cy = made["seats"]
        assert ann["token"] is None and bob["token"] is None and cy["token"] and cy["link"] is None
        page0, page1 = served + seat_path(gid, 0), served + seat_path(gid, 1)

        async with httpx2.AsyncClient() as browser:
            opened = await browser.get(ann["link"])
            assert opened.status_code == 303 and opened.headers["location"] == seat_path(gid, 0)
            cookie = opened.headers["set-cookie"]
            assert "HttpOnly" in cookie and "SameSite=strict" in cookie and f"Path={seat_path(gid, 0)}" in cookie
            assert opened.headers["referrer-policy"] == "no-referrer"
            page = await browser.get(page0)
            assert page.status_code == 200 and '"you": "Ann"' in page.text
            assert key_of(ann["link"]) not in page.text, "the token is not in the page"
            assert "content-security-policy" in page.headers and "frame-ancestors 'none'" in page.headers["content-security-policy"]
            assert not re.search(r"(src|href)=\"(https?:)?//", page.text), "nothing is loaded from another site"
            view = (await browser.get(page0 + "/view")).json()
            assert view["you"] == "Ann" and view["your_turn"] is True
            # the cookie's path keeps it to Ann's page: Bob's page is locked for her browser
            assert (await browser.get(page1)).status_code == 401

        locked = (await httpx2.AsyncClient().get(page0)).text
        ann_cookie = {"tabletop_seat": key_of(ann["link"])}
        for url, cookies in [
            (page0, {}),  # no cookie
            (page1, ann_cookie),  # another seat's cookie, sent on purpose
            (served + seat_path(other["game_id"], 0), ann_cookie),  # another game's
            (page0, {"tabletop_seat": cy["token"]}),  # a seat token, of the wrong seat
            (page0, {"tabletop_seat": "x" * 5000}),
            (served + seat_path(table["game_id"], 0), {"tabletop_seat": table["seats"][-1]["token"]}),  # the referee
            (served + seat_path("no-such-game", 0), ann_cookie),
        ]:
            async with httpx2.AsyncClient(cookies=cookies) as stranger:
                for path in ("", "/view", "/events"):
                    answer = await stranger.get(url + path)
                    assert answer.status_code == 401 and answer.text == locked, (url, path)
                    assert "Ann" not in answer.text and "roll" not in answer.text
                posted = await stranger.post(url + "/moves", json={"moves": ["roll"], "dry_run": False}, headers={"origin": served})
                assert posted.status_code == 401
        wrong = await httpx2.AsyncClient().get(page0 + "?key=not-the-token", follow_redirects=False)
        assert wrong.status_code == 401 and "set-cookie" not in wrong.headers

        # moves come from the page itself: JSON from its own origin
        async with httpx2.AsyncClient(cookies=ann_cookie) as page:
            before = (await call(client, "get_state", game_id=gid))["ply"]
            foreign = await page.post(page0 + "/moves", json={"moves": ["roll"], "dry_run": False}, headers={"origin": "http://evil.example"})
            assert foreign.status_code in (403, 400)
            form = await page.post(page0 + "/moves", content=b"moves=roll", headers={"content-type": "application/x-www-form-urlencoded", "origin": served})
            assert form.status_code == 403
            odd = await page.post(page0 + "/moves", content=b'{"moves": [], "rm": 1}', headers={"content-type": "application/json"})
            assert odd.status_code == 400 and odd.json()["ok"] is False
            assert (await call(client, "get_state", game_id=gid))["ply"] == before, "nothing refused was played"
            tried = (await page.post(page0 + "/moves", json={"moves": ["roll"], "dry_run": True}, headers={"origin": served})).json()
            assert tried["ok"] and "NOT played" in tried["text"]
            illegal = (await page.post(page0 + "/moves", json={"moves": ["retreat"]}, headers={"origin": served})).json()
            assert illegal["ok"] is False and illegal["text"].startswith("illegal_move:") and "rules://" in illegal["text"]
            played = (await page.post(page0 + "/moves", json={"moves": ["roll"], "dry_run": False, "expected": 1}, headers={"origin": served})).json()
            assert played["ok"] and "Ann played 'roll'" in played["text"]
            again = (await page.post(page0 + "/moves", json={"moves": ["roll"], "dry_run": False, "expected": 1}, headers={"origin": served})).json()
            assert again["ok"] and "Already played" in again["text"], "a retried click plays nothing twice"
            async with page.stream("GET", page0 + "/events") as events:
                async for line in events.aiter_lines():
                    if line.startswith("data:"):
                        assert json.loads(line[5:]) == (await page.get(page0 + "/view")).json()
                        break
            rebound = await page.get(page0, headers={"host": "evil.example"})
            assert rebound.status_code in (400, 421) and "Ann" not in rebound.text, "DNS rebinding is refused"

        watch = await httpx2.AsyncClient().get(f"{served}/watch/games/{gid}?key={TOKEN}", follow_redirects=True)
        assert watch.status_code == 200 and "Ann" in watch.text, "the watching site works as before"

        linked = await call(client, "get_state", game_id=gid, token=cy["token"], link=True)
        assert linked["link"].startswith(served + seat_path(gid, 2) + "?key=")
        assert "link=true" in await refused(client, "get_state", game_id=gid, link=True)


async def test_a_server_without_play_pages_refuses_peoples_seats_and_says_why(tmp_path):
    server = build_server(GameSessions(GameStore(tmp_path / "g.sqlite3")))
    async with Client(server) as client:
        text = await refused(client, "new_game", game="cthulhu-dice", players=[{"name": "Ann", "person": True}, "Bob"])
        assert "tabletop serve --http" in text and "bad_options:" in text
        text = await refused(client, "new_game", game="cthulhu-dice", players=[{"name": "Ann", "person": True, "bot": "random"}, "Bob"])
        assert "not both" in text
        made = await call(client, "new_game", game="cthulhu-dice", players=["Ann", "Bob"])
        assert "play pages" in await refused(client, "get_state", game_id=made["game_id"], token=made["seats"][0]["token"], link=True)
    server.play_url = "https://games.example.org"
    async with Client(server) as client:
        made = await call(client, "new_game", game="cthulhu-dice", players=[{"name": "Ann", "person": True}, "Bob"])
        link = made["seats"][0]["link"]
        assert link.startswith(f"https://games.example.org/play/{made['game_id']}/0?key=")
        result = await client.call_tool("new_game", {"game": "cthulhu-dice", "players": [{"name": "Ann", "person": True}, "Bob"]})
        text = result.content[0].text
        assert "plays from this page" in text and "Secret seat tokens" in text
        assert result.structured_content["seats"][0]["link"] in text
        assert result.structured_content["seats"][1]["token"] in text


async def test_host_and_origin_are_compared_exactly_on_every_path(served):
    port = served.rsplit(":", 1)[1]
    own = f"http://127.0.0.1:{port}"
    lookalikes = [f"{own}.evil.example", f"{own}0", f"http://127.0.0.1:{port}@evil.example", f"https://127.0.0.1:{port}",
                  "http://localhost:1", "null"]
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        for path in ("/mcp", "/watch/", "/play/some-game/0"):
            for origin in lookalikes:
                answer = await http.get(served + path, headers={"origin": origin})
                assert answer.status_code == 403, (path, origin)
            for host in (f"127.0.0.1:{port}.evil.example", "evil.example", f"127.0.0.1:{port}@evil.example"):
                answer = await http.get(served + path, headers={"host": host})
                assert answer.status_code == 421, (path, host)
        assert (await http.get(served + "/watch/", headers={"origin": own})).status_code == 200
