"""Grade a folder of submissions (one folder per student) against the source notebooks."""

from __future__ import annotations

import re
import signal
import queue
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from utils.grading.assemble import Plan, plan_submission, reference_imports
from utils.grading.gradebook import (
    Row,
    feedback_markdown,
    merge_rows,
    read_gradebook,
    safe_file_name,
    write_atomically,
    write_gradebook,
)
from utils.grading.notebook import Exercise, SourceError, hidden_blocks, read_notebook, validate_source
from utils.grading.sandbox import RunResult, Zygote, preload_modules

SUSPICIOUS = re.compile(
    r"_getframe|\bgc\b|ctypes|\binspect\b|__closure__|__code__|settrace|setprofile|sys\.monitoring|/proc/|"
    r"os\._exit|\bfork\b|setsid|getppid|\bkill|sys\.modules|\bbuiltins\b|__builtins__|\bcompile\(|\bexec\(|"
    r"_profile_hook"
)


@dataclass
class Source:
    """One source notebook: its name, the parsed notebook and its exercises."""

    name: str
    notebook: object
    exercises: list[Exercise]


def load_sources(paths: list[Path]) -> list[Source]:
    """Read and validate the source notebooks (SourceError names the first malformed one)."""
    sources = []
    for path in paths:
        nb = read_notebook(path)
        sources.append(Source(path.name, nb, validate_source(nb, str(path))))
    return sources


def _lost_rows(student: str, source: Source, reason: str) -> list[Row]:
    """Every exercise of a notebook at 0 points with the same reason."""
    return [Row(student, source.name, e.test_id, 0.0, e.points, reason) for e in source.exercises]


def _stop_reason(result: RunResult, plan: Plan, timeout_s: float) -> str:
    """Why a run ended before a test: time limit, exit, or a signal, and in which cell."""
    cells = [r["index"] for r in result.records if r.get("event") == "cell"]
    where = ""
    if cells and 0 <= cells[-1] < len(plan.cells):
        cell = plan.cells[cells[-1]]
        where = f" while running cell {cells[-1] + 1} ({cell['grade_id'] or 'your code'})"
    if result.helper_died:
        return f"0 points: the notebook killed the grader's helper process{where} before this exercise was tested"
    if result.timed_out:
        return f"0 points: the notebook ran past the time limit of {timeout_s:g} s{where}"
    code = result.returncode
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        return f"0 points: the notebook's process was killed by {name}{where} (memory limit or crash)"
    if not any(r.get("event") == "start" for r in result.records):
        return f"0 points: the grader could not start the notebook (exit code {code}): {result.log_tail[-300:]}"
    return f"0 points: the notebook's process exited (exit code {code}){where} before this exercise was tested"


def _tampered(records: list[dict], plan: Plan) -> bool:
    """True unless the records are one clean sequence: cells in order, each test once, right after its cell."""
    seen_tests, last_cell, previous = set(), -1, {}
    for record in records:
        index = record.get("index")
        if record.get("event") in {"cell", "cell_error", "denied"} and not (
            isinstance(index, int) and 0 <= index < len(plan.cells)
        ):
            return True
        if record.get("event") == "denied" and not isinstance(record.get("grade_id"), str):
            return True
        if record.get("event") == "test" and not isinstance(record.get("grade_id"), str):
            return True
        if record.get("event") == "cell":
            if record.get("index") != last_cell + 1:
                return True
            last_cell = record["index"]
        elif record.get("event") == "test":
            gid = record.get("grade_id")
            index = previous.get("index") if previous.get("event") == "cell" else None
            expected = isinstance(index, int) and 0 <= index < len(plan.cells) and plan.cells[index]["grade_id"] == gid
            if gid in seen_tests or not expected:
                return True
            seen_tests.add(gid)
        previous = record
    return False


def _in_hidden(test_source: str, line: int | None) -> bool:
    """True when 1-based `line` of a test cell lies inside a hidden-test block."""
    return line is not None and any(begin < line - 1 < end for begin, end in hidden_blocks(test_source))


def rows_from_run(student: str, source: Source, plan: Plan, result: RunResult, timeout_s: float) -> list[Row]:
    """One row per exercise from the verified records of a run."""
    flagged = sorted({m.group(0) for c in plan.cells if c["kind"] == "code" for m in SUSPICIOUS.finditer(c["source"])})
    note = f" [flagged for manual review: uses {', '.join(flagged)}]" if flagged else ""
    if _tampered(result.records, plan):
        return _lost_rows(student, source, "0 points: the grader's results were tampered with" + note)
    tests = {r["grade_id"]: r for r in result.records if r.get("event") == "test"}
    cell_errors = {r["index"]: r["message"] for r in result.records if r.get("event") == "cell_error"}
    denied: dict[str, str] = {}
    for record in result.records:
        if record.get("event") == "denied":
            where = plan.cells[record["index"]]["grade_id"] or f"cell {record['index'] + 1}"
            denied.setdefault(record["grade_id"], f"{record.get('message', '')} (in {where})")
        elif record.get("event") == "test" and record.get("denied"):
            denied.setdefault(record["grade_id"], str(record["denied"][0]) + " (while the tests ran)")
    rows = []
    for exercise in source.exercises:
        if exercise.test_id in plan.lost:
            rows.append(Row(student, source.name, exercise.test_id, 0.0, exercise.points,
                            "0 points: " + plan.lost[exercise.test_id] + note))
            continue
        record = tests.get(exercise.test_id)
        if exercise.test_id in denied:
            feedback = "failed: " + denied[exercise.test_id]
        elif record is None:
            feedback = _stop_reason(result, plan, timeout_s)
        elif record.get("passed") is True:
            feedback = "passed"
        else:
            errors = [f"{plan.cells[i]['grade_id']} raised {m}" for i, m in cell_errors.items()
                      if plan.cells[i]["grade_id"] in exercise.solution_ids]
            where = " in the hidden tests" if _in_hidden(exercise.test_source, record.get("line")) else ""
            feedback = f"failed{where}: " + (record.get("message") or "a test did not pass")
            feedback += f" (your solution cell {'; '.join(errors)})" if errors else ""
        if record is not None and record.get("restored"):
            feedback += f" (the grader undid {record['restored']} change(s) your code made to library code)"
        points = exercise.points if feedback.startswith("passed") else 0.0
        rows.append(Row(student, source.name, exercise.test_id, points, exercise.points, feedback + note))
    return rows


def find_submission(student_dir: Path, name: str) -> Path | None:
    """The student's copy of notebook `name`: directly in their folder, else anywhere below it."""
    direct = student_dir / name
    if direct.is_file():
        return direct
    found = sorted(p for p in student_dir.rglob(name) if p.is_file() and ".ipynb_checkpoints" not in p.parts)
    return found[0] if found else None


def grade_one(student_dir: Path, source: Source, zygote: Zygote, timeout_s: float, memory_bytes: int) -> list[Row]:
    """Grade one student's copy of one notebook; every failure becomes 0 points with a reason."""
    student = student_dir.name
    path = find_submission(student_dir, source.name)
    if path is None:
        return _lost_rows(student, source, f"0 points: {source.name} was not submitted")
    try:
        submission = read_notebook(path)
    except (SourceError, OSError) as err:
        reason = str(err).split(": ", 1)[-1]
        return _lost_rows(student, source, f"0 points: the submitted {source.name} could not be read: {reason}")
    plan = plan_submission(source.notebook, submission, source.exercises)
    result = zygote.run(plan.job(), timeout_s, memory_bytes)
    return rows_from_run(student, source, plan, result, timeout_s)


def student_dirs(submissions: Path, only: list[str] | None = None,
                 shard: tuple[int, int] | None = None) -> list[Path]:
    """The students' folders (one per student), sorted; hidden folders are skipped; `shard` (i, N) keeps share i."""
    from utils.grading.shard import shard_of

    if not submissions.is_dir():
        raise FileNotFoundError(f"{submissions}: no such folder of submissions (one folder per student)")
    found = sorted(p for p in submissions.iterdir() if p.is_dir() and not p.name.startswith("."))
    if only:
        unknown = sorted(set(only) - {p.name for p in found})
        if unknown:
            raise ValueError(f"no submission folder for student(s) {unknown} in {submissions}")
        found = [p for p in found if p.name in only]
    if shard is not None:
        mine = set(shard_of([p.name for p in found], *shard))
        found = [p for p in found if p.name in mine]
    return found


def grade(sources: list[Source], submissions: Path, out_dir: Path, timeout_s: float = 300.0,
          memory_bytes: int = 4 * 2**30, students: list[str] | None = None, jobs: int = 1,
          sandbox: str = "auto", shard: tuple[int, int] | None = None,
          source_dirs: list[Path] | None = None) -> list[Row]:
    """Grade every student's notebooks, write grades.csv and feedback/<student>.md; returns the new rows.

    sandbox: "auto" (bubblewrap when it works here, else one line saying so), "required" or "off".
    shard: (i, N) grades share i of N of the students and writes shard.json for `merge`.
    source_dirs: folders of source notebooks to hide from the submissions (besides notebooks/).
    """
    from utils.grading.bwrap import SandboxSpec, choose_sandbox
    from utils.grading.scrub import scrub_rows
    from utils.grading.shard import write_manifest

    folders = student_dirs(submissions, students, shard)
    tasks = [(folder, source) for folder in folders for source in sources]
    preload = ["torch"] + [m for s in sources for m in preload_modules(reference_imports(s.notebook)[0])]
    course_sources = Path(__file__).resolve().parents[2] / "notebooks"
    hidden = [submissions, out_dir, course_sources, course_sources.parent / ".git", *(source_dirs or [])]
    isolate = choose_sandbox(sandbox)
    zygotes: queue.Queue[Zygote] = queue.Queue()
    workers = max(1, min(jobs, len(tasks)))
    try:
        for _ in range(workers):
            spec = SandboxSpec(hidden=[Path(p).absolute() for p in hidden]) if isolate else None
            zygotes.put(Zygote(preload, sandbox=spec))

        def work(task: tuple[Path, Source]) -> list[Row]:
            zygote = zygotes.get()
            try:
                return scrub_rows(grade_one(task[0], task[1], zygote, timeout_s, memory_bytes), task[1].exercises,
                                  task[1].notebook)
            except Exception as error:  # noqa: BLE001 - one submission must never stop the others
                return _lost_rows(task[0].name, task[1], f"0 points: the grader failed on this submission "
                                                         f"({type(error).__name__}: {error}); grade it by hand")
            finally:
                zygotes.put(zygote)

        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(work, tasks))
    finally:
        while not zygotes.empty():
            zygotes.get().close()
    rows = [row for part in results for row in part]
    book = out_dir / "grades.csv"
    all_rows = merge_rows(read_gradebook(book), rows)
    write_gradebook(book, all_rows)
    for folder in folders:
        mine = [row for row in all_rows if row.student == folder.name]
        write_atomically(out_dir / "feedback" / f"{safe_file_name(folder.name)}.md",
                         feedback_markdown(folder.name, mine))
    if shard is not None:
        write_manifest(out_dir, shard[0], shard[1], [p.name for p in student_dirs(submissions, students)],
                       [f.name for f in folders], [s.name for s in sources])
    return rows
