"""The positional-encoding explorer: plain view functions, and a widget that redraws one figure in place."""

import numpy as np
import pytest
import torch

from utils.positional import sinusoidal_encoding
from utils.widgets.positional import (
    WIDGET_KINDS,
    PositionalWidget,
    cosine_similarity,
    positional_matrix,
    positional_view,
    positional_widget,
)


def test_sinusoidal_matrix_is_the_package_encoding():
    assert np.allclose(positional_matrix("sinusoidal", 20, 16), sinusoidal_encoding(20, 16).numpy())


def test_rotary_similarity_depends_only_on_the_offset():
    similarity = cosine_similarity(positional_matrix("rotary", 30, 16))  # (T, T)
    for offset in range(-5, 6):
        diagonal = np.diagonal(similarity, offset)
        assert np.allclose(diagonal, diagonal[0], atol=1e-5)
    assert np.allclose(np.diagonal(similarity), 1, atol=1e-6)


def test_learned_matrix_uses_a_given_table_and_refuses_more_positions():
    table = torch.randn(12, 8)
    assert np.allclose(positional_matrix("learned", 10, 6, learned_table=table), table[:10, :6].numpy())
    with pytest.raises(ValueError, match="trained length"):
        positional_matrix("learned", 13, 8, learned_table=table)
    fresh = positional_matrix("learned", 10, 8, seed=3)
    assert fresh.shape == (10, 8) and np.allclose(fresh, positional_matrix("learned", 10, 8, seed=3))


def test_bad_settings_are_clear_errors():
    with pytest.raises(ValueError, match="unknown encoding"):
        positional_matrix("alibi", 10, 8)
    with pytest.raises(ValueError, match="even"):
        positional_matrix("rotary", 10, 7)
    with pytest.raises(ValueError, match="curve dimension"):
        positional_view("sinusoidal", 10, 8, [9, 12])


def test_view_curves_are_columns_of_the_encoding():
    view = positional_view("sinusoidal", 40, 16, [0, 5, 99, 3])
    assert view.curve_dims == [0, 5, 3] and view.curves.shape == (3, 40)
    assert np.allclose(view.curves[1], view.encoding[:, 5])
    assert view.similarity.shape == (40, 40) and np.allclose(view.similarity, view.similarity.T)


def test_widget_updates_the_same_artists():
    widget = positional_widget(n_positions=32, d=16)
    assert isinstance(widget, PositionalWidget) and "lm-positional-widget" in widget._dom_classes
    assert "lm-main-control" in widget.kind_selector._dom_classes
    assert "lm-figure" in widget.canvas.image._dom_classes
    heat, sim, image = widget.heat, widget.sim, widget.canvas.image
    first_png = image.value
    for kind in WIDGET_KINDS:
        widget.kind_selector.value = kind
        assert np.allclose(widget.heat.get_array(), positional_matrix(kind, 32, 16, widget.learned_table))
    assert image.value != first_png
    widget.positions_slider.value = 48
    widget.d_slider.value = 20
    widget.dims_box.value = "1, 2"
    assert widget.heat.get_array().shape == (48, 20) and widget.sim.get_array().shape == (48, 48)
    visible = [line for line in widget.lines if line.get_visible()]
    scale = np.abs(widget.heat.get_array()).max()
    assert len(visible) == 2 and np.allclose(visible[1].get_ydata() * scale, widget.heat.get_array()[:, 2])
    assert widget.heat is heat and widget.sim is sim and widget.canvas.image is image, "updated in place"


def test_widget_reports_bad_input_without_raising():
    widget = positional_widget(learned_table=torch.randn(16, 8), kind="learned", n_positions=16, d=8)
    widget.positions_slider.value = 20
    assert "trained length" in widget.message.value, "past its table, a learned encoding has nothing to show"
    widget.positions_slider.value = 16
    assert widget.message.value == ""
    widget.dims_box.value = "one, two"
    assert "whole numbers" in widget.message.value
    assert widget.update(curve_dims=[50]) is None and "cannot draw" in widget.message.value
    assert widget.update(curve_dims=[0]) is not None and widget.message.value == ""


def test_train_short_eval_long_on_a_tiny_text():
    """The extrapolation helper behind notebook 06: learned positions cannot read longer windows, the others can."""
    import math
    from types import SimpleNamespace

    from utils.extrapolation import fixed_windows, train_short_eval_long

    tokens = torch.arange(400) % 7  # (N,)
    data = SimpleNamespace(vocab_size=7, train=tokens, val=tokens, part=lambda split: tokens)  # a running text
    results, models = train_short_eval_long(data, ("learned", "rotary"), 8, [8, 16], steps=3, batch_size=4,
                                            eval_windows=4, n_layer=1, n_head=2, d_model=8)
    learned, rotary = results
    assert math.isnan(learned.losses[16]) and "longer than the model's context" in learned.errors[16]
    assert all(math.isfinite(v) for v in rotary.losses.values()) and math.isfinite(rotary.degradation(16))
    assert set(models) == {"learned", "rotary"}
    x, y = fixed_windows(tokens, 5, 3, seed=1)
    assert x.shape == y.shape == (3, 5) and torch.equal(x[:, 1:], y[:, :-1])
    with pytest.raises(ValueError, match="training length"):
        train_short_eval_long(data, ("none",), 8, [16], steps=1)
