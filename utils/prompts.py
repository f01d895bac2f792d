"""Prompts that every corpus can encode: characters outside the vocabulary are dropped (after lowercasing if need be)."""

from __future__ import annotations

import re

from utils.i18n.text import tr


def corpus_prompt(tokenizer, text: str) -> tuple[list[int], str]:
    """Token ids of `text` made encodable by `tokenizer`, and the text they spell (`tokenizer.encode(text) == ids`).

    Characters the vocabulary lacks are lowercased, then dropped. A tokenizer with a boundary token
    (items such as names) gets it first, as its training items do, and, when its vocabulary has no
    space, each run of whitespace becomes one boundary, so words stay apart as items ('.return.the.',
    not 'returnthe'). Empty: the boundary alone.
    """
    known = set(tokenizer.vocab)
    boundary = tokenizer.boundary
    if boundary is not None and " " not in known:
        text = re.sub(r"\s+", boundary, text)  # words become items
    kept = "".join(ch if ch in known else ch.lower() for ch in text)
    kept = "".join(ch for ch in kept if ch in known)
    if boundary is not None:
        kept = boundary + kept.lstrip(boundary)  # one boundary first, as a training item starts
        kept = re.sub(re.escape(boundary) + "{2,}", boundary, kept)  # words between boundaries: never empty items
    if not kept:
        raise ValueError(tr("no character of {text!r} is in the vocabulary, and the tokenizer has no boundary token",
                            text=text))
    ids = tokenizer.encode(kept)
    return ids, kept


__all__ = ["corpus_prompt"]
