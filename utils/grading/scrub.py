"""Keep hidden tests out of feedback: any run of hidden-test source quoted in a message is cut out.

The hidden tests run in the student's process, so a submission can read them there and put them
into an exception message, a printed log or a file name that ends up in its feedback. The parent
removes from every feedback text each stretch of WINDOW or more characters (whitespace collapsed)
that occurs in a hidden-test block of the notebook (whichever exercise it belongs to) and nowhere in
what the student may see: the released notebook (so names like `temperature_softmax` stay
readable), the literal text of the hidden tests' own assert messages and the names of the test
cells' parts (both written to be shown).
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from utils.grading.gradebook import Row
from utils.grading.notebook import Exercise, hidden_blocks
from utils.grading.release import release_notebook

WINDOW = 16  # shortest quoted stretch that counts as a leak (characters, whitespace collapsed)
CUT = "[hidden test removed]"
_SPACE = re.compile(r"\s+")


def hidden_text(exercises: list[Exercise]) -> list[str]:
    """The lines inside the notebook's hidden-test blocks, whitespace collapsed, markers excluded."""
    found = []
    for exercise in exercises:
        lines = exercise.test_source.splitlines()
        for begin, end in hidden_blocks(exercise.test_source):
            found += [_SPACE.sub(" ", line).strip() for line in lines[begin + 1 : end]]
    return [line for line in found if line]


def assert_messages(exercises: list[Exercise]) -> list[str]:
    """The literal text of the hidden tests' assert messages and part names (both written to be shown)."""
    found = []
    for exercise in exercises:
        try:
            tree = ast.parse(exercise.test_source)
        except SyntaxError:
            continue
        blocks = hidden_blocks(exercise.test_source)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert) and node.msg is not None and any(
                    begin < node.lineno - 1 < end for begin, end in blocks):
                found += [sub.value for sub in ast.walk(node.msg)
                          if isinstance(sub, ast.Constant) and isinstance(sub.value, str)]
        found += [name for name, _ in exercise.parts]
    return found


def public_text(source_nb: object, exercises: list[Exercise] | None = None) -> str:
    """What the student may see, whitespace collapsed: the released notebook and the hidden asserts' messages."""
    texts = [cell.source for cell in release_notebook(source_nb).cells] + assert_messages(exercises or [])
    return "\n".join(_SPACE.sub(" ", text) for text in texts)


def scrub(text: str, hidden: list[str], public: str = "", window: int = WINDOW) -> str:
    """`text` with every stretch of >= `window` characters of the hidden lines, not in `public`, replaced by CUT."""
    if not hidden or not text:
        return text
    flat = _SPACE.sub(" ", text)
    corpus = "\n".join(hidden)
    cut = [False] * len(flat)
    for start in range(len(flat) - window + 1):
        piece = flat[start : start + window]
        if piece in corpus and piece not in public:
            cut[start : start + window] = [True] * window
    short = [line for line in hidden if len(line) < window and len(line) >= 6 and line not in public]
    for line in short:  # a whole short hidden line (`assert f(x) == 3`) counts too
        for match in re.finditer(re.escape(line), flat):
            cut[match.start() : match.end()] = [True] * (match.end() - match.start())
    if not any(cut):
        return text
    pieces, inside = [], False
    for char, hidden_char in zip(flat, cut):
        if hidden_char and not inside:
            pieces.append(CUT)
        if not hidden_char:
            pieces.append(char)
        inside = hidden_char
    return "".join(pieces)


def scrub_rows(rows: list[Row], exercises: list[Exercise], source_nb: object) -> list[Row]:
    """The rows with hidden-test source cut out of their feedback."""
    hidden, public = hidden_text(exercises), public_text(source_nb, exercises)
    return [replace(row, feedback=scrub(row.feedback, hidden, public)) for row in rows]
