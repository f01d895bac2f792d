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


# ---------------------------------------------------------------- what attention sees (utils.widgets.position_scores)

from utils.positional import rotary_cos_sin  # noqa: E402
from utils.transformer import TransformerConfig, TransformerLM  # noqa: E402
from utils.widgets.position_scores import (  # noqa: E402
    BASES,
    added_offset_scores,
    fixed_query_key,
    offset_average,
    offset_only_spread,
    position_inputs,
    relative_offset_bias,
    rotary_offset_scores,
    rotated_vectors,
)


def small_model(positional: str) -> TransformerLM:
    torch.manual_seed(0)
    return TransformerLM(TransformerConfig(11, context_length=16, n_layer=1, n_head=2, d_model=16,
                                           positional=positional)).eval()


def test_offset_average_takes_the_mean_of_each_diagonal_below_the_main_one():
    scores = torch.arange(9.0).view(1, 3, 3)  # [[0 1 2] [3 4 5] [6 7 8]]
    assert torch.equal(offset_average(scores), torch.tensor([[(0 + 4 + 8) / 3, (3 + 7) / 2, 6.0]]))
    with pytest.raises(ValueError, match=r"\(H, T, T\)"):
        offset_average(torch.ones(3, 3))


def test_rotary_scores_depend_on_the_offset_only_at_every_base():
    q, k = fixed_query_key(16)
    for base in (100.0, 10000.0, 100000.0):
        rows = rotary_offset_scores(q, k, 32, [31, 64, 200, 511], base)  # (4, 32)
        assert rows.shape == (4, 32) and not np.isnan(rows).any()
        assert offset_only_spread(rows) < 1e-4, f"base {base}: the curves of different query positions must coincide"
        assert np.ptp(rows[0]) > 0.2 * float(q.norm() * k.norm()) / 4, "and the score must change with the offset"


def test_rotary_scores_are_q_against_k_turned_back_by_the_offset():
    q, k = fixed_query_key(8, seed=3)
    rows = rotary_offset_scores(q, k, 5, [4])  # query at position 4, keys at 4, 3, 2, 1, 0
    cos, sin = rotary_cos_sin(5, 8)  # (5, 4) each
    for o in range(5):
        angle = torch.atan2(sin[o], cos[o])  # (4,): the angle of offset o
        first, second = k[:4], k[4:]  # (R_{-o} k): k turned back by the offset
        turned = torch.cat([first * angle.cos() + second * angle.sin(), -first * angle.sin() + second * angle.cos()])
        assert rows[0, o] == pytest.approx(float(q @ turned) / 8**0.5, abs=1e-5)


def test_an_absolute_position_rotation_fails_the_offset_only_check():
    """A rotation by an angle that is not linear in the position (here pos^2) depends on where the pair sits."""
    def squared_positions(length, d, base):
        cos, sin = rotary_cos_sin(length, d, base)
        angle = torch.atan2(sin, cos) * torch.arange(length, dtype=torch.float32)[:, None]  # (L, d/2): ~ pos^2
        return angle.cos(), angle.sin()

    q, k = fixed_query_key(16)
    rows = rotary_offset_scores(q, k, 32, [31, 64, 200], cos_sin=squared_positions)
    assert offset_only_spread(rows) > 0.1


def test_rotary_is_not_the_sinusoidal_similarity_and_the_base_changes_it():
    q, k = fixed_query_key(16)
    rows = rotary_offset_scores(q, k, 32, [31])[0]  # (32,)
    similarity = sinusoidal_encoding(32, 16) @ sinusoidal_encoding(32, 16)[0]  # (32,): PE(o) . PE(0)
    assert abs(np.corrcoef(rows, similarity.numpy())[0, 1]) < 0.9, "q != k: not the encoding's self-similarity"
    slow = rotary_offset_scores(q, k, 32, [31], base=100000.0)[0]
    assert np.abs(rows - slow).max() > 0.1, "the base changes the curve"
    assert rows[0] == pytest.approx(slow[0], abs=1e-5), "offset 0: no rotation between q and k, whatever the base"
    assert rotated_vectors(q, 10).shape == (10, 16) and np.allclose(rotated_vectors(q, 10)[0], q.numpy())
    with pytest.raises(ValueError, match="even"):
        fixed_query_key(7)
    with pytest.raises(ValueError, match="one size"):
        rotary_offset_scores(q, k[:8], 4, [3])
    assert np.isnan(rotary_offset_scores(q, k, 8, [3])[0, 4:]).all(), "keys before position 0 do not exist"


def test_added_offset_scores_are_position_only_inputs_through_the_first_layer():
    model = small_model("sinusoidal")
    scores = added_offset_scores(model, 12)  # (H, T)
    block, attention = model.blocks[0], model.blocks[0].attention
    with torch.no_grad():
        x = block.norm1(sinusoidal_encoding(12, 16))  # (T, D)
        q = attention.q_proj(x)[:, :8]  # head 0: (T, Dh)
        k = attention.k_proj(x)[:, :8]
        by_hand = (q @ k.T / 8**0.5).diagonal(-3).mean()  # offset 3, averaged over the queries
    assert scores.shape == (2, 12) and scores[0, 3] == pytest.approx(float(by_hand), abs=1e-5)
    assert np.abs(added_offset_scores(model, 12, base=100.0) - scores).max() > 1e-4, "the base changes the inputs"
    learned = small_model("learned")
    assert np.allclose(position_inputs(learned, 5).numpy(), learned.position_embedding.embedding.weight[:5].detach().numpy())
    with pytest.raises(ValueError, match="16 positions only"):
        added_offset_scores(learned, 17)
    with pytest.raises(ValueError, match="not added"):
        position_inputs(small_model("rotary"), 4)


def test_relative_offset_bias_is_the_bias_by_offset():
    model = small_model("relative")
    with torch.no_grad():
        model.relative_bias.bias.weight.copy_(torch.arange(62.0).view(31, 2))  # rows: offsets -15 .. 15
    bias = relative_offset_bias(model, 20)  # (H, T)
    assert bias.shape == (2, 20)
    assert bias[0, 0] == 15 * 2 and bias[1, 3] == (15 + 3) * 2 + 1, "offset o reads row o + max_distance - 1"
    assert bias[0, 19] == bias[0, 15], "offsets past max_distance - 1 share the last value"
    with pytest.raises(ValueError, match="not a relative bias"):
        relative_offset_bias(small_model("rotary"), 4)


def score_models() -> dict:
    return {kind: small_model(kind) for kind in ("sinusoidal", "learned", "relative", "rotary")}


def test_scores_data_holds_every_view_on_the_base_grid():
    from utils.widgets.positional import positional_scores_data

    data = positional_scores_data(score_models(), n_positions=12, query_positions=(11, 40, 99))
    assert data["bases"] == list(BASES) and data["kinds"] == ["sinusoidal", "learned", "relative", "rotary"]
    views = data["views"]
    assert len(views["sinusoidal"]["by_base"]) == len(BASES) and len(views["rotary"]["by_base"]) == len(BASES)
    usual = BASES.index(10000.0)
    assert np.allclose(views["sinusoidal"]["by_base"][usual]["heat"], sinusoidal_encoding(12, 16).numpy(), atol=1e-4)
    assert np.array(views["rotary"]["by_base"][usual]["scores"]).shape == (3, 12)
    assert all(v["spread"] < 1e-4 for v in views["rotary"]["by_base"])
    assert np.array(views["learned"]["scores"]).shape == (2, 12) and np.array(views["relative"]["heat"]).shape == (12, 2)
    assert len(data["colormaps"]["diverging"]) == 64
    with pytest.raises(ValueError, match="trained model"):
        positional_scores_data({"rotary": small_model("rotary")})
    with pytest.raises(ValueError, match="query positions"):
        positional_scores_data(score_models(), n_positions=12, query_positions=(5, 40))


def test_scores_widget_validates_its_settings_and_ships_offline():
    import re

    import traitlets

    from utils.widgets.positional import PositionalScoresWidget, positional_scores_widget

    widget = positional_scores_widget(score_models(), n_positions=12, query_positions=(11, 40))
    assert isinstance(widget, PositionalScoresWidget) and widget.kind == "rotary" and widget.base == 10000.0
    widget.kind = "learned"
    widget.base_index = 0
    assert widget.base == BASES[0]
    with pytest.raises(traitlets.TraitError, match="unknown encoding"):
        widget.kind = "alibi"
    with pytest.raises(traitlets.TraitError, match="base_index"):
        widget.base_index = len(BASES)
    with pytest.raises(ValueError, match="grid"):
        positional_scores_widget(score_models(), n_positions=12, base=5000.0, query_positions=(11,))
    esm = PositionalScoresWidget._esm
    assert "export default" in esm and "lm-main-control" in esm and "lm-positional-widget" in esm
    assert set(re.findall(r"https?://[^\s\"'`]+", esm)) <= {"http://www.w3.org/2000/svg"}
