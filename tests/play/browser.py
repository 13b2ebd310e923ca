"""Driving a seat's page in chromium: wait for its data attributes, click its controls."""

from __future__ import annotations

from pathlib import Path

import anyio.to_thread
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

#: The most a page may take to show a change (a bound on waiting, not a measure of speed).
PATIENCE = 120


def body(driver, name: str) -> str | None:
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")


async def until(driver, check, patience: float = PATIENCE) -> None:
    """Wait until ``check`` holds; an element the page re-rendered while ``check`` read it is looked up again at the
    next poll (the page redraws its lists as events arrive)."""
    wait = WebDriverWait(driver, patience, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,))
    await anyio.to_thread.run_sync(lambda: wait.until(check))


async def in_browser(function, *args):
    return await anyio.to_thread.run_sync(function, *args)


async def my_turn_or_over(driver, stuck: Path | None = None) -> bool:
    """Wait until the page says it is the seat's move (True) or the game is over (False); if it never does, save
    a screenshot to ``stuck`` before failing."""
    try:
        await until(driver, lambda d: body(d, "your-turn") == "yes" or body(d, "over") == "yes")
    except TimeoutException:
        if stuck is not None:
            await in_browser(driver.save_screenshot, str(stuck))
        raise
    return body(driver, "over") != "yes"


def listed(driver) -> list[str]:
    """The moves the page lists, read in one script (a list redrawn between finding a button and reading it cannot
    fail the read)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#moves button.move'), b => b.getAttribute('data-move'))")


async def click_move(driver, move: str) -> str:
    """Click a listed move (a dry run): the answer shown, after it was added to the sequence or refused."""
    before = body(driver, "sequence") or "0"
    await in_browser(button_of(driver, move).click)
    await until(driver, lambda d: body(d, "sequence") != before or body(d, "answer") == "refused")
    return driver.find_element(By.ID, "answer").text


async def press_move(driver, move: str) -> str:
    """The same as a click, with the keyboard: the move's button focused and Enter pressed."""
    before = body(driver, "sequence") or "0"
    await in_browser(button_of(driver, move).send_keys, Keys.ENTER)
    await until(driver, lambda d: body(d, "sequence") != before or body(d, "answer") == "refused")
    return driver.find_element(By.ID, "answer").text


def button_of(driver, move: str):
    """A listed move's button, found by its data attribute in one lookup."""
    return driver.find_element(By.CSS_SELECTOR, f'#moves button.move[data-move="{move}"]')


async def type_move(driver, move: str) -> str:
    """Type a move and try it: the answer shown."""
    box = driver.find_element(By.ID, "typed-move")
    await in_browser(box.clear)
    await in_browser(box.send_keys, move)
    before = body(driver, "sequence") or "0"
    await in_browser(driver.execute_script, "document.body.dataset.answer = ''")
    await in_browser(driver.find_element(By.CSS_SELECTOR, "#typed button").click)
    await until(driver, lambda d: body(d, "sequence") != before or body(d, "answer") == "refused")
    return driver.find_element(By.ID, "answer").text


async def play_sequence(driver) -> None:
    """Click "Play it" and wait until the page shows the position after it."""
    ply = body(driver, "ply")
    await in_browser(driver.find_element(By.ID, "play").click)
    await until(driver, lambda d: body(d, "ply") != ply or body(d, "answer") == "refused")
    assert body(driver, "answer") != "refused", driver.find_element(By.ID, "answer").text


async def click_board(driver, place: str) -> None:
    """Click a place of the board's picture (a War square)."""
    spot = driver.find_element(By.CSS_SELECTOR, f'#board [data-spot="{place}"]')
    await in_browser(spot.click)
