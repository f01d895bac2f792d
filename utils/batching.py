"""Batches for training and evaluation: random windows of a long text; framed, padded items."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import torch

from utils.interface import IGNORE_INDEX

Batch = tuple[torch.Tensor, torch.Tensor]


def random_windows(
    tokens: torch.Tensor, batch_size: int, block_size: int, generator: torch.Generator | None = None
) -> Batch:
    """`batch_size` random windows of `block_size` tokens: inputs x (B, T) and next-token targets y (B, T)."""
    if tokens.dim() != 1:
        raise ValueError(f"expected a 1-D tensor of token ids, got shape {tuple(tokens.shape)}")
    if block_size < 1 or batch_size < 1:
        raise ValueError(f"block_size and batch_size must be at least 1, got {block_size} and {batch_size}")
    if tokens.numel() <= block_size:
        raise ValueError(f"text of {tokens.numel()} tokens is too short for windows of {block_size} + 1 tokens")
    starts = torch.randint(0, tokens.numel() - block_size, (batch_size,), generator=generator)  # (B,)
    offsets = torch.arange(block_size + 1)  # (T+1,)
    windows = tokens[starts[:, None] + offsets[None, :]]  # (B, T+1)
    return windows[:, :-1], windows[:, 1:]


def frame_items(items: Sequence[torch.Tensor | Sequence[int]], boundary_id: int) -> Batch:
    """Frame each item as '.item' -> 'item.' and pad: x (B, L) padded with the boundary id, y (B, L) with IGNORE_INDEX."""
    if len(items) == 0:
        raise ValueError("cannot frame an empty list of items")
    items = [torch.as_tensor(item, dtype=torch.long) for item in items]
    longest = max(item.numel() for item in items) + 1
    x = torch.full((len(items), longest), boundary_id, dtype=torch.long)  # (B, L)
    y = torch.full((len(items), longest), IGNORE_INDEX, dtype=torch.long)  # (B, L)
    for row, item in enumerate(items):
        n = item.numel()
        x[row, 1 : n + 1] = item
        y[row, :n] = item
        y[row, n] = boundary_id
    return x, y


def random_items(
    items: Sequence[torch.Tensor], batch_size: int, boundary_id: int, generator: torch.Generator | None = None
) -> Batch:
    """A batch of `batch_size` random items, framed and padded (see frame_items)."""
    picks = torch.randint(0, len(items), (batch_size,), generator=generator).tolist()
    return frame_items([items[i] for i in picks], boundary_id)


def batch_sampler(
    data: torch.Tensor | Sequence[torch.Tensor],
    batch_size: int,
    block_size: int | None = None,
    boundary_id: int | None = None,
    generator: torch.Generator | None = None,
) -> Callable[[], Batch]:
    """A function returning a fresh random batch each call: windows for text, framed items for items."""
    if isinstance(data, torch.Tensor):
        if block_size is None:
            raise ValueError("running text needs a block_size (the window length)")
        return lambda: random_windows(data, batch_size, block_size, generator)
    if boundary_id is None:
        raise ValueError("items need the tokenizer's boundary_id to frame them")
    return lambda: random_items(data, batch_size, boundary_id, generator)


def sequential_batches(
    data: torch.Tensor | Sequence[torch.Tensor],
    batch_size: int,
    block_size: int = 256,
    boundary_id: int | None = None,
) -> Iterator[Batch]:
    """Every target exactly once, in order: text in consecutive chunks of `block_size`, items framed."""
    if isinstance(data, torch.Tensor):
        if data.numel() < 2:
            raise ValueError("need at least 2 tokens to make a prediction")
        chunks = [data[i : i + block_size + 1] for i in range(0, data.numel() - 1, block_size)]
        for start in range(0, len(chunks), batch_size):
            group = chunks[start : start + batch_size]
            length = max(c.numel() for c in group) - 1
            x = torch.zeros((len(group), length), dtype=torch.long)  # (B, T)
            y = torch.full((len(group), length), IGNORE_INDEX, dtype=torch.long)  # (B, T)
            for row, chunk in enumerate(group):
                x[row, : chunk.numel() - 1] = chunk[:-1]
                y[row, : chunk.numel() - 1] = chunk[1:]
            yield x, y
        return
    if boundary_id is None:
        raise ValueError("items need the tokenizer's boundary_id to frame them")
    for start in range(0, len(data), batch_size):
        yield frame_items(data[start : start + batch_size], boundary_id)
