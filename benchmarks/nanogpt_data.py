"""nanoGPT's shakespeare_char data files written from the local corpus (no download): for bench_gpu's speed comparison.

nanoGPT's format (data/shakespeare_char/prepare.py there): the vocabulary is the sorted set of the text's characters,
the first 90 % of the text is train, the rest val; train.bin and val.bin are uint16 ids, meta.pkl holds
{"vocab_size", "itos", "stoi"}. Written from the format's description; none of nanoGPT's code is here.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np


def nanogpt_split(text: str) -> tuple[str, str]:
    """nanoGPT's split of a text: the first 90 % of the characters, the rest."""
    cut = int(len(text) * 0.9)
    return text[:cut], text[cut:]


def write_nanogpt_data(checkout: Path, text: str, dataset: str = "shakespeare_char") -> Path:
    """Write train.bin, val.bin and meta.pkl for `text` into checkout/data/<dataset>; return that folder."""
    chars = sorted(set(text))
    if len(chars) > 2**16:
        raise ValueError(f"{len(chars)} distinct characters do not fit nanoGPT's uint16 ids")
    stoi = {ch: i for i, ch in enumerate(chars)}
    itos = dict(enumerate(chars))
    folder = Path(checkout) / "data" / dataset
    folder.mkdir(parents=True, exist_ok=True)
    for name, part in zip(("train", "val"), nanogpt_split(text)):
        ids = np.array([stoi[ch] for ch in part], dtype=np.uint16)  # (len(part),)
        ids.tofile(folder / f"{name}.bin")
    with open(folder / "meta.pkl", "wb") as f:
        pickle.dump({"vocab_size": len(chars), "itos": itos, "stoi": stoi}, f)
    return folder


def read_nanogpt_split(folder: Path, name: str) -> str:
    """Decode folder/<name>.bin back to text with folder/meta.pkl (the inverse of write_nanogpt_data)."""
    with open(Path(folder) / "meta.pkl", "rb") as f:
        meta = pickle.load(f)
    ids = np.fromfile(Path(folder) / f"{name}.bin", dtype=np.uint16)  # (N,)
    return "".join(meta["itos"][int(i)] for i in ids)
