"""The rules search's weights, set by a hill climb over the question set (issue 34).

    .venv/bin/python benchmarks/rules_search_weights.py [--seconds S] [--seed N] [--spread F] [--start FILE]
                                                        [--out FILE]

The ranking constants of server/tabletop/rulebook/search.py (the share a passage must hold, the section's
share of a score, the damping of rare words, the bonus for words standing together, how much narrow and summary
sections count and a general passage without the faction names asked about, the FTS5 column weights, and the share
of the hit's score that has a passage quoted first beside it) are changed a few at a time, at random, by up to
``--spread`` of their value; a change is kept when it answers more of tests/rulebook/questions.toml (first hit
in the answering section plus answer phrase in the first quoted passage, as benchmarks/rules_search.py counts
them). The held-out set (tests/rulebook/holdout.toml) is scored once, at the end, for the weights the climb ends
with: it is never used to choose among them, so it says how far the climb fitted the question set rather than the
rules.

Prints each kept change, then the start's and the end's figures on both sets; ``--out`` writes the weights that
differ from today's as JSON (``--start`` reads such a file to go on from it).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from rules_search import answer_now, holds_answer  # noqa: E402  (benchmarks/rules_search.py: the figures it prints)

SEARCH = importlib.import_module("tabletop.rulebook.search")  # the module (the package exports its function search)
SETS = {"questions": ROOT / "tests/rulebook/questions.toml", "holdout": ROOT / "tests/rulebook/holdout.toml"}
#: The constants the climb may change: numbers, and tuples of column weights.
TUNED = (
    "PASSAGE_MATCH", "SECTION_SHARE", "IDF_POWER", "PAIR_BONUS", "NEAR_WORDS", "COVERAGE_POWER",
    "NARROW_WEIGHT", "UNNAMED_WEIGHT", "ELSEWHERE_WEIGHT", "SUMMARY_WEIGHT", "CLOSE_SCORE", "COLUMN_WEIGHTS",
    "SECTION_WEIGHTS",
)


def answered(questions: list[dict]) -> tuple[float, float]:
    """(share whose first hit is in an answering section, share whose answer phrase is in the first quote)."""
    first = phrase = 0
    for q in questions:
        sections, passage, _ = answer_now(q["question"], q["game"])
        first += bool(sections) and sections[0] in {q["section"], *q.get("also", [])}
        phrase += holds_answer(q, passage)
    return first / len(questions), phrase / len(questions)


def use(weights: dict) -> None:
    for name, value in weights.items():
        setattr(SEARCH, name, tuple(value) if isinstance(value, list) else value)


def nudged(weights: dict, rnd: random.Random, spread: float) -> dict:
    """A few of the weights changed by up to ``spread`` of their value (a word distance by one or two)."""
    out = dict(weights)
    for name in rnd.sample(TUNED, rnd.randint(1, 4)):
        value = out[name]
        if name == "NEAR_WORDS":
            out[name] = max(1, value + rnd.choice((-2, -1, 1, 2)))
        elif isinstance(value, tuple):
            out[name] = tuple(round(max(0.0, v * rnd.uniform(1 - spread, 1 + spread)), 3) for v in value)
        else:
            out[name] = round(max(0.0, value * rnd.uniform(1 - spread, 1 + spread)), 3)
    out["PASSAGE_MATCH"] = min(out["PASSAGE_MATCH"], SEARCH.GOOD_MATCH)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--spread", type=float, default=0.4)
    parser.add_argument("--start", help="a JSON file of weights to start from (as --out writes)")
    parser.add_argument("--out", help="write the weights the climb ends with here, those differing from today's")
    args = parser.parse_args()
    sets = {name: tomllib.loads(path.read_text())["question"] for name, path in SETS.items()}
    today = {name: getattr(SEARCH, name) for name in TUNED}
    start = dict(today)
    if args.start:
        given = json.loads(Path(args.start).read_text())
        start.update({k: tuple(v) if isinstance(v, list) else v for k, v in given.items()})
    use(start)
    best, best_value = start, sum(answered(sets["questions"]))
    rnd, began, tried = random.Random(args.seed), time.process_time(), 0
    while time.process_time() - began < args.seconds:
        tried += 1
        candidate = nudged(best, rnd, args.spread)
        use(candidate)
        first, phrase = answered(sets["questions"])
        if first + phrase > best_value:
            best, best_value = candidate, first + phrase
            changed = {k: v for k, v in candidate.items() if v != today[k]}
            print(f"try {tried}: first {first:.1%}, phrase {phrase:.1%} {json.dumps(changed)}", flush=True)
    print(f"{tried} weight sets tried in {time.process_time() - began:.0f} CPU s")
    for label, weights in (("start", start), ("end", best)):
        use(weights)
        figures = ", ".join(f"{name} first {f:.1%} phrase {p:.1%}" for name, (f, p) in
                            ((name, answered(qs)) for name, qs in sets.items()))
        print(f"{label}: {figures}")
    if args.out:
        Path(args.out).write_text(json.dumps({k: v for k, v in best.items() if v != today[k]}, indent=1) + "\n")


if __name__ == "__main__":
    main()
