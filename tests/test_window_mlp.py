"""The fixed-window MLP LM: shapes, windows, the explicit formula, shared sampling/evaluation, bad input."""

import math

import pytest
import torch

from utils.batching import frame_items
from utils.checkpoint import load_checkpoint, save_checkpoint
from utils.evaluation import evaluate
from utils.sampling import generate
from utils.training import TrainConfig, train
from utils.window_mlp import WindowMLPConfig, WindowMLPLM, ngram_table_size, sliding_windows

V = 11


def make_model(**overrides) -> WindowMLPLM:
    torch.manual_seed(0)
    settings = dict(vocab_size=V, window=3, d_embed=4, d_hidden=16) | overrides
    return WindowMLPLM(WindowMLPConfig(**settings))


def test_forward_shape_any_length():
    model = make_model()
    assert model.context_length is None
    for length in (1, 2, 3, 17):
        assert model(torch.randint(0, V, (5, length))).shape == (5, length, V)


def test_sliding_windows_pad_with_first_token_or_pad_id():
    idx = torch.tensor([[4, 5, 6, 7]])
    assert sliding_windows(idx, 3).tolist() == [[[4, 4, 4], [4, 4, 5], [4, 5, 6], [5, 6, 7]]]
    assert sliding_windows(idx, 3, pad_id=0).tolist() == [[[0, 0, 4], [0, 4, 5], [4, 5, 6], [5, 6, 7]]]
    assert sliding_windows(idx, 1).tolist() == [[[4], [5], [6], [7]]]


def test_forward_equals_the_explicit_formula():
    model = make_model(pad_id=0)
    idx = torch.randint(0, V, (2, 6))
    E, W1, b1 = model.embedding.weight, model.hidden.weight, model.hidden.bias
    W2, b2 = model.output.weight, model.output.bias
    padded = torch.cat([torch.zeros(2, 2, dtype=torch.long), idx], dim=1)
    expected = torch.stack(
        [torch.tanh(E[padded[:, t : t + 3]].reshape(2, -1) @ W1.T + b1) @ W2.T + b2 for t in range(6)], dim=1
    )
    assert torch.allclose(model(idx), expected, atol=1e-6)


def test_position_reads_only_its_window():
    model = make_model(window=2)
    idx = torch.randint(0, V, (1, 8))
    changed = idx.clone()
    changed[0, 2] = (idx[0, 2] + 1) % V  # token 2 is in the windows of positions 2 and 3 only
    diff = (model(idx) - model(changed)).abs().amax(dim=-1)[0]  # (T,)
    assert diff[[2, 3]].min() > 0
    assert torch.equal(diff[[0, 1, 4, 5, 6, 7]], torch.zeros(6))


def test_logits_from_windows_rejects_wrong_window_and_dtype():
    model = make_model()
    assert model.logits_from_windows(torch.tensor([[1, 2, 3]])).shape == (1, V)
    with pytest.raises(ValueError, match="exactly 3 tokens"):
        model.logits_from_windows(torch.tensor([[1, 2, 3, 4]]))
    with pytest.raises(ValueError, match="integer"):
        model.logits_from_windows(torch.tensor([[1.0, 2.0, 3.0]]))


def test_forward_rejects_bad_input():
    model = make_model()
    with pytest.raises(ValueError, match="integer"):
        model(torch.zeros(2, 3))
    with pytest.raises(ValueError, match=r"\(B, T\)"):
        model(torch.zeros(3, dtype=torch.long))
    with pytest.raises(ValueError, match="lie in"):
        model(torch.tensor([[0, V]]))
    with pytest.raises(ValueError):
        WindowMLPConfig(vocab_size=V, window=0)
    with pytest.raises(ValueError, match="pad_id"):
        WindowMLPConfig(vocab_size=V, pad_id=V)


def test_incremental_step_matches_forward_and_sampling_works():
    model = make_model().eval()
    idx = torch.randint(0, V, (2, 9))
    full = model(idx)
    logits, state = model.step(idx[:, :1], model.start_state(2))
    assert torch.allclose(logits, full[:, 0], atol=1e-6)
    for t in range(1, 9):
        logits, state = model.step(idx[:, t : t + 1], state)
        assert torch.allclose(logits, full[:, t], atol=1e-6)
        assert state.shape[1] <= 3  # the state is only the last N tokens
    out = generate(model, [1, 2], 10, generator=torch.Generator().manual_seed(0))
    assert out.shape == (1, 12) and int(out.max()) < V


def test_trains_with_shared_loop_and_evaluates():
    torch.manual_seed(0)
    text = torch.tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 4)
    model = make_model(window=1)
    before = evaluate(model, text, block_size=32).nll
    history = train(model, lambda: (text[None, :-1], text[None, 1:]), TrainConfig(steps=100, lr=2e-2, progress=False))
    after = evaluate(model, text, block_size=32).nll
    assert math.isclose(before, math.log(V), rel_tol=0.1)
    assert after < 0.1 < before and not history.diverged
    x, y = frame_items([[1, 2], [3, 4, 5]], boundary_id=0)
    assert model.loss(x, y).isfinite()


def test_checkpoint_round_trip(tmp_path):
    model = make_model(pad_id=0)
    save_checkpoint(tmp_path / "mlp.pt", model)
    loaded, _ = load_checkpoint(tmp_path / "mlp.pt")
    idx = torch.randint(0, V, (2, 5))
    assert torch.equal(loaded(idx), model.eval()(idx))


def test_parameters_grow_linearly_table_exponentially():
    sizes = [make_model(window=n).num_parameters() for n in (1, 2, 3, 4)]
    steps = [b - a for a, b in zip(sizes, sizes[1:])]
    assert steps[0] == steps[1] == steps[2] == 4 * 16  # one more embedding slot into the hidden layer
    assert ngram_table_size(V, 3) == V**4
