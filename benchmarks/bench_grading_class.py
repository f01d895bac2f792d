"""Grade a synthetic class with the real command line and report its speed, memory and grade-book checks.

    python benchmarks/bench_grading_class.py --students 6 --jobs 2             # every notebook
    python benchmarks/bench_grading_class.py --students 4 --only 01 05 08      # some notebooks
    python benchmarks/bench_grading_class.py --students 4 --unit-seconds 100   # U measured elsewhere

Students are made from the course's source notebooks and the wrong-answer suites
(tests/wrong_answers: `solution`, `stub`, `wrong_k`, `delegation_k` per notebook): student j hands
in variant (j + m) mod (number of variants) of notebook m, except that one notebook-run in ten
crashes ((j + m) mod 10 == 1: the first solution cell raises) and one in twenty hangs
((j + m) mod 20 == 2: the first solution cell sleeps for ever, so the run lasts --timeout). One
`python -m utils.grading grade` run (the default sandbox, --jobs J) grades them all; then every
row is checked against what the variant must show, with the wrong-answer suite's own judge.

Printed: notebook-runs per minute, the peak resident memory of the grader and all its processes
(sampled every 0.2 s), the grade book's checks, and an extrapolation to a class of --target
students with the same mix (hangs cost --timeout each; the rest the measured mean per run), in
hours and in the speed unit U (benchmarks/reference_workload.py). The target of issue 18: 200
students x all notebooks with --jobs 2 in <= 4 hours where nanoGPT's CPU recipe takes 100 s,
i.e. <= 144 U. The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from tests.wrong_answers.harness import (  # noqa: E402  (needs the repository on the path)
    Expected,
    deny_list,
    plan_students,
    row_problem,
    wrong_answer_files,
)
from utils.grading.notebook import SourceError, grade_id, is_solution, validate_source  # noqa: E402

CRASH = 'raise RuntimeError("a crashing submission")\n'
HANG = "import time\ntime.sleep(10**6)\n"
TARGET_HOURS, TARGET_UNIT_S = 4.0, 100.0  # <= 4 h where nanoGPT's CPU recipe takes 100 s


def _first_solution(nb) -> object | None:
    """The first solution code cell (None for a notebook without one)."""
    return next((cell for cell in nb.cells if is_solution(cell) and cell.cell_type == "code"), None)


def build_class(students: int, only: list[str]) -> tuple[dict, dict, dict]:
    """{(student, notebook): nb}, {(student, notebook): kind}, {(student, notebook, test_id): Expected}."""
    notebooks, kinds, expected = {}, {}, {}
    for m, spec in enumerate(wrong_answer_files()):
        if only and not any(key in spec.notebook for key in only):
            continue
        try:
            variants, rows = plan_students(spec)
        except (SourceError, StopIteration, KeyError) as error:  # a notebook and its wrong answers out of step
            print(f"skipped {spec.notebook}: {type(error).__name__}: {error}", flush=True)
            continue
        names = sorted(variants)
        if not names:
            print(f"skipped {spec.notebook}: no students could be made from it", flush=True)
            continue
        for j in range(students):
            student = f"s{j:03d}"
            turn = j + m  # crashes and hangs spread over students and notebooks
            kind = "crash" if turn % 10 == 1 else "hang" if turn % 20 == 2 else names[turn % len(names)]
            if kind in ("crash", "hang") and _first_solution(variants["solution"]) is None:
                kind = "solution"
            nb = copy.deepcopy(variants["solution" if kind in ("crash", "hang") else kind])
            if kind in ("crash", "hang"):
                cell = _first_solution(nb)
                cell.source = (CRASH if kind == "crash" else HANG) + cell.source
            notebooks[(student, spec.notebook)] = nb
            kinds[(student, spec.notebook)] = kind
            for row in rows:
                if row.student == kind:
                    expected[(student, spec.notebook, row.test_id)] = row
    return notebooks, kinds, expected


def _tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (0 once it is gone)."""
    try:
        parent = psutil.Process(pid)
        members = [parent, *parent.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for member in members:
        try:
            total += member.memory_info().rss
        except psutil.Error:
            pass
    return total


def run_grader(submissions: Path, out: Path, notebooks: list[str], jobs: int, timeout_s: float,
               scratch: Path) -> tuple[float, int, str]:
    """Grade with the CLI while sampling memory; (seconds, peak bytes, stderr)."""
    env = {**os.environ, "IPYTHONDIR": str(scratch / "ipython"), "MPLCONFIGDIR": str(scratch / "matplotlib")}
    env.setdefault("LM_FAST", "1")
    env.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // jobs)))  # one core per job
    command = [sys.executable, "-m", "utils.grading", "grade", str(submissions), "--source", str(ROOT / "notebooks"),
               "--notebooks", *notebooks, "--out", str(out), "--jobs", str(jobs), "--timeout", str(timeout_s)]
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0]

    def sample() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], _tree_rss(process.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = process.communicate()
    sampler.join()
    seconds = time.monotonic() - started
    if process.returncode != 0:
        raise RuntimeError(f"the grader exited {process.returncode}:\n{stdout[-2000:]}\n{stderr[-4000:]}")
    return seconds, peak[0], stdout.strip().splitlines()[-1] + ("\n" + stderr.strip() if stderr.strip() else "")


def check_rows(rows: list[dict], kinds: dict, expected: dict) -> tuple[int, list[str]]:
    """Rows checked and the problems found (missing, extra or wrong rows)."""
    from utils.grading.notebook import read_notebook

    book = {(r["student"], r["notebook"], r["grade_id"]): r for r in rows}
    problems, checked = [], 0
    exercises = {nb: validate_source(read_notebook(ROOT / "notebooks" / nb), nb) for nb in {k[1] for k in kinds}}
    wanted = {(s, nb, e.test_id) for (s, nb) in kinds for e in exercises[nb]}
    problems += [f"{key}: no row (lost)" for key in sorted(wanted - set(book))]
    problems += [f"{key}: a row nobody handed in" for key in sorted(set(book) - wanted)]
    for key in sorted(wanted & set(book)):
        student, notebook, test_id = key
        row, kind = book[key], kinds[(student, notebook)]
        checked += 1
        crashed = grade_id(_first_solution(read_notebook(ROOT / "notebooks" / notebook)))
        first = next(e.test_id for e in exercises[notebook] if crashed in e.solution_ids)
        if kind == "hang":
            if float(row["points"]) != 0 or "time limit" not in row["feedback"]:
                problems.append(f"{key}: a hanging notebook must lose this exercise at the time limit: {row}")
        elif kind == "crash" and test_id == first:
            if float(row["points"]) != 0 or "a crashing submission" not in row["feedback"]:
                problems.append(f"{key}: the crash must cost exercise 1 with its message: {row}")
        elif kind not in ("crash", "hang") and key in expected:
            test_cell = next(e.test_source for e in exercises[notebook] if e.test_id == test_id)
            problem = row_problem(row, Expected(student, test_id, expected[key].kind, expected[key].entries),
                                  deny_list(test_cell))
            if problem:
                problems.append(problem)
        else:
            checked -= 1  # an exercise a variant left alone may depend on one it broke: not judged
    return checked, problems


def measure_u(args: argparse.Namespace) -> float | None:
    """U in seconds: --unit-seconds, else the frozen nanoGPT workload timed now (None without its data)."""
    if args.unit_seconds is not None:
        return args.unit_seconds
    from bench_notebooks import measure_unit

    text = Path(os.environ.get("LM_DATA_MIRROR", ROOT.parent / "shared" / "data")) / "tinyshakespeare.txt"
    return measure_unit(text, args.unit_scale)["unit_s"] if text.is_file() else None


def main() -> None:
    """Build the class, grade it, check it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=4, help="students in the synthetic class (default 4)")
    parser.add_argument("--only", nargs="*", default=[], help="notebooks whose name contains one of these")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of the grader (default 2)")
    parser.add_argument("--timeout", type=float, default=120.0, help="--timeout of the grader per notebook (s)")
    parser.add_argument("--target", type=int, default=200, help="class size to extrapolate to (default 200)")
    parser.add_argument("--unit-seconds", type=float, default=None, help="U in seconds, measured elsewhere")
    parser.add_argument("--unit-scale", type=float, default=0.1,
                        help="share of the nanoGPT workload timed for U (0.1 to 1; its warm-up alone is 0.05)")
    args = parser.parse_args()
    if not 0.1 <= args.unit_scale <= 1:
        parser.error("--unit-scale must be between 0.1 and 1")
    notebooks, kinds, expected = build_class(args.students, args.only)
    names = sorted({nb for _, nb in notebooks})
    print(f"class: {args.students} students x {len(names)} notebooks = {len(notebooks)} notebook-runs "
          f"({sum(k == 'crash' for k in kinds.values())} crash, {sum(k == 'hang' for k in kinds.values())} hang)",
          flush=True)
    unit_before = measure_u(args)
    with tempfile.TemporaryDirectory(prefix="lm-bench-class-") as scratch:
        root = Path(scratch)
        for (student, notebook), nb in notebooks.items():
            (root / "submissions" / student).mkdir(parents=True, exist_ok=True)
            (root / "submissions" / student / notebook).write_text(json.dumps(nb), encoding="utf-8")
        seconds, peak, said = run_grader(root / "submissions", root / "out", names, args.jobs, args.timeout, root)
        with open(root / "out" / "grades.csv", newline="", encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
    unit_after = measure_u(args) if args.unit_seconds is None else unit_before
    checked, problems = check_rows(rows, kinds, expected)
    runs = len(notebooks)
    hangs = sum(k == "hang" for k in kinds.values())
    rate = runs / (seconds / 60)
    # Extrapolation: hangs cost the time limit; every other run the mean of the others (parallel over jobs).
    other_s = max(seconds * args.jobs - hangs * args.timeout, 0.0) / max(runs - hangs, 1)
    target_runs = args.target * len(names)
    target_hangs = round(target_runs * hangs / runs)
    target_s = ((target_runs - target_hangs) * other_s + target_hangs * args.timeout) / args.jobs
    unit_s = (unit_before + unit_after) / 2 if unit_before and unit_after else None
    unit_source = ("--unit-seconds" if args.unit_seconds is not None else
                   f"measured before and after at scale {args.unit_scale}: {unit_before:.1f} s, {unit_after:.1f} s"
                   if unit_s else "not measured")
    load = os.getloadavg()
    print(said)
    print(f"machine load (1/5/15 min) at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
          f"on {os.cpu_count()} cores")
    print(f"graded {runs} notebook-runs in {seconds:.1f} s with --jobs {args.jobs} (LM_FAST="
          f"{os.environ.get('LM_FAST', '1')}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'cores/jobs')}): "
          f"{rate:.2f} notebook-runs per minute")
    print(f"peak memory of the grader and its processes: {peak / 2**20:.0f} MiB")
    print(f"grade book: {len(rows)} rows, {checked} checked, {len(problems)} problem(s)")
    for problem in problems[:20]:
        print("  PROBLEM", problem)
    hours = target_s / 3600
    line = f"extrapolated: {args.target} students x {len(names)} notebooks = {target_runs} runs in {hours:.1f} h"
    if unit_s:
        budget_s = TARGET_HOURS * 3600 / TARGET_UNIT_S * unit_s
        line += (f" = {target_s / unit_s:.0f} U (U = {unit_s:.1f} s, {unit_source}); target <= "
                 f"{TARGET_HOURS * 3600 / TARGET_UNIT_S:.0f} U = {budget_s / 3600:.1f} h here: "
                 f"{'met' if target_s <= budget_s else 'NOT met'}")
    print(line)
    print(json.dumps({"students": args.students, "notebooks": names, "runs": runs, "seconds": round(seconds, 1),
                      "runs_per_minute": round(rate, 2), "peak_mib": round(peak / 2**20), "rows": len(rows),
                      "checked": checked, "problems": len(problems), "jobs": args.jobs, "timeout_s": args.timeout,
                      "target_students": args.target, "target_hours": round(hours, 2), "unit_s": unit_s,
                      "target_u": round(target_s / unit_s) if unit_s else None, "load_1min": round(load[0], 1)}))


if __name__ == "__main__":
    main()
