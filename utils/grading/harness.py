"""What the forked child does with one submission (see `zygote`): run its cells, report each test.

Student cells run in an IPython shell. Before each test cell the harness undoes changes to the
package and libraries (`Guard`), lays the instructor's imports (captured before any student code
ran) over the student's names, and runs the ORIGINAL test source with plain `exec`. Outcomes go
to a result file as JSON lines carrying a per-run random token the parent checks; stdout, which
the student can print to, is never read for results.
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


def _test_runner(user_ns: dict, reference: dict, report: Callable[[dict], None]) -> Callable[[dict], None]:
    """A function that runs one original test cell against fresh references and reports the outcome."""
    from utils.grading.guard import Guard

    guard, run, settrace, setprofile, gettrace = Guard(), exec, sys.settrace, sys.setprofile, sys.gettrace
    real_builtins = builtins

    def run_test(cell: dict) -> None:
        restored = guard.restore()
        settrace(None)
        setprofile(None)
        namespace = dict(user_ns)
        namespace.update(reference)
        namespace["__builtins__"] = real_builtins
        passed, message, line, file_name = True, "", None, f"<test {cell['grade_id']}>"
        try:
            run(compile(cell["source"], file_name, "exec", optimize=0), namespace)
        except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt fail the test too
            passed, message, line = False, _describe(error), _failing_line(error, file_name)
        if passed and gettrace() is not None:
            passed, message = False, "a trace function was installed while the test ran"
        settrace(None)
        for name, value in namespace.items():
            if reference.get(name, _MISSING) is not value and name != "__builtins__":
                user_ns[name] = value
        report({"event": "test", "grade_id": cell["grade_id"], "passed": passed, "message": message,
                "line": line, "restored": restored})

    return run_test


_MISSING = object()


def run(job: dict) -> None:
    """Run the job's cells in order and report each test; never trusts anything the student touched."""
    report = _reporter(job.pop("result_path"), job.pop("token"))
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False  # no history thread, no sqlite file
    shell = InteractiveShell.instance(config=config)
    run_cell = shell.run_cell
    reference = _reference_namespace(job["imports"], job["solution_names"])
    run_test = _test_runner(shell.user_ns, reference, report)
    report({"event": "start"})
    for index, cell in enumerate(job["cells"]):
        report({"event": "cell", "index": index})
        if cell["kind"] == "test":
            run_test(cell)
            continue
        try:
            outcome = run_cell(cell["source"], store_history=False)
            error = outcome.error_before_exec or outcome.error_in_exec
        except BaseException as failure:  # noqa: BLE001
            error = failure
        if error is not None:
            report({"event": "cell_error", "index": index, "message": _describe(error)})
    report({"event": "done"})
