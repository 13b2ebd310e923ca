"""Rules answers through the real MCP client: search_rules gives passages a model can quote, anchored URIs
read back as those passages, and the calculators cite the deciding section with exact values and the right
error kinds (rules_text cthulhu-wars/map-decisions, cthulhu-dice/rulings, cthulhu-wars/gather-power)."""

from __future__ import annotations

import re

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from tabletop import rulebook

from .helpers import call, refused

pytestmark = pytest.mark.anyio


async def text_and_data(client: Client, tool: str, **args):
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content[0].text
    return result.content[0].text, result.structured_content


async def test_search_rules_answers_with_the_passage_itself(client: Client):
    text, found = await text_and_data(client, "search_rules", query="battle die result 5", game="cthulhu-wars")
    first = found["results"][0]
    assert first["uri"] == "rules://cthulhu-wars/battle#dice" and first["section"] == "battle"
    assert "6 = Kill, 4-5 = Pain" in first["passage"] and first["path"] == "Battle"
    # the text gives the first passage whole, with its URI, so the model can quote it without reading the section
    assert text.startswith("1. Battle <rules://cthulhu-wars/battle#dice>\n") and "4-5 = Pain" in text
    assert len(found["results"]) == 3 and len(text) <= 1400


async def test_a_general_question_lands_on_the_general_rule(client: Client):
    found = await call(client, "search_rules", query="Recruit Acolyte cost Build Gate cost", game="cthulhu-wars")
    assert {r["uri"] for r in found["results"][:2]} == {  # the two rows of the actions table, before any faction's
        "rules://cthulhu-wars/actions#recruit-cultist",
        "rules://cthulhu-wars/actions#build-gate",
    }


async def test_a_word_the_rules_never_use_is_named_and_the_rest_still_answers(client: Client):
    text, found = await text_and_data(client, "search_rules", query="board squares columns gridiness", game="game-of-war")
    assert found["results"] and "gridiness" in found["note"] and "ranked by the other words" in text
    assert "25 columns and 20 rows" in found["results"][0]["passage"]


async def test_nothing_matching_is_said_plainly(client: Client):
    text, found = await text_and_data(client, "search_rules", query="Castling combat")
    assert found["results"] == [] and "Nothing in the rules matches" in text and "castling" in text


async def test_every_hit_uri_reads_back_as_its_passage(client: Client):
    found = await call(client, "search_rules", query="cavalry charge", game="game-of-war", limit=5)
    for hit in found["results"]:
        body = (await client.read_resource(hit["uri"])).contents[0].text
        passage = rulebook.passage_at(hit["uri"])
        assert body.startswith(passage.path + "\n\n") and passage.text in body
    with pytest.raises(MCPError) as err:
        await client.read_resource("rules://game-of-war/combat#no-such-passage")
    assert err.value.code == -32602
    # the section itself still reads whole
    whole = (await client.read_resource("rules://game-of-war/combat")).contents[0].text
    assert whole.startswith("# Combat")


async def test_list_adjacent_cites_the_map_decision_for_a_repaired_pair(client: Client):
    text, found = await text_and_data(client, "list_adjacent", area="West Africa", layout="earth_4p_alt")
    assert "South Atlantic (rules://cthulhu-wars/map-decisions#5)" in text
    assert "not South Pacific (rules://cthulhu-wars/map-decisions#4)" in text
    assert {d["rule"] for d in found["decisions"]} == {"cthulhu-wars/map-decisions#4", "cthulhu-wars/map-decisions#5"}
    text, _ = await text_and_data(client, "list_adjacent", area="South Atlantic", layout="earth_5p")
    assert "Indian Ocean (rules://cthulhu-wars/map-decisions#8)" in text
    text, found = await text_and_data(client, "list_adjacent", area="Europe", layout="earth_4p")
    assert found["decisions"] == [] and "map-decisions" not in text


async def test_an_area_missing_from_the_layout_names_the_layouts_that_have_it(client: Client):
    error = await refused(client, "list_adjacent", area="West Africa", layout="earth_4p")
    assert "unknown_area" in error and "is an area of earth_4p_alt, earth_5p" in error


async def test_dice_odds_give_exact_values_beside_rounded_ones(client: Client):
    text, odds = await text_and_data(client, "cthulhu_dice_odds")
    assert f"{odds['chance_downed']:.1%} ({odds['chance_downed']:.6g})" in text
    assert "Expected Elder Signs 1.1667" in text  # 7/6 to four decimals


async def test_a_position_with_no_roll_is_an_illegal_move_citing_the_ruling(client: Client):
    error = await refused(client, "cthulhu_dice_odds", bag={"tomb": 1})
    assert error.startswith("Error executing tool cthulhu_dice_odds: illegal_move") or "illegal_move" in error
    assert "bad_options" not in error and "rules://cthulhu-dice/rulings#running-out-of-dice-bag-exhaustion" in error
    # the ruling it names as the way out does roll the one die
    text, odds = await text_and_data(client, "cthulhu_dice_odds", bag={"tomb": 1}, rules={"bag_exhaustion": "roll_fewer"})
    assert odds["expected_tentacles"] == pytest.approx(0.5) and "tentacles 0.5" in text


async def test_the_minimum_power_rule_reads_as_a_top_up(client: Client):
    text, report = await text_and_data(
        client, "gather_power",
        sources={"cultists": 1, "controlled_gates": 0, "abandoned_gates": 0, "captured_cultists": 0, "highest_power": 13},
    )
    assert "Minimum Power Rule: half of 13, rounded up, is 7: 1 raised by 6" in text
    assert not re.search(r"Minimum Power Rule.*\d+ x \d+", text)
    assert report["results"][0]["power"]["lines"][-1]["top_up"] is True


async def test_battle_odds_give_exact_values(client: Client):
    text, odds = await text_and_data(client, "battle_odds", attacker_dice=3, defender_dice=2)
    assert "chance of at least one kill 42.1% (0.421296)" in text  # 1 - (5/6)^3
    assert "expect 0.5 kills and 1 pains" in text and odds["odds"]["attacker"]["expected_kills"] == 0.5


async def test_the_rules_question_prompt_says_search_first_and_quote(client: Client):
    got = await client.get_prompt("rules_question", {"game": "cthulhu-wars", "question": "Can Zoogs battle?"})
    words = got.messages[0].content.text
    assert "Search first" in words and "search_rules" in words and "quote" in words
    assert words.index("search_rules") < words.index("Read a whole section")
