"""What the forked child does with one submission (see `zygote`): run its cells, report each test.

Student cells run in an IPython shell. Before each test cell, and before each of the instructor's
unchanged cells, the harness undoes the changes the student's cells made to the package and
libraries (`Guard`; what the instructor's own cells change becomes the new baseline, so it is never
blamed on the student), lays the instructor's imports (captured before any student code ran) over
the student's names, and runs the ORIGINAL test source with plain `exec`. While the student's code
runs (solution cells, added cells, tests), `deny.CallMonitor` watches for calls into the exercise's
denied reference functions and torch operations. A test cell split into `parts.part` blocks reports
each part as it ends. Outcomes go to a result file as JSON lines carrying a per-run random token the
parent checks; stdout, which the student can print to, is never read for results. The parent words
all feedback (in the student's language); the child reports facts: errors, denied calls, parts.
"""

from __future__ import annotations

import builtins
import json
import os
import sys
from collections.abc import Callable
from typing import Any

MESSAGE_LIMIT = 600


def _describe(error: BaseException) -> str:
    """'Type: message', shortened; never lets a broken __str__ escape."""
    try:
        detail = str(error).strip()
    except BaseException:  # noqa: BLE001 - the student's exception may misbehave
        detail = ""
    text = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + " ..."


def _failing_line(error: BaseException, file_name: str) -> int | None:
    """The line of `file_name` (the test cell) that was running when `error` was raised."""
    line, frame = None, error.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code.co_filename == file_name:
            line = frame.tb_lineno
        frame = frame.tb_next
    return line


def _reporter(path: str, token: str) -> Callable[[dict], None]:
    """A function that appends one record, with the run's token, to the result file."""
    fd, write, dumps = os.open(path, os.O_WRONLY | os.O_APPEND), os.write, json.dumps

    def report(record: dict) -> None:
        write(fd, (dumps({**record, "token": token}) + "\n").encode())

    return report


def _reference_namespace(imports: list[str], solution_names: list[str]) -> dict[str, Any]:
    """The instructor's imports, executed before any student code, minus names the solutions define."""
    namespace: dict[str, Any] = {}
    for statement in imports:
        try:
            exec(compile(statement, "<reference import>", "exec", optimize=0), namespace)
        except Exception:  # noqa: BLE001 - an import the grader cannot make is simply not protected
            pass
    namespace.pop("__builtins__", None)
    for name in solution_names:
        namespace.pop(name, None)
    return namespace


class _Grader:
    """Runs cells and tests for one submission: library changes undone, denied calls watched, outcomes reported."""

    def __init__(self, shell: Any, job: dict, report: Callable[[dict], None]) -> None:
        from utils.grading.deny import CallMonitor, DenyTable, library_file_checker
        from utils.grading.guard import Guard

        self.shell, self.user_ns, self.report = shell, shell.user_ns, report
        self.reference = _reference_namespace(job["imports"], job["solution_names"])
        self.denied: dict[str, list[str]] = job.get("denied", {})
        table = DenyTable.build(self.denied)  # resolved before any student code runs
        for error in table.errors:
            report({"event": "grader_note", "message": error})
        self.trusted_names: set[str] = set()
        self.is_library = library_file_checker()
        self.table, self.solution_names = table, list(job.get("solution_names", []))
        self.monitor = CallMonitor(table, self._is_student_frame)
        import utils.grading.parts as parts

        self._parts = parts
        self.guard = Guard()  # before any cell: the libraries as the grader loaded them
        self.pending_changes = 0  # changes made by the student's cells since the last test
        self._trusted_cell = False
        self._wrap_compiler()
        self._run, self._settrace, self._setprofile, self._gettrace = exec, sys.settrace, sys.setprofile, sys.gettrace

    def _wrap_compiler(self) -> None:
        """Remember the code names IPython gives the instructor's unchanged cells (their frames are trusted)."""
        compiler, original = self.shell.compile, self.shell.compile.cache

        def cache(*args: Any, **kwargs: Any) -> str:
            name = original(*args, **kwargs)
            if self._trusted_cell:
                self.trusted_names.add(name)
            return name

        compiler.cache = cache

    def _is_student_frame(self, frame: Any) -> bool:
        """True for a frame of the student's code: a notebook cell they wrote or changed, or code they made."""
        name = frame.f_code.co_filename
        if name in self.trusted_names:
            return False
        if frame.f_globals is self.user_ns:
            return True
        return not self.is_library(name)

    def _bound_to_denied(self, watched: list[str]) -> list:
        """Violations for the solutions' names that are bound to a watched denied function itself (`mine = reference`):
        the test cell would call the reference directly, with no frame of the student's code on the stack."""
        from utils.grading.deny import Violation

        found = []
        for name in self.solution_names:
            path = self.table.path_of_value(self.user_ns.get(name)) if name in self.user_ns else None
            if path is not None and path in watched:
                found.append(Violation(path, name, f"{name} = {path}"))
        return found

    def _watched(self, cell: dict) -> list[str]:
        """The denied paths to watch while this cell runs."""
        role, exercise = cell.get("role"), cell.get("exercise")
        if role in ("solution", "test"):
            return list(self.denied.get(exercise, []))
        if role == "added":
            return sorted({path for paths in self.denied.values() for path in paths})
        return []

    def _blame(self, cell: dict, violations: list) -> dict[str, list[dict]]:
        """Exercise -> the violations (as records) seen while `cell` ran."""
        from utils.grading.deny import TAMPERING, TAMPERING_MODES

        blamed: dict[str, list[dict]] = {}
        for violation in violations:
            if cell.get("role") in ("solution", "test"):
                targets = [cell["exercise"]]
            else:
                targets = [gid for gid, paths in self.denied.items()
                           if violation.path in paths or violation.path in (TAMPERING, TAMPERING_MODES)]
            for gid in targets:
                blamed.setdefault(gid, []).append(violation.record())
        return blamed

    def code_cell(self, index: int, cell: dict) -> None:
        """Run one of the submission's code cells (instructor cells on unpatched libraries)."""
        trusted = cell.get("role") == "trusted"
        if trusted:
            self.pending_changes += self.guard.restore()
        watched = self._watched(cell)
        self._trusted_cell = trusted
        if watched:
            self.monitor.start(watched)
        try:
            outcome = self.shell.run_cell(cell["source"], store_history=False)
            error = outcome.error_before_exec or outcome.error_in_exec
        except BaseException as failure:  # noqa: BLE001
            error = failure
        finally:
            violations = self.monitor.stop() if watched else []
            self._trusted_cell = False
        if trusted:
            self.guard.accept()  # what the instructor's cell changed is the new baseline, never the student's fault
        if error is not None:
            self.report({"event": "cell_error", "index": index, "message": _describe(error)})
        for gid, found in self._blame(cell, violations).items():
            self.report({"event": "denied", "index": index, "grade_id": gid, "violation": found[0]})

    def _part_recorder(self, grade_id: str, file_name: str) -> Callable[[str, float, BaseException | None], None]:
        """What `parts.part` calls as each part of this test ends: one record per part, written at once."""
        report = self.report

        def record(name: str, points: float, error: BaseException | None) -> None:
            report({"event": "part", "grade_id": grade_id, "name": str(name), "points": float(points),
                    "passed": error is None, "message": "" if error is None else _describe(error),
                    "line": None if error is None else _failing_line(error, file_name)})

        return record

    def test_cell(self, cell: dict) -> None:
        """Run one ORIGINAL test cell against fresh references and report the outcome."""
        self.pending_changes += self.guard.restore()
        restored, self.pending_changes = self.pending_changes, 0
        self._settrace(None)
        self._setprofile(None)
        namespace = dict(self.user_ns)
        namespace.update(self.reference)
        namespace["__builtins__"] = builtins
        passed, message, line, file_name = True, "", None, f"<test {cell['grade_id']}>"
        self.trusted_names.add(file_name)
        watched = self._watched(cell)
        bound = self._bound_to_denied(watched)  # solution names that ARE a denied function: called from this cell
        code = compile(cell["source"], file_name, "exec", optimize=0)
        self._parts._recorder = self._part_recorder(cell["grade_id"], file_name)
        if watched:
            self.monitor.start(watched)
        try:
            self._run(code, namespace)
        except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt fail the test too
            passed, message, line = False, _describe(error), _failing_line(error, file_name)
        finally:
            violations = (self.monitor.stop() if watched else []) + bound
            self._parts._recorder = None
        if passed and self._gettrace() is not None:
            from utils.i18n.text import tr

            passed, message = False, tr("a trace function was installed while the test ran")
        self._settrace(None)
        for name, value in namespace.items():
            if self.reference.get(name, _MISSING) is not value and name != "__builtins__":
                self.user_ns[name] = value
        denied = self._blame(cell, violations).get(cell["grade_id"], [])
        self.report({"event": "test", "grade_id": cell["grade_id"], "passed": passed, "message": message,
                     "line": line, "restored": restored, "denied": denied[:1]})
        # Whatever changed while the test ran (the instructor's test code, or a student function it called) is undone
        # now, and not counted against the next exercise: only changes made by the student's own cells are reported.
        self.guard.restore()


_MISSING = object()


def run(job: dict) -> None:
    """Run the job's cells in order and report each test; never trusts anything the student touched."""
    report = _reporter(job.pop("result_path"), job.pop("token"))
    os.environ["LM_LANG"] = job.get("lang", "en")  # what the course's code prints follows the student's edition
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False  # no history thread, no sqlite file
    shell = InteractiveShell.instance(config=config)
    grader = _Grader(shell, job, report)
    report({"event": "start"})
    for index, cell in enumerate(job["cells"]):
        report({"event": "cell", "index": index})
        if cell["kind"] == "test":
            grader.test_cell(cell)
        else:
            grader.code_cell(index, cell)
    report({"event": "done"})
