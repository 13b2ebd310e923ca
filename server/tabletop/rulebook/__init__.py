"""The rules reference in rules_text/: one folder per game, one Markdown file per section.

:mod:`.sections` reads the sections, :mod:`.passages` cuts them into the passages an answer quotes, and
:mod:`.search` ranks passages for a question (``rules_text/<game>/search.toml`` gives each game's synonyms,
the sections a general question should not land on first, the rulings sections, and an index of the words a
reader looks each rule up by, per section or per passage); a hit is quoted with the passages of its section the
search scored close to it, then with a passage of another section tied to it (the ruling that refines it or the
rule a ruling refines, a passage that refers to its section or of the section it refers to) when the search scored
that one close too, then with its neighbours under the same heading while they fit, then with the passages
of its section that hold the question's words.
"""

from .passages import Passage, passage_at, passages, siblings
from .search import Hit, SearchResult, quote, search
from .sections import Section, find_section, load_rulebook, rules_dir, whole_reference

__all__ = [
    "Hit", "Passage", "SearchResult", "Section", "find_section", "load_rulebook", "passage_at", "passages",
    "quote", "rules_dir", "search", "siblings", "whole_reference",
]
