"""Chinese draws with the CJK font the set-up installs (requirements.txt), with the system's fonts out of reach.

Each check runs in a fresh Python with a fresh matplotlib cache folder, whose font list is cut
down to matplotlib's own fonts (DejaVu and friends) before `import utils`: what draws Chinese
there can only be the font utils registers from the pip package. A glyph counts as drawn when
no "Glyph ... missing" warning comes and its pixels differ both from the missing-glyph box and
from the other characters' pixels (boxes are all alike). The same check with the fallback
switched off must see the boxes, so it can fail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from utils.fonts import CJK_FAMILY, CJK_PACKAGE, packaged_cjk_font

ROOT = Path(__file__).resolve().parents[1]
CHARS = "床前明月光困惑度"

PROBE = r'''
import json, sys, warnings
from pathlib import Path
import matplotlib
matplotlib.use("Agg")
from matplotlib import font_manager as fm

own = Path(matplotlib.get_data_path())
fm.fontManager.ttflist = [e for e in fm.fontManager.ttflist if Path(e.fname).is_relative_to(own)]
fm.fontManager.afmlist = [e for e in fm.fontManager.afmlist if Path(e.fname).is_relative_to(own)]
fm.fontManager._findfont_cached.cache_clear()
fm._get_font.cache_clear()
cjk_before = sorted({e.name for e in fm.fontManager.ttflist if "CJK" in e.name or "SC" in e.name.split()})

import numpy as np
import utils  # registers the packaged font
from matplotlib.figure import Figure
from matplotlib.backends.backend_agg import FigureCanvasAgg


def pixels(text, family):
    figure = Figure(figsize=(1, 1), dpi=50)
    canvas = FigureCanvasAgg(figure)
    with matplotlib.rc_context({"font.family": family}):
        figure.text(0.5, 0.5, text, fontsize=30, ha="center", va="center")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        canvas.draw()
    missing = [str(w.message) for w in caught if "missing from" in str(w.message)]
    return np.asarray(canvas.buffer_rgba())[..., 0].copy(), missing

def alike(images):
    chars = list(images)
    return [a + b for i, a in enumerate(chars) for b in chars[i + 1:] if np.array_equal(images[a], images[b])]

family = list(matplotlib.rcParams["font.family"])
drawn, boxes, warned, warned_off = {}, {}, [], []
for char in sys.argv[1]:
    drawn[char], missing = pixels(char, family)
    warned += missing
    boxes[char], missing = pixels(char, ["sans-serif"])  # the control: no CJK fallback
    warned_off += missing
chain = fm.fontManager._find_fonts_by_props(fm.FontProperties())
print(json.dumps({
    "cjk_before": cjk_before,
    "fonts_outside_matplotlib": sorted({e.fname for e in fm.fontManager.ttflist if not Path(e.fname).is_relative_to(own)}),
    "fallback_chain": [str(p) for p in chain],
    "family": family,
    "warnings": warned,
    "warnings_without_fallback": warned_off,
    "like_box": [c for c in drawn if np.array_equal(drawn[c], boxes[c])],
    "blank": [c for c in drawn if (drawn[c] < 255).sum() == 0],
    "alike_pairs": alike(drawn),
    "alike_pairs_without_fallback": alike(boxes),
}))
'''


def _probe(tmp_path: Path) -> dict:
    """Run PROBE in a fresh interpreter with a fresh matplotlib cache; return its findings."""
    cache = tmp_path / "mplconfig"
    cache.mkdir()
    env = {**os.environ, "MPLCONFIGDIR": str(cache), "PYTHONPATH": str(ROOT), "LM_LANG": "en"}
    result = subprocess.run([sys.executable, "-c", PROBE, CHARS], capture_output=True, text=True,
                            env=env, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def probe(tmp_path_factory) -> dict:
    """What a fresh interpreter limited to matplotlib's fonts and the packaged one draws."""
    return _probe(tmp_path_factory.mktemp("cjk"))


def test_the_setup_installs_the_font_package():
    """The set-up (requirements.txt, through requirements-course.txt) names the package utils/fonts.py loads, and it
    is installed here (never a skip)."""
    assert "-r requirements-course.txt" in (ROOT / "requirements.txt").read_text(encoding="utf-8")
    requirements = (ROOT / "requirements-course.txt").read_text(encoding="utf-8")
    assert CJK_PACKAGE.replace("_", "-") in requirements
    path = packaged_cjk_font()
    assert path is not None, f"{CJK_PACKAGE} is not installed: pip install -r requirements.txt"
    assert path.stat().st_size > 10_000_000  # the whole collection, not a stub


def test_only_the_packaged_font_is_in_reach(probe):
    assert probe["cjk_before"] == []  # the system's CJK fonts are out of reach
    assert probe["fonts_outside_matplotlib"] == [str(packaged_cjk_font())]
    assert probe["family"][-1] == CJK_FAMILY and probe["fallback_chain"][-1] == str(packaged_cjk_font())


def test_chinese_draws_as_glyphs_not_boxes(probe):
    assert probe["warnings"] == []
    assert probe["like_box"] == [] and probe["blank"] == [] and probe["alike_pairs"] == []


def test_the_check_sees_boxes_without_the_fallback(probe):
    """The control: without the CJK family in the fallback every character warns and all draw alike (boxes)."""
    assert len(probe["warnings_without_fallback"]) == len(CHARS)
    assert len(probe["alike_pairs_without_fallback"]) == len(CHARS) * (len(CHARS) - 1) // 2


def test_latin_text_keeps_its_font():
    """The CJK face is a fallback: Latin text still draws in DejaVu Sans, as before the font came."""
    from matplotlib import font_manager, ft2font

    chain = font_manager.fontManager._find_fonts_by_props(font_manager.FontProperties())
    assert Path(chain[0]).name == "DejaVuSans.ttf"
    last = ft2font.FT2Font(chain[-1], face_index=getattr(chain[-1], "face_index", 0))
    assert last.family_name == CJK_FAMILY
