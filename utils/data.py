"""Corpora by name: an embedded default, real downloads (checksummed, atomic), a mirror, fixed splits.

Corpora
    pydocs       Python's own help texts (``pydoc_data.topics``, about 465 KB of English),
                 shipped with every Python: the default, needs no network and is the
                 same for every student on the same Python version.
    shakespeare  Tiny Shakespeare (1.1 MB), the char-rnn corpus.
    names        32,033 US baby names, one a line (makemore's names.txt).
    tang         every Tang poem of the chinese-poetry dataset (全唐诗, 58 JSON files), simplified
                 with OpenCC, one poem a line (utils/tang.py reads, checks and converts the files).
    tang5        its five-character quatrains (五言绝句), embedded (utils/corpora/tang5.txt).

Where a downloadable corpus is looked for, in order
    1. $LM_DATA_MIRROR/<file>  (an offline folder; the tests point it at ../shared/data)
    2. the cache folder, $LM_DATA_CACHE or ~/.cache/lm-course/<file>
    3. a download from the corpus's public home into the cache.
Every file is checked against its SHA-256 each time it is read, and a download is
written to a temporary file that replaces the cached one only after the check passed.

Splits (fixed, the same for every model family in the course)
    running text  first 80% train, next 10% validation, last 10% test, each cut moved
                  forward to the next line break so no word is split.
    items         shuffled once with random.Random(1234), then 80% / 10% / 10%.
"""

from __future__ import annotations

import hashlib
import os
import random
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Literal

from utils.i18n.text import tr

MIRROR_ENV_VAR = "LM_DATA_MIRROR"
CACHE_ENV_VAR = "LM_DATA_CACHE"
SPLIT_FRACTIONS = (0.8, 0.1, 0.1)
ITEM_SHUFFLE_SEED = 1234


@dataclass(frozen=True)
class CorpusInfo:
    """Where a corpus comes from and what shape it has."""

    name: str
    kind: Literal["text", "items"]
    description: str
    filename: str | None = None
    url: str | None = None
    sha256: str | None = None
    size: int | None = None


CORPORA: dict[str, CorpusInfo] = {
    "pydocs": CorpusInfo(
        "pydocs", "text", "Python's built-in help texts (pydoc_data.topics), embedded, no network"
    ),
    "shakespeare": CorpusInfo(
        "shakespeare",
        "text",
        "Tiny Shakespeare, 40,000 lines (char-rnn)",
        filename="tinyshakespeare.txt",
        url="https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt",
        sha256="86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed",
        size=1115394,
    ),
    "names": CorpusInfo(
        "names",
        "items",
        "32,033 US baby names, one a line (makemore)",
        filename="names.txt",
        url="https://raw.githubusercontent.com/karpathy/makemore/master/names.txt",
        sha256="0a30b5557f192f32ab962680889aac5f6fda0f4cecf40a6d0b5694f58ea8cc4d",
        size=228145,
    ),
    "tang": CorpusInfo("tang", "items", "every Tang poem (全唐诗, chinese-poetry), simplified, one a line; downloaded"),
    "tang5": CorpusInfo("tang5", "items", "the five-character quatrains (五言绝句) of `tang`, embedded, no network"),
}
DEFAULT_CORPUS = "pydocs"


@dataclass(frozen=True)
class Splits:
    """Train, validation and test parts of a corpus: strings for text, lists of strings for items."""

    kind: Literal["text", "items"]
    train: str | list[str]
    val: str | list[str]
    test: str | list[str]


def corpus_info(name: str) -> CorpusInfo:
    """Look up a corpus by name, with a clear error listing the known names."""
    if name not in CORPORA:
        raise ValueError(tr("unknown corpus {name!r}: choose one of {known}", name=name, known=", ".join(sorted(CORPORA))))
    return CORPORA[name]


def cache_dir() -> Path:
    """The folder downloads are cached in ($LM_DATA_CACHE or ~/.cache/lm-course)."""
    configured = os.environ.get(CACHE_ENV_VAR)
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "lm-course"


def sha256_of(path: Path) -> str:
    """SHA-256 hex digest of a file, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _embedded_pydocs() -> str:
    import pydoc_data.topics

    topics = pydoc_data.topics.topics
    return "\n\n".join(topics[key].strip("\n") for key in sorted(topics)) + "\n"


Opener = Callable[[str], object]


def _built_text(name: str) -> str:
    """The text of a corpus made by code rather than read from one file (pydocs, tang, tang5)."""
    if name == "pydocs":
        return _embedded_pydocs()
    from utils import tang  # imported here: utils.tang imports this module

    if name == "tang":
        return tang.load_tang_text()
    if name == "tang5":
        return tang.load_quatrain_text()
    raise ValueError(f"corpus {name!r} has neither a file nor a builder")


def download(info: CorpusInfo, destination: Path, opener: Opener | None = None) -> Path:
    """Download `info.url` to `destination` atomically; keep it only if its SHA-256 matches."""
    opener = opener or (lambda url: urllib.request.urlopen(url, timeout=30))
    destination.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=destination.name + ".", suffix=".part", dir=destination.parent)
    temp_path = Path(temp_name)
    digest = hashlib.sha256()
    try:
        with os.fdopen(handle, "wb") as out, opener(info.url) as response:  # type: ignore[attr-defined]
            for block in iter(lambda: response.read(1 << 16), b""):
                digest.update(block)
                out.write(block)
            out.flush()
            os.fsync(out.fileno())
        if digest.hexdigest() != info.sha256:
            raise ValueError(
                f"checksum mismatch for the download of {info.name!r} from {info.url}: "
                f"expected sha256 {info.sha256}, got {digest.hexdigest()}; the file was not kept. "
                "Try again later, or put a good copy in the folder named by $" + MIRROR_ENV_VAR
            )
        os.replace(temp_path, destination)
    except (urllib.error.URLError, OSError) as error:
        raise FileNotFoundError(tr(
            "could not download corpus {name!r} from {url} ({error}). Offline? Put {file} (sha256 {sha256}) in a folder "
            "and set ${variable} to that folder, or copy it to {destination}.", name=info.name, url=info.url,
            error=error, file=info.filename, sha256=info.sha256, variable=MIRROR_ENV_VAR, destination=destination)
        ) from error
    finally:
        if temp_path.exists():
            temp_path.unlink()
    return destination


def corpus_path(name: str, opener: Opener | None = None) -> Path:
    """Path of a verified local copy of a downloadable corpus: mirror, else cache, else download."""
    info = corpus_info(name)
    if info.filename is None:
        raise ValueError(f"corpus {name!r} is not one downloadable file; use load_text({name!r})")
    mirror = os.environ.get(MIRROR_ENV_VAR)
    if mirror:
        candidate = Path(mirror).expanduser() / info.filename
        if candidate.exists():
            if sha256_of(candidate) != info.sha256:
                raise ValueError(
                    f"{candidate} does not match the expected sha256 {info.sha256}: "
                    f"replace it with a good copy of {info.filename} or unset ${MIRROR_ENV_VAR}"
                )
            return candidate
    cached = cache_dir() / info.filename
    if cached.exists():
        if sha256_of(cached) == info.sha256:
            return cached
        cached.unlink()  # corrupt or stale: never let it pass as good
    return download(info, cached, opener)


def load_text(name: str = DEFAULT_CORPUS) -> str:
    """The whole corpus as one string (for items corpora: one item a line)."""
    info = corpus_info(name)
    if info.filename is None:
        text = _built_text(name)
    else:
        text = corpus_path(name).read_text(encoding="utf-8")
    if not text.strip():
        raise ValueError(f"corpus {name!r} is empty")
    return text


def load_items(name: str) -> list[str]:
    """The items of a line-per-item corpus (blank lines dropped)."""
    info = corpus_info(name)
    if info.kind != "items":
        raise ValueError(tr("corpus {name!r} is running text, not items; use load_text({name!r})", name=name))
    return [line.strip() for line in load_text(name).splitlines() if line.strip()]


def _cut_at_line(text: str, fraction: float) -> int:
    position = int(len(text) * fraction)
    newline = text.find("\n", position)
    return len(text) if newline == -1 else newline + 1


def split_text(text: str) -> tuple[str, str, str]:
    """Split running text 80/10/10 at line breaks: (train, validation, test)."""
    if not text:
        raise ValueError("cannot split an empty text")
    first = _cut_at_line(text, SPLIT_FRACTIONS[0])
    second = max(first, _cut_at_line(text, SPLIT_FRACTIONS[0] + SPLIT_FRACTIONS[1]))
    return text[:first], text[first:second], text[second:]


def split_items(items: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Shuffle items once with a fixed seed and split 80/10/10: (train, validation, test)."""
    if not items:
        raise ValueError("cannot split an empty list of items")
    shuffled = list(items)
    random.Random(ITEM_SHUFFLE_SEED).shuffle(shuffled)
    n_train = int(len(shuffled) * SPLIT_FRACTIONS[0])
    n_val = int(len(shuffled) * SPLIT_FRACTIONS[1])
    return shuffled[:n_train], shuffled[n_train : n_train + n_val], shuffled[n_train + n_val :]


def load_splits(name: str = DEFAULT_CORPUS) -> Splits:
    """The course's fixed train/validation/test split of a corpus."""
    info = corpus_info(name)
    if info.kind == "items":
        return Splits("items", *split_items(load_items(name)))
    return Splits("text", *split_text(load_text(name)))
