"""Rules search: passages ranked with BM25 by SQLite's FTS5 (Porter stemming), with each game's synonyms.

A question's words (common English words left out) each become a group: the word and its synonyms
from ``rules_text/<game>/search.toml``. A passage's score is FTS5's BM25 over its section title, its
heading path and its text (headings weigh more), scaled by the share of the question's weight it
holds: rarer words weigh more (damped, so that one rare word of the question does not outweigh all the
others), and a word no passage has weighs as much as the commonest known word, so it lowers a match
instead of sinking it. A passage must hold more than half of that weight (GOOD_MATCH) to be returned
at all, so a question about what the rules never mention gets "no match", not unrelated text.

Sections the game's ``search.toml`` calls narrow (one faction's own, one map's, one way of playing)
rank lower, and much lower when the question does not name them: a narrow section's names are the
rarer words of its title and the capitalised names it keeps to itself (a faction's Great Old One,
units and spellbooks), found from the text, so a section added later is named without configuration.
So a general question lands on the general rule, and a question about Hastur on the Yellow Sign. A passage
of a general section that uses a narrow section's own names (a ruling on one faction's spellbook) is weighed
as that section is, and one that uses none of the own names the question asks about ("Cthulhu's Devour")
counts less. A number is the same word spelled or in digits ("five players", "5-player").

Each game's search.toml may keep an index, as at the back of a printed rulebook (``[index]``: a section id, or
``section#anchor`` for one passage, mapped to the phrases a reader looks the rule up by: "catch-up" for the
Minimum Power Rule, "worm" for the Bhole). Only the index words the game's rules never use count
(index_words): they are a column of their own beside the title, headings and text, so a question in a
reader's words finds the rule without the rules' own words weighing any differently. A passage's own entry
weighs as its text does; its section's entry makes the words known to every passage of the section (they
count in the share of the question a passage holds) but barely ranks them. A narrow section's index words
that no general section's index uses are among its names (section_names).

A passage is quoted (``quote``) first with the passages of its section that the search scored close to it
(CLOSE_SCORE; ``quote`` is given the search's result), then with its neighbours under the same heading while they
fit: an answer often sits in the next item of the list the best-matching item belongs to; then, in less room, with
the passages of its section under other headings that hold the question's words (a short passage that
names a topic, the rule under the next heading); then, in the room left, with part of a neighbour under the
same heading too long to fit whole (the run of its sentences that holds most of the question's words). A
quote reads the question's words with their synonyms, as the ranking does ("attack" is held by a passage that
says "battle").

A passage is tied to passages of other sections (``tied_passages``): a ruling (a passage of the sections
search.toml calls ``rulings``: a point the rules leave open, settled by the server) to the rules it refines, the
passages outside the rulings that name one of the options it names ("`retreat_distance`") or, when it names none,
the passage its own words find best; and a passage that refers to another section ("see doom", "rules
`game-of-war/setup`") to that section's passages. When a passage tied to the hit scored at least TIE_SCORE of its
score, the quote gives it after the close passages of the hit's section, with its URI (in part, around the
question's words, past TIE_QUOTE characters): the edge case a ruling decides sits beside the rule it refines, and
the rule told in full elsewhere beside the passage that sends the reader to it.
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Callable

from .passages import Passage, passages, siblings
from .sections import Section, load_rulebook, rules_dir

#: The weights below marked "(climbed)" were set by benchmarks/rules_search_weights.py, a hill climb over the
#: questions of tests/rulebook/questions.toml (then rounded), and checked on tests/rulebook/holdout.toml, which the
#: climb scores only once it has ended, never to choose; docs/developers.md gives the figures.
#:
#: The least share of a question's weight a passage's section must hold (more than this) to be a match.
GOOD_MATCH = 0.5
#: The least share of a question's weight a passage itself must hold.
PASSAGE_MATCH = 0.3
#: How much of a passage's score comes from how well its whole section matches the question.
SECTION_SHARE = 0.5
#: How strongly a word's rarity (its IDF) sets its weight in the share of the question a passage holds (its power;
#: climbed).
IDF_POWER = 0.45
#: How much each pair of the question's neighbouring words standing close together in a passage (at most
#: NEAR_WORDS words apart) adds to its score (climbed).
PAIR_BONUS = 0.15
NEAR_WORDS = 2
#: How strongly the share of the question a passage holds counts (its power; climbed).
COVERAGE_POWER = 1.1
#: How much a narrow (one faction's) section's score counts against a general one's: when the question names
#: the section (a word of its title, or a name it keeps to itself, such as a faction's units), and when not.
#: A passage of a general section about a narrow one (a ruling on the Ghast, using its own names) counts the same
#: (climbed).
NARROW_WEIGHT = 0.85
UNNAMED_WEIGHT = 0.35
#: A capitalised word a narrow section uses is none of its names when another narrow section uses it more than this
#: many times as often (the Bhole's section names Nyarlathotep twice, the Crawling Chaos's eight times).
NAME_SHARE = 3
#: A word of a narrow section's title is none of its names when the general sections use it more than this many times
#: as often as the section itself: it is the game's own word ("Earth" of the 6-player Earth map's title, which the
#: maps section uses for every layout).
GAME_WORD_SHARE = 12
#: How much a general passage counts when the question uses a narrow section's own names (a faction's units and
#: spellbooks: "Cthulhu's Devour") and the passage uses none of them.
ELSEWHERE_WEIGHT = 0.6
#: A passage under another heading of the hit's section is quoted beside it when it holds at least OTHER_HELD of
#: the question's words and the quote stays within OTHER_ROOM of the limit (the passages under the hit's own
#: heading may fill all of it).
OTHER_HELD = 1
OTHER_ROOM = 0.7
#: A passage of the hit's section that the search scored at least this share of the hit's score (often the rule
#: that answers, when the hit only names the topic) is quoted before the others.
CLOSE_SCORE = 0.6
#: A passage of another section tied to the hit (a ruling that refines it or the rule a ruling refines, a passage
#: that refers to its section or of the section it refers to: see tied_passages) that the search scored at least this
#: share of the hit's score is quoted beside it, after the close passages of its section.
TIE_SCORE = 0.25
#: A tied passage longer than this is quoted in part (the run of its sentences holding most of the question's words).
TIE_QUOTE = 180
#: A passage under the same heading that does not fit whole is quoted in part (the run of its sentences holding
#: most of the question's words) when at least this many characters are left.
NEIGHBOUR_EXCERPT = 160
#: How much a summary section's score counts against the section that tells the rule in full (climbed).
SUMMARY_WEIGHT = 0.35
#: FTS5 BM25 weights of the columns: section title, heading path, text, then the index words (the ``[index]`` of
#: search.toml: the words a reader looks a rule up by) of the passage's own entry (about as much as its text) and
#: of its section's entry (which mostly makes a word known to every passage of the section; its small weight only
#: orders a question asked in index words alone). A word of the title or the headings weighs far more than one of
#: the text: the headings say what a passage is about (climbed).
COLUMN_WEIGHTS = (5.0, 4.0, 0.5, 0.4, 0.05)
#: FTS5 BM25 weights of a whole section's columns: title, text, index words (its entry's and its passages';
#: climbed).
SECTION_WEIGHTS = (2.0, 0.9, 0.0)

_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = frozenset(
    "a an and are as at be but by can do does did for from has have had how i if in is it its me my no not of on "
    "or so than that the their them then there these they this to was were what when where which who whom why will "
    "with you your would should could may might must happen happens happened work works mean means much many get "
    "gets got say says rule rules game about any into onto also just still like stuff way us we our someone "
    "something anything need needs allowed able here very really actually exactly ever kind sort thing things "
    "up out around every goes going went gone nobody none anyone anybody everyone everybody somebody".split()
    # what is left of a contraction once its apostrophe splits it ("I'm", "they're", "haven't", "we'll")
    + "am re ve ll isn aren wasn weren hasn haven hadn doesn don didn shouldn couldn wouldn".split()
)


@dataclass(frozen=True, slots=True)
class Hit:
    passage: Passage
    score: float
    coverage: float  # the share of the question's weight the passage holds


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The passages that match the question well, best first, and the question's words no passage has."""

    hits: list[Hit]
    unknown: list[str]
    scores: dict[str, float] = field(default_factory=dict)  # URI -> score of every passage that matched


@dataclass(frozen=True, slots=True)
class Settings:
    """How the search reads one game: see ``rules_text/<game>/search.toml``."""

    narrow: frozenset[str]  # sections about one faction only
    summary: frozenset[str]  # sections that sum up rules told in full elsewhere
    rulings: frozenset[str]  # sections that settle what the rules leave open, one ruling a passage
    synonyms: dict[str, frozenset[str]]  # word -> the other words of its meaning
    index: dict[str, tuple[str, ...]]  # "section" or "section#anchor" -> the phrases a reader looks it up by


@cache
def search_settings(game: str) -> Settings:
    """A game's ``rules_text/<game>/search.toml`` (absent: no synonyms, no index, no narrow or summary sections)."""
    path = rules_dir() / game / "search.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    synonyms: dict[str, set[str]] = {}
    for group in data.get("synonyms", []):
        words = {w.lower() for w in group}
        for word in words:
            synonyms.setdefault(word, set()).update(words - {word})
    return Settings(
        frozenset(data.get("narrow", [])),
        frozenset(data.get("summary", [])),
        frozenset(data.get("rulings", [])),
        {w: frozenset(s) for w, s in synonyms.items()},
        {key: tuple(phrases) for key, phrases in data.get("index", {}).items()},
    )


def index_terms(passage: Passage) -> tuple[str, str]:
    """The words a passage's index entries add to it: those of its own entry (``section#anchor``), and those of
    its section's. Only the words the game's rules never use count (see index_words): the index brings in the
    reader's words for a rule, and never adds weight to the rules' own words."""
    index = search_settings(passage.section.game).index
    own = index.get(f"{passage.section.id}#{passage.anchor}", ())
    return index_words(own, passage.section.game), index_words(index.get(passage.section.id, ()), passage.section.game)


def index_words(phrases: tuple[str, ...], game: str) -> str:
    """The words of phrases of the game's index that no passage of its rules uses (see _new_index_words), phrase
    by phrase ('; ' between them). A phrase's words the rules do use ("attack" in "attack strength") would only
    make every passage that lists them a little more likely to win any question with that word."""
    new = _new_index_words(game)
    kept = (" ".join(w for w in _WORD.findall(phrase.lower()) if w in new) for phrase in phrases)
    return "; ".join(k for k in kept if k)


@cache
def _new_index_words(game: str) -> frozenset[str]:
    """The words of a game's index that no passage of its rules uses, as FTS5's Porter stemmer reads them, and
    that are not common English words."""
    index = search_settings(game).index
    words = sorted({w for phrases in index.values() for p in phrases for w in _WORD.findall(p.lower())})
    rules = " ".join(" ".join((*p.headings, p.text)) for p in passages(game))
    used, stems = _stems(rules, words)
    return frozenset(w for w in words if w not in _STOPWORDS and not stems[w] & used)


def _stems(text: str, words: list[str]) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """The terms FTS5's 'porter unicode61' tokenizer makes of a text, and of each of some words."""
    db = sqlite3.connect(":memory:")
    try:
        for table, mode in (("text", "row"), ("words", "instance")):
            db.execute(f"CREATE VIRTUAL TABLE {table} USING fts5(body, tokenize = 'porter unicode61')")
            db.execute(f"CREATE VIRTUAL TABLE {table}_terms USING fts5vocab({table}, '{mode}')")
        db.execute("INSERT INTO text(body) VALUES (?)", (text,))
        db.executemany("INSERT INTO words(rowid, body) VALUES (?, ?)", list(enumerate(words)))
        used = frozenset(term for (term,) in db.execute("SELECT term FROM text_terms"))
        stems: dict[str, set[str]] = {w: set() for w in words}
        for row, term in db.execute("SELECT doc, term FROM words_terms"):
            stems[words[row]].add(term)
        return used, {w: frozenset(t) for w, t in stems.items()}
    finally:
        db.close()


@cache
def section_ids(game: str) -> frozenset[str]:
    """The ids of a game's sections."""
    return frozenset(s.id for s in load_rulebook().get(game, []))


def unknown_index_entries(game: str) -> list[str]:
    """The keys of a game's ``[index]`` that name no section, or no passage of their section."""
    sections = section_ids(game)
    anchors = {f"{p.section.id}#{p.anchor}" for p in passages(game)}
    return [key for key in search_settings(game).index if key not in (anchors if "#" in key else sections)]


class _Index:
    """The FTS5 tables of every passage and every section, built once in memory, with what a search needs of them
    that does not depend on the question; queries are serialised by a lock."""

    def __init__(self) -> None:
        self.rows = passages()
        self.sections = [s for sections in load_rulebook().values() for s in sections]
        #: (game, section id) -> the rows of its passages
        self.section_rows: dict[tuple[str, str], set[int]] = {}
        for row, passage in enumerate(self.rows):
            self.section_rows.setdefault((passage.section.game, passage.section.id), set()).add(row)
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.lock = threading.Lock()
        self.db.execute(
            "CREATE VIRTUAL TABLE passages USING fts5(title, headings, body, terms, section_terms, game UNINDEXED, "
            "tokenize = 'porter unicode61')"
        )
        self.db.executemany(
            "INSERT INTO passages(rowid, title, headings, body, terms, section_terms, game) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (i, p.section.title, " ".join(p.headings[1:]), p.text, *index_terms(p), p.section.game)
                for i, p in enumerate(self.rows)
            ],
        )
        self.db.execute(
            "CREATE VIRTUAL TABLE sections USING fts5(title, body, terms, game UNINDEXED, "
            "tokenize = 'porter unicode61')"
        )
        self.db.executemany(
            "INSERT INTO sections(rowid, title, body, terms, game) VALUES (?, ?, ?, ?, ?)",
            [(i, s.title, s.text, _section_terms(s), s.game) for i, s in enumerate(self.sections)],
        )

    def sections_of(self, game: str | None) -> list[set[int]]:
        """The rows of each section's passages, of one game or of all."""
        return [rows for (g, _), rows in self.section_rows.items() if game in (None, g)]

    def _matching(self, select: str, table: str, expression: str, game: str | None) -> list[tuple]:
        """The rows ``select`` gives of ``table`` for the FTS5 ``expression``, of one game or of all."""
        sql = f"SELECT {select} FROM {table} WHERE {table} MATCH ?" + (" AND game = ?" if game else "")
        with self.lock:
            return list(self.db.execute(sql, (expression, game) if game else (expression,)))

    def rows_with(self, expression: str, game: str | None) -> set[int]:
        return {row for (row,) in self._matching("rowid", "passages", expression, game)}

    def ranked(self, expression: str, game: str | None) -> list[tuple[int, float]]:
        """(passage row, BM25 score, higher is better) of every passage matching ``expression``."""
        weights = ", ".join(str(w) for w in COLUMN_WEIGHTS)
        return self._matching(f"rowid, -bm25(passages, {weights})", "passages", expression, game)

    def section_scores(self, expression: str, game: str | None) -> dict[tuple[str, str], float]:
        """(game, section id) -> BM25 score (higher is better) of every whole section matching ``expression``."""
        weights = ", ".join(str(w) for w in SECTION_WEIGHTS)
        found = self._matching(f"rowid, -bm25(sections, {weights})", "sections", expression, game)
        return {(self.sections[row].game, self.sections[row].id): score for row, score in found}


def _section_terms(section: Section) -> str:
    """The index phrases of a whole section: its own entry's and those of each of its passages' entries."""
    index = search_settings(section.game).index
    keys = [section.id, *(k for k in index if k.startswith(f"{section.id}#"))]
    return index_words(tuple(phrase for key in keys for phrase in index.get(key, ())), section.game)


@cache
def _index() -> _Index:
    return _Index()


def question_words(question: str) -> list[str]:
    """The question's words that carry meaning, in order, each once."""
    words = [w for w in _WORD.findall(question.lower()) if w not in _STOPWORDS and (len(w) > 1 or w.isdigit())]
    return list(dict.fromkeys(words))


#: Numbers as a question spells them and as the rules write them ("five players", "5 players").
_NUMBERS = {
    word: str(n) for n, word in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), 1)
}
_NUMBERS |= {digit: word for word, digit in _NUMBERS.items()}


def _synonyms_of(word: str, games: list[str]) -> set[str]:
    found: set[str] = {_NUMBERS[word]} if word in _NUMBERS else set()
    for game in games:
        table = search_settings(game).synonyms
        for form in {word, word.rstrip("s") if len(word) > 3 else word}:
            found |= table.get(form, frozenset())
    return found - {word}


def _name_form(word: str) -> str:
    """A word as section names are compared: lower case, a plain plural 's' dropped."""
    word = word.lower()
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


@cache
def section_names(game: str) -> dict[str, frozenset[str]]:
    """Each narrow section's names: the words of its title that most of the game's sections lack, no general
    section's title has ("players" of the 6-player map's title is a word of the First Player's) and the general
    sections do not use far more often (GAME_WORD_SHARE: "Earth"); the
    capitalised words (a faction's Great Old One, units, spellbooks) it uses at least twice and at least twice
    as often as all the general sections together, or, when few sections use the word at all (a sixth of them),
    more often than any one general section and as often as any other narrow section (the rulings name
    Yog-Sothoth six times, the Opener's own section ten: not twice as often), unless another narrow section uses
    the word more than NAME_SHARE times as often (Nyarlathotep is the Crawling Chaos's, not the Bhole's); and the
    words of its index entries (search.toml) that no general section's text or index uses ("worm" for the Bhole)."""
    sections = load_rulebook().get(game, [])
    narrow = search_settings(game).narrow
    counts = {s.id: Counter(_name_form(w) for w in re.findall(r"[A-Za-z]+", s.text)) for s in sections}
    indexed = {s.id: Counter(_name_form(w) for w in re.findall(r"[A-Za-z]+", _section_terms(s))) for s in sections}
    spread = Counter(w for c in counts.values() for w in c)
    general = sum((counts[s.id] + indexed[s.id] for s in sections if s.id not in narrow), Counter())
    general_titles = {_name_form(w) for s in sections if s.id not in narrow for w in re.findall(r"[A-Za-z]+", s.title)}
    most_general: Counter = Counter()  # a word's most uses in one general section (its index words too)
    most_narrow: Counter = Counter()  # and in one narrow section
    for s in sections:
        if s.id not in narrow:
            most_general |= counts[s.id] + indexed[s.id]
        else:
            most_narrow |= counts[s.id]
    names = {}
    for section in sections:
        if section.id not in narrow:
            continue
        title = {_name_form(w) for w in re.findall(r"[A-Za-z]+", section.title)}
        title = {w for w in title if spread[w] <= len(sections) / 2 and w not in general_titles
                 and general[w] <= GAME_WORD_SHARE * counts[section.id][w]}
        capitals = Counter(_name_form(w) for w in re.findall(r"\b[A-Z][a-z]+", section.text))
        own = {w for w, n in capitals.items() if n >= 2 and (general[w] * 2 <= counts[section.id][w] or (
            spread[w] <= len(sections) / 6 and most_general[w] < counts[section.id][w] >= most_narrow[w]))
            and counts[section.id][w] * NAME_SHARE >= most_narrow[w]}
        own |= {w for w in indexed[section.id] if not general[w]}
        names[section.id] = frozenset(w for w in title | own if len(w) > 2 and w not in _STOPWORDS)
    return names


@cache
def about_names(game: str) -> dict[str, frozenset[str]]:
    """The names that mark a general passage as about one narrow section: the capitalised names the section
    uses at least twice and twice as often as the general sections together, that at most one general section
    uses (in practice the rulings); a name two general sections use is the game's own word ("Awaken" in the
    actions and the rulings)."""
    sections = load_rulebook().get(game, [])
    narrow = search_settings(game).narrow
    counts = {s.id: Counter(_name_form(w) for w in re.findall(r"[A-Za-z]+", s.text)) for s in sections}
    general = sum((counts[s.id] for s in sections if s.id not in narrow), Counter())
    capitals = {s.id: Counter(_name_form(w) for w in re.findall(r"\b[A-Z][a-z]+", s.text)) for s in sections}
    spread = Counter(w for s in sections if s.id not in narrow for w in capitals[s.id])
    return {
        s.id: frozenset(
            w for w, n in capitals[s.id].items()
            if n >= 2 and general[w] * 2 <= counts[s.id][w] and spread[w] <= 1
            and len(w) > 2 and w not in _STOPWORDS
        )
        for s in sections if s.id in narrow
    }


@cache
def _about(passage: Passage) -> frozenset[str]:
    """The narrow sections a general passage is about: those whose names (about_names) it uses, capitalised."""
    forms = {_name_form(w) for w in re.findall(r"\b[A-Z][a-z]+", passage.text)}
    return frozenset(s for s, names in about_names(passage.section.game).items() if forms & names)


def _section_weight(
    passage: Passage, named: frozenset[tuple[str, str]], asked: frozenset[str] = frozenset()
) -> float:
    """How much a passage's section counts for this question: narrow sections count less, least when the
    question does not name them, and so does a general passage about a narrow section (see _about); summaries
    less than the full rule; and a general passage less when it uses none of the narrow sections' own names
    the question asks about (``asked``, see _names_asked)."""
    settings = search_settings(passage.section.game)
    if passage.section.id in settings.narrow:
        return NARROW_WEIGHT if (passage.section.game, passage.section.id) in named else UNNAMED_WEIGHT
    about = _about(passage)
    if about:
        return NARROW_WEIGHT if any((passage.section.game, s) in named for s in about) else UNNAMED_WEIGHT
    weight = SUMMARY_WEIGHT if passage.section.id in settings.summary else 1.0
    return weight * ELSEWHERE_WEIGHT if asked and not asked & _word_forms(passage) else weight


def _names_asked(words: list[str], named: frozenset[tuple[str, str]]) -> frozenset[str]:
    """The question's words that are the own names (about_names) of the narrow sections it names: a faction's
    Great Old One, units and spellbooks ("Devour", "Nyarlathotep"), not the words of their titles."""
    own = {w for game, s in named for w in about_names(game).get(s, ())}
    return frozenset({_name_form(w) for w in words} & own)


@cache
def _word_forms(passage: Passage) -> frozenset[str]:
    """The words of a passage and of its headings, as names are compared."""
    return frozenset(_name_form(w) for w in re.findall(r"[A-Za-z]+", " ".join((*passage.headings, passage.text))))


def _named_sections(words: list[str], games: list[str]) -> frozenset[tuple[str, str]]:
    """(game, section id) of the narrow sections whose names the question's words use."""
    forms = {_name_form(w) for w in words}
    return frozenset((game, s) for game in games for s, names in section_names(game).items() if forms & names)


def _fts_group(words: set[str]) -> str:
    return "(" + " OR ".join(f'"{w}"' for w in sorted(words)) + ")"


def search(query: str, game: str | None = None, limit: int = 5) -> SearchResult:
    """The passages that answer ``query`` best (see the module's docstring for how they are ranked)."""
    index = _index()
    games = [game] if game else list(load_rulebook())
    words = question_words(query)
    groups = {word: {word} | _synonyms_of(word, games) for word in words}
    holders = {word: index.rows_with(_fts_group(forms), game) for word, forms in groups.items()}
    unknown = [word for word, rows in holders.items() if not rows]
    known = {word: rows for word, rows in holders.items() if rows}
    if not known:
        return SearchResult([], unknown)
    sections_here = index.sections_of(game)
    share = _shares(known, len(unknown), sum(len(rows) for rows in sections_here))
    if max(share(rows) for rows in sections_here) <= GOOD_MATCH:
        return SearchResult([], unknown)
    expression = " OR ".join(_fts_group(groups[word]) for word in known)
    sections = index.section_scores(expression, game)
    best_section = max(sections.values(), default=1.0) or 1.0
    pairs = _pairs_together(index, [w for w in words if w in known], game)
    named = _named_sections(words, games)
    asked = _names_asked(words, named)
    hits = []
    for row, bm25 in index.ranked(expression, game):
        passage = index.rows[row]
        coverage = share({row})
        if coverage < PASSAGE_MATCH:
            continue
        context = SECTION_SHARE * sections.get((passage.section.game, passage.section.id), 0.0) / best_section
        together = 1 + PAIR_BONUS * sum(row in rows for rows in pairs)
        weight = _section_weight(passage, named, asked)
        score = bm25 * coverage**COVERAGE_POWER * (context + 1 - SECTION_SHARE) * together * weight
        hits.append(Hit(passage, round(score, 4), round(coverage, 3)))
    hits.sort(key=lambda h: (-h.score, h.passage.uri))
    return SearchResult(hits[:limit], unknown, {h.passage.uri: h.score for h in hits})


@cache
def tied_passages(game: str) -> dict[str, tuple[Passage, ...]]:
    """Each passage's URI -> the passages of other sections tied to it, both ways: a ruling and the rules it
    refines (_refinements), and a passage that refers to another section and that section's passages
    (_references)."""
    ties: dict[str, dict[Passage, None]] = {}
    for one, other in (*_refinements(game), *_references(game)):
        ties.setdefault(one.uri, {})[other] = None
        ties.setdefault(other.uri, {})[one] = None
    return {uri: tuple(tied) for uri, tied in ties.items()}


def _refinements(game: str) -> list[tuple[Passage, Passage]]:
    """(ruling, a passage it refines) of every ruling (a passage of a section search.toml calls ``rulings``): the
    passages outside the rulings that name one of the options (`snake_case` names) it names
    ("`enemy_relays_block_lines`"), or, naming none, the passage its own words find best (best_rule_for)."""
    rulings = search_settings(game).rulings
    naming: dict[str, list[Passage]] = {}  # option -> the passages outside the rulings that name it
    for rule in (p for p in passages(game) if p.section.id not in rulings):
        for option in _options(rule):
            naming.setdefault(option, []).append(rule)
    pairs = []
    for ruling in (p for p in passages(game) if p.section.id in rulings):
        refined = [rule for option in sorted(_options(ruling)) for rule in naming.get(option, ())]
        pairs += [(ruling, rule) for rule in refined or best_rule_for(ruling)]
    return pairs


_OPTION = re.compile(r"`([a-z0-9]+(?:_[a-z0-9]+)+)")
#: A reference to a section: "see doom", "(see `combat`)", "rules `game-of-war/setup`".
_REFERENCE = re.compile(r"\b(?:see `?|rules `[a-z0-9-]+/)([a-z0-9-]+)(?![\w-])")


def _options(passage: Passage) -> frozenset[str]:
    """The options (`snake_case` names, as written in code) a passage and its headings name."""
    return frozenset(_OPTION.findall(" ".join((*passage.headings[1:], passage.text))))


def _references(game: str) -> list[tuple[Passage, Passage]]:
    """(passage, a passage of the section it refers to: "see doom") of every passage that refers to another
    section of its game."""
    return [
        (passage, other)
        for passage in passages(game)
        for section in sorted(set(_REFERENCE.findall(passage.text)) & section_ids(game) - {passage.section.id})
        for other in _in_section(game, section)
    ]


def best_rule_for(ruling: Passage) -> list[Passage]:
    """The passage outside the rulings that a ruling's own words, asked as a question, find best (none or one)."""
    rulings = search_settings(ruling.section.game).rulings
    words = question_words(ruling.text)
    index = _index()
    found = index.ranked(_fts_group(set(words)), ruling.section.game) if words else []
    rules = (index.rows[row] for row, _ in sorted(found, key=lambda f: -f[1]))
    return [rule for rule in rules if rule.section.id not in rulings][:1]


def tied_close(passage: Passage, scores: dict[str, float]) -> Passage | None:
    """The passage tied to a passage (tied_passages) that the search scored best, when it scored at least
    TIE_SCORE of the passage's score (``scores``, URI -> score; none without a score)."""
    least = TIE_SCORE * scores.get(passage.uri, 0.0)
    if not least:
        return None
    tied = [p for p in tied_passages(passage.section.game).get(passage.uri, ()) if scores.get(p.uri, 0.0) >= least]
    return max(tied, key=lambda p: scores[p.uri], default=None)


def _shares(known: dict[str, set[int]], unknown: int, rows: int) -> Callable[[set[int]], float]:
    """The share of the question's weight that a set of passages holds: a word weighs more the fewer passages
    have it (its IDF, damped by IDF_POWER); a word no passage has weighs as little as the commonest known word."""
    weight = {word: math.log(1 + rows / len(holders)) ** IDF_POWER for word, holders in known.items()}
    total = sum(weight.values()) + min(weight.values()) * unknown

    def share(of: set[int]) -> float:
        return sum(w for word, w in weight.items() if known[word] & of) / total

    return share


def _pairs_together(index: _Index, words: list[str], game: str | None) -> list[set[int]]:
    """For each two words next to each other in the question, the passages where they stand close together."""
    return [index.rows_with(f'NEAR("{a}" "{b}", {NEAR_WORDS})', game) for a, b in zip(words, words[1:])]


def _root(word: str) -> str:
    """A rough root for picking the matching part of a long passage (ranking itself uses FTS5's stemmer)."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _words_held(query: str, game: str) -> Callable[[str], int]:
    """How many of the question's words (roughly rooted) a piece of text holds, a word counting when the text
    holds it or one of its synonyms (as ranking reads them: "attack" is held by "Battle them")."""
    groups = [frozenset(_root(w) for w in {word} | _synonyms_of(word, [game])) for word in question_words(query)]

    def hits(part: str) -> int:
        roots = _roots(part)
        return sum(bool(group & roots) for group in groups)

    return hits


@lru_cache(maxsize=4096)
def _roots(text: str) -> frozenset[str]:
    """The rough roots of a text's words (a passage's are asked for again at every search that quotes it; the
    runs of sentences a long passage is cut into are not all kept)."""
    return frozenset(_root(w) for w in _WORD.findall(text.lower()))


def _table_header(text: str) -> list[str]:
    """The header row and rule line a table passage (a group of rows) opens with; none for other passages."""
    lines = text.splitlines()
    return lines[:2] if len(lines) > 2 and lines[0].startswith("|") and set(lines[1]) <= set("|-: ") else []


def _body(text: str) -> str:
    """A passage's own words: a table group's rows without the header every group repeats."""
    return "\n".join(text.splitlines()[len(_table_header(text)) :])


@cache
def _in_section(game: str, section: str) -> tuple[Passage, ...]:
    return tuple(p for p in passages(game) if p.section.id == section)


def with_neighbours(passage: Passage, query: str, limit: int, scores: dict[str, float], beside: str = "") -> str:
    """The passage and, while they fit in ``limit`` characters, other passages of its section that hold some
    of the question's words or stand right next to it under the same heading: those the search scored close to
    it first (``scores``, URI -> score: at least CLOSE_SCORE of its score), then those under the same heading
    (those of its own list or table before the others), then those holding more of the words, then the nearer.
    They are given in reading order, with '…' where passages or a heading are left out between them (rows of
    one table under one header). A short rule comes with the rest of its list, where the answer
    often sits, and a short heading-like passage with the section's passages that hold the words asked for
    (those under other headings in at most OTHER_ROOM of the limit); a passage under the same heading too long
    for the room left comes in part (:func:`excerpt`) while NEIGHBOUR_EXCERPT characters or more are left.
    ``beside`` (a tied passage as quoted after them, see _beside) comes last, when it fits after the close
    passages: before the others take the room."""
    group = _in_section(passage.section.game, passage.section.id)
    at = group.index(passage)
    near = set(siblings(passage))
    hits = _words_held(query, passage.section.game)
    held = [hits(_body(p.text)) for p in group]
    kept, size = {at: passage.text}, len(passage.text)  # row in the section -> the text quoted of it
    close = CLOSE_SCORE * scores.get(passage.uri, 0.0)

    def wanted(i: int) -> bool:
        if group[i] in near:
            return bool(held[i]) or abs(i - at) == 1
        return held[i] >= OTHER_HELD

    def order(i: int) -> tuple:
        far = scores.get(group[i].uri, 0.0) < close
        return far, group[i] not in near, group[i].headings != passage.headings, -held[i], abs(i - at), i

    candidates = sorted((i for i in range(len(group)) if i != at and wanted(i)), key=order)
    ahead = sum(scores.get(group[i].uri, 0.0) >= close for i in candidates)  # the close ones, first in that order

    def take(rows: list[int]) -> None:
        nonlocal size
        for i in rows:
            if size + 3 + len(group[i].text) <= (limit if group[i] in near else OTHER_ROOM * limit):
                kept[i] = group[i].text
                size += 3 + len(group[i].text)

    take(candidates[:ahead])
    beside = beside if size + len(beside) <= limit else ""
    size += len(beside)
    take(candidates[ahead:])
    for i in candidates:  # then part of a passage under the same heading, in the room left
        room = limit - size - 3
        if i not in kept and group[i] in near and room >= NEIGHBOUR_EXCERPT and not _table_header(group[i].text):
            kept[i] = excerpt(group[i].text, hits, room)
            size += 3 + len(kept[i])
    lines: list[str] = []
    header: list[str] = []  # the header of the table the lines so far end in
    for i in sorted(kept):
        text = kept[i]
        if lines and (i - 1 not in kept or group[i - 1].place != group[i].place):  # passages or a heading left out
            lines.append("…")
        if header and _table_header(text) == header:
            text = _body(text)
        header = _table_header(group[i].text)
        lines.append(text)
    return "\n".join(lines) + beside


def quote(passage: Passage, query: str, limit: int, found: SearchResult | None = None) -> str:
    """The passage's text with its neighbours under the same heading while they fit in ``limit`` (see
    with_neighbours; ``found``, the search that found the passage, tells which passages of its section scored
    close to it, and whether a ruling that refines it or the rule it refines did: that one is quoted after them,
    see _beside), or if the passage alone is longer the run of its sentences (a table: its header and rows)
    that holds most of the question's words, marked with '…' where text is left out."""
    scores = found.scores if found else {}
    text = passage.text
    if len(text) <= limit:
        return with_neighbours(passage, query, limit, scores, _beside(passage, query, scores))
    hits = _words_held(query, passage.section.game)
    if text.lstrip().startswith("|"):
        lines = text.splitlines()
        header, rows = lines[:2], sorted(lines[2:], key=hits, reverse=True)
        kept = [row for i, row in enumerate(rows) if len("\n".join(header + rows[: i + 1])) <= limit] or rows[:1]
        return "\n".join(header + [row for row in lines[2:] if row in kept]) + "\n…"
    return excerpt(text, hits, limit)


def _beside(passage: Passage, query: str, scores: dict[str, float]) -> str:
    """The passage tied to a passage that the search scored close to it (tied_close), as quoted after it (it is
    of another section): '…', its URI, then its text (the run of its sentences holding most of the question's
    words, within TIE_QUOTE); or nothing."""
    tied = tied_close(passage, scores)
    if tied is None:
        return ""
    text = tied.text
    if len(text) > TIE_QUOTE:
        text = excerpt(text, _words_held(query, tied.section.game), TIE_QUOTE)
    return f"\n… <{tied.uri}>:\n{text}"


def excerpt(text: str, hits: Callable[[str], int], limit: int) -> str:
    """The run of a text's sentences, within ``limit`` characters, that holds most of the question's words
    (``hits`` counts them; the earliest run of the best), marked with '…' where text is left out."""
    sentences = _SENTENCE.split(" ".join(text.split()))
    best, best_hits = (0, 1), -1
    for start in range(len(sentences)):
        end = start
        while end < len(sentences) and len(" ".join(sentences[start : end + 1])) <= limit:
            end += 1
        end = max(end, start + 1)
        found = hits(" ".join(sentences[start:end]))
        if found > best_hits:
            best, best_hits = (start, end), found
    start, end = best
    out = " ".join(sentences[start:end])
    if len(out) > limit:
        out = out[: limit - 1].rsplit(" ", 1)[0]
    return ("… " if start else "") + out + (" …" if end < len(sentences) or len(out) < len(" ".join(sentences[start:end])) else "")


_SENTENCE = re.compile(r"(?<=[.;:!?])\s+")
