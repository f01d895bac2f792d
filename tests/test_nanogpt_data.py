"""benchmarks/nanogpt_data.py writes nanoGPT's shakespeare_char files; decoding them gives back the corpus split."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from nanogpt_data import nanogpt_split, read_nanogpt_split, write_nanogpt_data  # noqa: E402

from utils.data import load_text  # noqa: E402


def test_format_and_round_trip_on_the_local_corpus(tmp_path):
    """uint16 ids, meta with stoi/itos/vocab_size, 90/10 split; decode(train) + decode(val) == the corpus."""
    text = load_text("shakespeare")
    folder = write_nanogpt_data(tmp_path, text)
    assert folder == tmp_path / "data" / "shakespeare_char"
    meta = pickle.loads((folder / "meta.pkl").read_bytes())
    assert meta["vocab_size"] == len(set(text)) == len(meta["stoi"]) == len(meta["itos"])
    assert all(meta["itos"][i] == ch for ch, i in meta["stoi"].items())
    assert sorted(meta["stoi"]) == list(meta["stoi"]), "nanoGPT numbers the sorted characters"
    train, val = nanogpt_split(text)
    assert len(train) == int(0.9 * len(text)) and train + val == text
    assert (folder / "train.bin").stat().st_size == 2 * len(train), "uint16: two bytes an id"
    assert np.fromfile(folder / "val.bin", dtype=np.uint16).max() < meta["vocab_size"]
    assert read_nanogpt_split(folder, "train") == train
    assert read_nanogpt_split(folder, "val") == val
