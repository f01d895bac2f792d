"""Chinese labels draw with a real CJK font: no missing-glyph warning once the lecture style is on."""

import io
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from utils.plotting import CJK_FONTS, cjk_font, use_lecture_style  # noqa: E402

LABEL = "困惑度 −1.5：床前明月光"


def _glyph_warnings(draw) -> list[str]:
    """Messages of the missing-glyph warnings raised while `draw` renders a figure."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure = draw()
        figure.savefig(io.BytesIO(), format="png")
        plt.close(figure)
    return [str(w.message) for w in caught if "missing from" in str(w.message) or "Glyph" in str(w.message)]


def _figure_with_chinese_label():
    figure, ax = plt.subplots()
    ax.set_title(LABEL)
    ax.set_xlabel("位置偏移 i − j")
    ax.plot([0, 1], [0, -1])
    return figure


def test_font_list_covers_the_three_systems():
    assert {"Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei"} <= set(CJK_FONTS)


def test_chinese_label_draws_without_missing_glyphs():
    if cjk_font() is None:
        pytest.skip("no CJK font installed (Debian: apt-get install fonts-noto-cjk; .ci/run installs it)")
    with matplotlib.rc_context():
        use_lecture_style()
        assert _glyph_warnings(_figure_with_chinese_label) == []


def test_the_check_sees_missing_glyphs_without_a_cjk_font():
    """The warning check itself can fail: with only DejaVu Sans the same label warns."""
    with matplotlib.rc_context({"font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"]}):
        assert _glyph_warnings(_figure_with_chinese_label)
