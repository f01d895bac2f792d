"""A corpus split and tokenized, ready for batching: the object the notebooks pass around."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import torch

from utils.data import DEFAULT_CORPUS, load_splits
from utils.i18n.text import tr
from utils.tokenizers import CharTokenizer, Tokenizer, WordTokenizer

ITEM_BOUNDARY = "."


@dataclass
class Dataset:
    """Tokenized train/validation/test parts: one long id tensor for text, a list of id tensors for items."""

    name: str
    kind: Literal["text", "items"]
    tokenizer: Tokenizer
    train: torch.Tensor | list[torch.Tensor]
    val: torch.Tensor | list[torch.Tensor]
    test: torch.Tensor | list[torch.Tensor]

    def part(self, split: str) -> torch.Tensor | list[torch.Tensor]:
        """The tokens of 'train', 'val' or 'test'."""
        if split not in ("train", "val", "test"):
            raise ValueError(tr("unknown split {split!r}: use 'train', 'val' or 'test'", split=split))
        return getattr(self, split)

    @property
    def vocab_size(self) -> int:
        """Size of the tokenizer's vocabulary."""
        return self.tokenizer.vocab_size

    def num_tokens(self, split: str) -> int:
        """Number of tokens to predict in a split (items count their closing boundary)."""
        part = self.part(split)
        if isinstance(part, torch.Tensor):
            return part.numel() - 1
        return sum(item.numel() + 1 for item in part)


def _ids(tokenizer: Tokenizer, text: str) -> torch.Tensor:
    return torch.tensor(tokenizer.encode(text), dtype=torch.long)


def load_dataset(name: str = DEFAULT_CORPUS, level: str = "char") -> Dataset:
    """Load a corpus by name, split it the course's fixed way and tokenize it.

    Characters: the vocabulary is every character of the whole corpus. Words: the
    vocabulary is the training split's words, and others become '<unk>'. Items (names)
    get the boundary token '.' that frames each item.
    """
    splits = load_splits(name)
    if level not in ("char", "word"):
        raise ValueError(tr("unknown tokenizer level {level!r}: use 'char' or 'word'", level=level))
    if splits.kind == "items":
        everything = "".join(splits.train) + "".join(splits.val) + "".join(splits.test)
        boundary = ITEM_BOUNDARY
        if level == "char":
            tokenizer: Tokenizer = CharTokenizer.from_text(everything, boundary=boundary)
        else:
            tokenizer = WordTokenizer.from_text(" ".join(splits.train), boundary=boundary)
        parts = [[_ids(tokenizer, item) for item in part] for part in (splits.train, splits.val, splits.test)]
        return Dataset(name, "items", tokenizer, *parts)
    if level == "char":
        tokenizer = CharTokenizer.from_text(splits.train + splits.val + splits.test)
    else:
        tokenizer = WordTokenizer.from_text(splits.train)
    parts = [_ids(tokenizer, text) for text in (splits.train, splits.val, splits.test)]
    return Dataset(name, "text", tokenizer, *parts)


def token_stream(dataset: Dataset, split: str = "train") -> torch.Tensor:
    """A split as one 1-D id tensor: text as it is; items joined by the boundary token (`.emma.olivia.`)."""
    part = dataset.part(split)
    if isinstance(part, torch.Tensor):
        return part
    boundary = torch.tensor([dataset.tokenizer.boundary_id], dtype=torch.long)
    pieces = [boundary]
    for item in part:
        pieces += [item.to(torch.long), boundary]
    return torch.cat(pieces)  # (sum of item lengths + number of items + 1,)
