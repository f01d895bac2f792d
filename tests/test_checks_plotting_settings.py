"""Exercise checks give specific messages; plotting helpers and fast/full settings work."""

import matplotlib
import pytest
import torch

from utils.checks import CheckFailed, check, check_close, check_distribution, check_shape, check_type
from utils.plotting import heatmap, use_lecture_style
from utils.settings import fast_mode, pick
from utils.widgets.canvas import FigureWidget


def test_check_messages_name_expected_and_found():
    with pytest.raises(CheckFailed, match=r"logits: expected shape \(2, 3, 5\) \(B, T, V\), got \(2, 3\)"):
        check_shape(torch.zeros(2, 3), (2, 3, 5), "logits", "(B, T, V)")
    with pytest.raises(CheckFailed, match="expected a Tensor, got list"):
        check_type([1], torch.Tensor, "x")
    with pytest.raises(CheckFailed, match="sums to 0.9300"):
        check_distribution(torch.tensor([0.5, 0.43]), "probabilities for context 'th'")
    with pytest.raises(CheckFailed, match="non-negative"):
        check_distribution(torch.tensor([1.5, -0.5]), "p")
    with pytest.raises(CheckFailed, match="expected 2, got 3"):
        check_close(3.0, 2.0, "perplexity")
    with pytest.raises(CheckFailed, match="differ .* by up to 0.5"):
        check_close(torch.zeros(2), torch.tensor([0.0, 0.5]), "v")
    with pytest.raises(CheckFailed, match="custom"):
        check(False, "custom")
    assert issubclass(CheckFailed, AssertionError)


def test_passing_checks_are_silent():
    check_shape(torch.zeros(2, 3), (2, 3), "x")
    check_distribution(torch.softmax(torch.randn(4, 7), -1), "p")
    check_close(torch.ones(3), torch.ones(3), "v")
    check_close(1, 1.0 + 1e-9, "n")


def test_pick_follows_lm_fast(monkeypatch):
    monkeypatch.setenv("LM_FAST", "1")
    assert fast_mode() and pick(1000, 10) == 10
    monkeypatch.setenv("LM_FAST", "0")
    assert not fast_mode() and pick(1000, 10) == 1000


def test_lecture_style_and_heatmap_labels():
    use_lecture_style()
    assert matplotlib.rcParams["font.size"] >= 14
    fig = matplotlib.figure.Figure()
    ax = fig.subplots()
    heatmap(ax, torch.eye(3), xlabels=list("abc"), ylabels=list("xyz"))
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abc")


def test_figure_widget_refresh_changes_the_png():
    canvas = FigureWidget(figsize=(3, 2), dpi=50)
    ax = canvas.subplots()
    (line,) = ax.plot([0, 1], [0, 1])
    canvas.refresh()
    first = canvas.image.value
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    line.set_ydata([1, 0])
    canvas.refresh()
    assert canvas.image.value != first
