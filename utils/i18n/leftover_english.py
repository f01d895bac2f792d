"""English prose left in a Chinese text: runs of English words outside code, links, quotes and math,
and English words inside LaTeX's \\text{...}.

What stays English on purpose is not prose: code and inline code, URLs and link targets, HTML tags,
quoted examples (“the cat sat”, "..."), and names and Title-Case titles (a run needs three
all-lowercase words). Sentence-case paper titles and glossed terms go in an allow-list.
"""

from __future__ import annotations

import re
from pathlib import Path

MIN_WORDS = 4  # a run of this many English words, ...
MIN_LOWERCASE = 3  # ... this many of them all lowercase, is prose (names and Title-Case titles are not)

FENCED = re.compile(r"```.*?```|~~~.*?~~~", re.S)
HIDDEN = [re.compile(p, re.S) for p in (
    r"`[^`\n]*`",  # inline code
    r"https?://\S+|www\.\S+",  # URLs
    r"\]\([^)]*\)",  # link targets
    r"<[^>\n]+>",  # HTML tags
    r"“[^”\n]*”|\"[^\"\n]*\"|「[^」\n]*」",  # quoted examples
    r"\{[A-Za-z_][\w.!:]*\}",  # the fields of a code message
)]
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.S)
TEXT_COMMAND = re.compile(r"\\(?:text|textrm|textit|mbox)\{([^{}]*)\}")
WORD = r"[A-Za-z][A-Za-z'’-]*"
RUN = re.compile(rf"{WORD}(?:[ ,:;/]+{WORD})+")
LOWER = re.compile(r"[a-z]{2,}(?:['’-][a-z]+)*")

# single words that \text{...} may hold in a Chinese formula: names of symbols shared with the code
# (d_\text{model}, n_\text{layer}, W_\text{out}) and words of the English example corpora (\text{cat})
TEXT_SYMBOLS = frozenset("""model head layer out logits base mask lr max_norm kn mle add- pre-ln: post-ln:
    cat mat the king queen man woman uncle aunt""".split())


def prose(text: str) -> str:
    """The text with code, URLs, link targets, HTML tags, quotes and math blanked out."""
    text = FENCED.sub(" ⟂ ", text)
    for pattern in HIDDEN:
        text = pattern.sub(" ⟂ ", text)
    return MATH.sub(" ⟂ ", text)


def normal(phrase: str) -> str:
    """A phrase lowercased, its spacing and end punctuation made uniform, for the allow-list."""
    return re.sub(r"\s+", " ", phrase.lower()).strip(" .,:;?!")


def english_runs(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Runs of English prose in a Chinese text that no allowed phrase contains."""
    found = []
    for match in RUN.finditer(prose(text)):
        words = re.findall(WORD, match.group(0))
        lowercase = [w for w in words if LOWER.fullmatch(w)]
        if len(words) < MIN_WORDS or len(lowercase) < MIN_LOWERCASE:
            continue
        run = normal(match.group(0))
        if not any(run in phrase for phrase in allowed):
            found.append(match.group(0).strip())
    return found


def english_in_formulas(text: str) -> list[str]:
    """The \\text{...} of formulas that hold English words other than the symbol names."""
    found = []
    for formula in MATH.findall(FENCED.sub(" ", text)):
        for content in TEXT_COMMAND.findall(formula):
            names = re.findall(r"[A-Za-z][A-Za-z_:-]*", content.replace("\\_", "_"))
            words = [w.lower() for w in names if re.search("[a-z]", w)]  # KV, NLL: abbreviations pass
            if len(words) > 1 or any(w not in TEXT_SYMBOLS and len(w) > 1 for w in words):
                found.append(f"\\text{{{content}}}")
    return found


def allow_list(path: Path) -> frozenset[str]:
    """The allowed English phrases of a file: one a line, '#' starts a comment."""
    lines = (line.split("#", 1)[0] for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(normal(line) for line in lines if line.strip())
