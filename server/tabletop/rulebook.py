"""The rules reference in rules_text/: one folder per game, one Markdown file per section.

A file ``rules_text/<game>/NN-<section>.md`` is the section ``<game>/<section>`` (served as
``rules://<game>/<section>``); ``NN`` orders the sections and each file opens with ``# Title``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

_SECTION_FILE = re.compile(r"^(\d+)-([a-z0-9-]+)\.md$")
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Section:
    game: str
    id: str
    title: str
    text: str

    @property
    def uri(self) -> str:
        return f"rules://{self.game}/{self.id}"


def rules_dir() -> Path:
    """rules_text/ inside an installed wheel, else at the top of the source checkout."""
    packaged = Path(str(resources.files("tabletop"))) / "_rules_text"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rules_text"


@cache
def load_rulebook(root: Path | None = None) -> dict[str, list[Section]]:
    """Every game's sections in reading order."""
    root = root or rules_dir()
    book: dict[str, list[Section]] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        sections = []
        for path in sorted(folder.iterdir(), key=lambda p: p.name):
            match = _SECTION_FILE.match(path.name)
            if not match:
                continue
            text = path.read_text(encoding="utf-8")
            first = text.splitlines()[0] if text else ""
            title = first.lstrip("# ").strip() if first.startswith("#") else match.group(2)
            sections.append(Section(folder.name, match.group(2), title, text))
        if sections:
            book[folder.name] = sections
    return book


def whole_reference(game: str) -> str:
    """All of a game's sections, in order, as one document."""
    return "\n\n".join(s.text.rstrip() for s in load_rulebook()[game]) + "\n"


def find_section(game: str, section: str) -> Section | None:
    return next((s for s in load_rulebook().get(game, []) if s.id == section), None)


@dataclass(frozen=True, slots=True)
class Match:
    section: Section
    score: float
    snippet: str
    coverage: float  # the share of the query's weight (rarer words weigh more) the section holds


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The sections that match the query well, and the query's words found in no section at all."""

    matches: list[Match]
    unknown: list[str]


#: The least share of a query's weight a section must hold to count as a match.
GOOD_MATCH = 0.5


_STOPWORDS = frozenset(
    "a an and are as at be but by can do does for from has have how i if in is it its me my no not of on or "
    "so than that the their then there these they this to was what when where which who why will with you your "
    "happen happens happened work works mean means much many get gets".split()
)


def stem(word: str) -> str:
    """A crude English stem so 'runs', 'running' and 'run' meet."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2]:
        word = word[:-1]
    return word


def terms(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]


@cache
def _index() -> list[tuple[Section, dict[str, int], frozenset[str]]]:
    """Per section: term counts of the body, and the terms of its title and headings."""
    entries = []
    for sections in load_rulebook().values():
        for section in sections:
            counts: dict[str, int] = {}
            for term in terms(section.text):
                counts[term] = counts.get(term, 0) + 1
            headings = " ".join(line for line in section.text.splitlines() if line.startswith("#"))
            entries.append((section, counts, frozenset(terms(headings))))
    return entries


def search(query: str, game: str | None = None, limit: int = 5) -> SearchResult:
    """Sections ranked by the query's terms: rarer terms weigh more, repeats count less and less,
    a term in a heading counts a little extra. Only sections holding most of the query's weight
    (GOOD_MATCH) are returned; a word found nowhere weighs as much as the rarest word, so a question
    about something the rules never mention gets no unrelated sections."""
    wanted = set(terms(query))
    entries = [e for e in _index() if game is None or e[0].game == game]
    if not wanted or not entries:
        return SearchResult([], [])
    idf, unknown = {}, []
    for term in sorted(wanted):
        df = sum(1 for _, counts, _ in entries if term in counts)
        idf[term] = math.log(1 + len(entries) / max(df, 1))
        if not df:
            unknown.append(term)
    total = sum(idf.values())
    found = []
    for section, counts, headings in entries:
        held = [term for term in idf if term in counts]
        coverage = sum(idf[t] for t in held) / total
        if held and coverage >= GOOD_MATCH:
            score = sum(idf[t] * math.log(1 + counts[t]) + (idf[t] / 2 if t in headings else 0.0) for t in held)
            found.append(Match(section, round(score, 3), snippet(section.text, wanted), round(coverage, 3)))
    found.sort(key=lambda m: (-m.score, m.section.uri))
    return SearchResult(found[:limit], unknown)


def snippet(text: str, wanted: set[str], width: int = 240) -> str:
    """The paragraph of text (headings left out) that holds most of the query's terms, trimmed to ``width``."""
    paragraphs = []
    for block in text.split("\n\n"):
        body = "\n".join(line for line in block.splitlines() if not line.lstrip().startswith("#")).strip()
        if body:
            paragraphs.append(body)
    if not paragraphs:
        return ""
    best = max(paragraphs, key=lambda p: len(wanted & set(terms(p))))
    flat = " ".join(best.split())
    return flat if len(flat) <= width else flat[: width - 1].rsplit(" ", 1)[0] + "…"
