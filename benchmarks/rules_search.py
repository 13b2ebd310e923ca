"""How well search_rules lands on the passage that answers a question, and what it costs a model.

    .venv/bin/python benchmarks/rules_search.py [--baseline COMMIT] [--before COMMIT] [--misses]

Over the question sets the tests keep (tests/rulebook/questions.toml, written in a newcomer's own words,
and tests/rulebook/holdout.toml, written blind to the search's synonyms and weights), it prints for each:

- first: the share whose answering section (or one of its `also` sections) is the first hit;
- top 3: ... is among the first three hits;
- phrase: the share whose answer phrase is inside the first hit's quoted passage (the question's phrase, or one
  of its `also_answer` phrases: the answer in the words of one of its `also` sections);
- chars: the median characters of the tool's text answer (3 hits);
- to answer: the median characters a model reads to reach the answer: the answer's text, plus the whole
  section when the phrase is not in that text (it would read the section, as it did before passages);
- latency: the median and 95th percentile time of one search, in milliseconds.

--misses prints, for tests/rulebook/questions.toml only (the holdout set stays unread while the search is
tuned), each question whose first hit is in another section or whose first passage lacks the answer phrase:
the hits' URIs and the passages that hold the phrase.

The same figures are printed for the search before passages (the section search of --baseline, default
83b5ba8, read from git), answering with its own text: one line per section with a snippet; and, with
--before COMMIT, for the passage search as it was at that commit (server/tabletop/rulebook/ read from git,
over today's rules_text and question sets), answering through today's tool text.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import inspect
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from tabletop import rulebook  # noqa: E402
from tabletop.app import rules_tools  # noqa: E402
from tabletop.app.rules_tools import passage_hits, search_text  # noqa: E402
from tabletop.rulebook.search import question_words  # noqa: E402

SETS = {"questions": ROOT / "tests/rulebook/questions.toml", "holdout": ROOT / "tests/rulebook/holdout.toml"}


def flat(text: str) -> str:
    return " ".join(text.split())


def holds_answer(q: dict, text: str) -> bool:
    """Whether ``text`` holds the question's answer: its phrase, or the phrase of one of its ``also`` sections."""
    return any(flat(phrase) in flat(text) for phrase in [q["answer"], *q.get("also_answer", [])])


def answer_now(question: str, game: str) -> tuple[list[str], str, str]:
    """(section ids of the hits, the first hit's quoted passage, the tool's text) from today's search."""
    found = rulebook.search(question, game, 3)
    hits = passage_hits(found, question)
    return [h.section for h in hits], hits[0].passage if hits else "", search_text(found, hits, question)


def baseline_module(commit: str):
    """The section search as it was at ``commit`` (server/tabletop/rulebook.py then), or None without git."""
    try:
        source = subprocess.run(["git", "show", f"{commit}:server/tabletop/rulebook.py"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    spec = importlib.util.spec_from_loader("rulebook_before_passages", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = str(ROOT / "server/tabletop/rulebook.py")  # its rules_dir() looks beside that path
    sys.modules[module.__name__] = module  # its dataclasses look their module up
    exec(compile(source, f"{commit}:rulebook.py", "exec"), module.__dict__)
    return module


def passage_search_at(commit: str, into: Path):
    """The passage search (server/tabletop/rulebook/) as it was at ``commit``, as the package
    ``tabletop_before.rulebook`` under ``into``, reading today's rules_text; None without git."""
    package = into / "server" / "tabletop_before" / "rulebook"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    (into / "rules_text").symlink_to(ROOT / "rules_text")  # its rules_dir() looks three folders up
    try:
        names = subprocess.run(["git", "ls-tree", "--name-only", f"{commit}:server/tabletop/rulebook"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.split()
        for name in (n for n in names if n.endswith(".py")):
            source = subprocess.run(["git", "show", f"{commit}:server/tabletop/rulebook/{name}"], cwd=ROOT,
                                    capture_output=True, text=True, check=True).stdout
            (package / name).write_text(source)
    except (OSError, subprocess.CalledProcessError):
        return None
    sys.path.insert(0, str(into / "server"))
    return importlib.import_module("tabletop_before.rulebook")


def as_today(module):
    """Another version of the rulebook package as today's tool calls it: a ``quote`` of before the search's result
    was given to it (to quote first the passages the search scored close to the hit) is called without it."""
    if "found" in inspect.signature(module.quote).parameters:
        return module
    view = types.SimpleNamespace(**{name: getattr(module, name) for name in module.__all__})
    view.quote = lambda passage, query, limit, found=None: module.quote(passage, query, limit)
    return view


def answer_passages_with(module):
    """Answers from another version of the passage search, laid out by today's tool (which then quotes
    passages with that version's ``quote``)."""
    def answer(question: str, game: str) -> tuple[list[str], str, str]:
        today = rules_tools.rulebook
        rules_tools.rulebook = as_today(module)
        try:
            found = module.search(question, game, 3)
            hits = passage_hits(found, question)
            return [h.section for h in hits], hits[0].passage if hits else "", search_text(found, hits, question)
        finally:
            rules_tools.rulebook = today

    return answer


def answer_before(module):
    def answer(question: str, game: str) -> tuple[list[str], str, str]:
        found = module.search(question, game, 3)
        lines = [f"- {m.section.title} ({m.section.uri}): {m.snippet}" for m in found.matches]
        if not found.matches:
            lines.append("Nothing in the rules matches this question well; try other words.")
        first = found.matches[0].snippet if found.matches else ""
        return [m.section.id for m in found.matches], first, "\n".join(lines)

    return answer


def measure(answer, questions: list[dict]) -> dict[str, float]:
    first = top3 = phrase = 0
    chars, to_answer, times = [], [], []
    for q in questions:
        start = time.perf_counter()
        sections, passage, text = answer(q["question"], q["game"])
        times.append((time.perf_counter() - start) * 1000)
        right = {q["section"], *q.get("also", [])}
        first += bool(sections) and sections[0] in right
        top3 += bool(right & set(sections[:3]))
        phrase += holds_answer(q, passage)
        chars.append(len(text))
        shown = holds_answer(q, text)
        to_answer.append(len(text) + (0 if shown else len(rulebook.find_section(q["game"], q["section"]).text)))
    n = len(questions)
    times.sort()
    return {
        "first": first / n, "top3": top3 / n, "phrase": phrase / n,
        "chars": statistics.median(chars), "to_answer": statistics.median(to_answer),
        "ms": statistics.median(times), "ms95": times[int(0.95 * (n - 1))],
    }


def print_misses(questions: list[dict]) -> None:
    """Each question the search misses (first hit's section or answer phrase), with where the phrase is."""
    for q in questions:
        found = rulebook.search(q["question"], q["game"], 3)
        hits = passage_hits(found, q["question"])
        right = {q["section"], *q.get("also", [])}
        first_ok = bool(hits) and hits[0].section in right
        phrase_ok = bool(hits) and holds_answer(q, hits[0].passage)
        if first_ok and phrase_ok:
            continue
        holders = [p.uri for p in rulebook.passages(q["game"]) if holds_answer(q, p.text)]
        print(f"\n[{'section' if not first_ok else 'phrase'}] {q['question']!r} -> {q['section']}: {q['answer']!r}")
        print(f"   words: {question_words(q['question'])} unknown: {found.unknown}")
        for h in found.hits:
            print(f"   hit {h.score:8.3f} cov {h.coverage:.2f} {h.passage.uri}")
        print(f"   phrase in: {holders}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="83b5ba8", help="the commit whose section search to compare with")
    parser.add_argument("--before", help="also measure the passage search as it was at this commit")
    parser.add_argument("--misses", action="store_true", help="print the questions.toml questions missed")
    args = parser.parse_args()
    if args.misses:
        print_misses(tomllib.loads(SETS["questions"].read_text())["question"])
        return
    with tempfile.TemporaryDirectory() as scratch:
        earlier = passage_search_at(args.before, Path(scratch)) if args.before else None
        if args.before and earlier is None:
            print(f"(no --before: git could not show {args.before})")
        report(baseline_module(args.baseline), earlier, args)


def report(before, earlier, args) -> None:
    """The figures of each search over each question set, one line each."""
    rulebook.search("warm up the index", None)
    print(f"{'set':10} {'search':16} {'n':>4} {'first':>6} {'top 3':>6} {'phrase':>6} {'chars':>6} "
          f"{'to answer':>9} {'ms p50':>7} {'ms p95':>7}")
    for name, path in SETS.items():
        questions = tomllib.loads(path.read_text())["question"]
        searches = [("passages (now)", answer_now)]
        if earlier is not None:
            searches.append((f"passages {args.before}"[:16], answer_passages_with(earlier)))
        if before is not None:
            searches.append((f"sections {args.baseline}", answer_before(before)))
        for label, answer in searches:
            m = measure(answer, questions)
            print(f"{name:10} {label:16} {len(questions):>4} {m['first']:>6.1%} {m['top3']:>6.1%} {m['phrase']:>6.1%} "
                  f"{m['chars']:>6.0f} {m['to_answer']:>9.0f} {m['ms']:>7.2f} {m['ms95']:>7.2f}")
    if before is None:
        print(f"(no baseline: git could not show {args.baseline})")
    print("targets (issue 34): first >= 90%, phrase >= 80%, median answer <= 1,200 characters")


if __name__ == "__main__":
    main()
