"""Every check in a hidden-test block says what failed: no bare `assert`, no check without its message.

A student reads a hidden test's failure only as its message in the grade book ("failed in the hidden
tests: AssertionError" tells them nothing), so each `assert` between `### BEGIN HIDDEN TESTS` and
`### END HIDDEN TESTS` of every notebook carries a message, and each call of a `utils.checks`
function its message argument, neither an empty string.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest

from utils.grading.notebook import hidden_blocks, is_test

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[0-9][0-9]_*.ipynb"))
MESSAGE_ARGUMENT = {"check": 1, "check_close": 2, "check_shape": 2, "check_type": 2, "check_distribution": 1}
MESSAGE_KEYWORD = {"check": "message", "check_close": "name", "check_shape": "name", "check_type": "name",
                   "check_distribution": "name"}


def _empty(node: ast.expr | None) -> bool:
    """True for no message at all or a literal empty (or blank) string."""
    return node is None or (isinstance(node, ast.Constant) and isinstance(node.value, str) and not node.value.strip())


def _called_name(call: ast.Call) -> str | None:
    """`check` for check(...) and for checks.check(...); None for other calls."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def silent_checks(code: str) -> list[str]:
    """The asserts and check calls of `code` that carry no message, as 'line N: source'."""
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Assert) and _empty(node.msg):
            found.append(f"line {node.lineno}: {ast.unparse(node)[:90]}")
        elif isinstance(node, ast.Call) and _called_name(node) in MESSAGE_ARGUMENT:
            name = _called_name(node)
            position, keyword = MESSAGE_ARGUMENT[name], MESSAGE_KEYWORD[name]
            given = node.args[position] if len(node.args) > position else next(
                (k.value for k in node.keywords if k.arg == keyword), None)
            if _empty(given):
                found.append(f"line {node.lineno}: {ast.unparse(node)[:90]}")
    return found


def hidden_code(source: str) -> list[str]:
    """The code of each hidden-test block of a cell's source."""
    lines = source.splitlines()
    return ["\n".join(lines[begin + 1 : end]) for begin, end in hidden_blocks(source)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name.split("_")[0])
def test_every_hidden_check_carries_a_message(path: Path) -> None:
    problems = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code" or not is_test(cell):
            continue
        for code in hidden_code(cell.source):
            where = cell.metadata.get("nbgrader", {}).get("grade_id")
            problems += [f"{where}, hidden block {problem}" for problem in silent_checks(code)]
    assert not problems, (f"{path.name}: give each hidden assert a message (`assert ok, 'what failed'`) and each check "
                          f"its message: {problems}")


def test_the_rule_finds_silent_checks() -> None:
    code = ("assert x\nassert y, ''\nassert z, 'z must hold'\ncheck(a, '')\ncheck(b, message='b')\n"
            "check_close(c, d, name=' ')\nchecks.check_shape(e, (1,), 'e')\nif f:\n    assert g\n")
    assert [problem.split(":")[0] for problem in silent_checks(code)] == ["line 1", "line 2", "line 4", "line 6", "line 9"]


def test_hidden_code_is_the_blocks_only() -> None:
    source = "assert visible\n### BEGIN HIDDEN TESTS\nassert hidden, 'h'\n### END HIDDEN TESTS\nassert after\n"
    assert hidden_code(source) == ["assert hidden, 'h'"]
