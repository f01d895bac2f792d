"""Character-level and whitespace-word-level tokenizers with a boundary token and strict or UNK encoding.

Tokenization beyond characters and whitespace words (BPE, WordPiece, ...) is out of scope
for the course. Special tokens come first in the vocabulary: the boundary token (which
frames items such as names, e.g. ``.emma.``) and then the unknown token, when used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from utils.i18n.text import tr

_WORD_PATTERN = re.compile(r"\n|[^\s]+")


class Tokenizer:
    """A fixed vocabulary of symbols with encode/decode; subclasses define how text splits into symbols."""

    level = "symbol"

    def __init__(self, symbols: Iterable[str], boundary: str | None = None, unk: str | None = None):
        specials = [s for s in (boundary, unk) if s is not None]
        if boundary is not None and boundary == unk:
            raise ValueError("the boundary and unknown tokens must differ")
        ordinary = sorted(set(symbols) - set(specials))
        self.vocab: list[str] = specials + ordinary
        self.stoi: dict[str, int] = {s: i for i, s in enumerate(self.vocab)}
        self.boundary = boundary
        self.unk = unk

    @property
    def vocab_size(self) -> int:
        """Number of symbols, special tokens included."""
        return len(self.vocab)

    @property
    def boundary_id(self) -> int:
        """Id of the boundary token (raises if the tokenizer has none)."""
        if self.boundary is None:
            raise ValueError("this tokenizer has no boundary token; build it with boundary=...")
        return self.stoi[self.boundary]

    def split(self, text: str) -> list[str]:
        """Split text into symbols (before the vocabulary lookup)."""
        raise NotImplementedError

    def join(self, symbols: Sequence[str]) -> str:
        """Inverse of split."""
        raise NotImplementedError

    def encode(self, text: str) -> list[int]:
        """Text to token ids; unknown symbols map to the UNK token, or raise ValueError without one."""
        symbols = self.split(text)
        if self.unk is not None:
            unk_id = self.stoi[self.unk]
            return [self.stoi.get(s, unk_id) for s in symbols]
        unknown = sorted({s for s in symbols if s not in self.stoi})
        if unknown:
            shown = ", ".join(repr(s) for s in unknown[:10])
            raise ValueError(tr("{count} symbol(s) not in the vocabulary: {symbols}. Remove them from the text, or build "
                                "the tokenizer with unk='<unk>' to map them to an unknown token.",
                                count=len(unknown), symbols=shown))
        return [self.stoi[s] for s in symbols]

    def decode(self, ids: Iterable[int]) -> str:
        """Token ids back to text."""
        ids = [int(i) for i in ids]
        bad = [i for i in ids if not 0 <= i < self.vocab_size]
        if bad:
            raise ValueError(f"token ids {bad[:10]} are outside the vocabulary of size {self.vocab_size}")
        return self.join([self.vocab[i] for i in ids])

    def frame(self, item: str) -> list[int]:
        """Encode one item framed by boundary tokens on both sides: '.emma.'."""
        return [self.boundary_id, *self.encode(item), self.boundary_id]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for checkpoints."""
        return {"level": self.level, "vocab": list(self.vocab), "boundary": self.boundary, "unk": self.unk}

    @staticmethod
    def from_dict(state: dict[str, Any]) -> "Tokenizer":
        """Rebuild a tokenizer saved with to_dict()."""
        cls = {"char": CharTokenizer, "word": WordTokenizer}.get(state.get("level"))
        if cls is None:
            raise ValueError(f"unknown tokenizer level {state.get('level')!r}")
        return cls(state["vocab"], boundary=state["boundary"], unk=state["unk"])

    def __repr__(self) -> str:
        return f"{type(self).__name__}(vocab_size={self.vocab_size}, boundary={self.boundary!r}, unk={self.unk!r})"


class CharTokenizer(Tokenizer):
    """One token per character."""

    level = "char"

    def split(self, text: str) -> list[str]:
        return list(text)

    def join(self, symbols: Sequence[str]) -> str:
        return "".join(symbols)

    @classmethod
    def from_text(cls, text: str, boundary: str | None = None, unk: str | None = None) -> "CharTokenizer":
        """Vocabulary = the characters of `text` (plus special tokens)."""
        if not text:
            raise ValueError("cannot build a vocabulary from an empty text")
        if boundary is not None and boundary in text:
            raise ValueError(f"the boundary token {boundary!r} occurs in the text; choose another symbol")
        return cls(set(text), boundary=boundary, unk=unk)


class WordTokenizer(Tokenizer):
    """Whitespace words: runs of non-space characters, with line breaks kept as their own token.

    Round trip: decode(encode(s)) == s for text whose words are separated by single spaces
    and which has no spaces around line breaks; other whitespace is normalised that way.
    """

    level = "word"

    def split(self, text: str) -> list[str]:
        return _WORD_PATTERN.findall(text)

    def join(self, symbols: Sequence[str]) -> str:
        out: list[str] = []
        for symbol in symbols:
            if out and symbol != "\n" and out[-1] != "\n":
                out.append(" ")
            out.append(symbol)
        return "".join(out)

    @classmethod
    def from_text(
        cls, text: str, boundary: str | None = None, unk: str | None = "<unk>", min_count: int = 1
    ) -> "WordTokenizer":
        """Vocabulary = words of `text` seen at least `min_count` times (plus special tokens)."""
        words = _WORD_PATTERN.findall(text)
        if not words:
            raise ValueError("cannot build a vocabulary from an empty text")
        if min_count < 1:
            raise ValueError(f"min_count must be at least 1, got {min_count}")
        if boundary is not None and boundary in set(words):
            raise ValueError(f"the boundary token {boundary!r} occurs in the text; choose another symbol")
        counts: dict[str, int] = {}
        for word in words:
            counts[word] = counts.get(word, 0) + 1
        kept = {w for w, c in counts.items() if c >= min_count}
        if min_count > 1 and unk is None:
            raise ValueError("min_count > 1 drops words, so an unk token is needed; pass unk='<unk>'")
        return cls(kept, boundary=boundary, unk=unk)


def build_tokenizer(
    text: str, level: str = "char", boundary: str | None = None, unk: str | None = None
) -> Tokenizer:
    """A character or word tokenizer whose vocabulary is taken from `text`."""
    if level == "char":
        return CharTokenizer.from_text(text, boundary=boundary, unk=unk)
    if level == "word":
        return WordTokenizer.from_text(text, boundary=boundary, unk=unk)
    raise ValueError(f"unknown tokenizer level {level!r}: use 'char' or 'word'")
