"""The watching site in a real headless browser (Debian's chromium, Selenium): a game page and a tournament page
follow moves made elsewhere, without a reload; a finished game replays move by move. Screenshots: tests/output/watch/."""

from __future__ import annotations

import anyio
import anyio.to_thread
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tabletop.bots.cthulhu_dice import CautiousBot, ThresholdBot
from tabletop.sessions.manager import GameSessions
from tabletop.sessions.store import GameStore, TournamentGame, TournamentRecord, now

from app.helpers import call, play_to_the_end
from .conftest import OUTPUT

#: The most a page may take to show a change (a bound on waiting, not a measure of speed).
PATIENCE = 90


def body(driver, name: str) -> str | None:
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")


async def until(driver, check) -> None:
    await anyio.to_thread.run_sync(lambda: WebDriverWait(driver, PATIENCE, poll_frequency=0.1).until(check))


async def in_browser(function, *args):
    return await anyio.to_thread.run_sync(function, *args)


def mcp_client(base: str):
    http = httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret"}, timeout=120)
    return http, Client(streamable_http_client(f"{base}/mcp", http_client=http))


async def test_a_game_page_follows_moves_without_reloading_and_replays_once_over(served, browser):
    base, _ = served
    http, client = mcp_client(base)
    async with http, client:
        made = await call(client, "new_game", game="cthulhu-dice", players=["Ann", "Bob"])
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        await in_browser(browser.get, f"{base}/watch/games/{game_id}?key=look")  # the viewing token, once
        assert "Ann" in browser.find_element(By.ID, "players").text
        await in_browser(browser.execute_script, "window.stillThisPage = true;")
        await in_browser(browser.save_screenshot, str(OUTPUT / "game-start.png"))
        for played in range(1, 4):
            board = browser.find_element(By.ID, "board").get_attribute("innerHTML")
            state = await call(client, "get_state", game_id=game_id)
            seat = state["to_move"][0]
            await call(client, "apply_move", game_id=game_id, token=tokens[seat], move="roll")
            await until(browser, lambda d, n=played: body(d, "moves") == str(n))
            assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) == played
            assert browser.find_element(By.ID, "board").get_attribute("innerHTML") != board, "the board was redrawn"
            assert "roll" in browser.find_element(By.ID, "log").text
        await in_browser(browser.save_screenshot, str(OUTPUT / "game-after-3-moves.png"))
        assert browser.execute_script("return window.stillThisPage === true"), "the page was never reloaded"

        final = await play_to_the_end(client, game_id, tokens)
        await until(browser, lambda d: d.find_element(By.ID, "result").is_displayed())
        assert final["outcome"]["reason"] in browser.find_element(By.ID, "result").text
        assert browser.find_element(By.ID, "seed").is_displayed(), "the seed is shown once the game is over"
        assert browser.execute_script("return window.stillThisPage === true")
        await in_browser(browser.save_screenshot, str(OUTPUT / "game-over.png"))

        # replay: back to the start, then one move on
        end_board = browser.find_element(By.ID, "board").get_attribute("innerHTML")
        await in_browser(browser.find_element(By.ID, "first").click)
        await until(browser, lambda d: body(d, "replay-at") == "0")
        await in_browser(browser.find_element(By.ID, "forward").click)
        await until(browser, lambda d: body(d, "replay-at") == "1")
        assert browser.find_element(By.ID, "replay-move").text.startswith("1. ")
        assert browser.find_element(By.ID, "board").get_attribute("innerHTML") != end_board
        await in_browser(browser.save_screenshot, str(OUTPUT / "game-replay-move-1.png"))


def links(driver) -> list[str]:
    """The schedule's game links, read in one go (the page may redraw the table at any moment)."""
    return driver.execute_script("return [...document.querySelectorAll('#schedule a')].map((a) => a.href)")


def standings_table(driver) -> list[list[str]]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#standings tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent))"
    )


def play_bots(sessions: GameSessions, game_id: str, tokens: list[str], bots: list) -> dict:
    """A whole Cthulhu Dice game between bots, each move through the sessions like any player's."""
    while True:
        live = sessions.get(game_id)
        outcome = live.engine.outcome(live.state)
        if outcome is not None:
            return outcome.model_dump(mode="json")
        seat = live.to_move()[0]
        action = bots[seat].choose(live.engine, live.state, seat)
        sessions.play(game_id, tokens[seat], live.engine.notation(action))


async def test_a_tournament_page_updates_its_standings_as_a_bots_only_tournament_plays(served, browser):
    """A bots-only tournament written through the arena's storage contract on the server's own database."""
    base, db = served
    store = GameStore(db)
    sessions = GameSessions(store)
    players = {"cautious": CautiousBot(), "bold": ThresholdBot(4)}
    schedule = [["cautious", "bold"], ["bold", "cautious"], ["cautious", "bold"]]
    store.create_tournament(TournamentRecord("cup-1", "Browser cup", "cthulhu-dice", {"schedule": schedule}, now()))
    for slot, seats in enumerate(schedule):
        store.save_tournament_game(TournamentGame("cup-1", slot, seats))
    try:
        await in_browser(browser.get, f"{base}/watch/?key=s3cret")  # the server's own token opens the site too
        await in_browser(browser.find_element(By.LINK_TEXT, "Browser cup").click)
        await until(browser, lambda d: body(d, "finished-games") == "0")
        await in_browser(browser.execute_script, "window.stillThisPage = true;")
        await in_browser(browser.save_screenshot, str(OUTPUT / "tournament-start.png"))
        for slot, seats in enumerate(schedule):
            live, tokens = sessions.create("cthulhu-dice", None, seats)
            store.save_tournament_game(TournamentGame("cup-1", slot, seats, "running", live.id))
            await until(browser, lambda d, g=live.id: any(g in href for href in links(d)))
            outcome = await anyio.to_thread.run_sync(play_bots, sessions, live.id, tokens, [players[p] for p in seats])
            store.save_tournament_game(TournamentGame("cup-1", slot, seats, "finished", live.id, outcome))
            await until(browser, lambda d, n=slot + 1: body(d, "finished-games") == str(n))
            table = standings_table(browser)
            assert {row[1] for row in table} == {"cautious", "bold"}
            assert [int(row[2]) for row in table] == [slot + 1, slot + 1], "each finished game counts once for each player"
            await in_browser(browser.save_screenshot, str(OUTPUT / f"tournament-after-game-{slot + 1}.png"))
        store.finish_tournament("cup-1", now())
        await until(browser, lambda d: d.find_element(By.ID, "progress").text.startswith("Finished"))
        assert browser.execute_script("return window.stillThisPage === true"), "the page was never reloaded"
        await in_browser(browser.get, links(browser)[0])  # the page is finished: it no longer redraws
        await until(browser, lambda d: d.find_element(By.ID, "result").is_displayed())
    finally:
        store.close()


pytestmark = pytest.mark.anyio


async def test_a_wide_map_on_a_phone_can_be_seen_full_size_without_the_page_scrolling_sideways(served, browser):
    """The Cthulhu Wars map (1,360 px wide) on a 360-px screen is drawn at about a quarter of its size; the page
    offers it full size, scrolling sideways inside its own box, and keeps that choice when a move redraws it."""
    base, _ = served
    http, client = mcp_client(base)
    async with http, client:
        made = await call(client, "new_game", game="cthulhu-wars", players=["Ann", "Bob", "Cy"])
        game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        phone = {"width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": True}
        await in_browser(browser.execute_cdp_cmd, "Emulation.setDeviceMetricsOverride", phone)
        try:
            await in_browser(browser.get, f"{base}/watch/games/{game_id}?key=look")
            zoom = browser.find_element(By.ID, "zoom")
            assert zoom.is_displayed() and zoom.text == "Show the picture full size"
            assert body(browser, "full-size") == "no"
            await in_browser(zoom.click)
            await until(browser, lambda d: body(d, "full-size") == "yes")
            sizes = "const b = document.getElementById('board'), s = b.querySelector('svg'), r = document.documentElement;"
            own, box, page = browser.execute_script(
                sizes + "return [s.getBoundingClientRect().width, [b.scrollWidth, b.clientWidth], [r.scrollWidth, r.clientWidth]];")
            assert own >= 1000, f"the map is drawn at its own size, not {own} px"
            assert box[0] > box[1], "the map scrolls sideways inside its box"
            assert page[0] <= page[1], f"the page itself never scrolls sideways ({page})"
            await in_browser(browser.execute_script, "document.getElementById('board').scrollLeft = 300;")
            await in_browser(browser.save_screenshot, str(OUTPUT / "game-cthulhu-wars-phone-full-size.png"))

            state = await call(client, "get_state", game_id=game_id)
            seat = state["to_move"][0]
            moves = await call(client, "legal_moves", game_id=game_id, token=tokens[seat])
            first = moves["groups"][0]["moves"][0]
            await call(client, "apply_move", game_id=game_id, token=tokens[seat], move=first)
            await until(browser, lambda d: body(d, "moves") == "1")
            assert body(browser, "full-size") == "yes", "a redraw keeps the full-size picture"
            assert browser.execute_script("return document.getElementById('board').scrollLeft") >= 250
            await in_browser(zoom.click)
            await until(browser, lambda d: body(d, "full-size") == "no")
            page = browser.execute_script("const r = document.documentElement; return [r.scrollWidth, r.clientWidth];")
            assert page[0] <= page[1] and zoom.text == "Show the picture full size"
        finally:
            await in_browser(browser.execute_cdp_cmd, "Emulation.clearDeviceMetricsOverride", {})
