"""The corpus loader: embedded default, mirror, cache, checksummed atomic downloads, offline errors, splits."""

import hashlib
import io
import os
import urllib.error
from dataclasses import replace
from pathlib import Path

import pytest

from utils import data
from utils.data import CORPORA, corpus_path, download, load_items, load_splits, load_text, split_items, split_text

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_mirror = pytest.mark.skipif(not SHARED.is_dir(), reason="the offline mirror ../shared/data is absent")


class FakeResponse(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def fake_corpus(payload: bytes):
    info = replace(CORPORA["names"], sha256=hashlib.sha256(payload).hexdigest(), size=len(payload))
    return info


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    monkeypatch.delenv("LM_DATA_MIRROR", raising=False)
    monkeypatch.setenv("LM_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path


def test_embedded_default_is_deterministic_and_offline():
    text = load_text()
    assert len(text) > 300_000 and text == load_text()
    assert "assert" in text


def test_unknown_corpus_lists_known_names():
    with pytest.raises(ValueError, match="names, pydocs, shakespeare"):
        load_text("wikipedia")


def test_download_is_verified_and_atomic(isolated):
    payload = b"anna\nbob\n"
    info = fake_corpus(payload)
    target = isolated / "cache" / "names.txt"
    download(info, target, opener=lambda url: FakeResponse(payload))
    assert target.read_bytes() == payload
    assert [p.name for p in target.parent.iterdir()] == ["names.txt"]  # no temp files left


def test_checksum_mismatch_keeps_nothing(isolated):
    info = fake_corpus(b"the real thing")
    target = isolated / "cache" / "names.txt"
    with pytest.raises(ValueError, match="checksum mismatch.*not kept"):
        download(info, target, opener=lambda url: FakeResponse(b"something else"))
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_interrupted_download_leaves_no_file(isolated):
    class Broken(FakeResponse):
        def read(self, size=-1):
            if self.tell() > 3:
                raise ConnectionResetError("connection dropped")
            return super().read(4)

    info = fake_corpus(b"0123456789")
    target = isolated / "cache" / "names.txt"
    with pytest.raises(FileNotFoundError, match="could not download"):
        download(info, target, opener=lambda url: Broken(b"0123456789"))
    assert list(target.parent.iterdir()) == []


def test_offline_without_mirror_says_how_to_provide_the_file(isolated, monkeypatch):
    def offline(url, timeout=30):
        raise urllib.error.URLError("no network")

    monkeypatch.setattr(data.urllib.request, "urlopen", offline)
    with pytest.raises(FileNotFoundError, match="LM_DATA_MIRROR"):
        load_text("shakespeare")


def test_corrupt_cache_is_replaced_by_a_good_download(isolated, monkeypatch):
    payload = b"emma\nolivia\n"
    monkeypatch.setitem(CORPORA, "names", fake_corpus(payload))
    cached = isolated / "cache" / "names.txt"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"emma\noliv")  # a truncated earlier copy
    monkeypatch.setattr(data.urllib.request, "urlopen", lambda url, timeout=30: FakeResponse(payload))
    assert load_items("names") == ["emma", "olivia"]
    assert cached.read_bytes() == payload


def test_bad_mirror_file_is_reported_not_used(isolated, monkeypatch):
    mirror = isolated / "mirror"
    mirror.mkdir()
    (mirror / "names.txt").write_text("not the names\n")
    monkeypatch.setenv("LM_DATA_MIRROR", str(mirror))
    with pytest.raises(ValueError, match="does not match the expected sha256"):
        corpus_path("names")
    assert (mirror / "names.txt").exists()  # never delete a user's mirror


@needs_mirror
def test_real_corpora_from_the_mirror(monkeypatch, isolated):
    monkeypatch.setenv("LM_DATA_MIRROR", str(SHARED))
    monkeypatch.setattr(data.urllib.request, "urlopen", lambda *a, **k: pytest.fail("must not download"))
    assert len(load_text("shakespeare")) == 1115394
    names = load_items("names")
    assert len(names) == 32033 and names[0] == "emma"
    splits = load_splits("names")
    assert (len(splits.train), len(splits.val), len(splits.test)) == (25626, 3203, 3204)
    assert sorted(splits.train + splits.val + splits.test) == sorted(names)  # a partition of the file's lines
    assert splits.train[:3] == load_splits("names").train[:3]  # the same split every time


def test_text_split_is_80_10_10_at_line_breaks():
    text = "".join(f"line {i}\n" for i in range(1000))
    train, val, test = split_text(text)
    assert train + val + test == text
    assert train.endswith("\n") and val.endswith("\n")
    assert abs(len(train) / len(text) - 0.8) < 0.01 and abs(len(val) / len(text) - 0.1) < 0.01
    with pytest.raises(ValueError):
        split_text("")


def test_item_split_is_fixed():
    items = [f"item{i}" for i in range(100)]
    first, second = split_items(items), split_items(items)
    assert first == second and sorted(sum(first, [])) == sorted(items)
    assert [len(p) for p in first] == [80, 10, 10]
    with pytest.raises(ValueError):
        split_items([])
