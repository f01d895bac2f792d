"""The Tang corpora: the embedded quatrains rebuild from the mirror, the full loader checks and converts its files."""

from __future__ import annotations

import hashlib
import io
import urllib.error
from pathlib import Path

import pytest

from utils import data, tang
from utils.data import load_items, load_splits
from utils.dataset import load_dataset

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
POETRY = SHARED / tang.MIRROR_FOLDER
needs_mirror = pytest.mark.skipif(not POETRY.is_dir(), reason="the offline mirror ../shared/data/chinese-poetry is absent")


class FakeResponse(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    monkeypatch.delenv("LM_DATA_MIRROR", raising=False)
    monkeypatch.setenv("LM_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path


def test_embedded_quatrains_load_offline_and_keep_the_form(isolated, monkeypatch):
    monkeypatch.setattr(data.urllib.request, "urlopen", lambda *a, **k: pytest.fail("tang5 must not download"))
    poems = load_items("tang5")
    assert len(poems) == 3674 and len(set(poems)) == len(poems)
    assert all(tang.is_quatrain(p) for p in poems)
    assert tang.QUATRAIN_FILE.stat().st_size <= 2_000_000, "the embedded corpus must stay under 2 MB"
    splits = load_splits("tang5")
    assert (len(splits.train), len(splits.val), len(splits.test)) == (2939, 367, 368)
    dataset = load_dataset("tang5")
    assert dataset.kind == "items" and dataset.tokenizer.boundary == "." and 3000 < dataset.vocab_size < 4000
    assert "举" in dataset.tokenizer.stoi and "舉" not in dataset.tokenizer.stoi, "simplified characters only"


def test_provenance_names_commit_files_filter_and_licence():
    text = (tang.CORPORA_DIR / "PROVENANCE.md").read_text(encoding="utf-8")
    for needle in (tang.COMMIT, "MIT", "JackeyGao", "OpenCC", "t2s", "五言绝句", "scripts/build_tang_corpus.py", "3,674"):
        assert needle in text, f"PROVENANCE.md should state {needle!r}"


def test_form_checks():
    good = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"
    assert tang.is_quatrain(good)
    assert tang.quatrain_lines(good) == ["白日依山尽，", "黄河入海流。", "欲穷千里目，", "更上一层楼。"]
    for bad in ("白日依山尽，黄河入海流。", good + "白日依山尽，黄河入海流。", good.replace("，", "。", 1),
                "白日依山，黄河入海流流。欲穷千里目，更上一层楼。", good[:-1] + "！", good.replace("白", "A")):
        assert not tang.is_quatrain(bad), bad
    report = tang.form_report([good, "白日依山，黄河入海流流。欲穷千里目，更上一层楼。", good.replace("，", "。", 1), "白日"])
    assert report == {"four_lines": 0.75, "line_lengths": 0.5, "punctuation": 0.5, "form": 0.25}
    with pytest.raises(ValueError):
        tang.form_report([])


def test_conversion_and_poem_line():
    assert tang.to_simplified("舉頭望明月，低頭思故鄉。") == "举头望明月，低头思故乡。"
    assert tang.poem_line({"paragraphs": ["床前明月光，疑是地上霜。", " 舉頭望明月，低頭思故鄉。\n"]}) == \
        "床前明月光，疑是地上霜。举头望明月，低头思故乡。"
    with pytest.raises(ValueError, match="paragraphs"):
        tang.poem_line({"title": "no lines"})


def test_raw_urls_pin_the_commit_and_quote_the_folder():
    files = tang.source_files()
    assert len(files) == 58 and files[0][0] == "全唐诗/poet.tang.0.json" and files[-1][0] == "全唐诗/poet.tang.57000.json"
    assert all(len(digest) == 64 for _, digest in files)
    url = tang.raw_url(files[0][0])
    assert url == (f"https://raw.githubusercontent.com/chinese-poetry/chinese-poetry/{tang.COMMIT}/"
                   "%E5%85%A8%E5%94%90%E8%AF%97/poet.tang.0.json")


def test_download_is_checked_atomic_and_cached(isolated):
    payload = '[{"paragraphs": ["白日依山盡，黃河入海流。", "欲窮千里目，更上一層樓。"]}]'.encode()
    digest = hashlib.sha256(payload).hexdigest()
    urls = []
    opener = lambda url: urls.append(url) or FakeResponse(payload)
    path = tang.source_path("全唐诗/poet.tang.0.json", digest, opener)
    assert path.read_bytes() == payload and path.is_relative_to(isolated / "cache")
    assert [p.name for p in path.parent.iterdir()] == ["poet.tang.0.json"], "no temporary file left behind"
    assert tang.poems_from_files([path]) == ["白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"]
    assert tang.source_path("全唐诗/poet.tang.0.json", digest, opener) == path and len(urls) == 1, "read from the cache"
    with pytest.raises(ValueError, match="checksum mismatch.*not kept"):
        tang.source_path("全唐诗/poet.tang.1000.json", "0" * 64, opener)
    assert not (path.parent / "poet.tang.1000.json").exists()


def test_offline_without_mirror_says_where_to_put_the_files(isolated, monkeypatch):
    def offline(url, timeout=30):
        raise urllib.error.URLError("no network")

    monkeypatch.setattr(data.urllib.request, "urlopen", offline)
    with pytest.raises(FileNotFoundError, match="LM_DATA_MIRROR"):
        load_items("tang")


def test_bad_mirror_file_is_reported_not_used(isolated, monkeypatch):
    folder = isolated / "mirror" / "chinese-poetry" / "全唐诗"
    folder.mkdir(parents=True)
    (folder / "poet.tang.0.json").write_text("[]")
    monkeypatch.setenv("LM_DATA_MIRROR", str(isolated / "mirror"))
    with pytest.raises(ValueError, match="does not match the expected sha256"):
        tang.source_path(*tang.source_files()[0])
    assert (folder / "poet.tang.0.json").exists(), "never delete a user's mirror"


@needs_mirror
def test_mirror_holds_exactly_the_listed_files():
    listed = {path for path, _ in tang.source_files()}
    present = {f"全唐诗/{p.name}" for p in (POETRY / "全唐诗").glob("poet.tang.*.json")}
    assert listed == present
    assert (POETRY / "COMMIT").read_text().split()[0] == tang.COMMIT


@needs_mirror
def test_committed_quatrains_equal_a_rebuild_from_the_mirror():
    assert tang.build_quatrain_text(SHARED) == tang.QUATRAIN_FILE.read_text(encoding="utf-8"), \
        "utils/corpora/tang5.txt differs from a rebuild: run python scripts/build_tang_corpus.py"


@needs_mirror
def test_full_corpus_from_the_mirror(isolated, monkeypatch):
    monkeypatch.setenv("LM_DATA_MIRROR", str(SHARED))
    monkeypatch.setattr(data.urllib.request, "urlopen", lambda *a, **k: pytest.fail("must not download"))
    poems = load_items("tang")
    assert len(poems) == 56537 and len(set(poems)) == len(poems)
    assert poems[0].startswith("秦川雄帝宅，函谷壮皇居。"), "simplified: 壯 became 壮"
    assert tang.quatrains(poems) == load_items("tang5"), "tang5 is exactly the quatrains of tang"
    assert not any("\n" in p for p in poems)


def test_constrain_to_form_forces_the_quatrain():
    import torch

    assert [tang.form_positions(w) for w in (0, 4, 5, 6, 11, 17, 23, 24, 30)] == \
        ["character", "character", "comma", "character", "period", "comma", "period", "end", "end"]
    logits = torch.arange(12.0).reshape(2, 6)  # (B=2, V=6)
    out = tang.constrain_to_form(logits, 0, comma_id=1, period_id=2, boundary_id=0)
    assert torch.isinf(out[:, :3]).all() and torch.equal(out[:, 3:], logits[:, 3:])
    for written, allowed in ((5, 1), (11, 2), (24, 0)):
        out = tang.constrain_to_form(logits, written, 1, 2, 0)
        assert torch.isfinite(out).sum().item() == 2 and torch.equal(out[:, allowed], logits[:, allowed])
    assert torch.equal(logits, torch.arange(12.0).reshape(2, 6)), "the input is not modified"
    with pytest.raises(ValueError):
        tang.form_positions(-1)
