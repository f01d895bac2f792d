"""Tang poems: the 全唐诗 files of the chinese-poetry dataset, in simplified characters, and its quatrains.

Two corpora (registered in utils/data.py)
    tang    every poem of 全唐诗 (the chinese-poetry dataset, MIT licence), one poem a line,
            converted to simplified characters with OpenCC ('t2s'); exact duplicates dropped.
            Its 58 JSON files are read from $LM_DATA_MIRROR/chinese-poetry/, else from the cache,
            else downloaded from the dataset's GitHub repository at the pinned commit; every file
            is checked against its SHA-256 (utils/corpora/tang_sources.sha256).
    tang5   the five-character quatrains (五言绝句) of `tang`: poems of exactly four lines of five
            characters punctuated ``XXXXX，XXXXX。XXXXX，XXXXX。``, embedded in the package
            (utils/corpora/tang5.txt, built by scripts/build_tang_corpus.py; see PROVENANCE.md),
            so it needs no network.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from utils import data

REPOSITORY = "chinese-poetry/chinese-poetry"
COMMIT = "99ebbef7e1345c0985c44b9fd96a3f9e776f117b"
MIRROR_FOLDER = "chinese-poetry"  # under $LM_DATA_MIRROR and under the cache folder
CORPORA_DIR = Path(__file__).resolve().parent / "corpora"
MANIFEST = CORPORA_DIR / "tang_sources.sha256"
QUATRAIN_FILE = CORPORA_DIR / "tang5.txt"

HANZI = "[\u3400-\u4dbf\u4e00-\u9fff]"  # CJK unified ideographs and extension A
QUATRAIN_5 = re.compile(f"(?:{HANZI}{{5}}，{HANZI}{{5}}。){{2}}")  # 五言绝句: 4 lines of 5, ，。，。
LINE_LENGTH, LINES, PUNCTUATION = 5, 4, "，。，。"


def source_files() -> list[tuple[str, str]]:
    """(path inside the dataset, sha256) of every 全唐诗 file the `tang` corpus reads, in order."""
    entries = []
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        if line.strip():
            digest, path = line.split(maxsplit=1)
            entries.append((path.lstrip("*"), digest))
    return entries


def raw_url(path: str) -> str:
    """The file's raw download address on GitHub at the pinned commit."""
    return f"https://raw.githubusercontent.com/{REPOSITORY}/{COMMIT}/{quote(path)}"


def source_path(path: str, sha256: str, opener: data.Opener | None = None) -> Path:
    """A verified local copy of one dataset file: the mirror, else the cache, else a download."""
    info = data.CorpusInfo("tang", "items", f"全唐诗 file {path}", filename=f"{MIRROR_FOLDER}/{path}",
                           url=raw_url(path), sha256=sha256)
    mirror = os.environ.get(data.MIRROR_ENV_VAR)
    if mirror:
        candidate = Path(mirror).expanduser() / MIRROR_FOLDER / path
        if candidate.exists():
            if data.sha256_of(candidate) != sha256:
                raise ValueError(f"{candidate} does not match the expected sha256 {sha256}: replace it with "
                                 f"the file of commit {COMMIT} or unset ${data.MIRROR_ENV_VAR}")
            return candidate
    cached = data.cache_dir() / MIRROR_FOLDER / path
    if cached.exists():
        if data.sha256_of(cached) == sha256:
            return cached
        cached.unlink()  # corrupt or stale: never let it pass as good
    return data.download(info, cached, opener)


@lru_cache(maxsize=1)
def _converter():
    try:
        from opencc import OpenCC
    except ImportError as error:  # pragma: no cover - opencc is in requirements.txt
        raise ImportError("the Tang corpus needs OpenCC: pip install opencc") from error
    return OpenCC("t2s")


def to_simplified(text: str) -> str:
    """Traditional to simplified characters with OpenCC's 't2s' conversion."""
    return _converter().convert(text)


def poem_line(poem: dict) -> str:
    """One poem of the dataset as one line: its paragraphs joined, whitespace removed, simplified."""
    paragraphs = poem.get("paragraphs")
    if not isinstance(paragraphs, list):
        raise ValueError(f"a poem needs a list of 'paragraphs', got {type(paragraphs).__name__}")
    return re.sub(r"\s+", "", to_simplified("".join(paragraphs)))


def poems_from_files(paths: list[Path]) -> list[str]:
    """Every poem of the given 全唐诗 JSON files, one string each, in file order, exact duplicates dropped."""
    seen: set[str] = set()
    poems = []
    for path in paths:
        for poem in json.loads(Path(path).read_text(encoding="utf-8")):
            line = poem_line(poem)
            if line and line not in seen:
                seen.add(line)
                poems.append(line)
    return poems


def load_tang_text(opener: data.Opener | None = None) -> str:
    """The `tang` corpus: every poem of 全唐诗 in simplified characters, one a line."""
    paths = [source_path(path, digest, opener) for path, digest in source_files()]
    return "\n".join(poems_from_files(paths)) + "\n"


def is_quatrain(poem: str) -> bool:
    """True when `poem` is a five-character quatrain: 4 lines of 5 characters, punctuated ，。，。."""
    return QUATRAIN_5.fullmatch(poem) is not None


def quatrains(poems: list[str]) -> list[str]:
    """The five-character quatrains among `poems`, in order."""
    return [poem for poem in poems if is_quatrain(poem)]


def build_quatrain_text(mirror: str | os.PathLike) -> str:
    """The text of the embedded `tang5` corpus, rebuilt from a mirror folder that holds chinese-poetry/."""
    root = Path(mirror).expanduser() / MIRROR_FOLDER
    paths = []
    for path, digest in source_files():
        file = root / path
        if not file.exists():
            raise FileNotFoundError(f"{file} is missing: the mirror must hold chinese-poetry/{path}")
        if data.sha256_of(file) != digest:
            raise ValueError(f"{file} does not match the expected sha256 {digest} (commit {COMMIT})")
        paths.append(file)
    return "\n".join(quatrains(poems_from_files(paths))) + "\n"


def load_quatrain_text() -> str:
    """The `tang5` corpus: the embedded five-character quatrains, one a line."""
    if not QUATRAIN_FILE.exists():
        raise FileNotFoundError(f"{QUATRAIN_FILE} is missing: rebuild it with scripts/build_tang_corpus.py")
    return QUATRAIN_FILE.read_text(encoding="utf-8")


def quatrain_lines(poem: str) -> list[str]:
    """A poem cut after each ， or 。 into its lines (punctuation kept): '白日依山尽，黄河入海流。' -> 2 lines."""
    return [line for line in re.split(r"(?<=[，。])", poem) if line]


def form_report(poems: list[str]) -> dict[str, float]:
    """Shares of `poems` with 4 lines, with every line 5 characters long, with ，。，。 in place, and all three."""
    if not poems:
        raise ValueError("form_report needs at least one poem")
    four = lengths = punct = both = 0
    for poem in poems:
        lines = quatrain_lines(poem)
        n_ok = len(lines) == LINES
        len_ok = bool(lines) and all(len(line) == LINE_LENGTH + 1 and line[-1] in "，。" for line in lines)
        p_ok = n_ok and "".join(line[-1] for line in lines) == PUNCTUATION
        four, lengths, punct = four + n_ok, lengths + len_ok, punct + p_ok
        both += is_quatrain(poem)
    n = len(poems)
    return {"four_lines": four / n, "line_lengths": lengths / n, "punctuation": punct / n, "form": both / n}


def form_positions(written: int) -> str:
    """What a five-character quatrain allows after `written` symbols: 'comma', 'period', 'end' or 'character'."""
    if written < 0:
        raise ValueError(f"written counts symbols already written and must be >= 0, got {written}")
    if written >= LINES * (LINE_LENGTH + 1):
        return "end"
    if written % (LINE_LENGTH + 1) == LINE_LENGTH:
        return "comma" if written % (2 * (LINE_LENGTH + 1)) == LINE_LENGTH else "period"
    return "character"


def constrain_to_form(logits, written: int, comma_id: int, period_id: int, boundary_id: int):
    """Next-token logits (B, V) with -inf wherever a five-character quatrain forbids the token after `written` symbols."""
    place = form_positions(written)
    out = logits.clone()  # (B, V)
    if place == "character":
        out[:, [comma_id, period_id, boundary_id]] = float("-inf")
        return out
    allowed = {"comma": comma_id, "period": period_id, "end": boundary_id}[place]
    out[:, :allowed] = float("-inf")
    out[:, allowed + 1 :] = float("-inf")
    return out
