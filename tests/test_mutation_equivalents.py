"""The list of equivalent mutants (benchmarks/mutation_equivalents.toml) that benchmarks/mutation.py excuses: every
entry names a function of the product and a fragment of a changed line, and only a matching mutant is excused."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def mutation():
    spec = importlib.util.spec_from_file_location("mutation_benchmark", ROOT / "benchmarks" / "mutation.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def entries() -> list[dict]:
    return tomllib.loads((ROOT / "benchmarks" / "mutation_equivalents.toml").read_text())["equivalent"]


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e["name"].rsplit(".", 1)[-1])
def test_each_listed_mutant_names_a_real_function_and_says_why(entry):
    module, mangled = entry["name"].rsplit(".", 1)
    match = re.fullmatch(r"(?:x_(\w+)|xǁ(\w+)ǁ(\w+))__mutmut_\d+", mangled)
    assert match, f"not a mutmut 3 mutant name: {mangled}"
    function, cls, method = match.groups()
    source = (ROOT / "server" / Path(*module.split("."))).with_suffix(".py").read_text()
    wanted = f"def {method}(" if cls else f"def {function}("
    assert wanted in source and (cls is None or f"class {cls}" in source)
    assert entry["mutated"].strip() and len(entry["why"]) > 20


def test_only_a_survivor_whose_changed_line_matches_is_excused(mutation, monkeypatch, tmp_path):
    name = entries()[0]["name"]
    diffs = {
        name: f"# {name}: survived\n--- a\n+++ b\n-    old line\n+    x = {entries()[0]['mutated']}\n",
        "other__mutmut_1": "--- a\n+++ b\n+    something else\n",
    }
    monkeypatch.setattr(mutation, "mutant_diff", lambda work, env, n: diffs.get(n, ""))
    assert list(mutation.equivalent_survivors(tmp_path, {}, [name, "other__mutmut_1"])) == [name]
    diffs[name] = diffs[name].replace(entries()[0]["mutated"], "a different change")  # renumbered: not excused
    assert mutation.equivalent_survivors(tmp_path, {}, [name]) == {}


def test_the_score_without_equivalent_mutants(mutation):
    assert mutation.caught_share({"killed": 140, "timeout": 6, "survived": 4}, 4) == 1.0
    assert mutation.caught_share({"killed": 90, "survived": 10}, 5) == pytest.approx(90 / 95)
    assert mutation.caught_share({}, 0) == 0.0
