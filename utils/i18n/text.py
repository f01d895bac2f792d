"""What code cells print and draw, in the notebook's language: `tr("English text {n}", n=3)`.

The one call for every string a person reads (printed results, figure titles, axes and legends,
widget labels, check and error messages), in utils and in new notebook cells alike:
`tr("loss after {steps} steps", steps=n)`, never `tr(f"...")` (the English with its `{fields}` is
the key). A table of labels made at import, translated when drawn, marks its strings with
`mark("...")` and calls `tr(label)` later. `python -m utils.i18n messages` collects every literal
of `tr(...)` and `mark(...)` in utils/ and the notebooks into the catalog.

The English string is the key (gettext's msgid). Translations live in the gettext catalog
`utils/i18n/messages/<lang>.po`, read with polib; a string with no current translation (missing or
fuzzy) comes out in English, so nothing ever breaks for want of a translation.

The language reaches the kernel without any code in the notebook: the Chinese notebooks live in a
folder named `zh` (notebooks/zh/, and the student edition's zh/), and a kernel knows its notebook's
folder, as JupyterLab's `JPY_SESSION_NAME` (the notebook's path) or, under nbval, nbclient and the
grader, its working folder. `$LM_LANG` (en or zh) overrides both, for scripts and tests.
`in_language("zh")` overrides all three for the code inside it (the grader's feedback to one student).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

import polib

LANG_ENV_VAR = "LM_LANG"
LANGUAGES = ("en", "zh")
MESSAGES_DIR = Path(__file__).resolve().parent / "messages"
FOLDER_LANGUAGES = {"zh": "zh"}  # a notebook in a folder of this name speaks that language
_CHOSEN: ContextVar[str | None] = ContextVar("lm_language", default=None)  # set by in_language()


@contextmanager
def in_language(language: str) -> Iterator[None]:
    """Inside this block (this thread or task only) tr() speaks `language`, whatever the environment says."""
    if language not in LANGUAGES:
        raise ValueError(f"{language!r} is not a course language: use one of {', '.join(LANGUAGES)}")
    token = _CHOSEN.set(language)
    try:
        yield
    finally:
        _CHOSEN.reset(token)


def _folder_language(path: str | os.PathLike) -> str | None:
    """The language of a folder named like one of FOLDER_LANGUAGES, else None."""
    return FOLDER_LANGUAGES.get(Path(path).name)


def notebook_language() -> str:
    """The running notebook's language: in_language()'s, else $LM_LANG, else its folder's (`zh/` is Chinese), else 'en'."""
    if _CHOSEN.get() is not None:
        return _CHOSEN.get()
    chosen = os.environ.get(LANG_ENV_VAR, "").strip().lower()
    if chosen:
        if chosen not in LANGUAGES:
            raise ValueError(f"${LANG_ENV_VAR}={chosen!r} is not a course language: use one of {', '.join(LANGUAGES)}")
        return chosen
    session = os.environ.get("JPY_SESSION_NAME", "")
    if session.endswith(".ipynb"):
        return _folder_language(Path(session).parent) or "en"
    try:
        return _folder_language(os.getcwd()) or "en"
    except OSError:  # the working folder was removed
        return "en"


@lru_cache(maxsize=None)
def catalog(language: str) -> dict[str, str]:
    """English -> translation for `language`, current entries only (no fuzzy or empty ones)."""
    path = MESSAGES_DIR / f"{language}.po"
    if language == "en" or not path.exists():
        return {}
    try:
        entries = polib.pofile(str(path), wrapwidth=0)
    except OSError:  # unreadable here (a file mode of 0600 seen by the grader's sandboxed uid): English
        return {}
    return {entry.msgid: entry.msgstr for entry in entries
            if entry.msgstr.strip() and "fuzzy" not in entry.flags and not entry.obsolete}


def mark(message: str, /) -> str:
    """`message` unchanged: marks a string for the catalog that is translated later with tr() (gettext's N_)."""
    return message


def tr(message: str, /, **fields: object) -> str:
    """`message` in the notebook's language, with `{name}` fields filled in from `fields` (str.format).

    A translation whose fields do not fit (a catalog error the tests catch) falls back to the English.
    """
    text = catalog(notebook_language()).get(message, message)
    if not fields:
        return text
    try:
        return text.format(**fields)
    except (KeyError, IndexError, ValueError):
        if text is message:
            raise
        return message.format(**fields)
