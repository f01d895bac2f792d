"""Prompts that every corpus can encode: characters outside the vocabulary are dropped (after lowercasing if need be)."""

from __future__ import annotations


def corpus_prompt(tokenizer, text: str) -> tuple[list[int], str]:
    """Token ids of `text` made encodable by `tokenizer`, and the text they spell.

    Characters the vocabulary lacks are lowercased, then dropped; a tokenizer with a boundary
    token (items such as names) gets it first, as its training items do. Empty: the boundary alone.
    """
    known = set(tokenizer.vocab)
    kept = "".join(ch if ch in known else ch.lower() for ch in text)
    kept = "".join(ch for ch in kept if ch in known)
    ids = tokenizer.encode(kept) if kept else []
    if tokenizer.boundary is not None:
        ids = [tokenizer.boundary_id] + ids
    if not ids:
        raise ValueError(f"no character of {text!r} is in the vocabulary, and the tokenizer has no boundary token")
    return ids, kept


__all__ = ["corpus_prompt"]
