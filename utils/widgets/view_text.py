"""The words a widget's browser view writes, in the notebook's language: a table its JavaScript reads.

Each anywidget view (static/*.js) writes its labels through `lmSay(model, "English {field}", {field})`
(static/view_text.js), which looks the English up in the widget's synced `view_text` traitlet.
The widget fills that table from a tuple of `mark("...")` literals, so that
`python -m utils.i18n messages` finds the strings and tr() translates them when the widget is built.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from utils.i18n.text import tr

STATIC = Path(__file__).resolve().parent / "static"


def view_text(messages: Iterable[str]) -> dict[str, str]:
    """English -> what the view shows in the notebook's language, for each of `messages`."""
    return {english: tr(english) for english in messages}


def view_module(*scripts: str) -> str:
    """A view's ES module: static/view_text.js (lmSay) followed by the named scripts of static/."""
    return "\n".join((STATIC / name).read_text(encoding="utf-8") for name in ("view_text.js", *scripts))
