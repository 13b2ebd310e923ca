"""The README's list of error kinds is complete: every kind of refusal the code can raise is named there."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import tabletop
from tabletop.core.errors import GameError

README = Path(__file__).resolve().parents[1] / "README.md"


def every_kind() -> set[str]:
    for module in pkgutil.walk_packages(tabletop.__path__, "tabletop."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    kinds, todo = set(), [GameError]
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        kinds.add(cls.kind)
    return kinds - {GameError.kind}


def test_every_error_kind_is_in_the_readme():
    kinds = every_kind()
    assert {"illegal_move", "ambiguous_area", "storage_error", "unknown_layout"} <= kinds, "the walk finds them all"
    listed = set(re.findall(r"`([a-z_]+)`", README.read_text(encoding="utf-8").split("Error kinds:")[1].split("\n\n")[0]))
    assert kinds <= listed, f"not in the README's list of error kinds: {sorted(kinds - listed)}"
