"""The sections of the rules reference: ``rules_text/<game>/NN-<section>.md`` is the section ``<game>/<section>``
(served as ``rules://<game>/<section>``); ``NN`` orders the sections and each file opens with ``# Title``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

_SECTION_FILE = re.compile(r"^(\d+)-([a-z0-9-]+)\.md$")


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
    return Path(__file__).resolve().parents[3] / "rules_text"


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
