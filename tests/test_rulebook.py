"""The rules reference: every game's sections load, every rule the code cites exists, search finds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabletop import rulebook
from tabletop.games import ENGINES

SOURCE = Path(__file__).resolve().parents[1] / "server" / "tabletop"
#: Sections the game-agnostic layers cite for every game (turn order, the end, set-up, notation, rulings).
COMMON_SECTIONS = {"setup", "turn", "end", "notation", "rulings"}


def cited_rules() -> set[str]:
    cited = set()
    for path in SOURCE.rglob("*.py"):
        cited |= set(re.findall(r'rule="([a-z0-9-]+/[a-z0-9-]+)"', path.read_text(encoding="utf-8")))
    return cited


def test_every_literal_rule_citation_names_a_real_section():
    cited = cited_rules()
    assert cited, "the engines cite rules"
    missing = [c for c in cited if rulebook.find_section(*c.split("/")) is None]
    assert missing == []


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_game_has_the_sections_the_server_cites(game):
    ids = {s.id for s in rulebook.load_rulebook()[game]}
    assert COMMON_SECTIONS <= ids


def test_sections_have_titles_and_the_whole_reference_joins_them():
    for game, sections in rulebook.load_rulebook().items():
        assert sections, game
        whole = rulebook.whole_reference(game)
        for section in sections:
            assert section.title and section.text.startswith("# ")
            assert section.text.strip() in whole


@pytest.mark.parametrize(
    "query, section",
    [
        ("bag runs out of dice", "cthulhu-dice/rulings"),
        ("what happens with three tentacles", "cthulhu-dice/turn"),
        ("players tied for the most elder signs", "cthulhu-dice/end"),
        ("how many sides show a tentacle on a tomb die", "cthulhu-dice/dice"),
    ],
)
def test_search_finds_the_section_that_answers(query, section):
    hits = rulebook.search(query, "cthulhu-dice", limit=2).hits
    assert section in [f"{h.passage.section.game}/{h.passage.section.id}" for h in hits]


@pytest.mark.parametrize(
    "query, section",
    [
        ("can cavalry charge a fortress", "game-of-war/combat"),
        ("minimum power rule", "cthulhu-wars/gather-power"),
        ("how is a battle resolved kills and pains", "cthulhu-wars/battle"),
        ("relays and lines of communication", "game-of-war/communication"),
    ],
)
def test_search_across_every_game(query, section):
    hits = rulebook.search(query, limit=3).hits
    assert section in [f"{h.passage.section.game}/{h.passage.section.id}" for h in hits]


@pytest.mark.parametrize("query, missing", [("Tulzscha combat", "tulzscha"), ("how does the bokrug rule work", "bokrug")])
def test_a_question_about_something_the_rules_never_mention_gets_no_unrelated_sections(query, missing):
    found = rulebook.search(query)
    assert found.hits == [] and missing in found.unknown


@pytest.mark.parametrize(
    "question, section",
    [
        ("What is the Bhole's Combat?", "dreamlands-bhole"),
        ("How many dice are rolled for Zoogs in the first Doom Phase?", "dreamlands-zoogs"),
        ("How does the Citadel victory work?", "dreamlands-citadels"),
        ("What happens when a Zoog appears on a Citadel with a controlled Gate?", "dreamlands-zoogs"),
    ],
)
def test_the_dreamlands_questions_find_their_section_first(question, section):
    """The issue's four questions, asked as a person would (rules_text cthulhu-wars/dreamlands-*)."""
    found = rulebook.search(question, "cthulhu-wars").hits
    assert found and found[0].passage.section.id == section, [h.passage.uri for h in found]


def test_passages_are_text_not_headings():
    for query in ("bag runs out of dice", "cavalry charge", "minimum power rule", "elder sign reveal"):
        for hit in rulebook.search(query).hits:
            text = hit.passage.text
            assert text and not text.startswith("#"), (query, text)
            assert len(text.split()) >= 5, (query, text)
