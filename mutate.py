#!/usr/bin/env python3
"""Mutation testing of one package or module with mutmut: which small bugs do the tests miss?

    nice -n 15 python3 dev.py mutate hardware/nfc/scanner.py     # one module, its tests
    nice -n 15 python3 dev.py mutate engine/arcana               # a package
    python3 dev.py mutate firmware/companion.py tests/firmware/test_companion_core.py

mutmut copies the three packages into a scratch directory (`.mutation/<target>/`, ignored by
git), mutates only the target, runs the target's tests once to learn which tests reach which
function, then runs each mutant against just those tests. The report lists every surviving
mutant as a diff and the kill ratio; the mutants listed in docs/mutation.md as equivalent
(no test could tell them apart) are left out of the ratio. Logging lines are not mutated.

The tests are the ones named after the target, else the matching tests/ folder (TESTS below
for the firmware modules that tests/ does not mirror one to one).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WORK = ROOT / ".mutation"
EQUIVALENTS = ROOT / "docs" / "mutation.md"
MUTMUT = Path(sys.executable).with_name("mutmut")
PACKAGES = ("engine", "hardware", "firmware")
ALSO_COPY = ("docs", "systemd", "README.md")
TESTS = {
    # The companion runs under every table test; these state its promises without playing
    # dozens of whole games per mutant.
    "firmware/companion.py": (
        "tests/firmware/test_companion_core.py",
        "tests/firmware/test_companion_feedback.py",
        "tests/firmware/arcana/test_failing_journal.py",
        "tests/firmware/test_enroll_at_the_table.py",
        "tests/firmware/test_minimal_table.py::test_holding_select_walks_the_roles_in_order_and_round",
        "tests/firmware/test_minimal_table.py::test_a_refusal_shows_on_the_one_screen_whatever_the_role",
        "tests/firmware/test_drawing.py::test_a_minimal_table_shows_a_notice_over_the_role_in_focus_then_that_role",
        # A game resumed in its language; undo and redo never name a face-down agent; the
        # pairing code asked for without the web app, or with a damaged pairing file.
        "tests/firmware/test_language.py::test_the_language_line_switches_the_choice_screens_and_the_game_keeps_its_language",
        "tests/firmware/test_language.py::test_a_game_journalled_without_a_language_is_shown_in_the_tables_first_one",
        "tests/firmware/test_language.py::test_the_table_profiles_digits_reach_the_screens",
        "tests/firmware/test_secrets_at_the_table.py::test_an_undone_face_down_agent_is_not_named",
        "tests/firmware/web/test_pairing_from_the_table.py::test_without_the_web_app_a_held_select_says_so_and_changes_nothing",
        "tests/firmware/web/test_pairing_from_the_table.py::test_a_damaged_pairing_file_is_a_sentence_on_the_status_screen",
    ),
    # What the companion drew itself before firmware/drawing.py: the same promises.
    "firmware/drawing.py": (
        "tests/firmware/test_drawing.py",
        "tests/firmware/test_companion_core.py",
        "tests/firmware/test_companion_feedback.py",
        "tests/firmware/test_minimal_table.py::test_holding_select_walks_the_roles_in_order_and_round",
        "tests/firmware/test_minimal_table.py::test_a_refusal_shows_on_the_one_screen_whatever_the_role",
        "tests/firmware/test_minimal_table.py::test_a_128x32_screen_gets_its_own_layout",
        "tests/reliability/test_devices_mid_game.py",
    ),
    "firmware/journal.py": (
        "tests/firmware/test_journal.py",
        "tests/firmware/test_journal_busy.py",
        "tests/firmware/test_journal_damage.py",
        "tests/firmware/test_journal_finish.py",
        "tests/firmware/test_journal_full_disk.py",
        "tests/firmware/test_journal_rows.py",
        "tests/firmware/test_export_history.py",
        "tests/firmware/arcana/test_failing_journal.py",
        "tests/firmware/test_journal_reading.py",
        "tests/firmware/web/test_journal_language.py",  # each error's code and values
    ),
    # The journal's file handling and its rows' reading: the journal's own tests (the busy
    # and full-disk ones, whole commands waiting on locks and filling disks, cost minutes
    # per mutant; test_journal_reading.py states their file rules in this process).
    "firmware/journal_file.py": (
        "tests/firmware/test_journal_reading.py",
        "tests/firmware/test_journal.py",
        "tests/firmware/test_journal_damage.py",
        "tests/firmware/web/test_journal_language.py",  # each error's code and values
    ),
    "firmware/journal_rows.py": (
        "tests/firmware/test_journal_rows.py",
        "tests/firmware/test_journal_reading.py",
        "tests/firmware/test_journal.py",
        "tests/firmware/test_export_history.py",
        "tests/firmware/web/test_journal_language.py",  # each error's code and values
    ),
    # The refusals of hostile lines are stated in the fuzz file's fixed examples.
    "engine/records.py": ("tests/engine/test_records.py", "tests/engine/test_records_fuzz.py"),
    "hardware/nfc/scanner.py": (
        "tests/hardware/nfc/test_scanner.py",
        "tests/hardware/nfc/test_timing.py",  # the scan period and the absence_s it needs
    ),
    "hardware/nfc/emulator.py": (
        "tests/hardware/nfc/test_chip_commands.py",
        "tests/hardware/nfc/test_driver_on_emulated_buses.py",
        "tests/hardware/nfc/test_timing.py",
        "tests/hardware/nfc/test_reader.py",
        "tests/hardware/nfc/test_reader_details.py",  # other ISO 14443-A tags, ATQA and ATS
    ),
    # The chip's own tests decode byte streams; the driver tests check it against luma.oled.
    "hardware/display/chip.py": ("tests/hardware/display",),
    "firmware/controllers": ("tests/firmware/arcana", "tests/firmware/resarcana"),
    "firmware/controllers/arcana": ("tests/firmware/arcana",),
    "firmware/controllers/resarcana": ("tests/firmware/resarcana",),
    # One controller, its own tests: the whole games and the demo bots' tests would cost
    # minutes per mutant; one whole game states what the shorter tests do not reach.
    "firmware/controllers/arcana/controller.py": (
        "tests/firmware/arcana/test_advanced.py",
        "tests/firmware/arcana/test_failing_journal.py",
        "tests/firmware/arcana/test_rounds.py",
        "tests/firmware/arcana/test_screens.py",
        "tests/firmware/arcana/test_seating.py",
        "tests/firmware/arcana/test_turns.py",
        "tests/firmware/arcana/test_line_separators.py",
        "tests/firmware/arcana/test_location_taps.py",
        "tests/firmware/arcana/test_the_end.py",
        "tests/firmware/arcana/test_whole_games.py::test_the_bot_plays_a_whole_game_through_taps[3-advanced-6-actions1]",
    ),
    "firmware/controllers/resarcana/controller.py": (
        "tests/firmware/resarcana/test_seating.py",
        "tests/firmware/resarcana/test_turns.py",
        "tests/firmware/resarcana/test_profile_seats.py",
        "tests/firmware/resarcana/test_buttons_and_the_end.py",
    ),
}
# Tests that cannot run inside mutmut's copy: this one starts a Python as user nobody whose
# import of the trampolined journal fails inside mutmut ("No module named 'tomllib'" from
# mutmut's config reader); the journal's other write-failure tests still run.
DESELECT = (
    "tests/firmware/test_journal.py::test_a_read_only_state_directory_gives_a_clear_message",
)
KILLED = {"killed", "timeout", "segfault", "caught by type check"}
LOGGING = r"^\s*log\.(debug|info|warning|error|exception)\("


def tests_for(target: str) -> list[str]:
    """The tests that go with a package or module (see TESTS and the module docstring)."""
    if target in TESTS:
        return list(TESTS[target])
    path = Path(target)
    if path.suffix == ".py":
        named = Path("tests", *path.parent.parts, f"test_{path.stem}.py")
        if (ROOT / named).exists():
            return [str(named)]
        path = path.parent
    while path.parts:
        if (ROOT / "tests" / path).is_dir():
            return [str(Path("tests", path))]
        path = path.parent
    raise SystemExit(f"no tests found for {target}; name them after the target")


def scratch(target: str, tests: list[str]) -> Path:
    """A fresh scratch project: links to the sources and a pyproject.toml that configures
    mutmut for this target (the repository's own pyproject.toml stays as it is)."""
    work = WORK / re.sub(r"[^\w.-]+", "-", target.strip("/"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    for name in (*PACKAGES, "tests", *ALSO_COPY):
        (work / name).symlink_to(ROOT / name)
    pytest_config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    only = f"{target.rstrip('/')}/*" if (ROOT / target).is_dir() else target
    lines = ["[tool.pytest.ini_options]"]
    lines += [f"{key} = {toml(value)}" for key, value in pytest_config["ini_options"].items()]
    lines += [
        "",
        "[tool.mutmut]",
        f"source_paths = {toml(list(PACKAGES))}",
        f"only_mutate = {toml([only])}",
        f"also_copy = {toml(list(ALSO_COPY))}",
        f"do_not_mutate_patterns = {toml([LOGGING])}",
        f"pytest_add_cli_args_test_selection = {toml(tests)}",
        f"pytest_add_cli_args = {toml(['-p', 'no:cacheprovider', '-q', *deselected()])}",
    ]
    (work / "pyproject.toml").write_text("\n".join(lines) + "\n")
    return work


def deselected() -> list[str]:
    return [arg for test in DESELECT for arg in ("--deselect", test)]


def toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return str(value)


def equivalents() -> dict[str, str]:
    """Mutant name -> why it is equivalent, from the bullet lists in docs/mutation.md."""
    found = {}
    for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\s*- `([^`]+__mutmut_\d+)`:?\s*(.*)", line)
        if match:
            found[match[1]] = match[2]
    return found


def mutmut(work: Path, *args: str) -> str:
    done = subprocess.run(
        [str(MUTMUT), *args], cwd=work, capture_output=True, text=True, check=False
    )
    return done.stdout


def diff(work: Path, name: str) -> list[str]:
    """A mutant's diff; in this process (`mutmut show` takes seconds to start each time)."""
    try:
        from mutmut.mutation.diff_apply import get_diff_for_mutant
    except ImportError:  # another mutmut version: ask its command line
        return mutmut(work, "show", name).splitlines()
    here = Path.cwd()
    os.chdir(work)
    try:
        return get_diff_for_mutant(name).splitlines()
    finally:
        os.chdir(here)


def report(work: Path, target: str) -> float:
    statuses = {}
    for line in mutmut(work, "results", "--all", "true").splitlines():
        name, _, status = line.strip().rpartition(": ")
        if name:
            statuses[name] = status
    known = equivalents()
    counted = {n: s for n, s in statuses.items() if n not in known and s != "skipped"}
    survivors, sql_case = [], 0
    for name in sorted(n for n, s in counted.items() if s not in KILLED):
        changed = [line for line in diff(work, name)[2:] if line[:1] in "-+" and line[:3] != "+++"]
        if sql_in_another_case(changed):
            del counted[name]
            sql_case += 1
            continue
        survivors.append(name)
        print(f"\n{name} ({counted[name]})")
        print("\n".join(f"    {line}" for line in changed))
    killed = sum(1 for s in counted.values() if s in KILLED)
    listed = [n for n in known if n in statuses]
    ratio = killed / len(counted) if counted else 1.0
    print(
        f"\n{target}: {len(statuses)} mutants, {len(listed)} listed as equivalent in "
        f"docs/mutation.md, {sql_case} SQL in another letter case (equivalent), "
        f"{len(statuses) - len(counted) - len(listed) - sql_case} skipped; "
        f"{killed} of {len(counted)} killed: kill ratio {ratio:.1%}, {len(survivors)} survivors"
    )
    for name in listed:
        if statuses[name] in KILLED:
            print(f"docs/mutation.md lists {name} as equivalent, but the tests kill it: drop it")
    return ratio


# A string that starts an SQL statement, or continues one over several lines.
SQL = re.compile(
    r"[\"']\(?(SELECT|INSERT|UPDATE|DELETE|PRAGMA|ORDER BY|ON CONFLICT|WHERE|WHEN|AND|OR)\b",
    re.I,
)


def sql_in_another_case(changed: list[str]) -> bool:
    """True for a mutant that only changes the letter case of SQL text: SQLite reads keywords
    and names in any case. Quoted values ('version') must stay as they were."""
    old = [line[1:] for line in changed if line.startswith("-")]
    new = [line[1:] for line in changed if line.startswith("+")]
    if not old or len(old) != len(new):
        return False
    for before, after in zip(old, new, strict=True):
        if before == after or before.lower() != after.lower() or not SQL.search(before):
            return False
        if re.findall(r"'[^']*'", before) != re.findall(r"'[^']*'", after):
            return False
    return True


def module_prefix(target: str) -> str:
    return target.removesuffix(".py").strip("/").replace("/", ".")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", help="a package or module path, e.g. hardware/nfc/scanner.py")
    parser.add_argument("tests", nargs="*", help="test paths (default: the target's tests)")
    parser.add_argument("--max-children", type=int, default=2, help="mutants run at once")
    parser.add_argument("--report-only", action="store_true", help="report the last run again")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="run the last run's survivors again, each in a fresh process against all its "
        "tests as they are now (new test files too; slower per mutant than --again)",
    )
    parser.add_argument(
        "--again",
        action="store_true",
        help="after adding tests to the files the last run used: run only its survivors again "
        "(the source unchanged; a new test file needs a fresh run)",
    )
    args = parser.parse_args(argv)
    target = args.target.rstrip("/")
    if not (ROOT / target).exists() or Path(target).parts[0] not in PACKAGES:
        parser.error(f"{target} is not a package or module under {', '.join(PACKAGES)}")
    work = WORK / re.sub(r"[^\w.-]+", "-", target.strip("/"))
    run = [str(MUTMUT), "run", "--max-children", str(args.max_children)]
    if args.again:
        if not work.exists():
            parser.error(f"no earlier run of {target} to repeat")
        run += survivors(work)
    elif args.fresh:
        if not work.exists():
            parser.error(f"no earlier run of {target} to repeat")
        if not fresh_check(work, target, every=True):
            return 1
    elif not args.report_only:
        tests = args.tests or tests_for(target)
        print(f"mutating {target} against {' '.join(tests)} (log: {work / 'run.log'})")
        work = scratch(target, tests)
    if args.again or not (args.report_only or args.fresh):
        with open(work / "run.log", "w") as log:
            done = subprocess.run(run, cwd=work, stdout=log, stderr=subprocess.STDOUT)
        if done.returncode != 0:
            print(f"mutmut failed ({done.returncode}); see {work / 'run.log'}", file=sys.stderr)
            return done.returncode
        if not fresh_check(work, target):
            return 1
    report(work, target)
    return 0


# Functions that run while the modules are imported or the tests collected (tables built at
# import, memos filled by a test module's parameters) run in mutmut's warm-up, before any
# mutant is chosen: its forks inherit what they built, so a mutant of them survives whatever
# the tests. `fresh_check` runs each such survivor again in a new Python process, where the
# import and the collection themselves run the mutant.
FIND_IMPORT_TIME = """
import importlib, json, sys
import pytest
import mutmut.mutation.trampoline as trampoline
hits = set()
trampoline.record_trampoline_hit = lambda name, caller=None: hits.add(name)
out, modules, tests = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
for module in modules:
    importlib.import_module(module)
pytest.main(["--rootdir=.", "--collect-only", "-qq", "-p", "no:cacheprovider", *tests])
with open(out, "w") as f:
    json.dump(sorted(hits), f)
"""


def target_modules(target: str) -> list[str]:
    path = ROOT / target
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
    names = [".".join(f.relative_to(ROOT).with_suffix("").parts) for f in files]
    return [name.removesuffix(".__init__") for name in names]


def import_time(work: Path, target: str) -> set[str]:
    """The target's functions (as mutmut names them, without the mutant number) that run
    while its modules are imported and the run's tests collected."""
    tests = tomllib.loads((work / "pyproject.toml").read_text())["tool"]["mutmut"]
    out = (work / "import-time.json").resolve()
    subprocess.run(
        [
            sys.executable,
            "-c",
            FIND_IMPORT_TIME,
            str(out),
            " ".join(target_modules(target)),
            *tests["pytest_add_cli_args_test_selection"],
        ],
        cwd=work / "mutants",
        env={**os.environ, "MUTANT_UNDER_TEST": "stats"},
        capture_output=True,
        check=True,
    )
    return set(json.loads(out.read_text()))


def fresh_check(work: Path, target: str, every: bool = False) -> bool:
    """Run the survivors of import-time functions (`every`: all survivors) again, each in a
    fresh process against all the run's tests (stopping at the first failure), and record
    the outcome where `mutmut results` reads it. False if the tests fail without a mutant."""
    functions = None if every else import_time(work, target)
    names = [
        n for n in survivors(work) if functions is None or n.rsplit("__mutmut_", 1)[0] in functions
    ]
    if not names:
        return True
    if every:  # the tests as they are now, as mutmut copies them for a run
        shutil.copytree(ROOT / "tests", work / "mutants" / "tests", dirs_exist_ok=True)
    config = tomllib.loads((work / "pyproject.toml").read_text())["tool"]["mutmut"]
    pytest = [sys.executable, "-m", "pytest", "--rootdir=.", "-x", "-q", "-p", "no:randomly"]
    pytest += config["pytest_add_cli_args"]
    command = [*pytest, *quickest_first(work, config["pytest_add_cli_args_test_selection"])]
    env = {key: value for key, value in os.environ.items() if key != "MUTANT_UNDER_TEST"}
    what = "survivors" if every else "survivors of functions run at import"
    print(f"{len(names)} {what}: each again in a fresh process", flush=True)
    started = time.monotonic()
    clean = subprocess.run(command, cwd=work / "mutants", env=env, capture_output=True)
    if clean.returncode != 0:
        print("the tests fail in a fresh process without any mutant", file=sys.stderr)
        return False
    limit = 3 * (time.monotonic() - started) + 10
    metas = {}  # module -> its .meta file, where mutmut keeps each mutant's exit code
    for meta in (work / "mutants").rglob("*.py.meta"):
        module = ".".join(meta.relative_to(work / "mutants").with_suffix("").with_suffix("").parts)
        metas[module.removesuffix(".__init__")] = meta
    outcome = {}
    for done_count, name in enumerate(names, 1):
        try:
            done = subprocess.run(
                command,
                cwd=work / "mutants",
                env={**env, "MUTANT_UNDER_TEST": name},
                capture_output=True,
                timeout=limit,
            )
            outcome[name] = 0 if done.returncode == 0 else 1
        except subprocess.TimeoutExpired:
            outcome[name] = 36  # mutmut's code for a timeout, which counts as killed
        meta = metas[re.match(r"(.*)\.x[_ǁ]", name)[1]]  # saved at once: a run may be stopped
        data = json.loads(meta.read_text())
        data["exit_code_by_key"][name] = outcome[name]
        meta.write_text(json.dumps(data, indent=4))
        if done_count % 50 == 0:
            print(f"  {done_count} done", flush=True)
    killed = sum(1 for code in outcome.values() if code)
    print(f"  {killed} of them killed in a fresh process")
    return True


def quickest_first(work: Path, selection: list[str]) -> list[str]:
    """The selection's test files, those that took least time in mutmut's first pass first
    (new files first of all), so that a mutant's first failure comes early."""
    stats = json.loads((work / "mutants" / "mutmut-stats.json").read_text())
    took: dict[str, float] = {}
    for test, seconds in stats["duration_by_test"].items():
        took[test.split("::")[0]] = took.get(test.split("::")[0], 0.0) + seconds
    files = []
    for entry in selection:
        path = work / "mutants" / entry.split("::")[0]
        if "::" not in entry and path.is_dir():
            files += [str(f.relative_to(work / "mutants")) for f in sorted(path.rglob("test_*.py"))]
        else:
            files.append(entry)
    return sorted(dict.fromkeys(files), key=lambda f: took.get(f.split("::")[0], 0.0))


def survivors(work: Path) -> list[str]:
    """The last run's survivors worth running again: not the equivalent ones (listed, or SQL
    in another letter case), which survive every test by definition."""
    known = equivalents()
    out = []
    for line in mutmut(work, "results").splitlines():
        name, _, status = line.strip().rpartition(": ")
        if not name or status in KILLED or status == "skipped" or name in known:
            continue
        changed = [line for line in diff(work, name)[2:] if line[:1] in "-+" and line[:3] != "+++"]
        if not sql_in_another_case(changed):
            out.append(name)
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
