"""Deny by operation: a denied torch operation is caught however it is spelled, at the monitor and in the grader.

Unit level: `deny.CallMonitor` watches one "student" function (the frame named `student`) calling each
spelling of each operation the course denies, and the same calls made outside the student's code.
Grader level: `python -m utils.grading grade` (the sandbox where bubblewrap works here, else `--sandbox
off`, said in the test's output) grades students of tests/fixtures/grading/operations/operations.ipynb
that reach each denied operation by another spelling, and students that use every spelling of softmax
where the exercise (cached attention) denies only the fused attention kernel.
"""

from __future__ import annotations

import copy
import csv
import functools
import os
import re
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest
import torch
import torch.nn.functional as F

from utils.grading import bwrap
from utils.grading.deny import TAMPERING_MODES, CallMonitor, DenyTable
from utils.grading.notebook import grade_id, is_solution, read_notebook, validate_source
from utils.grading.release import release_notebook

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "grading" / "operations" / "operations.ipynb"
SANDBOX = "required" if bwrap.bwrap_works()[0] else "off"  # this file is about denied operations, not the sandbox

_x = torch.randn(2, 5)
_q, _kv = torch.randn(1, 2, 1, 4), torch.randn(1, 2, 3, 4)
_logits, _targets = torch.randn(4, 6), torch.tensor([0, 5, 2, 2])
_h, _W_ih, _W_hh = torch.randn(2, 4), torch.randn(12, 5), torch.randn(12, 4)


def _copy(function: Callable) -> Callable:
    """A copy of a Python function: the same code object under a new function."""
    function = getattr(function, "__wrapped__", function)
    return types.FunctionType(function.__code__, function.__globals__, "my_copy", function.__defaults__,
                              function.__closure__)


def _mha() -> torch.Tensor:
    """torch's own MultiheadAttention: its functional form runs the fused attention kernel (need_weights=False)."""
    layer = torch.nn.MultiheadAttention(4, 2, batch_first=True)
    return layer(_kv[0], _kv[0], _kv[0], need_weights=False)[0]


def _math_backend() -> torch.Tensor:
    """Fused attention forced onto its reference path: no fused kernel runs, the call still shows."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    with sdpa_kernel(SDPBackend.MATH):
        return F.scaled_dot_product_attention(_q, _kv, _kv)


def _gru_cell_module() -> torch.Tensor:
    cell = torch.nn.GRUCell(5, 4, bias=False)
    return cell(_x, _h)


def _params() -> list[torch.nn.Parameter]:
    parameter = torch.nn.Parameter(torch.randn(3))
    parameter.grad = torch.randn(3)
    return [parameter]


SPELLINGS: dict[str, tuple[str, dict[str, Callable[[], object]]]] = {
    # denied path: (operation, {spelling: a call that reaches it})
    "torch.softmax": ("softmax", {
        "torch.softmax": lambda: torch.softmax(_x, -1),
        "Tensor.softmax": lambda: _x.softmax(-1),
        "F.softmax": lambda: F.softmax(_x, dim=-1),
        "torch.special.softmax": lambda: torch.special.softmax(_x, -1),
        "nn.Softmax": lambda: torch.nn.Softmax(dim=-1)(_x),
        "torch.ops.aten.softmax.int": lambda: torch.ops.aten.softmax.int(_x, -1),
        "torch.ops.aten._softmax": lambda: torch.ops.aten._softmax(_x, -1, False),
        "a partial": lambda: functools.partial(torch.softmax, dim=-1)(_x),
        "an alias": lambda: (lambda sm: sm(_x, -1))(torch.softmax),
        "a copy of F.softmax": lambda: _copy(F.softmax)(_x, -1),
        "the package's helper": lambda: __import__("utils.sampling").sampling.softmax_with_temperature(_x, 2.0),
    }),
    "torch.nn.functional.scaled_dot_product_attention": ("scaled_dot_product_attention", {
        "F.scaled_dot_product_attention": lambda: F.scaled_dot_product_attention(_q, _kv, _kv),
        "torch._C._nn": lambda: torch._C._nn.scaled_dot_product_attention(_q, _kv, _kv),
        "torch.ops.aten": lambda: torch.ops.aten.scaled_dot_product_attention(_q, _kv, _kv),
        "the math backend": _math_backend,
        "nn.MultiheadAttention": _mha,
    }),
    "torch.nn.functional.cross_entropy": ("cross_entropy", {
        "F.cross_entropy": lambda: F.cross_entropy(_logits, _targets),
        "nn.CrossEntropyLoss": lambda: torch.nn.CrossEntropyLoss()(_logits, _targets),
        "torch._C._nn.cross_entropy_loss": lambda: torch._C._nn.cross_entropy_loss(_logits, _targets),
        "torch.ops.aten.cross_entropy_loss": lambda: torch.ops.aten.cross_entropy_loss(_logits, _targets),
        "probability targets": lambda: F.cross_entropy(_logits, F.one_hot(_targets, 6).float()),
        "a copy": lambda: _copy(F.cross_entropy)(_logits, _targets),
    }),
    "torch.nn.functional.nll_loss": ("nll_loss", {
        "F.nll_loss": lambda: F.nll_loss(_logits.log_softmax(-1), _targets),
        "nn.NLLLoss": lambda: torch.nn.NLLLoss()(_logits.log_softmax(-1), _targets),
        "inside F.cross_entropy": lambda: F.cross_entropy(_logits, _targets),
        "torch.ops.aten.nll_loss_nd": lambda: torch.ops.aten.nll_loss_nd(_logits.log_softmax(-1), _targets),
    }),
    "torch.gru_cell": ("gru_cell", {
        "torch.gru_cell": lambda: torch.gru_cell(_x, _h, _W_ih, _W_hh),
        "torch._VF.gru_cell": lambda: torch._VF.gru_cell(_x, _h, _W_ih, _W_hh),
        "torch.ops.aten.gru_cell": lambda: torch.ops.aten.gru_cell(_x, _h, _W_ih, _W_hh),
        "nn.GRUCell": _gru_cell_module,
    }),
    "torch.nn.functional.batch_norm": ("batch_norm", {
        "F.batch_norm": lambda: F.batch_norm(_x, None, None, training=True),
        "torch.batch_norm": lambda: torch.batch_norm(_x, None, None, None, None, True, 0.1, 1e-5, False),
        "nn.BatchNorm1d": lambda: torch.nn.BatchNorm1d(5, affine=False, track_running_stats=False)(_x),
        "torch.native_batch_norm": lambda: torch.native_batch_norm(_x, None, None, None, None, True, 0.1, 1e-5),
        "F.instance_norm": lambda: F.instance_norm(_x.T[None]),
    }),
    "torch.nn.utils.clip_grad_norm_": ("clip_grad_norm_", {
        "torch.nn.utils.clip_grad_norm_": lambda: torch.nn.utils.clip_grad_norm_(_params(), 1.0),
        "torch.nn.utils.clip_grad.clip_grad_norm_": lambda: torch.nn.utils.clip_grad.clip_grad_norm_(_params(), 1.0),
        "a copy": lambda: _copy(torch.nn.utils.clip_grad_norm_)(_params(), 1.0),
        "the deprecated clip_grad_norm": lambda: torch.nn.utils.clip_grad_norm(_params(), 1.0),
    }),
}
CASES = [(path, spelling) for path, (_, calls) in SPELLINGS.items() for spelling in calls]


def _monitor(paths: list[str]) -> CallMonitor:
    table = DenyTable.build({"ex": paths})
    assert not table.errors, table.errors
    return CallMonitor(table, lambda frame: frame.f_code.co_name == "student")


def _watch(paths: list[str], call: Callable[[], object], as_student: bool = True) -> list:
    """The violations seen while `call` runs inside a function of the student's code (or of nobody's)."""
    monitor = _monitor(paths)

    def student() -> object:
        return call()

    def library() -> object:
        return call()

    monitor.start(paths)
    try:
        (student if as_student else library)()
    finally:
        found = monitor.stop()
    return found


@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize(("path", "spelling"), CASES, ids=[f"{p.split('.')[-1]}-{s}" for p, s in CASES])
def test_each_spelling_is_the_denied_operation(path: str, spelling: str) -> None:
    call = SPELLINGS[path][1][spelling]
    found = _watch([path], call)
    assert [(v.path, v.caller) for v in found] == [(path, "student")], f"{spelling}: {found}"
    assert _watch([path], call, as_student=False) == [], "a call outside the student's code is never blamed"


def test_other_operations_are_not_taken_for_the_denied_one() -> None:
    """Denying the fused attention leaves softmax alone; denying softmax leaves log_softmax alone (its own op)."""
    attention = "torch.nn.functional.scaled_dot_product_attention"
    for spelling, call in SPELLINGS["torch.softmax"][1].items():
        assert _watch([attention], call) == [], spelling
    assert _watch([attention], lambda: torch.softmax(_q @ _kv.transpose(-2, -1), -1) @ _kv) == []
    assert _watch(["torch.softmax"], lambda: _x.log_softmax(-1).exp()) == []
    assert _watch(["torch.nn.functional.cross_entropy"], lambda: F.nll_loss(_logits.log_softmax(-1), _targets)) == []


def test_removing_the_grader_modes_is_tampering() -> None:
    from torch.overrides import _pop_mode

    found = _watch(["torch.softmax"], lambda: _pop_mode())
    assert [v.path for v in found] == [TAMPERING_MODES]
    from torch.overrides import _get_current_function_mode_stack
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack

    assert _get_current_function_mode_stack() == [] and _get_current_dispatch_mode_stack() == [], "nothing left on"


def test_watching_only_python_functions_pushes_no_mode() -> None:
    from torch.overrides import _get_current_function_mode_stack

    monitor = _monitor(["utils.sampling.top_k_filter"])
    monitor.start(["utils.sampling.top_k_filter"])
    try:
        assert _get_current_function_mode_stack() == []
    finally:
        monitor.stop()


# ---- the real grader on the fixture notebook ----

EX = {n: f"ex{n}_{name}" for n, name in
      enumerate(["softmax", "cached_attention", "cross_entropy", "gru_step", "batch_norm", "clip", "describe"], 1)}
SOFTMAX = [  # the k-th way to write `softmax(scores)` over the last dimension
    "torch.softmax({s}, dim=-1)", "({s}).softmax(dim=-1)", "F.softmax({s}, dim=-1)", "torch.special.softmax({s}, dim=-1)",
    "torch.nn.Softmax(dim=-1)({s})", "torch.ops.aten._softmax({s}, -1, False)", "_sm({s}, -1)",
    "functools.partial(torch.softmax, dim=-1)({s})", "_copied_softmax({s}, -1)",
]
SOFTMAX_PRELUDE = ("import functools, types\n_sm = torch.softmax\n"
                   "_copied_softmax = types.FunctionType(F.softmax.__code__, F.softmax.__globals__, 'mine', "
                   "F.softmax.__defaults__)\n")
DENIED_SOLUTIONS = {  # exercise -> the k-th way to reach the denied operation
    3: ["return F.cross_entropy(logits, targets)", "return torch.nn.CrossEntropyLoss()(logits, targets)",
        "return torch._C._nn.cross_entropy_loss(logits, targets)",
        "return F.nll_loss(logits.log_softmax(-1), targets)",
        "return F.cross_entropy(logits, F.one_hot(targets, logits.shape[-1]).float())"],
    4: ["return torch.gru_cell(x, h, W_ih, W_hh)", "return torch._VF.gru_cell(x, h, W_ih, W_hh)",
        "return torch.ops.aten.gru_cell(x, h, W_ih, W_hh)",
        "cell = torch.nn.GRUCell(x.shape[1], h.shape[1], bias=False)\n    with torch.no_grad():\n"
        "        cell.weight_ih.copy_(W_ih)\n        cell.weight_hh.copy_(W_hh)\n    return cell(x, h).detach()"],
    5: ["return F.batch_norm(x, None, None, training=True, eps=eps)",
        "return torch.batch_norm(x, None, None, None, None, True, 0.1, eps, False)",
        "return torch.nn.BatchNorm1d(x.shape[1], eps=eps, affine=False, track_running_stats=False)(x)",
        "return torch.native_batch_norm(x, None, None, None, None, True, 0.1, eps)[0]",
        "return F.instance_norm(x.T[None], eps=eps)[0].T"],
    6: ["return torch.nn.utils.clip_grad_norm_(parameters, max_norm)",
        "from torch.nn.utils.clip_grad import clip_grad_norm_ as _c\n    return _c(parameters, max_norm)",
        "import types\n    f = torch.nn.utils.clip_grad_norm_.__wrapped__\n"
        "    return types.FunctionType(f.__code__, f.__globals__, 'mine', f.__defaults__)(parameters, max_norm)",
        "return torch.nn.utils.clip_grad_norm(parameters, max_norm)"],
}
SIGNATURES = {1: "def temperature_softmax(logits, T):", 2: "def cached_attention_step(q, K, V):",
              3: "def cross_entropy(logits, targets):", 4: "def gru_step(x, h, W_ih, W_hh):",
              5: "def batch_normalise(x, eps=1e-5):", 6: "def clip_gradients(parameters, max_norm):",
              7: "def describe(x):"}
ATTENTION = [  # the k-th way to call the fused attention the cached-attention exercise denies
    "return F.scaled_dot_product_attention(q, K, V)", "return torch._C._nn.scaled_dot_product_attention(q, K, V)",
    "return torch.ops.aten.scaled_dot_product_attention(q, K, V)",
    "from torch.nn.attention import SDPBackend, sdpa_kernel\n    with sdpa_kernel(SDPBackend.MATH):\n"
    "        return F.scaled_dot_product_attention(q, K, V)",
    "attend = F.scaled_dot_product_attention\n    return attend(q, K, V)",
]
PARTS = {  # student -> describe(x), and the expected points of the 3-point exercise in parts
    "parts_biased_std": ("def describe(x):\n    return float(x.mean()), float(x.std(unbiased=False))", 1.0),
    "parts_std_raises": ("def describe(x):\n    if len(x) > 4:\n        raise ValueError('too long')\n"
                         "    return float(x.mean()), float(x.std())", 0.0),
    "parts_both_wrong": ("def describe(x):\n    return float(x.sum()), float(x.var())", 0.0),
    "parts_not_floats": ("def describe(x):\n    return x.mean(), x.std()", 0.0),
}


def _solution(n: int, body: str) -> str:
    return f"{SIGNATURES[n]}\n    {body}"


def _students(source: nbformat.NotebookNode) -> dict[str, dict[str, str]]:
    """student -> {solution grade_id: new source}; the source's solution elsewhere."""
    students: dict[str, dict[str, str]] = {"solution": {}}
    for k, spelling in enumerate(SOFTMAX, 1):
        chosen = {EX[1]: SOFTMAX_PRELUDE + _solution(1, "return " + spelling.format(s="logits / T")),
                  EX[2]: SOFTMAX_PRELUDE + _solution(2, "scores = q @ K.transpose(-2, -1) / math.sqrt(q.shape[-1])\n"
                                                        "    return " + spelling.format(s="scores") + " @ V")}
        for n, bodies in DENIED_SOLUTIONS.items():
            if k <= len(bodies):
                chosen[EX[n]] = _solution(n, bodies[k - 1])
        students[f"spelling_{k}"] = chosen
    for k, body in enumerate(ATTENTION, 1):
        students[f"attention_{k}"] = {EX[2]: _solution(2, body)}
    for student, (source_code, _) in PARTS.items():
        students[student] = {EX[7]: source_code}
    return students


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[tuple[str, str], dict]:
    """Every student graded by `python -m utils.grading grade` in one run; rows by (student, test id)."""
    root = tmp_path_factory.mktemp("operations")
    source = read_notebook(FIXTURE)
    for student, solutions in {**_students(source), "stub": None}.items():
        nb = release_notebook(copy.deepcopy(source)) if solutions is None else copy.deepcopy(source)
        for cell in nb.cells:
            if is_solution(cell) and solutions and grade_id(cell) in solutions:
                cell.source = solutions[grade_id(cell)]
        (root / "submissions" / student).mkdir(parents=True)
        nbformat.write(nb, root / "submissions" / student / FIXTURE.name)
    command = [sys.executable, "-m", "utils.grading", "grade", str(root / "submissions"), "--source",
               str(FIXTURE.parent), "--out", str(root / "out"), "--jobs", "2", "--timeout", "120", "--sandbox", SANDBOX]
    env = {**os.environ, "IPYTHONDIR": str(root / "ipython"), "MPLCONFIGDIR": str(root / "mpl")}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    print(f"graded with --sandbox {SANDBOX}: {done.stdout.strip()}")
    assert done.returncode == 0, done.stderr[-3000:]
    with open(root / "out" / "grades.csv", newline="", encoding="utf-8") as file:
        return {(row["student"], row["grade_id"]): row for row in csv.DictReader(file)}


def _row(graded: dict, student: str, n: int) -> tuple[float, str]:
    row = graded[(student, EX[n] + "_test")]
    return float(row["points"]), row["feedback"]


def test_the_fixture_solution_passes_and_the_stub_scores_zero(graded) -> None:
    exercises = validate_source(read_notebook(FIXTURE))
    for exercise in exercises:
        assert float(graded[("solution", exercise.test_id)]["points"]) == exercise.points
        assert float(graded[("stub", exercise.test_id)]["points"]) == 0


@pytest.mark.parametrize("k", range(1, len(SOFTMAX) + 1))
def test_every_softmax_spelling_scores_zero_where_softmax_is_denied(graded, k: int) -> None:
    points, feedback = _row(graded, f"spelling_{k}", 1)
    assert points == 0 and re.match(r"^failed: this exercise asks you to write softmax with a temperature; "
                                    r"temperature_softmax calls torch\.softmax", feedback), feedback


@pytest.mark.parametrize("k", range(1, len(SOFTMAX) + 1))
def test_every_softmax_spelling_scores_alike_where_attention_is_denied(graded, k: int) -> None:
    points, feedback = _row(graded, f"spelling_{k}", 2)  # the copy of F.softmax is flagged for review (__code__)
    assert points == 2 and re.match(r"^passed( \[flagged for manual review: uses [^]]*\])?$", feedback), feedback


@pytest.mark.parametrize("k", range(1, len(ATTENTION) + 1))
def test_every_fused_attention_spelling_scores_zero(graded, k: int) -> None:
    points, feedback = _row(graded, f"attention_{k}", 2)
    assert points == 0 and re.match(r"^failed: this exercise asks you to write cached attention; cached_attention_step "
                                    r"calls torch\.nn\.functional\.scaled_dot_product_attention", feedback), feedback


@pytest.mark.parametrize(("n", "k"), [(n, k) for n, bodies in DENIED_SOLUTIONS.items() for k in range(1, len(bodies) + 1)])
def test_every_spelling_of_the_other_denied_operations_scores_zero(graded, n: int, k: int) -> None:
    points, feedback = _row(graded, f"spelling_{k}", n)
    exercise = next(e for e in validate_source(read_notebook(FIXTURE)) if e.test_id == EX[n] + "_test")
    assert points == 0 and feedback.startswith(f"failed: Exercise {n} ({exercise.title}) asks you to write this "
                                               "yourself;"), feedback
    assert any(f"calls {path}" in feedback for path in exercise.denied), feedback


@pytest.mark.parametrize("student", sorted(PARTS))
def test_parts_earn_their_own_points_and_are_named(graded, student: str) -> None:
    points, feedback = _row(graded, student, 7)
    assert points == PARTS[student][1], feedback
    if student == "parts_biased_std":
        assert feedback.startswith("partly passed, 1 of 3 points: ✓ the mean of samples of 2 to 50 values; "
                                   "✗ the unbiased standard deviation (divide by N - 1) (hidden test): "
                                   "AssertionError: the standard deviation of 2 values"), feedback
    elif student == "parts_std_raises":
        assert feedback.startswith("failed: ✗ the mean of samples of 2 to 50 values (hidden test): ValueError: too long;"
                                   " ✗ the unbiased standard deviation"), feedback
    elif student == "parts_not_floats":
        assert feedback.startswith("failed: CheckFailed: describe(x) returns two floats"), feedback
