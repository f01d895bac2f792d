"""Vectorised n-gram counting: n-grams packed into int64 keys, counted with torch.unique, looked up by searchsorted.

Counting and lookups run in NumPy (its sort is many times faster than torch's on CPU);
the tables are stored as torch tensors that share the NumPy memory.

A k-gram (w_1, ..., w_k) over a vocabulary of V tokens is packed into the integer
sum_i w_i * V^(k-i) (base-V digits), so sorting keys sorts n-grams by context, then by the
last token, and each context's n-grams form one contiguous run. No Python loop runs per token.

Two kinds of table per order k:
    raw           values = c(w_1..w_k), the number of times the k-gram occurs.
    continuation  values = N1+(. w_1..w_k), the number of distinct tokens seen just before
                  the k-gram (Kneser-Ney's lower orders); k-grams only ever seen at the very
                  start of a sequence have none and are not stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

INT64_MAX = 2**63 - 1


def check_packable(vocab_size: int, order: int) -> None:
    """Raise ValueError unless every `order`-gram over `vocab_size` tokens fits in one int64 key."""
    if vocab_size ** max(order, 1) > INT64_MAX:
        raise ValueError(
            f"{order}-grams over a vocabulary of {vocab_size} tokens do not fit in 64-bit keys "
            f"({vocab_size}^{order} > 2^63); use a smaller n or a smaller vocabulary"
        )


def pack(windows: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """Pack token windows (..., k) into int64 keys (...,) as base-V numbers; k = 0 gives 0."""
    array = windows.cpu().numpy()
    keys = np.zeros(array.shape[:-1], dtype=np.int64)  # (...,)
    for position in range(array.shape[-1]):  # a loop over the n-gram length, not over tokens
        keys = keys * vocab_size + array[..., position]
    return torch.from_numpy(keys)


def ngram_windows(sequences: Sequence[torch.Tensor], order: int) -> torch.Tensor:
    """All windows of `order` consecutive tokens inside each sequence (none cross two): (N, order)."""
    long_enough = [s for s in sequences if s.numel() >= order]
    if not long_enough:
        return torch.zeros((0, order), dtype=torch.long)
    if len(long_enough) == 1:
        return long_enough[0].unfold(0, order, 1)  # (N, order)
    joined = torch.cat(long_enough)  # (L,)
    lengths = torch.tensor([s.numel() for s in long_enough])
    sequence_of = torch.repeat_interleave(torch.arange(len(long_enough)), lengths)  # (L,)
    windows = joined.unfold(0, order, 1)  # (L - order + 1, order)
    inside = sequence_of[: windows.shape[0]] == sequence_of[order - 1 :]  # start and end in one sequence
    return windows[inside]


@dataclass
class NGramTable:
    """The k-grams of one order with their values, and per context the total and number of distinct next tokens."""

    order: int
    vocab_size: int
    keys: torch.Tensor  # (M,) sorted packed k-grams
    values: torch.Tensor  # (M,) int64 counts (raw or continuation), all > 0
    context_keys: torch.Tensor  # (C,) sorted packed (k-1)-gram contexts
    context_totals: torch.Tensor  # (C,) sum of values over the context's k-grams
    context_types: torch.Tensor  # (C,) number of distinct next tokens with value > 0

    @classmethod
    def from_keys(cls, order: int, vocab_size: int, keys: torch.Tensor, values: torch.Tensor) -> "NGramTable":
        """Build the context statistics from sorted unique k-gram keys and their values."""
        contexts, first, types = np.unique((keys // vocab_size).numpy(), return_index=True, return_counts=True)
        totals = np.add.reduceat(values.numpy(), first) if first.size else np.zeros(0, dtype=np.int64)  # (C,)
        return cls(order, vocab_size, keys, values, *(torch.from_numpy(a) for a in (contexts, totals, types)))

    @property
    def num_ngrams(self) -> int:
        """Number of distinct k-grams stored."""
        return self.keys.numel()

    @property
    def num_contexts(self) -> int:
        """Number of distinct (k-1)-token contexts stored."""
        return self.context_keys.numel()

    def nbytes(self) -> int:
        """Bytes held by the table's tensors."""
        return sum(t.numel() * t.element_size() for t in self.tensors().values())

    def tensors(self) -> dict[str, torch.Tensor]:
        """The table's tensors by name (for checkpoints)."""
        names = ("keys", "values", "context_keys", "context_totals", "context_types")
        return {name: getattr(self, name) for name in names}

    def find_contexts(self, context_keys: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """For packed contexts (P,): their row in the context table, total and type count (0 if never seen)."""
        index, found = _search(self.context_keys.numpy(), context_keys.numpy())
        if not self.num_contexts:
            zeros = torch.zeros(found.shape, dtype=torch.long)
            return torch.from_numpy(index), zeros, zeros
        totals = np.where(found, self.context_totals.numpy()[index], 0)  # (P,)
        types = np.where(found, self.context_types.numpy()[index], 0)  # (P,)
        return torch.from_numpy(index), torch.from_numpy(totals), torch.from_numpy(types)

    def find_values(self, ngram_keys: torch.Tensor) -> torch.Tensor:
        """Values of packed k-grams (...,); 0 for k-grams never seen."""
        if not self.num_ngrams:
            return torch.zeros_like(ngram_keys)
        index, found = _search(self.keys.numpy(), ngram_keys.numpy())
        return torch.from_numpy(np.where(found, self.values.numpy()[index], 0))

    def dense_values(self, context_rows: torch.Tensor, types: torch.Tensor) -> torch.Tensor:
        """Values of every next token for contexts given by their rows (P,) and type counts (P,; 0 = unseen): (P, V)."""
        rows, lengths = context_rows.numpy(), types.numpy()
        run_starts = np.cumsum(self.context_types.numpy()) - self.context_types.numpy()  # (C,) first k-gram of each context
        starts = run_starts[rows] if self.num_contexts else rows  # (P,)
        owner = np.repeat(np.arange(rows.size), lengths)  # (E,) which position each stored k-gram belongs to
        offsets = np.arange(owner.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)  # (E,) index inside the run
        entries = np.repeat(starts, lengths) + offsets  # (E,) rows of the k-gram table
        dense = np.zeros((rows.size, self.vocab_size), dtype=np.int64)  # (P, V)
        dense[owner, self.keys.numpy()[entries] % self.vocab_size] = self.values.numpy()[entries]
        return torch.from_numpy(dense)

    def contains(self, ngram_keys: torch.Tensor) -> torch.Tensor:
        """Boolean mask: which packed k-grams (...,) are stored."""
        return torch.from_numpy(_search(self.keys.numpy(), ngram_keys.numpy())[1])


def _search(sorted_keys: np.ndarray, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of `queries` in `sorted_keys` (clamped) and whether they were found there."""
    if sorted_keys.size == 0:
        return np.zeros(queries.shape, dtype=np.int64), np.zeros(queries.shape, dtype=bool)
    index = np.minimum(np.searchsorted(sorted_keys, queries), sorted_keys.size - 1)
    return index, sorted_keys[index] == queries


def raw_table(sequences: Sequence[torch.Tensor], order: int, vocab_size: int) -> NGramTable:
    """Counts c(w_1..w_k) of every k-gram in the sequences."""
    keys, counts = np.unique(pack(ngram_windows(sequences, order), vocab_size).numpy(), return_counts=True)
    return NGramTable.from_keys(order, vocab_size, torch.from_numpy(keys), torch.from_numpy(counts.astype(np.int64)))


def continuation_table(higher: NGramTable) -> NGramTable:
    """Continuation counts N1+(. w_1..w_k) of k-grams, from the table of (k+1)-grams."""
    order = higher.order - 1
    suffixes = higher.keys.numpy() % (higher.vocab_size**order)  # drop the first token  (M,)
    keys, counts = np.unique(suffixes, return_counts=True)
    counts = torch.from_numpy(counts.astype(np.int64))
    return NGramTable.from_keys(order, higher.vocab_size, torch.from_numpy(keys), counts)


@dataclass
class NGramCounts:
    """Raw tables for orders 1..max_order and continuation tables for orders 1..max_order-1."""

    vocab_size: int
    max_order: int
    raw: list[NGramTable]  # raw[k - 1] holds the k-grams
    continuation: list[NGramTable]  # continuation[k - 1] holds the k-grams, k < max_order

    @classmethod
    def from_sequences(cls, sequences: Sequence[torch.Tensor], vocab_size: int, max_order: int) -> "NGramCounts":
        """Count every order up to `max_order` in one pass per order."""
        check_packable(vocab_size, max_order)
        raw = [raw_table(sequences, k, vocab_size) for k in range(1, max_order + 1)]
        continuation = [continuation_table(raw[k]) for k in range(1, max_order)]
        return cls(vocab_size, max_order, raw, continuation)
