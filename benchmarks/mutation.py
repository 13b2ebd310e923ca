"""Mutation score of the rules engines and the session layer, measured with mutmut 3.

mutmut changes the code one small mistake at a time (a ``<`` for a ``<=``, a 2 for a 3, a
dropped call...) and runs the tests that reach the changed function; a mutant is *caught* when
a test fails (killed) or the tests no longer finish (timeout). The score is caught / (caught +
survived) over the mutants the selected tests reach; those they never reach are counted apart
(and in a second, stricter score). Each group mutates the modules that hold its rules and runs
only the test files written for them (GROUPS below; widen either list when there is CPU to spare).

mutmut only looks for code under ``src/``, so each group runs in a scratch copy of the project
(``server/`` copied as ``src/``, with tests, rules_text, schemas and pyproject.toml, whose
``[tool.mutmut]`` section holds the shared settings). It is CPU-heavy: run it niced, and not in
CI. Needs the ``dev`` extra (``pip install -e '.[dev]'``). Run:

    nice -n 10 .venv/bin/python benchmarks/mutation.py [group ...] [--jobs N] [--keep DIR]
        [--sample N --seed S] [--only MODULE ...] [--resume DIR [--finish]] [--show] [--no-fresh]

Groups: game_of_war, cthulhu_dice, sessions, cthulhu_wars (power and battle), cthulhu_wars_all (every rules
module of the game: use --sample) (default: all five). ``--only`` mutates only some of one group's modules
(with the group's tests), e.g. the modules added to a group since its last full run. Prints, per
group and in all: killed, survived, other (timeouts, suspicious), the score, and every survivor
as ``module.function__mutmut_N``; ``--show`` prints each survivor's diff too. A survivor explained as an
equivalent mutant in ``mutation_equivalents.toml`` is marked so, with its reason, and the score is given without
those too.

``--sample N`` runs only N mutants of each group, drawn at random with ``--seed S`` (the same N and
S draw the same mutants from the same code), and prints the score as an *estimate* with its 95%
Wilson interval over the sampled mutants the tests reach. For groups too large to run whole.

``--resume DIR`` re-runs, in a kept folder, the mutants not yet caught, with the current tests (adding tests
can only add kills); ``--finish`` also runs those a cut-short run never reached (a run cut short is printed as
a PARTIAL RUN). A survivor in code that runs at import time (tables built when a module loads) is run again in a
new process with the mutant active from the start: mutmut forks after the import, so there such a mutant would
never take effect (``--no-fresh`` skips this; the kills it adds are printed on their own line).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTMUT = Path(sys.executable).with_name("mutmut")
#: Survivors explained as equivalent mutants (no test could tell them from the code), each with its reason.
EQUIVALENTS = ROOT / "benchmarks" / "mutation_equivalents.toml"

# group: (modules under server/tabletop/ that hold its rules, test folders or files to run, extra pytest
# arguments). The session layer runs its tests on SQLite only: manager.py is the same over both stores, and a
# PostgreSQL server started for every mutant would cost more than the whole run.
#: Every rules test of Cthulhu Wars except whole random games and playthroughs (slow, and written to find crashes
#: rather than a wrong number).
CW_RULES_TESTS = [
    f"tests/cthulhu_wars/{name}.py"
    for name in (
        "test_power test_cw_battle test_cw_end_and_negotiation test_boundaries test_cw_actions "
        "test_cw_setup_and_phases test_cw_out_of_turn test_cw_notation_and_framework test_cw_black_goat "
        "test_cw_crawling_chaos test_cw_great_cthulhu test_cw_yellow_sign test_cw_windwalker "
        "test_cw_sleeper test_cw_opener test_cw_expansion_interactions test_dreamlands test_cw_battle_preview "
        "test_mutation_gaps"
    ).split()
]
GROUPS: dict[str, tuple[list[str], list[str], list[str]]] = {
    # setup.py is included: it holds the deployment rules (own territory, no mountains, 17 units by kind).
    # Not mutated: notation, display, picture (presentation), openings (named deployments, data), analysis
    # and referee (advice, table play).
    "game_of_war": (
        [f"games/game_of_war/{name}.py" for name in "combat rules network units board setup".split()],
        # every rules test of the game but the random games of test_gow_properties
        [
            f"tests/game_of_war/{name}.py"
            for name in (
                "test_gow_combat test_boundaries test_gow_turn test_gow_board test_gow_network test_gow_setup "
                "test_gow_reference test_gow_notation test_mutation_gaps"
            ).split()
        ],
        [],
    ),
    "cthulhu_dice": (
        # not the solver (turn.py, solver.py, tables.py, advice*.py): it advises a player, it is not a rule
        ["games/cthulhu_dice/rules.py", "games/cthulhu_dice/model.py", "games/cthulhu_dice/dice.py"],
        [
            "tests/cthulhu_dice/test_rules.py",
            "tests/cthulhu_dice/test_mutation_gaps.py",
            "tests/cthulhu_dice/test_boundaries.py",
            "tests/cthulhu_dice/test_rule_details.py",
            "tests/cthulhu_dice/test_model_enumeration.py",
        ],
        [],
    ),
    "sessions": (
        ["sessions/manager.py"],
        # the session tests and the MCP tests that play through the manager (moves, retries, waits, tables)
        [
            "tests/sessions/test_manager.py",
            "tests/sessions/test_storage_faults.py",
            "tests/sessions/test_session_details.py",
            "tests/app/test_mcp.py",
            "tests/app/test_exactly_once.py",
            "tests/app/test_table_over_mcp.py",
        ],
        ["-k", "not postgresql"],
    ),
    "cthulhu_wars": (
        ["games/cthulhu_wars/power.py", "games/cthulhu_wars/battle.py"],
        CW_RULES_TESTS,
        [],
    ),
    # every rules module of Cthulhu Wars: too large to run whole (run it with --sample). Not mutated:
    # notation, picture, refusals (texts), state, options, engine (framework glue).
    "cthulhu_wars_all": (
        [
            *(
                f"games/cthulhu_wars/{name}.py"
                for name in (
                    "actions battle power turn_actions phases victory creatures board setup decisions windows "
                    "citadels negotiation"
                ).split()
            ),
            *(
                f"games/cthulhu_wars/factions/{name}.py"
                for name in "base black_goat crawling_chaos great_cthulhu opener_of_the_way sleeper windwalker yellow_sign".split()
            ),
        ],
        [*CW_RULES_TESTS, *(f"tests/cthulhu_wars/{name}.py" for name in "test_maps test_map_decisions test_map_files test_area_names".split())],
        [],
    ),
}
# mutmut exit codes of a caught mutant: killed (1, 3: a test failed) or timed out (SIGXCPU and its other forms)
CAUGHT_CODES = {1, 3, 36, -24, 24, 152, 255}
STATUS_LINE = re.compile(r"^\s+(\S+): (\w[\w ]*)$")


def lay_out(work: Path, group: str) -> None:
    """A copy of the project with server/ as src/ and the group's settings added to [tool.mutmut]."""
    shutil.copytree(ROOT / "server", work / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (work / "server").symlink_to("src")  # some tests read the source files under server/
    for folder in ("tests", "rules_text", "schemas"):
        shutil.copytree(ROOT / folder, work / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (work / "pyproject.toml").write_text(settings(group))


def settings(group: str) -> str:
    """pyproject.toml with the group's modules, tests and pytest arguments added to [tool.mutmut]."""
    modules, tests, extra = GROUPS[group]
    text = (ROOT / "pyproject.toml").read_text()
    only = ", ".join(f'"src/tabletop/{m}"' for m in modules)
    selection = ", ".join(f'"{t}"' for t in tests)
    text = text.replace(
        "[tool.mutmut]\n",
        f"[tool.mutmut]\nonly_mutate = [{only}]\npytest_add_cli_args_test_selection = [{selection}]\n",
    )
    if extra:
        args = re.search(r"^pytest_add_cli_args = \[(.*)\]", text, re.M)
        added = ", ".join(json.dumps(a) for a in extra)
        text = text[: args.end(1)] + f", {added}" + text[args.end(1) :]
    return text


def refresh(work: Path, group: str, finish: bool = False) -> list[str]:
    """Bring a kept run's tests and settings up to date, and name the mutants still open there (run, and neither
    killed nor timed out): tests were added since, so a killed mutant stays killed and only these need a new run (of a
    sampled run, only sampled mutants were run).
    mutmut's record of which tests reach which function is dropped so that it is made again."""
    # the modules mutated stay those of the kept run (it may have been an --only run)
    kept_only = re.search(r"^only_mutate = .*$", (work / "pyproject.toml").read_text(), re.M)
    text = settings(group)
    if kept_only:
        text = re.sub(r"^only_mutate = .*$", lambda _: kept_only.group(0), text, count=1, flags=re.M)
    for where in (work, work / "mutants"):
        shutil.rmtree(where / "tests")
        shutil.copytree(ROOT / "tests", where / "tests", ignore=shutil.ignore_patterns("__pycache__"))
        (where / "pyproject.toml").write_text(text)
    (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    open_names = []
    for meta in (work / "mutants").rglob("*.meta"):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        open_names += [name for name, code in codes.items() if (finish or code is not None) and code not in CAUGHT_CODES]
    return sorted(open_names)


IMPORT_PROBE = """
import importlib, json, sys
from mutmut.stats import state
for module in sys.argv[1:]:
    importlib.import_module(module)
print(json.dumps(sorted(state()._stats)))
"""


def import_time_functions(work: Path, group: str) -> set[str]:
    """The group's functions that run while its modules are imported (tables built at import, e.g. the War
    board's lines and masks). mutmut runs every mutant in a process forked after the import, so a mutant of
    such a code path never changes those tables: it can only "survive" there, whatever the tests check."""
    modules = ["tabletop." + m.removesuffix(".py").replace("/", ".") for m in GROUPS[group][0]]
    env = {**os.environ, "MUTANT_UNDER_TEST": "stats", "PYTHONPATH": "src"}
    probe = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE, *modules], cwd=work / "mutants", env=env, capture_output=True, text=True
    )
    return set(json.loads(probe.stdout.strip().splitlines()[-1])) if probe.returncode == 0 else set()


FRESH_CPU_SECONDS = 180  # a mutant that loops (at import, say) is stopped as mutmut would: SIGXCPU, a timeout


def cpu_limit() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (FRESH_CPU_SECONDS, FRESH_CPU_SECONDS + 5))


def fresh_kills(work: Path, group: str, survivors: list[str]) -> list[str]:
    """Survivors of a function run at import time, run again each in a new pytest process with the mutant active
    from the start (as a real mistake would be): those the group's tests then catch. Remembered in the folder
    (``fresh-kills.json``) so that a --resume need not run them again."""
    record = work / "fresh-kills.json"
    known = set(json.loads(record.read_text())) if record.exists() else set()
    at_import = import_time_functions(work, group)
    modules, tests, extra = GROUPS[group]
    base = json.loads("[" + re.search(r"^pytest_add_cli_args = \[(.*)\]", settings(group), re.M).group(1) + "]")
    for name in survivors:
        if name in known or re.sub(r"__mutmut_\d+$", "", name) not in at_import:
            continue
        env = {**os.environ, "MUTANT_UNDER_TEST": name, "PYTHONPATH": "src", "CI": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", *base, *tests],
            cwd=work / "mutants",
            env=env,
            capture_output=True,
            preexec_fn=cpu_limit,
        )
        if run.returncode not in (0, 5):  # a test failed, the import itself broke, or it ran out of CPU time
            known.add(name)
    record.write_text(json.dumps(sorted(known)))
    return [name for name in survivors if name in known]


def mutant_names(work: Path) -> list[str]:
    """Every mutant mutmut generated in ``work`` (read from its ``.meta`` files), sorted."""
    names: set[str] = set()
    for meta in (work / "mutants").rglob("*.meta"):
        names.update(json.loads(meta.read_text())["exit_code_by_key"])
    return sorted(names)


def sampled(work: Path, env: dict[str, str], jobs: int, sample: int, seed: int) -> list[str]:
    """Generate the mutants (and mutmut's test-to-function map) without running any, then draw ``sample``
    of them with ``seed``. mutmut has no generate-only command: a run filtered on a name that matches
    nothing generates everything, then stops on the empty filter."""
    subprocess.run(
        [str(MUTMUT), "run", "--max-children", str(jobs), "no-such-mutant"], cwd=work, env=env, capture_output=True, text=True
    )
    names = mutant_names(work)
    if not names:
        sys.exit(f"no mutants were generated in {work}")
    return sorted(random.Random(seed).sample(names, min(sample, len(names))))


def run_group(
    group: str,
    jobs: int,
    keep: Path | None,
    show: bool,
    sample: int | None = None,
    seed: int = 0,
    resume: Path | None = None,
    fresh: bool = True,
    finish: bool = False,
) -> tuple[dict[str, int], list[str], list[str]]:
    env = {**os.environ, "CI": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.monotonic()
    if resume:
        work, keep = resume, resume.parent
        if finish and (work / ".sampled").exists():
            sys.exit(f"{work} holds a sample: --finish would run every mutant of the group")
        reopened = refresh(work, group, finish)
        print(f"{group}: {len(reopened)} mutants not killed in {work} run again with the current tests")
        chosen = reopened
    else:
        work = Path(tempfile.mkdtemp(prefix=f"mutation-{group}-", dir=keep))
        lay_out(work, group)
        chosen = sampled(work, env, jobs, sample, seed) if sample else []
        if sample:
            (work / ".sampled").write_text(f"{sample} {seed}\n")
    if resume and not chosen:  # nothing left open: a bare `mutmut run` would run every mutant again
        run = subprocess.CompletedProcess([], 0)
    else:
        run = subprocess.run(
            [str(MUTMUT), "run", "--max-children", str(jobs), *chosen], cwd=work, env=env, capture_output=True, text=True
        )
    took = time.monotonic() - started
    if run.returncode != 0:
        print(f"{group}: mutmut failed ({run.returncode})\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    listing = subprocess.run(
        [str(MUTMUT), "results", "--all", "true"], cwd=work, env=env, capture_output=True, text=True
    ).stdout
    counts: dict[str, int] = {}
    survivors, others = [], []
    for line in listing.splitlines():
        match = STATUS_LINE.match(line)
        if not match:
            continue
        name, status = match.groups()
        counts[status] = counts.get(status, 0) + 1
        if status == "survived":
            survivors.append(name)
        elif status not in ("killed", "timeout", "not checked"):
            others.append(f"{name} ({status})")
        elif status == "timeout":
            others.append(f"{name} (timeout: the tests no longer finish; counted as caught)")
    caught_fresh: list[str] = []
    if fresh and survivors:
        caught_fresh = fresh_kills(work, group, survivors)
        survivors = [name for name in survivors if name not in caught_fresh]
        counts["survived"] -= len(caught_fresh)
        counts["killed"] = counts.get("killed", 0) + len(caught_fresh)
        took = time.monotonic() - started
    print(f"\n== {group}: {', '.join(GROUPS[group][0])} ({took:.0f} s)")
    unchecked = counts.get("not checked", 0)
    if unchecked:  # a sample (or a run cut short): the rest were never run
        drawn = f", drawn with seed {seed}" if sample else ""
        what = "SAMPLE" if sample or resume and (work / ".sampled").exists() else "PARTIAL RUN (cut short, not a random sample)"
        print(f"{what}: {sum(counts.values()) - unchecked} of {sum(counts.values())} mutants run{drawn}: an estimate, not a full run")
    print_score({k: n for k, n in counts.items() if k != "not checked"}, estimate=bool(unchecked))
    if caught_fresh:
        functions = ", ".join(sorted({re.sub(r"__mutmut_\d+$", "", n) for n in caught_fresh}))
        print(
            f"  of the killed, {len(caught_fresh)} survived mutmut's run but were caught in a new process (code run at "
            f"import time): {functions}"
        )
    excused = equivalent_survivors(work, env, survivors)
    if excused:
        print(f"  {len(excused)} of the survivors are listed as equivalent ({EQUIVALENTS.name}): without them, "
              f"score {caught_share(counts, len(excused)):.1%}")
    for name in survivors:
        print(f"  survived: {name}" + (f" (equivalent: {excused[name]})" if name in excused else ""))
        if show:
            print("    " + "\n    ".join(mutant_diff(work, env, name).strip().splitlines()[1:]))
    for name in others[:20]:
        print(f"  other: {name}")
    if len(others) > 20:
        print(f"  ... and {len(others) - 20} more")
    if keep is None:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"  (kept in {work}: `mutmut show NAME` there)")
    return counts, survivors, others


def mutant_diff(work: Path, env: dict[str, str], name: str) -> str:
    return subprocess.run([str(MUTMUT), "show", name], cwd=work, env=env, capture_output=True, text=True).stdout


def equivalent_survivors(work: Path, env: dict[str, str], survivors: list[str]) -> dict[str, str]:
    """The survivors listed in ``EQUIVALENTS`` whose mutated line still matches the entry, with the reason given."""
    listed = {e["name"]: e for e in tomllib.loads(EQUIVALENTS.read_text())["equivalent"]}
    found = {}
    for name in survivors:
        entry = listed.get(name)
        if entry and any(line.startswith("+") and entry["mutated"] in line for line in mutant_diff(work, env, name).splitlines()):
            found[name] = entry["why"]
    return found


def caught_share(counts: dict[str, int], equivalent: int) -> float:
    """The score with ``equivalent`` survivors taken out of the mutants (they are not mistakes a test could see)."""
    caught = counts.get("killed", 0) + counts.get("timeout", 0)
    tried = caught + counts.get("survived", 0) - equivalent
    return caught / tried if tried else 0.0


def print_score(counts: dict[str, int], estimate: bool = False) -> None:
    """The score over the mutants the selected tests reach: a mutant is caught when a test fails or the
    tests no longer finish (a timeout: mutmut stops them at a multiple of their usual time). Unreached
    mutants are shown apart, and a second score counts them as survivors."""
    killed = counts.get("killed", 0)
    timeout = counts.get("timeout", 0)
    caught = killed + timeout
    survived = counts.get("survived", 0)
    unreached = counts.get("no tests", 0)
    other = sum(counts.values()) - caught - survived - unreached
    score = caught / (caught + survived) if caught + survived else 0.0
    strict = caught / (caught + survived + unreached) if caught + survived + unreached else 0.0
    print(
        f"killed {killed}, timed out {timeout}, survived {survived}, not reached by these tests {unreached}, "
        f"other {other}: score {score:.1%} ({strict:.1%} counting unreached mutants as survivors)"
    )
    if estimate and caught + survived:
        low, high = wilson(caught, caught + survived)
        print(f"  sampled: 95% Wilson interval of the whole group's score {low:.1%} to {high:.1%}")


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default z)."""
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", help=f"any of {', '.join(GROUPS)} (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once (default 1)")
    parser.add_argument("--keep", type=Path, help="keep each group's scratch folder under this folder")
    parser.add_argument("--show", action="store_true", help="print each survivor's diff")
    parser.add_argument("--sample", type=int, help="run only this many mutants per group, drawn at random")
    parser.add_argument("--seed", type=int, default=0, help="seed of the --sample draw (default 0)")
    parser.add_argument(
        "--finish", action="store_true", help="with --resume of a run cut short (not a sample): also run the mutants never run"
    )
    parser.add_argument(
        "--no-fresh", action="store_true", help="do not re-run survivors of code run at import time in a new process"
    )
    parser.add_argument(
        "--only", nargs="+", metavar="MODULE", help="mutate only these of the group's modules (e.g. games/cthulhu_dice/dice.py)"
    )
    parser.add_argument(
        "--resume", type=Path, help="a folder kept by --keep (one group): re-run its mutants not yet killed with the current tests"
    )
    args = parser.parse_args(argv)
    unknown = [g for g in args.groups if g not in GROUPS]
    if args.resume and (len(args.groups) != 1 or args.sample):
        parser.error("--resume takes exactly one group and no --sample")
    if unknown:
        parser.error(f"unknown group {', '.join(unknown)}; choose from {', '.join(GROUPS)}")
    if args.only:
        if len(args.groups) != 1:
            parser.error("--only takes exactly one group")
        modules, tests, extra = GROUPS[args.groups[0]]
        strangers = [m for m in args.only if m not in modules]
        if strangers:
            parser.error(f"not modules of {args.groups[0]}: {', '.join(strangers)}; choose from {', '.join(modules)}")
        GROUPS[args.groups[0]] = ([m for m in modules if m in args.only], tests, extra)
    if args.resume and not args.only and (args.resume / "pyproject.toml").exists():
        # the kept run's modules (it may have been an --only run), for the heading and the settings
        kept = re.search(r"^only_mutate = \[(.*)\]", (args.resume / "pyproject.toml").read_text(), re.M)
        if kept:
            modules, tests, extra = GROUPS[args.groups[0]]
            named = [m.strip().strip('"').removeprefix("src/tabletop/") for m in kept.group(1).split(",")]
            GROUPS[args.groups[0]] = ([m for m in modules if m in named] or modules, tests, extra)
    if not MUTMUT.exists():
        sys.exit("mutmut is not installed here: pip install -e '.[dev]'")
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    total: dict[str, int] = {}
    sampled_any = bool(args.sample)
    for group in args.groups or list(GROUPS):
        counts, _, _ = run_group(
            group, args.jobs, args.keep, args.show, args.sample, args.seed, args.resume, fresh=not args.no_fresh,
            finish=args.finish,
        )
        sampled_any = sampled_any or counts.get("not checked", 0) > 0
        for status, n in counts.items():
            if status != "not checked":
                total[status] = total.get(status, 0) + n
    print("\n== all groups" + (" (sampled)" if sampled_any else ""))
    print_score(total, estimate=sampled_any)


if __name__ == "__main__":
    main()
