"""A person plays Great Cthulhu in a 4-player Cthulhu Wars game against three of the server's bots, from the seat's
page in Debian's chromium, for two rounds and more until a battle has been fought: actions from the grouped list,
a Move of two units composed as one action, out-of-turn windows, battles with their dice. Screenshots:
tests/output/play/."""

from __future__ import annotations

import random
import re

import pytest
from selenium.webdriver.common.by import By

from app.helpers import call

from .browser import body, click_move, in_browser, listed, my_turn_or_over, play_sequence
from .conftest import OUTPUT, mcp_client

#: The most decisions the person makes before the test gives up.
MAX_DECISIONS = 150
BOT = {"bot": "heuristic", "seconds": 0.2}


#: A battle's dice in the log ("great-cthulhu rolls 6 dice [...]").
DICE_ROLLED = re.compile(r"rolls \d+ di(?:e|ce) \[")


def round_of(driver) -> int:
    found = re.search(r"Round (\d+)", driver.find_element(By.ID, "position").text)
    return int(found.group(1)) if found else 0


async def test_a_person_plays_great_cthulhu_against_three_bots(served, browser):
    http, client = mcp_client(served)
    async with http, client:
        made = await call(
            client, "new_game", game="cthulhu-wars", seed=1,
            options={"factions": ["great-cthulhu", "black-goat", "crawling-chaos", "yellow-sign"]},
            players=[{"name": "Ann", "person": True}, {"name": "Bob", **BOT}, {"name": "Cy", **BOT}, {"name": "Di", **BOT}],
        )
        await in_browser(browser.set_window_size, 1366, 900)
        await in_browser(browser.get, made["seats"][0]["link"])
        pick = random.Random(1)
        decisions = windows = composed = 0
        battle_seen = False
        while decisions < MAX_DECISIONS and await my_turn_or_over(browser, OUTPUT / "cw-stuck.png"):
            position = browser.find_element(By.ID, "position").text
            if round_of(browser) >= 3 and battle_seen and windows:
                break
            choices = listed(browser)
            if "out of turn" in position.split("\n")[0]:
                windows += 1
                if windows == 1:
                    await in_browser(browser.save_screenshot, str(OUTPUT / "cw-out-of-turn.png"))
                await click_move(browser, next((m for m in choices if m != "done"), "done"))
            elif battles := [m for m in choices if m.startswith("battle")]:
                await click_move(browser, battles[0])
            elif not composed and len([m for m in choices if m.startswith("move ")]) >= 2:
                first = next(m for m in choices if m.startswith("move "))
                await click_move(browser, first)
                second = next(m for m in listed(browser) if m.startswith("move "))
                await click_move(browser, second)
                await click_move(browser, "done")
                assert body(browser, "sequence") == "3"
                composed += 1
                await in_browser(browser.save_screenshot, str(OUTPUT / "cw-move-composed.png"))
            else:
                cheap = [m for m in choices if not m.startswith(("pass", "move ", "abandon", "control"))] or choices
                await click_move(browser, pick.choice(cheap))
            await play_sequence(browser)
            decisions += 1
            # a battle counts once its dice are in the log: one declared may still wait on pre-battle answers
            battle_seen = battle_seen or bool(DICE_ROLLED.search(browser.find_element(By.ID, "log").text))
        await in_browser(browser.save_screenshot, str(OUTPUT / "cw-after.png"))
        assert round_of(browser) >= 3 or body(browser, "over") == "yes", "two whole rounds were played"
        assert windows >= 1 and composed == 1 and battle_seen, (windows, composed, battle_seen)
        log = browser.find_element(By.ID, "log").text
        assert DICE_ROLLED.search(log), "battle dice are shown in the log"
        state = await call(client, "get_state", game_id=made["game_id"])
        assert state["ply"] >= decisions


pytestmark = pytest.mark.anyio
