"""One grade-book row per exercise from the verified records of a run, worded in the student's language.

The child reports facts (cells run, errors, denied calls, parts, tests); everything a student reads
is worded here through `tr()` inside `in_language(lang)`, so a submission of the Chinese edition
gets its feedback in Chinese (utils/i18n/messages/zh.po).
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass, field

from utils.grading.assemble import Plan
from utils.grading.deny import TAMPERING, TAMPERING_MODES
from utils.grading.gradebook import Row
from utils.grading.notebook import Exercise, hidden_blocks
from utils.grading.sandbox import RunResult
from utils.i18n.text import in_language, tr

SUSPICIOUS = re.compile(
    r"_getframe|\bgc\b|ctypes|\binspect\b|__closure__|__code__|settrace|setprofile|sys\.monitoring|/proc/|"
    r"os\._exit|\bfork\b|setsid|getppid|\bkill|sys\.modules|\bbuiltins\b|__builtins__|\bcompile\(|\bexec\(|"
    r"_profile_hook|_python_dispatch|TorchFunctionMode|TorchDispatchMode|_pop_mode|DisableTorch|torch\._C\b|"
    r"utils\.grading"
)


@dataclass
class Source:
    """One source notebook: its name, the parsed notebook, its exercises, its language and titles per language."""

    name: str
    notebook: object
    exercises: list[Exercise]
    lang: str = "en"
    titles: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> test_id -> exercise title

    def title(self, exercise: Exercise, lang: str) -> str | None:
        """The exercise's title in `lang` when a notebook of that language gave one, else the source's."""
        return self.titles.get(lang, {}).get(exercise.test_id) or exercise.title


def lost_rows(student: str, source: Source, reason: str, lang: str) -> list[Row]:
    """Every exercise of a notebook at 0 points with the same reason (already worded)."""
    return [Row(student, source.name, e.test_id, 0.0, e.points, reason, lang) for e in source.exercises]


def stop_reason(result: RunResult, plan: Plan, timeout_s: float) -> str:
    """Why a run ended before a test: time limit, exit, or a signal, and in which cell."""
    cells = [r["index"] for r in result.records if r.get("event") == "cell"]
    where = ""
    if cells and 0 <= cells[-1] < len(plan.cells):
        cell = plan.cells[cells[-1]]
        where = tr(" while running cell {number} ({name})", number=cells[-1] + 1,
                   name=cell["grade_id"] or tr("your code"))
    if result.helper_died:
        return tr("0 points: the notebook killed the grader's helper process{where} before this exercise was tested",
                  where=where)
    if result.timed_out:
        return tr("0 points: the notebook ran past the time limit of {seconds} s{where}", seconds=f"{timeout_s:g}",
                  where=where)
    code = result.returncode
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        return tr("0 points: the notebook's process was killed by {signal}{where} (memory limit or crash)",
                  signal=name, where=where)
    if not any(r.get("event") == "start" for r in result.records):
        return tr("0 points: the grader could not start the notebook (exit code {code}): {log}", code=code,
                  log=result.log_tail[-300:])
    return tr("0 points: the notebook's process exited (exit code {code}){where} before this exercise was tested",
              code=code, where=where)


def _part_ok(record: dict, current: dict | None, parts: dict[str, dict[str, float]], seen: set) -> bool:
    """A part record is clean when it belongs to the test cell now running and is one of its declared parts, once."""
    gid, name = record.get("grade_id"), record.get("name")
    if current is None or current.get("kind") != "test" or current.get("grade_id") != gid:
        return False
    declared = parts.get(gid, {})
    if name not in declared or (gid, name) in seen or record.get("points") != declared[name]:
        return False
    seen.add((gid, name))
    return isinstance(record.get("passed"), bool)


def tampered(records: list[dict], plan: Plan, parts: dict[str, dict[str, float]] | None = None) -> bool:
    """True unless the records are one clean sequence: cells in order, each test once, right after its cell.

    Between a test cell's "cell" record and its "test" record only that test's declared parts may come, once each.
    """
    parts = parts or {}
    seen_tests, seen_parts, last_cell, current_cell = set(), set(), -1, None
    for record in records:
        event, index = record.get("event"), record.get("index")
        if event in {"cell", "cell_error", "denied"} and not (isinstance(index, int) and 0 <= index < len(plan.cells)):
            return True
        if event in {"denied", "test", "part"} and not isinstance(record.get("grade_id"), str):
            return True
        if event == "cell":
            if index != last_cell + 1:
                return True
            last_cell, current_cell = index, plan.cells[index]
        elif event == "part":
            if not _part_ok(record, current_cell, parts, seen_parts):
                return True
        elif event == "test":
            gid = record.get("grade_id")
            expected = current_cell is not None and current_cell["kind"] == "test" and current_cell["grade_id"] == gid
            if gid in seen_tests or not expected:
                return True
            seen_tests.add(gid)
            current_cell = None
        elif current_cell is not None and current_cell["kind"] == "test":
            current_cell = None  # nothing but its parts may come between a test's cell record and its test record
    return False


def _in_hidden(test_source: str, line: int | None) -> bool:
    """True when 1-based `line` of a test cell lies inside a hidden-test block."""
    return isinstance(line, int) and any(begin < line - 1 < end for begin, end in hidden_blocks(test_source))


def _asks(exercise: Exercise, title: str | None) -> str:
    """What the exercise asks for, from its `# deny-reason:` line, else its heading."""
    if exercise.deny_reason:
        return tr("this exercise asks you to write {what}", what=tr(exercise.deny_reason))
    if exercise.number is not None and title:
        return tr("Exercise {number} ({title}) asks you to write this yourself", number=exercise.number, title=title)
    return tr("this exercise asks you to write this yourself")


def denied_text(violation: dict, exercise: Exercise, title: str | None) -> str:
    """The feedback for a denied call: what was called, how it was reached, and what the exercise asks for."""
    path, caller, via = (str(violation.get(key) or "") for key in ("path", "caller", "via"))
    if path == TAMPERING:
        return tr("{caller} calls sys.setprofile, which switches off the grader's check of the functions this "
                  "exercise asks you to write; calling it scores 0", caller=caller)
    if path == TAMPERING_MODES:
        return tr("your code removed the grader's watch on PyTorch operations (a torch function or dispatch mode); "
                  "that scores 0")
    reached = tr(" (reached as {via})", via=via) if via else ""
    return tr("{asks}; {caller} calls {path}{reached}, which scores 0", asks=_asks(exercise, title), caller=caller,
              path=path, reached=reached)


def _denied(result: RunResult, plan: Plan, exercises: dict[str, Exercise], source: Source, lang: str) -> dict[str, str]:
    """test_id -> the feedback of the first denied call blamed on its exercise."""
    denied: dict[str, str] = {}
    for record in result.records:
        gid = record.get("grade_id")
        if gid not in exercises:
            continue
        exercise, title = exercises[gid], source.title(exercises[gid], lang)
        if record.get("event") == "denied":
            where = plan.cells[record["index"]]["grade_id"] or tr("cell {number}", number=record["index"] + 1)
            text = denied_text(record.get("violation") or {}, exercise, title)
            denied.setdefault(gid, tr("{text} (in {where})", text=text, where=where))
        elif record.get("event") == "test" and record.get("denied"):
            text = denied_text(record["denied"][0] or {}, exercise, title)
            denied.setdefault(gid, tr("{text} (while the tests ran)", text=text))
    return denied


def _parts_text(exercise: Exercise, reported: dict[str, dict]) -> str:
    """Each declared part with a check mark, or a cross and why."""
    items = []
    for name, _ in exercise.parts:
        record = reported.get(name)
        if record is None:
            items.append(tr("✗ {name}: not reached", name=name))
        elif record["passed"]:
            items.append(tr("✓ {name}", name=name))
        else:
            hidden = tr(" (hidden test)") if _in_hidden(exercise.test_source, record.get("line")) else ""
            items.append(tr("✗ {name}{hidden}: {message}", name=name, hidden=hidden, message=record.get("message", "")))
    return "; ".join(items)


def _scored(exercise: Exercise, record: dict | None, reported: dict[str, dict], failure: str | None,
            stop: str | None) -> tuple[float, str]:
    """(points, feedback) of an exercise that was run and not denied; `failure` or `stop` says why it did not finish."""
    passed_parts = sum(points for name, points in exercise.parts if reported.get(name, {}).get("passed"))
    finished = record is not None and record.get("passed") is True
    rest = exercise.points - sum(points for _, points in exercise.parts)
    points = passed_parts + (rest if finished else 0.0)
    if finished and points >= exercise.points:
        return exercise.points, tr("passed")
    why = failure if failure is not None else stop
    if not exercise.parts or (not reported and not finished):
        return 0.0, why or tr("a test did not pass")
    summary = _parts_text(exercise, reported)
    text = (tr("partly passed, {got} of {total} points: {parts}", got=f"{points:g}", total=f"{exercise.points:g}",
               parts=summary) if points > 0 else tr("failed: {parts}", parts=summary))
    return points, text + (tr("; then {reason}", reason=why) if why else "")


def _flags_by_cell(plan: Plan) -> dict[str | None, set[str]]:
    """The suspicious names (SUSPICIOUS) in the student's code cells, by the exercise a cell solves (its test_id; None:
    an added or changed cell that solves none)."""
    flags: dict[str | None, set[str]] = {}
    for cell in plan.cells:
        if cell["kind"] == "code" and cell.get("role") != "trusted":
            found = {m.group(0) for m in SUSPICIOUS.finditer(cell["source"])}
            if found:
                flags.setdefault(cell.get("exercise"), set()).update(found)
    return flags


def _flags_of(exercise: Exercise, flags: dict[str | None, set[str]]) -> set[str]:
    """The flags that concern one exercise: those of its solution cells and of any cell that is no exercise's."""
    return set().union(set(), *(names for owner, names in flags.items() if owner in (exercise.test_id, None)))


def _review_note(flagged: set[str]) -> str:
    """The feedback's note that sends a row to manual review ('' when nothing was flagged)."""
    return tr(" [flagged for manual review: uses {names}]", names=", ".join(sorted(flagged))) if flagged else ""


def rows_from_run(student: str, source: Source, plan: Plan, result: RunResult, timeout_s: float,
                  lang: str = "en") -> list[Row]:
    """One row per exercise from the verified records of a run, worded in `lang`."""
    with in_language(lang):
        return _rows(student, source, plan, result, timeout_s, lang)


def _rows(student: str, source: Source, plan: Plan, result: RunResult, timeout_s: float, lang: str) -> list[Row]:
    flags = _flags_by_cell(plan)
    note = _review_note(set().union(*flags.values()) if flags else set())
    exercises = {e.test_id: e for e in source.exercises}
    if tampered(result.records, plan, {gid: dict(e.parts) for gid, e in exercises.items()}):
        return lost_rows(student, source, tr("0 points: the grader's results were tampered with") + note, lang)
    tests = {r["grade_id"]: r for r in result.records if r.get("event") == "test"}
    cell_errors = {r["index"]: r["message"] for r in result.records if r.get("event") == "cell_error"}
    denied = _denied(result, plan, exercises, source, lang)
    rows = []
    for exercise in source.exercises:
        if exercise.test_id in plan.lost:
            rows.append(Row(student, source.name, exercise.test_id, 0.0, exercise.points,
                            tr("0 points: solution cell '{cell}' is missing from the submission (deleted, or its "
                               "grade_id was changed)", cell=plan.lost[exercise.test_id]) + note, lang))
            continue
        record = tests.get(exercise.test_id)
        reported = {r["name"]: r for r in result.records if r.get("event") == "part"
                    and r.get("grade_id") == exercise.test_id}
        if exercise.test_id in denied:
            points, feedback = 0.0, tr("failed: {reason}", reason=denied[exercise.test_id])
        else:
            failure = None
            if record is not None and record.get("passed") is not True:
                errors = [tr("{cell} raised {error}", cell=plan.cells[i]["grade_id"], error=m)
                          for i, m in cell_errors.items() if plan.cells[i]["grade_id"] in exercise.solution_ids]
                where = tr(" in the hidden tests") if _in_hidden(exercise.test_source, record.get("line")) else ""
                failure = tr("failed{where}: {message}", where=where,
                             message=record.get("message") or tr("a test did not pass"))
                if errors:
                    failure += tr(" (your solution cell {errors})", errors="; ".join(errors))
            stop = stop_reason(result, plan, timeout_s) if record is None else None
            points, feedback = _scored(exercise, record, reported, failure, stop)
        if record is not None and record.get("restored"):
            feedback += tr(" (the grader undid {count} change(s) your code made to library code)",
                           count=record["restored"])
        rows.append(Row(student, source.name, exercise.test_id, points, exercise.points,
                        feedback + _review_note(_flags_of(exercise, flags)), lang))
    return rows
