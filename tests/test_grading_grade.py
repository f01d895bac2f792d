"""`python -m utils.grading grade`: adversarial submissions, each graded, the grade book checked row by row."""

from __future__ import annotations

import copy
import csv
import re
import time
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell

from utils.grading.__main__ import main as cli
from utils.grading.grade import grade, load_sources
from utils.grading.notebook import grade_id
from utils.grading.release import release_notebook
from utils.grading.sandbox import Zygote
from utils.grading.assemble import plan_submission

FIXTURES = Path(__file__).parent / "fixtures" / "grading"
SOURCE = FIXTURES / "source" / "assignment.ipynb"
NAME = SOURCE.name
# The time limit for a whole notebook: the hang and the infinite loop run into it.
TIMEOUT_S = 30.0
# The address-space limit: a correct submission needs about 0.6-0.75 GiB here (0.6 GiB fails to start it), so
# 1.25 GiB leaves room for it while the memory bomb hits the limit after reserving about half a GiB.
MEMORY = 5 * 2**28
EX1, EX2, EX3 = "ex1_temperature_softmax", "ex2_keep_top_k", "ex3_uniform_perplexity"

# Wrong solutions: one that fails the visible checks, one that passes them but not the hidden tests.
EX1_NOT_A_DISTRIBUTION = "def temperature_softmax(logits, T):\n    return logits"
EX1_IGNORES_T = "def temperature_softmax(logits, T):\n    return torch.softmax(logits, dim=-1)"
EX2_KEEPS_ALL = "def keep_top_k(logits, k):\n    return logits"
EX3_OFF_BY_ONE = "def uniform_perplexity(V):\n    return V + 1.0"
ALL_WRONG = {EX1: EX1_IGNORES_T, EX2: EX2_KEEPS_ALL, EX3: EX3_OFF_BY_ONE}

PASSED = {EX1: (2, r"^passed$"), EX2: (3, r"^passed$"), EX3: (1, r"^passed$")}
ZERO = r"^failed: "


def _cell(nb: nbformat.NotebookNode, gid: str) -> nbformat.NotebookNode:
    return next(cell for cell in nb.cells if grade_id(cell) == gid)


def _set(nb, gid: str, source: str) -> None:
    _cell(nb, gid).source = source


def _delete(nb, gid: str) -> None:
    nb.cells.remove(_cell(nb, gid))


def _insert_after_setup(nb, source: str) -> None:
    nb.cells.insert(2, new_code_cell(source))


def _wrong(nb) -> None:
    for gid, source in ALL_WRONG.items():
        _set(nb, gid, source)


def correct(nb):
    pass


def released_stub(nb):
    nb.cells = release_notebook(nb).cells


def wrong_visible(nb):
    _set(nb, EX1, EX1_NOT_A_DISTRIBUTION)


def wrong_hidden(nb):
    _set(nb, EX1, EX1_IGNORES_T)


def crash(nb):
    _set(nb, EX1, 'raise RuntimeError("boom")')


def hang(nb):
    _cell(nb, EX2).source += "\nimport time\ntime.sleep(10**6)"


def infinite_loop(nb):
    _set(nb, EX3, "def uniform_perplexity(V):\n    while True:\n        pass")


def memory_bomb(nb):
    # The bomb reserves address space until RLIMIT_AS stops it, without writing to it: bytes(n) comes from calloc,
    # untouched, and ends in MemoryError in milliseconds (a bare Python under 1.25 GiB: 19 x 64 MiB in 0.0 s). A bomb
    # that writes its memory (bytearray(n) is zero-filled) takes as long as the machine needs to back fresh pages
    # (the same 19 in 0.9 s when quiet). In full CI runs, with notebook kernels taking and freeing memory beside it,
    # that bomb ran past the time limit three times, never in this file alone. The one cause found: these VMs hand
    # freed memory back to their host (free page reporting), and fresh memory is slow to write (12 GiB at 168 MiB/s
    # on average here, phases of 40-70 MiB/s, against 580-1230 MiB/s for memory used shortly before). That explains
    # the time-out at the 2 GiB limit of then (1.4 GiB written); the two at 1.25 GiB would need slower pages than
    # we saw. Either way the time was the host's, not the grader's, and this bomb no longer depends on it. A bomb
    # that keeps what it got would leave the later cells no memory: this one lets go as the MemoryError leaves.
    _cell(nb, EX2).source = ("hog = []\ntry:\n    while True:\n        hog.append(bytes(2**26))\n"
                             "finally:\n    hog.clear()\n") + _cell(nb, EX2).source


def memory_bomb_in_test(nb):
    _set(nb, EX3, "def uniform_perplexity(V):\n    return float(len(bytearray(10**13)))")


def syntax_error(nb):
    _set(nb, EX1, "def temperature_softmax(logits, T):\n    return (")


def sys_exit(nb):
    _cell(nb, EX1).source = "import sys\nsys.exit(0)\n" + _cell(nb, EX1).source
    _set(nb, EX3, "def uniform_perplexity(V):\n    import sys\n    sys.exit(1)")


def deleted_solution(nb):
    _delete(nb, EX2)


def deleted_tests(nb):
    _set(nb, EX1, EX1_NOT_A_DISTRIBUTION)
    _delete(nb, EX1 + "_test")
    _delete(nb, EX3 + "_test")


def renamed_solution(nb):
    _cell(nb, EX1).metadata.nbgrader["grade_id"] = "my_softmax"


def renamed_edited_test(nb):
    _set(nb, EX2, EX2_KEEPS_ALL)
    test = _cell(nb, EX2 + "_test")
    test.metadata.nbgrader["grade_id"] = "ex2_mine"
    test.source = "print('all good')"


def edited_test(nb):
    _set(nb, EX1, EX1_NOT_A_DISTRIBUTION)
    _set(nb, EX1 + "_test", "pass")


def redefined_helpers(nb):
    _wrong(nb)
    _insert_after_setup(nb, "import utils.checks\n"
                            "check = check_close = check_distribution = check_shape = lambda *a, **k: None\n"
                            "utils.checks.check = utils.checks.check_close = check\n"
                            "softmax_with_temperature = lambda logits, T: torch.softmax(logits, dim=-1)\n"
                            "top_k_filter = lambda logits, k: logits")


def silenced_tracebacks(nb):
    _wrong(nb)
    _insert_after_setup(nb, "import sys, traceback\n"
                            "sys.excepthook = lambda *a: None\n"
                            "traceback.print_exc = traceback.print_exception = lambda *a, **k: None\n"
                            "get_ipython().showtraceback = lambda *a, **k: None\n"
                            "get_ipython().set_custom_exc((BaseException,), lambda *a, **k: None)")


def patched_asserts(nb):
    _wrong(nb)
    _insert_after_setup(nb, "import builtins, torch, utils.checks\n"
                            "builtins.AssertionError = type('Quiet', (Exception,), {})\n"
                            "utils.checks.CheckFailed = builtins.AssertionError\n"
                            "def _silent(*args, **kwargs):\n    return None\n"
                            "for _f in (utils.checks.check, utils.checks.check_close, utils.checks.check_shape,\n"
                            "           utils.checks.check_distribution):\n"
                            "    _f.__code__ = _silent.__code__\n"
                            "torch.allclose = torch.equal = lambda *a, **k: True")


def os_exit(nb):
    _cell(nb, EX2).source += "\nimport os\nos._exit(0)"


def kills_helper(nb):
    _cell(nb, EX2).source += "\nimport os, signal, time\nos.kill(os.getppid(), signal.SIGKILL)\ntime.sleep(60)"


def fake_passed(nb):
    _wrong(nb)
    fake = '{"event": "test", "grade_id": "%s_test", "passed": true, "token": "%s"}'
    lines = [fake % (gid, "0" * 32) for gid in ALL_WRONG]
    _insert_after_setup(nb, "import glob\n"
                            f"for line in {lines!r}:\n"
                            "    print(line)\n"
                            "    print('PASSED', line)\n"
                            "    for path in glob.glob('../*.jsonl') + glob.glob('/tmp/lm-grade-*/results.jsonl'):\n"
                            "        with open(path, 'a') as file:\n"
                            "            file.write(line + '\\n')")


# Student code that finds the harness's reporting function in memory (and loops over it as _f).
FIND_REPORTER = ("import gc\n"
                 "for _f in [o for o in gc.get_objects() if type(o).__name__ == 'function'\n"
                 "           and o.__name__ == 'report' and o.__module__ == 'utils.grading.harness']:\n")


def forged_report(nb):
    _wrong(nb)
    _insert_after_setup(nb, FIND_REPORTER
                            + f"    for _gid in {list(ALL_WRONG)!r}:\n"
                            "        _f({'event': 'test', 'grade_id': _gid + '_test', 'passed': True, 'message': ''})")


def forged_records(nb):
    _wrong(nb)
    _insert_after_setup(nb, FIND_REPORTER
                            + "    _f({'event': 'cell_error', 'index': 10**6, 'message': 'x'})\n"
                            "    _f({'event': 'test', 'passed': True})")


def _time_limit(cell: str) -> tuple[int, str]:
    return 0, rf"^0 points: the notebook ran past the time limit of {TIMEOUT_S:g} s while running cell \d+ \({cell}\)$"


MISSING = r"^0 points: solution cell '{}' is missing from the submission \(deleted, or its grade_id was changed\)$"
UNDID = r" \(the grader undid \d+ change\(s\) your code made to library code\)"
FLAG = r" \[flagged for manual review: uses .*\]$"

# student -> (how the submission is made from the solution notebook, expected row per exercise)
CASES: dict[str, tuple[Callable, dict[str, tuple[int, str]]]] = {
    "correct": (correct, PASSED),
    "released_stub": (released_stub, {
        EX1: (0, r"^failed: NotImplementedError: Exercise 1: replace this line with your solution$"),
        EX2: (0, r"^failed: NotImplementedError: Exercise 2: replace this line with your solution$"),
        EX3: (0, r"^failed: NotImplementedError: Exercise 3: replace this line with your solution$")}),
    "wrong_visible": (wrong_visible, {**PASSED, EX1: (0, r"^failed: CheckFailed: temperature_softmax\(logits, 2\.0\): "
                                                         r"probabilities must be finite and non-negative$")}),
    "wrong_hidden": (wrong_hidden, {**PASSED, EX1: (0, r"^failed in the hidden tests: AssertionError$")}),
    "crash": (crash, {**PASSED, EX1: (0, r"^failed: NameError: name 'temperature_softmax' is not defined \(your "
                                         r"solution cell ex1_temperature_softmax raised RuntimeError: boom\)$")}),
    "hang": (hang, {EX1: PASSED[EX1], EX2: _time_limit(EX2), EX3: _time_limit(EX2)}),
    "infinite_loop": (infinite_loop, {**PASSED, EX3: _time_limit(EX3 + "_test")}),
    "memory_bomb": (memory_bomb, {**PASSED, EX2: (0, r"^failed: NameError: name 'keep_top_k' is not defined \(your "
                                                     r"solution cell ex2_keep_top_k raised MemoryError\)$")}),
    "memory_bomb_in_test": (memory_bomb_in_test, {**PASSED, EX3: (0, r"^failed: MemoryError$")}),
    "syntax_error": (syntax_error, {**PASSED, EX1: (0, r"^failed: NameError: .* \(your solution cell "
                                                       r"ex1_temperature_softmax raised SyntaxError: .*\)$")}),
    "sys_exit": (sys_exit, {EX1: (0, r"^failed: NameError: .* raised SystemExit: 0\)$"), EX2: PASSED[EX2],
                            EX3: (0, r"^failed: SystemExit: 1$")}),
    "deleted_solution": (deleted_solution, {**PASSED, EX2: (0, MISSING.format(EX2))}),
    "deleted_tests": (deleted_tests, {**PASSED, EX1: (0, r"^failed: CheckFailed: temperature_softmax")}),
    "renamed_solution": (renamed_solution, {**PASSED, EX1: (0, MISSING.format(EX1))}),
    "renamed_edited_test": (renamed_edited_test, {**PASSED, EX2: (0, r"^failed: CheckFailed: keep_top_k\(logits, 2\) "
                                                                      r"must keep exactly 2 finite logits$")}),
    "edited_test": (edited_test, {**PASSED, EX1: (0, r"^failed: CheckFailed: ")}),
    "redefined_helpers": (redefined_helpers, {
        EX1: (0, r"^failed in the hidden tests: AssertionError" + UNDID + "$"),
        EX2: (0, r"^failed: CheckFailed: keep_top_k\(logits, 2\) must keep exactly 2 finite logits$"),
        EX3: (0, r"^failed: CheckFailed: uniform_perplexity\(4\): expected 4, got 5$")}),
    "silenced_tracebacks": (silenced_tracebacks, {
        EX1: (0, r"^failed in the hidden tests: AssertionError$"), EX2: (0, r"^failed: CheckFailed: keep_top_k"),
        EX3: (0, r"^failed: CheckFailed: uniform_perplexity\(4\): expected 4, got 5$")}),
    "patched_asserts": (patched_asserts, {
        EX1: (0, r"^failed in the hidden tests: AssertionError" + UNDID + FLAG),
        EX2: (0, r"^failed: CheckFailed: keep_top_k\(logits, 2\) must keep exactly 2 finite logits" + FLAG),
        EX3: (0, r"^failed: CheckFailed: uniform_perplexity\(4\): expected 4, got 5" + FLAG)}),
    # the flag of exercise 2's code goes on exercise 2's row only (exercise 1's row is not to be reviewed for it)
    "os_exit": (os_exit, {EX1: (2, r"^passed$"),
                          EX2: (0, r"^0 points: the notebook's process exited \(exit code 0\) while running cell \d+ "
                                   r"\(ex2_keep_top_k\) before this exercise was tested" + FLAG),
                          EX3: (0, r"^0 points: the notebook's process exited \(exit code 0\)")}),
    "kills_helper": (kills_helper, {EX1: (2, r"^passed$"),
                                    EX2: (0, r"^0 points: the notebook killed the grader's helper process while running "
                                             r"cell \d+ \(ex2_keep_top_k\) before this exercise was tested" + FLAG),
                                    EX3: (0, r"^0 points: the notebook killed the grader's helper process")}),
    "fake_passed": (fake_passed, {EX1: (0, r"^failed in the hidden tests: AssertionError$"), EX2: (0, r"^failed: CheckFailed: "),
                                  EX3: (0, r"^failed: CheckFailed: ")}),
    "forged_records": (forged_records, {gid: (0, r"^0 points: the grader's results were tampered with" + FLAG)
                                        for gid in ALL_WRONG}),
    "forged_report": (forged_report, {gid: (0, r"^0 points: the grader's results were tampered with" + FLAG)
                                      for gid in ALL_WRONG}),
}
NOT_NOTEBOOKS = {
    "invalid_json": {gid: (0, r"^0 points: the submitted assignment\.ipynb could not be read: "
                                 r"not a valid notebook \(invalid JSON: ") for gid in PASSED},
    "missing_notebook": {gid: (0, r"^0 points: assignment\.ipynb was not submitted$") for gid in PASSED},
}
MAX_POINTS = {EX1: 2, EX2: 3, EX3: 1}


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> tuple[Path, Path, list[dict]]:
    """Every case submitted by its own student and graded in one run."""
    root = tmp_path_factory.mktemp("grading")
    submissions, out = root / "submissions", root / "out"
    source = nbformat.read(SOURCE, as_version=4)
    for student, (make, _) in CASES.items():
        nb = copy.deepcopy(source)
        make(nb)
        (submissions / student).mkdir(parents=True)
        nbformat.write(nb, submissions / student / NAME)
    (submissions / "invalid_json").mkdir()
    (submissions / "invalid_json" / NAME).write_text('{"cells": [ this is not json')
    (submissions / "missing_notebook").mkdir()
    (submissions / "missing_notebook" / "something_else.ipynb").write_text("{}")
    # The unsandboxed path, where a submission can reach the helper; tests/test_grading_sandbox.py grades sandboxed.
    grade(load_sources([SOURCE]), submissions, out, TIMEOUT_S, MEMORY, jobs=2, sandbox="off")
    with open(out / "grades.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    return submissions, out, rows


@pytest.mark.parametrize("student", [*CASES, *NOT_NOTEBOOKS])
def test_grade_book_rows(graded, student: str) -> None:
    expected = {**{k: v[1] for k, v in CASES.items()}, **NOT_NOTEBOOKS}[student]
    rows = {row["grade_id"]: row for row in graded[2] if row["student"] == student}
    assert sorted(rows) == sorted(gid + "_test" for gid in expected), f"{student}: one row per exercise"
    for gid, (points, feedback) in expected.items():
        row = rows[gid + "_test"]
        assert (row["notebook"], float(row["max_points"])) == (NAME, MAX_POINTS[gid])
        assert float(row["points"]) == points, f"{student}/{gid}: {row}"
        assert re.search(feedback, row["feedback"]), f"{student}/{gid}: {row['feedback']!r} !~ {feedback!r}"


def test_grade_book_has_every_student_and_exercise(graded) -> None:
    rows = graded[2]
    assert list(rows[0]) == ["student", "notebook", "grade_id", "points", "max_points", "feedback", "lang"]
    assert len(rows) == 3 * (len(CASES) + len(NOT_NOTEBOOKS))


def test_feedback_file_per_student(graded) -> None:
    _, out, _ = graded
    text = (out / "feedback" / "crash.md").read_text()
    assert text.startswith("# Feedback for crash")
    assert "## assignment.ipynb: 4 / 6 points" in text and "raised RuntimeError: boom" in text
    assert "**Total: 4 / 6 points**" in text
    assert sorted(p.stem for p in (out / "feedback").glob("*.md")) == sorted([*CASES, *NOT_NOTEBOOKS])


def test_regrading_one_student_keeps_the_others(graded) -> None:
    submissions, out, rows = graded
    before = (out / "grades.csv").read_text()
    code = cli(["grade", str(submissions), "--source", str(SOURCE.parent), "--out", str(out),
                "--students", "correct", "--timeout", str(TIMEOUT_S)])
    assert code == 0
    assert (out / "grades.csv").read_text() == before, "re-grading an unchanged submission changes nothing"
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")], "no temp files left behind"


def test_unknown_student_and_missing_folder_are_clear_errors(graded, tmp_path, capsys) -> None:
    submissions, out, _ = graded
    assert cli(["grade", str(submissions), "--source", str(SOURCE.parent), "--out", str(out),
                "--students", "nobody"]) == 2
    assert "no submission folder for student(s) ['nobody']" in capsys.readouterr().err
    assert cli(["grade", str(tmp_path / "nowhere"), "--source", str(SOURCE.parent)]) == 2
    assert "no such folder of submissions" in capsys.readouterr().err


def test_a_stopped_helper_counts_as_dead_and_is_replaced() -> None:
    """A submission that SIGSTOPs the helper cannot stall grading: the run ends, the next one works."""
    source = nbformat.read(SOURCE, as_version=4)
    exercise_list = load_sources([SOURCE])[0].exercises
    stopper = copy.deepcopy(source)
    _cell(stopper, EX1).source += "\nimport os, signal\nos.kill(os.getppid(), signal.SIGSTOP)"

    def job(nb) -> dict:
        plan = plan_submission(source, nb, exercise_list)
        return plan.job()

    with Zygote(["torch"], grace_s=3.0) as helper:
        started = time.monotonic()
        stopped = helper.run(job(stopper), timeout_s=20.0, memory_bytes=MEMORY)  # room for a loaded CI to reach the stop
        assert stopped.helper_died and stopped.returncode is None
        assert time.monotonic() - started < 120, "the run ended at the time limit plus grace (and a restart)"
        fine = helper.run(job(source), timeout_s=TIMEOUT_S, memory_bytes=MEMORY)
        assert [r["passed"] for r in fine.records if r.get("event") == "test"] == [True, True, True]
