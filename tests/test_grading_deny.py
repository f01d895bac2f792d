"""The deny-list: a solution that calls the reference it is asked to write scores 0, however it reaches it.

Also: the instructor's own cells are never blamed for library changes, only the student's cells.
Each case is one student's submission of the fixture assignment, graded by the real grader in one run.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell

from utils.grading.assemble import plan_submission
from utils.grading.deny import CallMonitor, DenyTable, denied_paths, deny_problems, resolve
from utils.grading.grade import load_sources, rows_from_run
from utils.grading.notebook import SourceError, grade_id, validate_source
from utils.grading.sandbox import Zygote, preload_modules

SOURCE = Path(__file__).parent / "fixtures" / "grading" / "source" / "assignment.ipynb"
EX1, EX2 = "ex1_temperature_softmax", "ex2_keep_top_k"
REF1, REF2 = "utils.sampling.softmax_with_temperature", "utils.sampling.top_k_filter"

OWN_EX1 = "def temperature_softmax(logits, T):\n    return torch.softmax(logits / T, dim=-1)"
CASES: dict[str, tuple[dict[str, str], list[str], dict[str, str]]] = {
    # name: ({grade_id: new solution source}, [cells added after the set-up], {grade_id: expected feedback regex})
    "direct": ({EX1: "from utils.sampling import softmax_with_temperature\n"
                     "def temperature_softmax(logits, T):\n    return softmax_with_temperature(logits, T)"},
               [], {EX1: rf"^failed: Exercise 1 \(softmax with temperature\) asks you to write this yourself; "
                        rf"temperature_softmax calls {REF1}, which scores 0 \(while the tests ran\)$"}),
    "alias": ({EX1: "from utils.sampling import softmax_with_temperature as sw\n"
                    "def temperature_softmax(logits, T):\n    return sw(logits, T)"}, [], {EX1: rf"calls {REF1}"}),
    "module_access": ({EX2: "import utils.sampling as s\ndef keep_top_k(logits, k):\n    return s.top_k_filter(logits, k)"},
                      [], {EX1: "^passed$", EX2: rf"^failed: Exercise 2 \(keep the top k\) asks you to write this yourself; keep_top_k calls {REF2}"}),
    "getattr": ({EX1: "import importlib\ndef temperature_softmax(logits, T):\n"
                      "    f = getattr(importlib.import_module('utils.' + 'sampling'), 'softmax_with_' + 'temperature')\n"
                      "    return f(logits, T)"}, [], {EX1: rf"calls {REF1}"}),
    "copy_before_test": ({EX1: "def temperature_softmax(logits, T):\n    return _my_copy(logits, T)"},
                         ["import types, utils.sampling as _s\n_f = _s.softmax_with_temperature\n"
                          "_my_copy = types.FunctionType(_f.__code__, _f.__globals__, 'mine', _f.__defaults__)"],
                         {EX1: rf"calls {REF1}"}),
    "through_other_code": ({EX2: "from utils.sampling import next_token_probs\ndef keep_top_k(logits, k):\n"
                                 "    return next_token_probs(logits, 1.0, top_k=k).log()"},
                           [], {EX2: rf"keep_top_k calls {REF2}"}),
    "precomputed_in_added_cell": ({EX1: "def temperature_softmax(logits, T):\n    return _cache[T]"},
                                  ["from utils.sampling import softmax_with_temperature\n"
                                   "_cache = {2.0: softmax_with_temperature(logits, 2.0)}"],
                                  {EX1: rf"calls {REF1}.* \(in cell \d+\)", EX2: "^passed$"}),
    "switches_the_monitor_off": ({EX1: "import sys\nfrom utils.sampling import softmax_with_temperature as sw\n"
                                       "def temperature_softmax(logits, T):\n    sys.setprofile(None)\n"
                                       "    return sw(logits, T)"}, [], {EX1: r"calls sys\.setprofile, which switches off"}),
    "name_bound_to_reference": ({EX1: "from utils.sampling import softmax_with_temperature as temperature_softmax"}, [],
                                {EX1: rf"temperature_softmax calls {REF1} \(reached as temperature_softmax = {REF1}\)",
                                 EX2: "^passed$"}),
    "partial_of_reference_in_added_cell": ({EX1: "# temperature_softmax is defined in the cell I added above"},
                                           ["import functools\nfrom utils.sampling import softmax_with_temperature\n"
                                            "temperature_softmax = functools.partial(softmax_with_temperature)"],
                                           {EX1: rf"calls {REF1}"}),
    "own_code_passes": ({EX1: OWN_EX1}, [], {EX1: "^passed$", EX2: "^passed$"}),
    "library_change_in_own_cell": ({EX1: "import math\nmath.tau = math.tau + 0.0\n" + OWN_EX1}, [],
                                   {EX1: r"^passed \(the grader undid 1 change\(s\) your code made to library code\)$"}),
}


def _source_with_instructor_change() -> nbformat.NotebookNode:
    """The fixture with an instructor cell and a test cell that change library state (never blamed on the student)."""
    nb = nbformat.read(SOURCE, as_version=4)
    cell = new_code_cell("import math\nmath.tau = math.tau + 0.0  # the instructor's own change to a library")
    cell.metadata["slideshow"] = {"slide_type": "skip"}
    nb.cells.insert(4, cell)
    for test_cell in nb.cells:  # a hidden test that changes a library too: never blamed on the next exercise
        if grade_id(test_cell) == f"{EX1}_test":
            test_cell.source += "\nimport math\nmath.tau = math.tau + 0.0  # the instructor's test changes a library"
    return nb


def _student(source_nb, solutions: dict[str, str], added: list[str]):
    nb = copy.deepcopy(source_nb)
    for cell in nb.cells:
        if grade_id(cell) in solutions:
            cell.source = solutions[grade_id(cell)]
    for offset, text in enumerate(added):
        nb.cells.insert(4 + offset, new_code_cell(text))
    return nb


@pytest.fixture(scope="module")
def graded_rows() -> dict[str, dict[str, object]]:
    source_nb = _source_with_instructor_change()
    source = load_sources([SOURCE])[0]
    source.notebook, source.exercises = source_nb, validate_source(source_nb)
    rows: dict[str, dict[str, object]] = {}
    with Zygote(["torch"] + preload_modules(plan_submission(source_nb, source_nb, []).imports)) as zygote:
        for name, (solutions, added, _) in CASES.items():
            plan = plan_submission(source_nb, _student(source_nb, solutions, added), source.exercises)
            result = zygote.run(plan.job(), 60.0, 4 * 2**30)
            rows[name] = {row.grade_id: row for row in rows_from_run(name, source, plan, result, 60.0)}
    return rows


@pytest.mark.parametrize("case", list(CASES))
def test_each_case_is_graded_as_expected(graded_rows, case: str) -> None:
    expected = CASES[case][2]
    for solution_id, pattern in expected.items():
        test_id = f"{solution_id}_test"
        row = graded_rows[case][test_id]
        expected_points = row.max_points if pattern.startswith("^passed") else 0.0
        assert row.points == pytest.approx(expected_points), (case, row.feedback)
        assert re.search(pattern, row.feedback), f"{case} / {test_id}: {row.feedback}"


def test_untouched_exercises_pass_and_the_instructor_is_never_blamed(graded_rows) -> None:
    """Every row of every case that the case does not target passes with no 'undid' remark."""
    for case, (_, _, expected) in CASES.items():
        for test_id, row in graded_rows[case].items():
            if test_id.removesuffix("_test") not in expected:
                assert row.points == row.max_points and row.feedback.startswith("passed"), (case, row.feedback)
                assert "undid" not in row.feedback, f"{case} / {test_id}: {row.feedback}"


def test_declarations_are_parsed_and_checked() -> None:
    assert denied_paths("# deny: a.b, c.d.e\nx = 1\n#  DENY:  a.b\n") == ["a.b", "c.d.e"]
    assert deny_problems("# deny: causal_mask") and not deny_problems("# deny: utils.attention.causal_mask")
    assert resolve("utils.attention.causal_mask").__name__ == "causal_mask"
    with pytest.raises(LookupError, match="has no attribute path"):
        resolve("utils.attention.no_such_function")
    nb = nbformat.read(SOURCE, as_version=4)
    test_cell = next(c for c in nb.cells if grade_id(c) == f"{EX1}_test")
    test_cell.source = "# deny: softmax\n" + test_cell.source
    with pytest.raises(SourceError, match="not a dotted path"):
        validate_source(nb)
    test_cell.source = test_cell.source.replace("### BEGIN HIDDEN TESTS", "### BEGIN HIDDEN TESTS\n# deny: a.b")
    with pytest.raises(SourceError, match="belongs in the visible part"):
        validate_source(nb)


def test_monitor_blames_only_calls_with_student_code_on_the_stack() -> None:
    """Unit level: a builtin (torch's SDPA) and a Python function, called from 'student' code and from library code."""
    import torch
    import utils.attention as attention

    table = DenyTable.build({"ex": ["torch.nn.functional.scaled_dot_product_attention", "utils.attention.causal_mask"]})
    assert not table.errors
    student_code = {"student"}
    monitor = CallMonitor(table, lambda frame: frame.f_code.co_name in student_code)
    q = torch.randn(1, 1, 3, 4)

    def student() -> None:
        torch.nn.functional.scaled_dot_product_attention(q, q, q)
        attention.causal_mask(3)

    def library() -> None:
        torch.nn.functional.scaled_dot_product_attention(q, q, q)
        attention.causal_mask(3)

    monitor.start(["torch.nn.functional.scaled_dot_product_attention", "utils.attention.causal_mask"])
    library()
    student()
    found = monitor.stop()
    assert sorted(v.path for v in found) == ["torch.nn.functional.scaled_dot_product_attention",
                                             "utils.attention.causal_mask"]
    assert all(v.caller == "student" for v in found)
