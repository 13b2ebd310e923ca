"""Rules search by passage (rulebook/passages.py, rulebook/search.py): the question sets the benchmark uses
(tests/rulebook/questions.toml in a newcomer's words, holdout.toml written blind to the search), passages
and anchors, the issue's measured queries."""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tabletop import rulebook
from tabletop.app.rules_tools import passage_hits, search_text

HERE = Path(__file__).parent
QUESTIONS = tomllib.loads((HERE / "questions.toml").read_text())["question"]
HOLDOUT = tomllib.loads((HERE / "holdout.toml").read_text())["question"]
ROOT = Path(__file__).resolve().parents[2]

#: The issue's targets (first hit >= 90%, answer phrase in the first passage >= 80% of the 163 questions in a
#: newcomer's words; measured by benchmarks/rules_search.py: 90.2% and 82.2%), and floors a little under the figures
#: measured on the 60 held-out questions (90.0% and 88.3%; a phrase counts in an `also` section's words too).
FLOORS = {"questions": (0.90, 0.80), "holdout": (0.88, 0.85)}
#: The issue's target for the median characters of the tool's answer (three hits; measured 1,178).
MEDIAN_ANSWER = 1200


def flat(text: str) -> str:
    return " ".join(text.split())


def holds_answer(q: dict, text: str) -> bool:
    """Whether ``text`` holds the question's answer: its phrase, or the phrase of one of its ``also`` sections."""
    return any(flat(phrase) in flat(text) for phrase in [q["answer"], *q.get("also_answer", [])])


@pytest.mark.parametrize("questions", [QUESTIONS, HOLDOUT], ids=["questions", "holdout"])
def test_every_question_names_a_real_section_and_quotes_it(questions):
    assert len(questions) >= 60
    assert {q["game"] for q in questions} == {"cthulhu-wars", "game-of-war", "cthulhu-dice"}
    for q in questions:
        section = rulebook.find_section(q["game"], q["section"])
        assert section is not None, q
        assert flat(q["answer"]) in flat(section.text), q
        others = [rulebook.find_section(q["game"], other) for other in q.get("also", [])]
        assert None not in others, q
        for phrase in q.get("also_answer", []):  # each in the words of one of the other answering sections
            assert any(flat(phrase) in flat(other.text) for other in others), (phrase, q)


@pytest.mark.parametrize("name, questions", [("questions", QUESTIONS), ("holdout", HOLDOUT)])
def test_the_question_sets_keep_their_floors(name, questions):
    first = phrase = 0
    for q in questions:
        found = rulebook.search(q["question"], q["game"], 3)
        if not found.hits:
            continue
        first += found.hits[0].passage.section.id in {q["section"], *q.get("also", [])}
        phrase += holds_answer(q, rulebook.quote(found.hits[0].passage, q["question"], 700, found))
    first_floor, phrase_floor = FLOORS[name]
    assert first / len(questions) >= first_floor, first
    assert phrase / len(questions) >= phrase_floor, phrase


def test_the_median_answer_stays_within_the_target():
    texts = []
    for q in QUESTIONS:
        found = rulebook.search(q["question"], q["game"], 3)
        texts.append(search_text(found, passage_hits(found, q["question"]), q["question"]))
    assert statistics.median(len(text) for text in texts) <= MEDIAN_ANSWER


def test_every_passage_has_a_unique_anchor_that_resolves_to_it():
    passages = rulebook.passages()
    uris = [p.uri for p in passages]
    assert len(uris) == len(set(uris))
    for passage in passages:
        assert re.fullmatch(r"rules://[a-z0-9-]+/[a-z0-9-]+#[a-z0-9-]+", passage.uri), passage.uri
        assert rulebook.passage_at(passage.uri) is passage
        assert passage.text and not passage.text.startswith("#")
        # the passage is the section's own words: a cut paragraph is a run of them, a table group its rows
        if passage.text.startswith("|"):
            assert set(passage.text.splitlines()) <= set(passage.section.text.splitlines()), passage.uri
        else:
            assert flat(passage.text) in flat(passage.section.text), passage.uri
        assert passage.headings[0] == passage.section.title


def test_every_anchored_citation_in_the_code_and_rules_resolves():
    cited = set()
    for folder in ("server", "rules_text"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".md"}:
                cited |= set(re.findall(r"rules://[a-z0-9-]+/[a-z0-9-]+#[a-z0-9-]+", path.read_text()))
    for path in (ROOT / "server").rglob("*.py"):  # citations written as rule="game/section#anchor"
        cited |= {f"rules://{c}" for c in re.findall(r'rule="([a-z0-9-]+/[a-z0-9-]+#[a-z0-9-]+)"', path.read_text())}
    cited = {c for c in cited if "<" not in c}
    assert cited, "no anchored citations found: the pattern is wrong"
    assert [c for c in cited if rulebook.passage_at(c) is None] == []


def test_a_table_row_is_its_own_passage_under_the_header():
    build = rulebook.passage_at("rules://cthulhu-wars/actions#build-gate")
    assert build is not None
    lines = build.text.splitlines()
    assert lines[0].startswith("| Action | Cost") and lines[2].startswith("| Build Gate | 3 |")
    assert "The one action of a turn" in build.path


def test_the_rulings_are_one_passage_each():
    rulings = [p for p in rulebook.passages("game-of-war") if p.section.id == "rulings"]
    relays = rulebook.passage_at("rules://game-of-war/rulings#enemy-relays-block-lines-false")
    assert relays in rulings and "enemy_relays_block_lines" in relays.text
    assert sum("enemy_relays_block_lines" in p.text for p in rulings) <= 2


@pytest.mark.parametrize(
    "query, game, uri, phrase",
    [
        ("board squares size", "game-of-war", "rules://game-of-war/board#", "25 columns and 20 rows"),
        ("move action cost power per unit", "cthulhu-wars", "rules://cthulhu-wars/actions#move", "1 per unit"),
        ("Recruit Acolyte cost Build Gate cost", "cthulhu-wars", "rules://cthulhu-wars/actions#", "Acolyte 1"),
        ("4-player Ritual of Annihilation track", "cthulhu-wars", "rules://cthulhu-wars/doom#", "4 players: 5, 6, 7"),
        ("battle die result 5", "cthulhu-wars", "rules://cthulhu-wars/battle#dice", "4-5 = Pain"),
        ("cavalry charge", "game-of-war", "rules://game-of-war/combat#", "charge"),
    ],
)
def test_the_issues_queries_land_on_the_passage(query, game, uri, phrase):
    """The queries measured in the issue: a general section first, and the answer in the first passage."""
    hit = rulebook.search(query, game, 3).hits[0]
    assert hit.passage.uri.startswith(uri), [h.passage.uri for h in rulebook.search(query, game, 3).hits]
    assert phrase in rulebook.quote(hit.passage, query, 700)


def test_a_word_no_passage_has_lowers_a_match_instead_of_sinking_it():
    plain = rulebook.search("board squares columns", "game-of-war")
    odd = rulebook.search("board squares columns dimensionality", "game-of-war")
    assert odd.unknown == ["dimensionality"] and plain.unknown == []
    assert [h.passage for h in odd.hits] == [h.passage for h in plain.hits]
    assert odd.hits[0].passage.section.id == "board"
    assert "25 columns" in rulebook.quote(odd.hits[0].passage, "board squares columns dimensionality", 700)


def test_no_match_is_said_when_nothing_holds_most_of_the_question():
    for query in ("castling combat", "how does the en passant rule work", "zxqv"):
        assert rulebook.search(query).hits == [], query


def test_a_long_passage_is_quoted_around_the_words_asked_for():
    longest = max(rulebook.passages(), key=lambda p: len(p.text))
    words = re.findall(r"[A-Za-z]{6,}", longest.text)[-3:]
    quoted = rulebook.quote(longest, " ".join(words), 300)
    assert len(quoted) <= 300 + 4 and "…" in quoted
    assert any(w in quoted for w in words)


def test_what_is_left_of_a_contraction_is_not_a_word_of_the_question():
    from tabletop.rulebook.search import question_words

    assert question_words("I'm sure they're cut off and haven't moved") == ["sure", "cut", "off", "moved"]


def test_a_narrow_section_is_named_by_its_title_and_the_capitalised_names_it_keeps_to_itself():
    from tabletop.rulebook.search import search_settings, section_names

    names = section_names("cthulhu-wars")
    assert {"hastur", "byakhee", "yellow"} <= names["yellow-sign"] and "tsathoggua" in names["sleeper"]
    assert {"bhole"} <= names["dreamlands-bhole"] and "zoog" in names["dreamlands-zoogs"]
    # a Great Old One the rulings name often is still its faction's name, as the faction's own section names it more
    assert {"yog", "sothoth"} <= names["opener-of-the-way"]
    assert not {"yog", "sothoth"} & names["ancients"]
    # words every section uses are nobody's name
    assert not {"gate", "power", "doom", "battle", "cultist"} & set().union(*names.values())
    # a name another narrow section uses far more often is that section's (the Bhole's rules mention Nyarlathotep)
    assert "nyarlathotep" in names["crawling-chaos"] and "nyarlathotep" not in names["dreamlands-bhole"]
    assert "shub" in names["black-goat"] and "shub" not in names["crawling-chaos"]
    # every narrow section the game has is named, including ones added after search.toml was last read
    narrow = search_settings("cthulhu-wars").narrow
    assert set(names) == {s.id for s in rulebook.load_rulebook()["cthulhu-wars"] if s.id in narrow}
    assert all(names.values())


def test_a_faction_section_ranks_high_only_when_the_question_names_it():
    from tabletop.rulebook.search import search_settings

    general = rulebook.search("What does a Ritual of Annihilation give me?", "cthulhu-wars", 3).hits
    narrow = search_settings("cthulhu-wars").narrow
    assert general[0].passage.uri.startswith("rules://cthulhu-wars/doom#")
    assert not {h.passage.section.id for h in general[:2]} & narrow, [h.passage.uri for h in general]
    named = rulebook.search("What is Hastur's combat in a battle?", "cthulhu-wars", 3).hits
    assert named[0].passage.section.id == "yellow-sign", [h.passage.uri for h in named]


def test_a_general_passage_counts_less_when_it_uses_none_of_the_faction_names_asked_about():
    from tabletop.rulebook.search import ELSEWHERE_WEIGHT, _names_asked, _named_sections, _section_weight

    words = ["cthulhu", "devour", "dice"]
    named = _named_sections(words, ["cthulhu-wars"])
    asked = _names_asked(words, named)
    assert ("cthulhu-wars", "great-cthulhu") in named and asked == {"devour"}  # a spellbook, not a title word
    dry_run = rulebook.passage_at("rules://cthulhu-wars/notation#apply-move")
    listed = rulebook.passage_at("rules://cthulhu-wars/notation#great-cthulhu-devour-absorb-deep")
    assert _section_weight(dry_run, named, asked) == ELSEWHERE_WEIGHT
    assert _section_weight(listed, named, asked) == _section_weight(dry_run, named, frozenset()) == 1.0


def test_a_passage_the_search_scored_close_to_the_hit_is_quoted_first():
    from tabletop.rulebook.search import CLOSE_SCORE, SearchResult

    item = rulebook.passage_at("rules://cthulhu-wars/turn#you-may-not-skip-your")
    other = rulebook.passage_at("rules://cthulhu-wars/turn#decisions-out-of-turn-are")
    assert other.text not in rulebook.quote(item, "skip turn power", 700)
    close = SearchResult([], [], {item.uri: 2.0, other.uri: 2.0 * CLOSE_SCORE})
    assert other.text in rulebook.quote(item, "skip turn power", 700, close)
    far = SearchResult([], [], {item.uri: 2.0, other.uri: 1.9 * CLOSE_SCORE})
    assert rulebook.quote(item, "skip turn power", 700, far) == rulebook.quote(item, "skip turn power", 700)


def test_a_ruling_is_tied_to_the_rules_naming_its_option_or_else_to_the_rule_its_words_find():
    from tabletop.rulebook.search import _refinements, tied_passages

    ruling = rulebook.passage_at("rules://game-of-war/rulings#enemy-relays-block-lines-false")
    rule = rulebook.passage_at("rules://game-of-war/communication#a-line-stops-before-a")  # names the option
    refined = [r for ruled, r in _refinements("game-of-war") if ruled == ruling]
    assert refined == [rule]
    ties = tied_passages("game-of-war")
    assert rule in ties[ruling.uri] and ruling in ties[rule.uri]
    # a ruling that names no option refines the one passage its own words find best
    settled = rulebook.passage_at("rules://cthulhu-wars/rulings#ritual-of-annihilation-on-the")
    assert [r.section.id for ruled, r in _refinements("cthulhu-wars") if ruled == settled] == ["doom"]


def test_a_passage_that_refers_to_another_section_is_tied_to_its_passages_both_ways():
    from tabletop.rulebook.search import tied_passages

    ties = tied_passages("game-of-war")
    refers = rulebook.passage_at("rules://game-of-war/turn#2-attack")  # "one attack on an enemy unit (see `combat`)"
    target = rulebook.passage_at("rules://game-of-war/combat#attack-total")
    assert target in ties[refers.uri] and refers in ties[target.uri]
    # a name that only begins like a section's ("see `battle_odds`") refers to no section
    dry_run = rulebook.passage_at("rules://cthulhu-wars/notation#apply-move")
    assert "see `battle_odds`" in flat(dry_run.text)
    assert not any(p.section.id == "battle" for p in tied_passages("cthulhu-wars").get(dry_run.uri, ()))


def test_a_tied_passage_the_search_scored_close_is_quoted_beside_the_hit():
    from tabletop.rulebook.search import TIE_QUOTE, TIE_SCORE, SearchResult

    rule = rulebook.passage_at("rules://game-of-war/communication#a-line-stops-before-a")
    ruling = rulebook.passage_at("rules://game-of-war/rulings#enemy-relays-block-lines-false")
    query = "do enemy relays block lines"
    assert ruling.uri not in rulebook.quote(rule, query, 700)
    close = SearchResult([], [], {rule.uri: 2.0, ruling.uri: 2.0 * TIE_SCORE})
    quoted = rulebook.quote(rule, query, 700, close)
    assert quoted.startswith(rule.text) and len(quoted) <= 700
    beside = quoted.split(f"… <{ruling.uri}>:\n")[1]  # after the hit, its URI, then its words around the question's
    assert "lines pass freely through enemy relays" in beside and len(beside) <= TIE_QUOTE
    far = SearchResult([], [], {rule.uri: 2.0, ruling.uri: 1.9 * TIE_SCORE})
    assert ruling.uri not in rulebook.quote(rule, query, 700, far)
    # the other way round: the rule beside the ruling that refines it
    assert f"<{rule.uri}>" in rulebook.quote(ruling, query, 700, SearchResult([], [], {ruling.uri: 2.0, rule.uri: 1.0}))
    # a real search: the ruling comes with the first hit's answer
    found = rulebook.search(query, "game-of-war", 3)
    assert found.hits[0].passage == rule and f"<{ruling.uri}>" in rulebook.quote(rule, query, 700, found)


def test_a_short_passage_is_quoted_with_its_neighbours_under_the_same_heading():
    item = rulebook.passage_at("rules://cthulhu-wars/turn#you-may-not-skip-your")
    assert item.lead_in and item.place == ("Turn",)
    group = rulebook.siblings(item)
    # a list shares its place with its lead-in sentence, which introduces it in its headings
    assert item in group and "In the Action phase:" in [p.text for p in group]
    assert item.headings[-1] == "In the Action phase"
    quoted = rulebook.quote(item, "skip turn power", 700)
    shown = [p for p in group if p.text in quoted]
    assert item in shown and len(shown) > 2 and len(quoted) <= 700
    assert [quoted.index(p.text) for p in shown] == sorted(quoted.index(p.text) for p in shown)  # reading order
    assert rulebook.quote(item, "skip", len(item.text)) == item.text  # no room: the passage alone


def test_a_neighbour_too_long_to_fit_is_quoted_in_part_around_the_words_asked_for():
    item = rulebook.passage_at("rules://cthulhu-wars/windwalker-ice-age#action-1-power-ww-ice")
    after = rulebook.passage_at("rules://cthulhu-wars/windwalker-ice-age#while-it-stands-there-any")
    assert after in rulebook.siblings(item) and len(item.text) + len(after.text) > 700
    quoted = rulebook.quote(item, "enemy action costs 1 Power more there", 700)
    assert quoted.startswith(item.text) and len(quoted) <= 700
    assert "any action of an enemy that ends in that Area costs 1 Power more" in quoted and quoted.endswith(" …")
    # with less room left than NEIGHBOUR_EXCERPT, the passage stands alone
    assert rulebook.quote(item, "enemy action costs 1 Power more there", len(item.text) + 100) == item.text


def test_every_short_passage_is_quoted_whole_and_within_the_limit():
    for passage in rulebook.passages():
        if len(passage.text) <= 400:
            quoted = rulebook.quote(passage, "power gate unit", 400)
            assert len(quoted) <= 400, passage.uri
            # whole: a group of table rows may stand under the header shown once above the rows before it
            rows = passage.text.splitlines()[2:] if passage.text.startswith("|") else [passage.text]
            assert "\n".join(rows) in quoted, passage.uri
            # what surrounds it is the section's own lines: the passages under the same heading, and others of
            # the section that hold the question's words; or a run of a passage under the same heading that did
            # not fit whole (its lines joined), marked with '…' where it is cut
            lines = {line for p in rulebook.passages(passage.section.game) if p.section == passage.section
                     for line in p.text.splitlines()}
            same_heading = [flat(p.text) for p in rulebook.siblings(passage)]
            for line in set(quoted.splitlines()) - lines - {"…"}:
                part = line.removeprefix("… ").removesuffix(" …")
                assert any(part in text for text in same_heading), (passage.uri, line)


def test_a_short_passage_is_quoted_with_the_passages_of_its_section_that_hold_the_words():
    """A passage alone under its heading comes with the passages of its section under other headings that hold
    the words asked for, in less room than its own neighbours may fill; passages without the words stay out."""
    from tabletop.rulebook.search import OTHER_ROOM

    topic = rulebook.passage_at("rules://cthulhu-wars/gather-power#minimum-power-rule")
    assert rulebook.siblings(topic) == (topic,)
    quoted = rulebook.quote(topic, "printed track above 20", 700)
    assert topic.text in quoted and "Power may go above 20" in quoted
    assert quoted.index(topic.text) > quoted.index("Power may go above 20")  # reading order
    assert "Captured Cultists must go back" not in quoted  # holds none of the words
    assert len(quoted) <= OTHER_ROOM * 700
    assert rulebook.quote(topic, "zxqv", 700) == topic.text


def test_a_number_is_the_same_word_spelled_or_in_digits():
    from tabletop.rulebook.search import _synonyms_of

    assert "5" in _synonyms_of("five", ["cthulhu-wars"]) and "five" in _synonyms_of("5", ["cthulhu-wars"])
    hit = rulebook.search("With five players, what does the ritual track cost?", "cthulhu-wars", 3).hits
    assert any(h.passage.uri == "rules://cthulhu-wars/doom#5-players-5-6-6" for h in hit), [h.passage.uri for h in hit]


def test_a_general_passage_about_one_faction_is_weighed_as_that_factions_section():
    from tabletop.rulebook.search import _about, _named_sections, _section_weight, about_names

    names = about_names("cthulhu-wars")
    # a name two general sections use ("Awaken": the actions and the rulings) marks no passage as about a faction
    assert "awaken" not in set().union(*names.values()) and "hastur" in names["yellow-sign"]
    summon = rulebook.passage_at("rules://cthulhu-wars/actions#summon-monster")
    assert not _about(summon) and _section_weight(summon, frozenset()) == 1.0
    about = [p for p in rulebook.passages("cthulhu-wars") if p.section.id == "rulings" and _about(p)]
    assert about, "no ruling is about one faction"
    ruling = about[0]
    unnamed = _section_weight(ruling, frozenset())
    named = _section_weight(ruling, _named_sections(sorted(names[next(iter(_about(ruling)))]), ["cthulhu-wars"]))
    assert unnamed < named < 1.0


@pytest.mark.parametrize("game", ["cthulhu-wars", "game-of-war", "cthulhu-dice"])
def test_every_index_entry_names_an_existing_section_or_passage(game):
    from tabletop.rulebook.search import index_words, search_settings, unknown_index_entries

    index = search_settings(game).index
    assert len(index) >= 15  # every game keeps an index of its general sections
    assert all(phrases and all(isinstance(p, str) and p.strip() for p in phrases) for phrases in index.values())
    assert unknown_index_entries(game) == []
    # an entry all of whose words the rules already use would add nothing
    assert [key for key, phrases in index.items() if not index_words(phrases, game)] == []


def test_an_index_word_finds_the_rule_the_rules_call_otherwise():
    """Words the rules never use ("catch-up", "worm", "stacking", "shotgun") find the rule they name."""
    cases = [
        ("catch-up rule", "cthulhu-wars", "rules://cthulhu-wars/gather-power#minimum-power-rule"),
        ("giant worm", "cthulhu-wars", "rules://cthulhu-wars/dreamlands-bhole#"),
        ("stacking", "game-of-war", "rules://game-of-war/board#only-one-unit-may-stand"),
        ("magnifying glass", "cthulhu-dice", "rules://cthulhu-dice/dice#clue"),
    ]
    for query, game, uri in cases:
        found = rulebook.search(query, game, 3)
        assert not found.unknown and found.hits, query
        assert found.hits[0].passage.uri.startswith(uri), (query, [h.passage.uri for h in found.hits])
        assert found.hits[0].score > 0, query
        # the index is a column of its own: the quoted words are the rules' words, not the index's
        assert "worm" not in rulebook.quote(found.hits[0].passage, query, 700).lower()


def test_only_index_words_the_rules_never_use_count():
    from tabletop.rulebook.search import index_terms, index_words

    # "attack" and "units" are the rules' own words: listing them would only tip questions towards the entry
    assert index_words(("attack strength", "stacking units"), "game-of-war") == "stacking"
    own, section = index_terms(rulebook.passage_at("rules://cthulhu-wars/gather-power#minimum-power-rule"))
    assert "catch" in re.findall(r"\w+", own) and "revenue" in re.findall(r"\w+", section)
    assert "power" not in re.findall(r"\w+", own + " " + section)


def test_an_unknown_word_lowers_an_index_match_rather_than_sinking_it():
    question = "catch-up income for a faction behind"
    plain = rulebook.search(question, "cthulhu-wars", 3)
    odd = rulebook.search(question + " xyzzyq", "cthulhu-wars", 3)
    assert odd.unknown == ["xyzzyq"] and odd.hits
    rule = "rules://cthulhu-wars/gather-power#minimum-power-rule"
    assert odd.hits[0].passage.uri == plain.hits[0].passage.uri == rule
    assert odd.hits[0].coverage < plain.hits[0].coverage


def test_a_narrow_sections_index_words_name_it_when_no_general_section_uses_them():
    from tabletop.rulebook.search import section_names

    names = section_names("cthulhu-wars")
    assert "worm" in names["dreamlands-bhole"]
    assert "revenue" not in set().union(*names.values())  # a general section's index word names nobody


def test_a_quote_reads_the_questions_words_with_their_synonyms():
    from tabletop.rulebook.search import _words_held

    held = _words_held("Do they attack back?", "cthulhu-wars")
    assert held("Battle them like a faction") == 1  # "attack" and "battle" are one meaning in search.toml
    assert held("Roll one die for every Zoog") == 0
    assert _words_held("attack", "cthulhu-dice")("Battle them") == 0  # another game's synonyms do not count


def test_the_ties_come_in_the_same_order_whatever_the_hash_seed():
    """Which tied passage is quoted can depend on their order (equal scores), so it must not change with the
    process's string hashing."""
    script = (
        "from tabletop.rulebook.search import tied_passages\n"
        "print([(uri, [p.uri for p in tied]) for game in ('game-of-war', 'cthulhu-wars', 'cthulhu-dice')"
        " for uri, tied in sorted(tied_passages(game).items())])"
    )
    runs = [
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    ]
    assert runs[0] and runs[0] == runs[1]


@pytest.mark.parametrize("game", ["cthulhu-wars", "game-of-war", "cthulhu-dice"])
def test_a_question_asked_in_a_synonym_alone_still_finds_passages(game):
    """"over" is a synonym of "end", not a word left out: a question whose only word it is finds passages, and in
    Cthulhu Wars the end of the game among the first hits."""
    found = rulebook.search("When is the game over?", game, 3)
    assert found.hits, "no match for a question about the end of the game"
    if game == "cthulhu-wars":
        assert "end" in {hit.passage.section.id for hit in found.hits[:2]}
