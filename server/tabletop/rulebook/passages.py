"""Sections cut into passages: the pieces a rules answer quotes.

A passage is one paragraph, one list item (with its sub-items), or a group of table rows under
their header row. A paragraph holding several rules, each opened by a bold name after the end of a
sentence ("... turn. **Lethargy** (action ..."), is one passage per rule. A passage knows its
heading path (the section's title, the headings above it and, for a list item or a table, the
sentence that introduces it) and an anchor unique in its section, made from the name it starts
with (a table row's first cell, a list item's `code` or **bold** name) or else its heading; its
URI is ``rules://<game>/<section>#<anchor>``. The passages under the same headings (a list with the
sentence introducing it) are siblings: a search quotes a short passage with them while they fit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .sections import Section, load_rulebook

#: Short table rows are grouped up to about this many characters; a row longer than LONG_ROW stands alone.
TABLE_GROUP = 520
LONG_ROW = 160
#: A paragraph longer than this is cut at sentence ends into pieces about this long.
LONGEST = 900

_LIST_ITEM = re.compile(r"^(\s*)([*-]|\d+\.)\s+")
_RULE_START = re.compile(r"(?<=[.:)])\s+(?=\*\*[^*]+\*\*)")
_SENTENCE_END = re.compile(r"(?<=[.;])\s+(?=[A-Z(`*])")
_LEAD_NAME = re.compile(r"^(?:[*-]|\d+\.)?\s*(?:\*\*([^*]+)\*\*|`([^`]+)`)")


@dataclass(frozen=True, slots=True)
class Passage:
    section: Section
    anchor: str
    headings: tuple[str, ...]  # the section's title first, then the headings (and lead-in) above the passage
    text: str  # as written in the section (Markdown)
    lead_in: bool = False  # the last of the headings is the sentence introducing the list or table

    @property
    def place(self) -> tuple[str, ...]:
        """The headings the passage stands under, without a lead-in sentence: a lead-in and its list share it."""
        return self.headings[:-1] if self.lead_in else self.headings

    @property
    def uri(self) -> str:
        return f"{self.section.uri}#{self.anchor}"

    @property
    def path(self) -> str:
        """The heading path in one line, e.g. 'Actions › Unlimited actions'."""
        return " › ".join(self.headings)


def slug(text: str, most_words: int = 6, longest: int = 40) -> str:
    """Lower-case words joined by '-', at most ``most_words`` of them and about ``longest`` characters."""
    out = ""
    for word in re.findall(r"[a-z0-9]+", text.lower())[:most_words]:
        if out and len(out) + 1 + len(word) > longest:
            break
        out = f"{out}-{word}" if out else word[:longest]
    return out or "passage"


def _blocks(text: str) -> list[tuple[tuple[str, ...], list[str]]]:
    """(heading path, lines) of every block between blank lines, headings tracked."""
    stack: list[str] = []
    blocks: list[tuple[tuple[str, ...], list[str]]] = []
    current: list[str] = []

    def close() -> None:
        if current:
            blocks.append((tuple(stack), current.copy()))
            current.clear()

    for line in text.splitlines():
        heading = re.match(r"^(#+)\s+(.*)$", line)
        if heading:
            close()
            level = len(heading.group(1))
            del stack[level - 1 :]
            stack.extend([""] * (level - 1 - len(stack)))
            stack.append(heading.group(2).strip())
        elif not line.strip():
            close()
        else:
            current.append(line)
    close()
    return [(tuple(h for h in path if h), lines) for path, lines in blocks]


def _table_groups(lines: list[str]) -> list[str]:
    """Row groups of a Markdown table, each under the table's header row: short rows together, long ones alone."""
    header = lines[:2] if len(lines) > 1 and set(lines[1].replace("|", "").strip()) <= set("-: ") else lines[:1]
    rows = lines[len(header) :]
    groups: list[list[str]] = []
    for row in rows:
        last = groups[-1] if groups else []
        short = len(row) <= LONG_ROW and all(len(r) <= LONG_ROW for r in last)
        if last and short and sum(len(r) for r in last) + len(row) <= TABLE_GROUP:
            last.append(row)
        else:
            groups.append([row])
    return ["\n".join([*header, *group]) for group in groups] or ["\n".join(header)]


def _list_items(lines: list[str]) -> tuple[list[str], list[str]]:
    """(lines before the first item, items): an item is a top-level marker line and what is indented under it."""
    lead: list[str] = []
    items: list[list[str]] = []
    for line in lines:
        marker = _LIST_ITEM.match(line)
        if marker and not marker.group(1):
            items.append([line])
        elif items:
            items[-1].append(line)
        else:
            lead.append(line)
    return lead, ["\n".join(item) for item in items]


def _cut_long(paragraph: str) -> list[str]:
    """A long paragraph in pieces at sentence ends, each about LONGEST characters at most."""
    if len(paragraph) <= LONGEST:
        return [paragraph]
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(paragraph):
        if pieces and len(pieces[-1]) + 1 + len(sentence) <= LONGEST:
            pieces[-1] += " " + sentence
        else:
            pieces.append(sentence)
    return pieces


def _paragraph_rules(paragraph: str) -> list[str]:
    """A paragraph cut before each bold rule name that follows a sentence, then long pieces cut again."""
    flat = " ".join(paragraph.split())
    return [piece for rule in _RULE_START.split(flat) for piece in _cut_long(rule)]


def _pieces(path: tuple[str, ...], lines: list[str]) -> list[tuple[tuple[str, ...], str, bool]]:
    """(heading path, text, is_table_or_item) of one block."""
    if lines[0].lstrip().startswith("|"):
        return [(path, group, True) for group in _table_groups(lines)]
    lead, items = _list_items(lines)
    out = [(path, rule, False) for rule in _paragraph_rules("\n".join(lead))] if lead else []
    return out + [(path, item, True) for item in items]


def _anchor_name(text: str, table: bool) -> str | None:
    """The name a passage starts with: a table's first data cell, or a leading **bold** or `code` name."""
    if table and text.lstrip().startswith("|"):
        rows = text.splitlines()
        first = rows[2] if len(rows) > 2 and set(rows[1].replace("|", "").strip()) <= set("-: ") else rows[-1]
        cell = first.strip().strip("|").split("|")[0]
        return cell.strip(" *`") or None
    named = _LEAD_NAME.match(text.strip())
    return (named.group(1) or named.group(2)) if named else None


def _unnamed_anchor(text: str, heading_path: tuple[str, ...], opened: set[tuple[str, ...]]) -> str:
    """A passage without a name of its own: its heading for the first passage under a sub-heading, else its first words."""
    if len(heading_path) > 1 and heading_path not in opened:
        return heading_path[-1]
    return " ".join(re.findall(r"[A-Za-z0-9]+", text)[:5])


def _section_passages(section: Section) -> list[Passage]:
    out: list[Passage] = []
    used: dict[str, int] = {}
    previous: str | None = None  # the last paragraph under the same headings: a lead-in ending with ':'
    previous_path: tuple[str, ...] = ()
    opened: set[tuple[str, ...]] = set()  # heading paths that already have a passage
    for path, lines in _blocks(section.text):
        path = path or (section.title,)
        for heading_path, text, structured in _pieces(path, lines):
            headings, lead_in = heading_path, False
            if structured and previous and previous_path == heading_path and previous.rstrip().endswith(":"):
                lead = " ".join(previous.split()).rstrip(":")
                headings = (*heading_path, lead if len(lead) <= 90 else lead[:89].rsplit(" ", 1)[0] + "…")
                lead_in = True
            if not structured:
                previous, previous_path = text, heading_path
            base = slug(_anchor_name(text, structured) or _unnamed_anchor(text, heading_path, opened))
            opened.add(heading_path)
            used[base] = used.get(base, 0) + 1
            anchor = base if used[base] == 1 else f"{base}-{used[base]}"
            out.append(Passage(section, anchor, headings, text.strip(), lead_in))
    return out


@cache
def _every_passage() -> tuple[Passage, ...]:
    return tuple(p for sections in load_rulebook().values() for s in sections for p in _section_passages(s))


def passages(game: str | None = None) -> tuple[Passage, ...]:
    """Every passage of one game's rules (or of every game), in reading order."""
    return tuple(p for p in _every_passage() if game in (None, p.section.game))


@cache
def _by_uri() -> dict[str, Passage]:
    return {p.uri: p for p in _every_passage()}


@cache
def _siblings() -> dict[tuple[str, str, tuple[str, ...]], tuple[Passage, ...]]:
    found: dict[tuple[str, str, tuple[str, ...]], list[Passage]] = {}
    for p in _every_passage():
        found.setdefault((p.section.game, p.section.id, p.place), []).append(p)
    return {key: tuple(group) for key, group in found.items()}


def siblings(passage: Passage) -> tuple[Passage, ...]:
    """The passages under the same headings as ``passage`` (itself included; a list with its lead-in), in
    reading order."""
    return _siblings()[(passage.section.game, passage.section.id, passage.place)]


def passage_at(uri: str) -> Passage | None:
    """The passage a ``rules://<game>/<section>#<anchor>`` URI names, or None."""
    return _by_uri().get(uri)
