"""The board app in Debian's chromium, inside a test host built on the official MCP Apps host bridge (testhost.py),
connected to a real `tabletop serve --http` process (and to a `tabletop serve` process over stdio, as desktop hosts run
it): the spectator's board follows moves made by another client; a person plays a Cthulhu Dice turn (over HTTP, and
over stdio, where the server serves no play pages), A Game of War moves and a Cthulhu Wars round (its multi-step
actions and out-of-turn windows, its wide map shown full size on asking) from the app; nothing the model is given,
and nothing the app tells the model, holds the person's seat token or key. Screenshots: tests/output/apps/."""

from __future__ import annotations

import html
import json
import random
import re
import sys

import anyio

import pytest
from mcp import StdioServerParameters
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from app.helpers import call
from play.browser import body, click_move, in_browser, listed, my_turn_or_over, play_sequence, until

from .conftest import OUTPUT, TOKEN, mcp_client
from .testhost import apps_host, model_visible, stdio_apps_host

pytestmark = pytest.mark.anyio

#: Widths hosts give inline apps: a phone's chat column, a desktop's.
NARROW, WIDE = 360, 720
META = "io.github.tabletop-mcp/board"


async def show(driver, relay, tool: str, width: int, **args) -> int:
    """The host calls ``tool`` for the model and shows its app: the view's number."""
    index = await in_browser(driver.execute_script, "return window.testHost.show(arguments[0], arguments[1], arguments[2])",
                             tool, args, width)
    assert index >= 0, f"{tool} names no app"
    return index


async def into(driver, index: int) -> None:
    """Into the view ``index``, scrolled into sight first as a person would (chromium defers the rendering of a
    cross-origin frame out of sight: its app hears of its own resizing only once it is seen)."""
    await in_browser(driver.switch_to.default_content)
    frame = driver.find_element(By.ID, f"view-{index}")
    await in_browser(driver.execute_script, "arguments[0].scrollIntoView({block: 'nearest'})", frame)
    await in_browser(driver.switch_to.frame, frame)


async def out(driver) -> None:
    await in_browser(driver.switch_to.default_content)


async def open_host(driver, relay) -> None:
    await in_browser(driver.get, relay.url)
    await until(driver, lambda d: body(d, "host") == "ready")


def fits(driver) -> bool:
    """Inside a view: nothing is wider than the view (no sideways scrolling)."""
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


def sized(driver) -> bool:
    """Inside a view: the host has made the view as tall as its content (no scrolling inside the conversation)."""
    return driver.execute_script("return document.documentElement.scrollHeight <= window.innerHeight + 1")


def clicked(driver, selector: str) -> bool:
    """Click what ``selector`` finds, unless the board was drawn anew meanwhile (then the next try)."""
    try:
        driver.find_element(By.CSS_SELECTOR, selector).click()
    except StaleElementReferenceException:
        return False
    return True


def listed_now(driver) -> list[str]:
    try:
        return listed(driver)
    except StaleElementReferenceException:
        return []


def policy_errors(driver) -> list[str]:
    """What the host's content security policy blocked in any view (the test host notes it in the view)."""
    blocked = []
    for frame in driver.find_elements(By.CSS_SELECTOR, "#views iframe"):
        driver.switch_to.frame(frame)
        blocked += (driver.execute_script("return document.documentElement.dataset.blocked") or "").splitlines()
        driver.switch_to.default_content()
    return blocked


def secrets_absent(texts: list[str], secrets: list[str]) -> None:
    for secret in secrets:
        assert secret and all(secret not in text for text in texts), "a secret of the person's seat reached the model"


def seat_token(relay) -> str:
    """The person's seat token, as board_open gave it to the app (and to nobody else)."""
    opened = next(answer for _, name, _, answer in relay.app if name == "board_open")
    return opened["structuredContent"]["token"]


def model_never_sees(relay, key: str) -> None:
    """Nothing the model was given (the tools' answers as a host shows them) and nothing the app told it holds the
    person's seat token or its one-time ``key``."""
    told = [json.dumps(t["params"]) for t in relay.told]
    secrets_absent([model_visible(answer) for _, _, answer in relay.model] + told, [seat_token(relay), key])


async def test_the_spectators_board_follows_moves_made_by_another_client(served, chromium):
    http, other = mcp_client(served)
    async with http, other, apps_host(served, TOKEN) as relay:
        made = await call(other, "new_game", game="cthulhu-dice", players=["Ann", "Bob"], seed=21)
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        await open_host(chromium, relay)
        index = await show(chromium, relay, "get_state", NARROW, game_id=game_id)
        await into(chromium, index)
        await until(chromium, lambda d: body(d, "app") == "spectator" and body(d, "ply") == "0")
        assert "Waiting for Ann" in chromium.find_element(By.ID, "turn").text, "whose turn it is"
        assert chromium.find_element(By.CSS_SELECTOR, "#board svg"), "the board is drawn"
        assert body(chromium, "seated") == "no" and not chromium.find_element(By.ID, "moves").text
        assert fits(chromium)
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "spectator-start.png"))

        for ply in range(1, 6):  # another client plays; the board follows without a reload
            state = await call(other, "get_state", game_id=game_id)
            seat = state["to_move"][0]
            legal = await call(other, "legal_moves", game_id=game_id, token=tokens[seat])
            names = [m for g in legal["groups"] for m in g["moves"]]
            move = "retreat" if ply % 3 == 0 and "retreat" in names else "roll"
            played = await call(other, "apply_move", game_id=game_id, token=tokens[seat], move=move)
            await into(chromium, index)
            await until(chromium, lambda d, n=ply: body(d, "ply") == str(n))
            just = chromium.find_element(By.ID, "since").text
            assert f"{['Ann', 'Bob'][seat]}: {move}" in just, just
            assert played["played"][0]["events"][0].split(":")[0] in just, "what the move did"
            after = await call(other, "get_state", game_id=game_id)
            if after["to_move"]:
                waiting = ["Ann", "Bob"][after["to_move"][0]]
                await until(chromium, lambda d, w=waiting: f"Waiting for {w}" in d.find_element(By.ID, "turn").text)
            assert fits(chromium)
            await out(chromium)
        frame = chromium.find_element(By.ID, f"view-{index}")
        assert int(frame.size["height"]) > 400, "the host sized the view to its content"
        await into(chromium, index)
        await until(chromium, sized, 10)
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "spectator-followed.png"))

        assert set(relay.app_calls(index)) == {"board_view"}, "a spectator's board only reads"
        assert relay.told == [], "a spectator's board tells the model nothing"
        views = chromium.execute_script("return window.testHost.views.map(v => ({init: v.initialized, app: v.appInfo}))")
        assert views[index]["init"] and views[index]["app"]["name"] == "tabletop-board"
        assert await in_browser(policy_errors, chromium) == [], "the app loads nothing from the network"


async def test_a_person_plays_a_cthulhu_dice_turn_from_the_app(served, chromium):
    async with apps_host(served, TOKEN) as relay:
        await open_host(chromium, relay)
        index = await show(chromium, relay, "new_game", NARROW, game="cthulhu-dice",
                           players=[{"name": "Ann", "person": True}, "bot:optimal"], seed=5)
        _, _, made = relay.model[-1]
        game_id = made["structuredContent"]["game_id"]
        key = made["_meta"][META]["seats"][0]["key"]
        assert made["structuredContent"]["seats"][0]["link"] is None and "/play/" not in model_visible(made)
        assert "plays from the board shown with this answer" in made["content"][0]["text"]

        await into(chromium, index)
        await until(chromium, lambda d: body(d, "seated") == "yes")
        assert "Ann" in chromium.find_element(By.ID, "you").text
        assert await my_turn_or_over(chromium)
        assert fits(chromium)
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "dice-seat.png"))

        # Ann's turn: roll (a dry run first, with its odds), play it, then retreat or roll on until the turn passes
        await into(chromium, index)
        answer = await click_move(chromium, "roll")
        assert "NOT played" in answer and "%" in answer, answer
        await play_sequence(chromium)
        rolls = 1
        while body(chromium, "your-turn") == "yes" and rolls < 6:
            move = "retreat" if "retreat" in listed(chromium) and rolls >= 2 else "roll"
            await click_move(chromium, move)
            await play_sequence(chromium)
            rolls += 1
        log = chromium.find_element(By.ID, "log").text
        assert log.count("Ann: roll") >= 1, log
        # the optimal bot plays its turn; the board follows back to Ann's
        assert await my_turn_or_over(chromium)
        assert "bot:optimal" in chromium.find_element(By.ID, "since").text or body(chromium, "over") == "yes"
        await until(chromium, sized, 10)
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "dice-turn-played.png"))

        # the seat's page, opened in the browser through the host (never through the model)
        await into(chromium, index)
        await in_browser(chromium.find_element(By.ID, "app-page").click)
        await out(chromium)
        await until(chromium, lambda d: d.execute_script("return window.testHost.views[arguments[0]].links.length", index) == 1)
        page = chromium.execute_script("return window.testHost.views[arguments[0]].links[0]", index)
        assert page.startswith(f"{served}/play/{game_id}/0?key=")

        # a later answer's board is a spectator's: the seat stays in the view that opened it
        second = await show(chromium, relay, "get_state", WIDE, game_id=game_id)
        await into(chromium, second)
        await until(chromium, lambda d: body(d, "app") == "spectator")
        await out(chromium)

        assert relay.told and all(t["kind"] == "ui/update-model-context" for t in relay.told)
        note = relay.told[-1]["params"]["content"][0]["text"]
        assert note.startswith(f"Cthulhu Dice {game_id}, as a spectator sees it"), note
        model_never_sees(relay, key)
        assert await in_browser(policy_errors, chromium) == []


async def test_over_stdio_a_person_plays_a_cthulhu_dice_turn_from_the_app(tmp_path, chromium):
    """The server as desktop hosts run it (``tabletop serve`` over stdio: no HTTP, no play pages): the person's seat
    is made all the same, and goes to the app alone."""
    server = StdioServerParameters(command=sys.executable,
                                   args=["-m", "tabletop", "serve", "--db", str(tmp_path / "stdio.sqlite3")])
    async with stdio_apps_host(server) as relay:
        await open_host(chromium, relay)
        index = await show(chromium, relay, "new_game", NARROW, game="cthulhu-dice",
                           players=[{"name": "Ann", "person": True}, "bot:optimal"], seed=8)
        _, _, made = relay.model[-1]
        assert not made.get("isError"), made["content"][0]["text"]
        game_id = made["structuredContent"]["game_id"]
        key = made["_meta"][META]["seats"][0]["key"]
        seat = made["structuredContent"]["seats"][0]
        assert seat["link"] is None and seat["token"] is None and "/play/" not in model_visible(made)

        await into(chromium, index)
        await until(chromium, lambda d: body(d, "seated") == "yes")
        assert await my_turn_or_over(chromium)
        assert not chromium.find_element(By.ID, "app-page").is_displayed(), "no page to open: the server serves none"
        await click_move(chromium, "roll")
        await play_sequence(chromium)
        rolls = 1
        while body(chromium, "your-turn") == "yes" and rolls < 6:
            await click_move(chromium, "retreat" if "retreat" in listed(chromium) else "roll")
            await play_sequence(chromium)
            rolls += 1
        assert "Ann: roll" in chromium.find_element(By.ID, "log").text
        assert await my_turn_or_over(chromium)  # the server's bot plays its turn; the board follows back to Ann's
        assert "bot:optimal" in chromium.find_element(By.ID, "since").text or body(chromium, "over") == "yes"
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "stdio-dice-turn-played.png"))

        opened = next(answer for v, name, _, answer in relay.app if name == "board_open")
        assert opened["structuredContent"]["page"] is None
        await model_call(relay, "history", game_id=game_id)
        assert relay.told, "the app told the model what a spectator sees after Ann's moves"
        model_never_sees(relay, key)
        assert await in_browser(policy_errors, chromium) == []


async def model_call(relay, tool: str, **args) -> dict:
    """The model's own call (through the host, recorded with everything else the model is given)."""
    result = await relay.client.call_tool(tool, args)
    answer = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    relay.model.append((tool, args, answer))
    assert not result.is_error, model_visible(answer)
    return answer["structuredContent"]


async def test_a_person_deploys_and_moves_in_a_game_of_war_from_the_app(served, chromium):
    """Ann (a person, North) plays from the app against Bob, the model's own seat (South), played here."""
    async with apps_host(served, TOKEN) as relay:
        await open_host(chromium, relay)
        index = await show(chromium, relay, "new_game", WIDE, game="game-of-war", seed=11,
                           options={"futile_attacks": True}, players=[{"name": "Ann", "person": True}, "Bob"])
        _, _, made = relay.model[-1]
        game_id = made["structuredContent"]["game_id"]
        key = made["_meta"][META]["seats"][0]["key"]
        bob = made["structuredContent"]["seats"][1]["token"]
        assert bob and bob in made["content"][0]["text"], "the model holds its own seat"

        await into(chromium, index)
        await until(chromium, lambda d: body(d, "seated") == "yes")
        assert await my_turn_or_over(chromium)
        # the secret deployment, composed and sent as one: the opening, one unit placed elsewhere, commit
        await click_move(chromium, "opening default")
        await click_move(chromium, "remove j6")
        placed = "place I n10"
        await until(chromium, lambda d: clicked(d, '#board [data-spot="n10"]'))
        await until(chromium, lambda d: placed in listed_now(d))
        await click_move(chromium, placed)
        await click_move(chromium, "commit")
        assert body(chromium, "sequence") == "4"
        await play_sequence(chromium)
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "war-deployed.png"))
        await until(chromium, lambda d: len(relay.told) > 0)
        note = relay.told[-1]["params"]["content"][0]["text"]
        assert "secret" in note and "n10" not in note and "place I" not in note and "remove" not in note, note

        # the model, holding South, sees nothing of Ann's deployment until it commits its own
        seen = await model_call(relay, "get_state", game_id=game_id, token=bob, detail="full")
        assert all(unit["side"] == "South" for unit in seen["view"]["units"]), "no unit of Ann's side"
        await model_call(relay, "history", game_id=game_id, token=bob)
        await model_call(relay, "apply_move", game_id=game_id, token=bob, moves=["opening default", "commit"])

        # turns: the model ends South's at once; Ann moves forward from the app and ends hers
        await into(chromium, index)
        for _ in range(4):
            state = await model_call(relay, "get_state", game_id=game_id, token=bob)
            if state["your_turn"]:
                await model_call(relay, "apply_move", game_id=game_id, token=bob, move="end")
                continue
            assert await my_turn_or_over(chromium)
            moves = [m for m in listed_now(chromium) if re.search(r"[a-y]\d+-[a-y]\d+", m)]
            assert moves, listed_now(chromium)
            await click_move(chromium, moves[0])
            if "end" in listed_now(chromium):
                await click_move(chromium, "end")
            await play_sequence(chromium)
            assert moves[0] in chromium.find_element(By.ID, "log").text
            break
        else:
            raise AssertionError("Ann never had a turn")
        assert fits(chromium)
        await until(chromium, sized, 10)
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "war-moved.png"))

        await model_call(relay, "render_board", game_id=game_id, token=bob, format="both")
        model_never_sees(relay, key)
        assert await in_browser(policy_errors, chromium) == []


def svg_texts(svg: str) -> list[str]:
    """The words of an SVG picture, in order (what the watching page and the app both draw)."""
    return [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def drawn_texts(driver) -> list[str]:
    """Inside a view: the words of the board's picture as the browser drew them."""
    return driver.execute_script("return Array.from(document.querySelectorAll('#board svg text')).map(t => t.textContent)")


def scale(driver) -> float:
    """Inside a view: how large the board's picture is drawn, against its own size."""
    return driver.execute_script("const svg = document.querySelector('#board svg');"
                                 "return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width")


def pans(driver) -> bool:
    """Inside a view: the board's box scrolls sideways (the picture is wider than the view)."""
    return driver.execute_script("const box = document.getElementById('board'); return box.scrollWidth > box.clientWidth + 1")


async def shows_ply(driver, index: int, ply: int) -> None:
    """The view ``index`` shows the position after ``ply`` moves, or a later one (it follows the game by itself)."""
    await into(driver, index)
    await until(driver, lambda d: int(body(d, "ply") or -1) >= ply)


async def test_a_person_plays_cthulhu_wars_from_the_app_and_a_spectators_board_follows(served, chromium):
    """A 3-player Cthulhu Wars game at a phone's width: Ann (a person, Great Cthulhu) plays from the app, Bob (Black
    Goat) is played by another client with the seat's token, Cy (Crawling Chaos) is the server's bot; a spectator's
    board in a second answer follows them all and draws the watching page's picture. Ann chooses the direction of
    play, moves two units as one Move action, recruits a High Priest and answers the out-of-turn windows it opens
    (its Unspeakable Oath: she says 'done'), one of them while Bob is asked in the same window."""
    http, other = mcp_client(served)
    async with http, other, apps_host(served, TOKEN) as relay:
        await open_host(chromium, relay)
        index = await show(chromium, relay, "new_game", NARROW, game="cthulhu-wars", seed=3,
                           options={"factions": ["great-cthulhu", "black-goat", "crawling-chaos"], "high_priests": True},
                           players=[{"name": "Ann", "person": True}, "Bob", {"name": "Cy", "bot": "heuristic", "seconds": 0.2}])
        _, _, made = relay.model[-1]
        assert not made.get("isError"), made["content"][0]["text"]
        game_id = made["structuredContent"]["game_id"]
        key = made["_meta"][META]["seats"][0]["key"]
        bob = made["structuredContent"]["seats"][1]["token"]
        assert made["structuredContent"]["seats"][0]["link"] is None and "/play/" not in model_visible(made)
        watcher = await show(chromium, relay, "get_state", NARROW, game_id=game_id)

        # Ann's seat: the map drawn, her turn shown (she chooses the direction of play first)
        await into(chromium, index)
        await until(chromium, lambda d: body(d, "seated") == "yes")
        assert "Ann" in chromium.find_element(By.ID, "you").text
        assert await my_turn_or_over(chromium)
        assert chromium.find_element(By.ID, "turn").text == "Your move."
        assert len(drawn_texts(chromium)) > 10, "the map is drawn"
        assert {"direction clockwise", "direction counterclockwise"} <= set(listed(chromium))
        assert fits(chromium)
        # the map, a quarter of its size at this width, is shown full size on asking: moved sideways in its own box
        assert scale(chromium) < 0.3 and not pans(chromium)
        await in_browser(chromium.find_element(By.ID, "zoom").click)
        await until(chromium, lambda d: body(d, "full-size") == "yes")
        assert scale(chromium) > 0.99 and pans(chromium) and fits(chromium)
        assert chromium.find_element(By.ID, "zoom").get_attribute("aria-pressed") == "true"
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "cw-full-size.png"))
        # the spectator's board: the watching page's picture, and whose turn it is
        page = await http.get(f"{served}/watch/games/{game_id}")
        watched = svg_texts(re.search(r"<svg.*?</svg>", page.text, re.S).group(0))
        await into(chromium, watcher)
        await until(chromium, lambda d: body(d, "app") == "spectator" and body(d, "ply") == "0")
        assert drawn_texts(chromium) == watched and len(watched) > 10, "the same map as the watching page"
        assert "Waiting for Ann" in chromium.find_element(By.ID, "turn").text
        assert fits(chromium)
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "cw-seat-and-spectator.png"))

        # the game goes round: Ann decides from the app, Bob's client and Cy's bot play theirs; both boards follow
        pick = random.Random(3)
        ann = bobs = composed = recruited = windows = shared = 0
        for _ in range(120):
            if composed and recruited and windows >= 2 and shared and bobs >= 2:
                break
            state = await call(other, "get_state", game_id=game_id)
            assert not state["outcome"], state
            ply = state["ply"]
            if 0 in state["to_move"]:
                await shows_ply(chromium, index, ply)
                assert await my_turn_or_over(chromium)
                assert chromium.find_element(By.ID, "turn").text == "Your move."
                choices = listed(chromium)
                moves = [m for m in choices if m.startswith("move ")]
                if "out of turn" in chromium.find_element(By.ID, "position").text.split("\n")[0]:
                    assert "done" in choices and len(choices) >= 2, choices
                    windows += 1
                    shared += len(state["to_move"]) > 1
                    if windows == 1:
                        await out(chromium)
                        await in_browser(chromium.save_screenshot, str(OUTPUT / "cw-out-of-turn.png"))
                        await into(chromium, index)
                    await click_move(chromium, "done")
                elif not composed and len(moves) >= 2:  # a Move action of two units, composed as one
                    await click_move(chromium, moves[0])
                    await click_move(chromium, next(m for m in listed(chromium) if m.startswith("move ")))
                    await click_move(chromium, "done")
                    assert body(chromium, "sequence") == "3", chromium.find_element(By.ID, "answer").text
                    composed = 1
                    await out(chromium)
                    await in_browser(chromium.save_screenshot, str(OUTPUT / "cw-move-composed.png"))
                    await into(chromium, index)
                elif not recruited and (priest := [m for m in choices if m.startswith("recruit high-priest")]):
                    await click_move(chromium, priest[0])
                    recruited = 1
                elif "done" in choices:
                    await click_move(chromium, "done")
                else:
                    cheap = [m for m in choices if not m.startswith(("pass", "move ", "abandon", "control"))] or choices
                    await click_move(chromium, pick.choice(cheap))
                sent = [li.text for li in chromium.find_elements(By.CSS_SELECTOR, "#sequence li")]
                await play_sequence(chromium)
                assert fits(chromium)
                ann += 1
                logged = await call(other, "history", game_id=game_id, after=ply)
                mine = [m["move"] for m in logged["moves"] if m["seat"] == 0]
                assert mine[: len(sent)] == sent, (sent, mine)  # the server has Ann's moves, as she sent them
            elif 1 in state["to_move"]:
                legal = await call(other, "legal_moves", game_id=game_id, token=bob)
                names = [m for g in legal["groups"] for m in g["moves"]]
                rest = [m for m in names if not m.startswith(("pass", "abandon", "control", "recruit high-priest", "oath"))]
                priest = [m for m in names if m.startswith("recruit high-priest")]
                move = "done" if "done" in names else priest[0] if priest and bobs < 4 else pick.choice(rest or names)
                await call(other, "apply_move", game_id=game_id, token=bob, move=move)
                bobs += 1
                await shows_ply(chromium, watcher, ply + 1)
                assert f"Bob (Black Goat): {move}" in chromium.find_element(By.ID, "log").text
                assert fits(chromium)
                await shows_ply(chromium, index, ply + 1)
                assert f"Bob (Black Goat): {move}" in chromium.find_element(By.ID, "since").text
            else:  # Cy, the server's bot, is thinking
                await anyio.sleep(0.2)
            await out(chromium)
        else:
            raise AssertionError(f"not all was played: {ann=} {bobs=} {composed=} {recruited=} {windows=} {shared=}")

        # the spectator's board shows the server's position, drawn as the watching page draws it (once the bot is done)
        while 2 in (state := await call(other, "get_state", game_id=game_id))["to_move"]:
            await anyio.sleep(0.2)
        await shows_ply(chromium, watcher, state["ply"])
        page = await http.get(f"{served}/watch/games/{game_id}")
        assert drawn_texts(chromium) == svg_texts(re.search(r"<svg.*?</svg>", page.text, re.S).group(0))
        log = chromium.find_element(By.ID, "log").text
        assert "Ann (Great Cthulhu): recruit high-priest" in log and "Cy (bot:heuristic) (Crawling Chaos)" in log, log
        assert scale(chromium) < 0.3, "the spectator's board is drawn to the width"
        await until(chromium, sized, 10)
        # Ann's map stayed full size through every redrawing; asked again, it fits the width again
        await into(chromium, index)
        assert body(chromium, "full-size") == "yes" and scale(chromium) > 0.99 and pans(chromium) and fits(chromium)
        await in_browser(chromium.find_element(By.ID, "zoom").click)
        await until(chromium, lambda d: body(d, "full-size") == "no")
        assert scale(chromium) < 0.3 and not pans(chromium) and fits(chromium)
        await until(chromium, sized, 10)
        await out(chromium)
        await in_browser(chromium.save_screenshot, str(OUTPUT / "cw-played.png"))

        assert set(relay.app_calls(watcher)) == {"board_view"}, "a spectator's board only reads"
        await until(chromium, lambda d: len(relay.told) >= ann, 10)  # after each of Ann's moves, what a spectator sees
        told = [t["params"]["content"][0]["text"] for t in relay.told]
        assert all(t["kind"] == "ui/update-model-context" for t in relay.told)
        assert all(text.startswith(f"Cthulhu Wars {game_id}, as a spectator sees it") for text in told), told
        await model_call(relay, "history", game_id=game_id)
        model_never_sees(relay, key)
        assert await in_browser(policy_errors, chromium) == []
