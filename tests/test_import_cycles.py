"""No import cycles between the modules of ``tabletop``: every import arrow points one way.

The graph is read from each module's source (ast), so an import inside a function counts as much as one at the top.
``from X import name`` is an arrow to the module ``X.name`` when there is one, else to ``X``; relative imports are
resolved against the importing module. A cycle is broken by moving what both sides need to a lower module.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "tabletop"


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of the package at ``root`` it imports anywhere in its source."""
    paths = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in paths.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
                targets.update(f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base for a in node.names)
        graph[name] = {t for t in targets if t in paths and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (modules that reach each other), sorted."""
    reach = {}
    for start in graph:
        seen, todo = set(), [start]
        while todo:
            for other in graph[todo.pop()] - seen:
                seen.add(other)
                todo.append(other)
        reach[start] = seen
    groups = {frozenset(m for m in reach[start] if start in reach[m]) for start in graph if start in reach[start]}
    return sorted(sorted(group) for group in groups)


def describe(graph: dict[str, set[str]], cycle: list[str]) -> str:
    return "\n".join(f"  {m} -> {', '.join(sorted(graph[m] & set(cycle)))}" for m in cycle)


def test_no_import_cycles_between_modules():
    graph = import_graph(PACKAGE)
    assert "tabletop.cli" in graph and graph["tabletop.cli"]
    found = cycles(graph)
    assert not found, "import cycles (move what both sides need to a lower module):\n" + "\n\n".join(
        describe(graph, cycle) for cycle in found
    )


def test_the_cycle_finder_finds_a_cycle_through_relative_and_function_level_imports(tmp_path):
    files = {
        "__init__.py": "",
        "a.py": "from .sub import b\n",  # a module: an arrow to pkg.sub.b
        "sub/__init__.py": "",
        "sub/b.py": "def f():\n    from ..c import VALUE\n",  # a name: an arrow to pkg.c
        "c.py": "import json\nfrom pkg.a import thing\nVALUE = 1\n",
        "d.py": "import pkg.c\n",  # imports the cycle, is not in it
    }
    for name, text in files.items():
        (tmp_path / "pkg" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text)
    graph = import_graph(tmp_path / "pkg")
    assert cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert describe(graph, cycles(graph)[0]) == "  pkg.a -> pkg.sub.b\n  pkg.c -> pkg.a\n  pkg.sub.b -> pkg.c"
