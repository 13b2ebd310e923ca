"""A person plays a whole Cthulhu Dice game against the server's optimal bot from the seat's page, by clicking,
in Debian's chromium; the exact advice is one click away. Screenshots: tests/output/play/."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from app.helpers import call

from .browser import body, click_move, in_browser, listed, my_turn_or_over, play_sequence, press_move, until
from .conftest import OUTPUT, mcp_client


async def test_a_person_plays_a_whole_cthulhu_dice_game_against_the_optimal_bot_by_clicking(served, browser):
    http, client = mcp_client(served)
    async with http, client:
        made = await call(client, "new_game", game="cthulhu-dice", players=[{"name": "Ann", "person": True}, "bot:optimal"])
        ann = made["seats"][0]
        assert ann["token"] is None and ann["link"].startswith(f"{served}/play/{made['game_id']}/0?key=")
        token = parse_qs(urlsplit(ann["link"]).query)["key"][0]

        await in_browser(browser.get, ann["link"])
        assert "key=" not in browser.current_url, "the token left the address bar"
        assert token not in browser.page_source, "the token is nowhere in the page"
        assert browser.get_cookie("tabletop_seat")["httpOnly"] is True
        moves_played = advised = 0
        while await my_turn_or_over(browser):
            assert browser.title.startswith("Your move"), browser.title
            choices = listed(browser)
            move = choices[0]
            if "retreat" in choices:
                await in_browser(browser.find_element(By.ID, "advice").click)
                await until(browser, lambda d: "Recommended" in d.find_element(By.ID, "answer").text)
                advice = browser.find_element(By.ID, "answer").text
                move = "retreat" if "Recommended: retreat" in advice else next(m for m in choices if m != "retreat")
                advised += 1
            if moves_played == 1:  # with the keyboard alone: the move's button, then "Play it", by Enter
                answer = await press_move(browser, move)
                assert "NOT played" in answer
                before = body(browser, "ply")
                await in_browser(browser.switch_to.active_element.send_keys, Keys.ENTER)  # the focus is on "Play it"
                await until(browser, lambda d, was=before: body(d, "ply") != was)
                moves_played += 1
                continue
            answer = await click_move(browser, move)
            assert "NOT played" in answer, answer
            if move == "roll":
                assert "%" in answer, "a roll's dry run shows its odds"
            if moves_played == 0:
                await in_browser(browser.save_screenshot, str(OUTPUT / "dice-dry-run.png"))
            await play_sequence(browser)
            moves_played += 1
            if moves_played == 3:
                await in_browser(browser.save_screenshot, str(OUTPUT / "dice-3-moves.png"))
            assert moves_played < 400, "the game did not end"

        await in_browser(browser.set_window_size, 390, 844)  # a phone
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scroll"
        await in_browser(browser.save_screenshot, str(OUTPUT / "dice-phone.png"))
        await in_browser(browser.set_window_size, 1400, 1000)
        state = await call(client, "get_state", game_id=made["game_id"])
        assert state["outcome"] is not None
        result = browser.find_element(By.ID, "turn").text
        assert state["outcome"]["reason"] in result
        assert browser.title.startswith("Game over")
        assert moves_played >= 2 and advised >= 1
        log = browser.find_element(By.ID, "log").text
        assert "bot:optimal" in log and "Ann" in log, "the log names both players"
        await in_browser(browser.save_screenshot, str(OUTPUT / "dice-over.png"))
pytestmark = pytest.mark.anyio
