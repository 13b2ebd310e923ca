"""A person plays A Game of War against the server's heuristic bot from the seat's page in Debian's chromium: the
secret deployment (an opening, a unit taken back and placed again by typing, a refused placement), then turns
composed move by move (a move, an attack with its predicted result, the end of the turn) and sent as one.
Screenshots: tests/output/play/."""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.by import By

from app.helpers import call

from .browser import (
    body, button_of, click_board, click_move, in_browser, listed, my_turn_or_over, play_sequence, type_move, until,
)
from .conftest import OUTPUT, mcp_client

#: Turns the person plays at most, looking for an attack to make.
MAX_TURNS = 12


def forward(move: str) -> int:
    """How many rows a North move goes towards South (``I d7-d8`` -> 1)."""
    rows = [int(r) for r in re.findall(r"[a-y](\d+)", move)]
    return rows[1] - rows[0] if len(rows) == 2 else -99


async def test_a_person_deploys_and_plays_turns_of_war_against_the_heuristic_bot(served, browser):
    http, client = mcp_client(served)
    async with http, client:
        made = await call(client, "new_game", game="game-of-war", seed=11, options={"futile_attacks": True},
                          players=[{"name": "Ann", "person": True}, "bot:heuristic"])
        await in_browser(browser.get, made["seats"][0]["link"])
        assert await my_turn_or_over(browser)
        assert "place <letter> <square>" in browser.find_element(By.ID, "note").text, "the deployment says how to place"

        # the deployment, composed as one sequence: an opening, five units taken back and placed again on the
        # front, a refused placement on the way, commit
        answer = await click_move(browser, "opening default")
        assert "NOT played" in answer
        for square in ("j6", "f7", "g7", "c7", "d7"):
            await click_move(browser, f"remove {square}")
        refused = await type_move(browser, "place I j3")  # a mountain square
        assert body(browser, "answer") == "refused" and "mountain" in refused.lower(), refused
        assert "rules://game-of-war" in refused, "a refusal cites its rule"
        assert body(browser, "sequence") == "6", "a refusal changes nothing"
        await in_browser(browser.save_screenshot, str(OUTPUT / "war-refusal.png"))
        await click_board(browser, "n10")  # an empty square of the deployment: the placements there
        await until(browser, lambda d: "place I n10" in listed(d))
        await click_move(browser, "place I n10")
        assert body(browser, "sequence") == "7"
        for placement in ("place I o10", "place I p10", "place C o9", "place C p9"):
            answer = await type_move(browser, placement)
            assert body(browser, "answer") == "ok", answer
        await click_move(browser, "commit")
        assert body(browser, "sequence") == "12"
        await in_browser(browser.save_screenshot, str(OUTPUT / "war-deployment.png"))
        await play_sequence(browser)

        turns = attacks = 0
        since = ""
        while turns < MAX_TURNS and (turns < 3 or not attacks) and await my_turn_or_over(browser):
            if turns == 2:  # the bot has played since Ann's last move
                since = browser.find_element(By.ID, "since").text
                await in_browser(browser.save_screenshot, str(OUTPUT / "war-turn-3.png"))
            moves = [m for m in listed(browser) if "-" in m]
            if moves and turns == 0:  # the first move by the board: the unit's square, then where it goes
                best = max(moves, key=forward)
                unit, to = re.findall(r"[a-y]\d+", best)
                await click_board(browser, unit)
                await until(browser, lambda d, u=unit: body(d, "picked") == u)
                assert all(unit in m.split(" ", 1)[1] for m in listed(browser)), "only the moves through the square"
                await click_board(browser, to)
                await until(browser, lambda d: body(d, "sequence") == "1")
                assert "NOT played" in browser.find_element(By.ID, "answer").text
            elif moves:
                await click_move(browser, max(moves, key=forward))
            attack = [m for m in listed(browser) if m.startswith("attack")]
            if attack and not attacks:
                button = button_of(browser, attack[0])
                assert re.search(r"\d+ against \d+", button.text), "an attack shows its predicted result"
                answer = await click_move(browser, attack[0])
                assert "NOT played" in answer
                attacks += 1
                await in_browser(browser.save_screenshot, str(OUTPUT / "war-attack.png"))
            if "end" in listed(browser):
                await click_move(browser, "end")
            await play_sequence(browser)
            turns += 1
        assert turns >= 3 and attacks >= 1, (turns, attacks)
        assert "Ann" in browser.find_element(By.ID, "log").text
        assert "bot:heuristic" in since, "what the bot did since Ann's last move is shown"


pytestmark = pytest.mark.anyio
