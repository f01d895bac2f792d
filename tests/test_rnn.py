"""The RNN LM (plain tanh and GRU): recurrence = module = torch.nn, state carrying, gradients, bad input."""

import math

import pytest
import torch

from utils.checkpoint import load_checkpoint, save_checkpoint
from utils.evaluation import evaluate
from utils.rnn import RNNConfig, RNNLM, hidden_gradient_norms
from utils.sampling import generate
from utils.training import TrainConfig, train

V = 9


def make_model(cell: str = "tanh", **overrides) -> RNNLM:
    torch.manual_seed(0)
    settings = dict(vocab_size=V, d_embed=5, d_hidden=12, cell=cell) | overrides
    return RNNLM(RNNConfig(**settings))


@pytest.mark.parametrize("cell", ["tanh", "gru"])
def test_forward_shape_any_length(cell):
    model = make_model(cell)
    assert model.context_length is None
    assert model(torch.randint(0, V, (3, 40))).shape == (3, 40, V)


def test_tanh_recurrence_written_out_equals_module():
    model = make_model("tanh")
    idx = torch.randint(0, V, (2, 7))
    W_xh, W_hh, b = model.cell.weight_ih, model.cell.weight_hh, model.cell.bias
    h = torch.zeros(2, 12)
    states = []
    for t in range(7):
        h = torch.tanh(W_hh @ h.T + W_xh @ model.embedding.weight[idx[:, t]].T + b[:, None]).T
        states.append(h)
    expected = model.output(torch.stack(states, dim=1))
    assert torch.allclose(model(idx), expected, atol=1e-6)


@pytest.mark.parametrize("cell", ["tanh", "gru"])
def test_written_out_recurrence_equals_compiled_loop_and_fresh_torch_module(cell):
    model = make_model(cell)
    idx = torch.randint(0, V, (4, 15))
    written_out = torch.stack(model.hidden_states(idx), dim=1)  # (B, T, H)
    compiled, last = model.run(idx)
    assert torch.allclose(written_out, compiled, atol=1e-5) and torch.allclose(last, compiled[:, -1])
    reference = (torch.nn.RNN if cell == "tanh" else torch.nn.GRU)(5, 12, batch_first=True)
    reference.load_state_dict(model.cell.rnn.state_dict())  # copied weights, a separate module
    states, _ = reference(model.embedding(idx))
    assert torch.allclose(written_out, states, atol=1e-5)


@pytest.mark.parametrize("cell", ["tanh", "gru"])
def test_step_carries_state_and_matches_forward(cell):
    model = make_model(cell).eval()
    idx = torch.randint(0, V, (2, 10))
    full = model(idx)
    logits, h = model.step(idx[:, :4], model.start_state(2))
    assert torch.allclose(logits, full[:, 3], atol=1e-5) and h.shape == (2, 12)
    for t in range(4, 10):
        logits, h = model.step(idx[:, t : t + 1], h)
        assert torch.allclose(logits, full[:, t], atol=1e-5)
    out = generate(model, [0, 1, 2], 12, generator=torch.Generator().manual_seed(0))
    assert out.shape == (1, 15)


def test_rejects_bad_input():
    model = make_model()
    with pytest.raises(ValueError, match="integer"):
        model(torch.zeros(1, 4))
    with pytest.raises(ValueError, match=r"\(B, T\)"):
        model(torch.zeros(4, dtype=torch.long))
    with pytest.raises(ValueError, match="lie in"):
        model(torch.tensor([[V]]))
    with pytest.raises(ValueError, match="h0"):
        model.hidden_states(torch.zeros(2, 3, dtype=torch.long), torch.zeros(3, 12))
    with pytest.raises(ValueError, match="cell"):
        RNNConfig(vocab_size=V, cell="lstm2")


@pytest.mark.parametrize("cell", ["tanh", "gru"])
def test_trains_with_shared_loop(cell):
    text = torch.tensor([0, 1, 2, 3, 4, 5, 6, 7, 8] * 3)
    model = make_model(cell)
    before = evaluate(model, text, block_size=32).nll
    train(model, lambda: (text[None, :-1], text[None, 1:]), TrainConfig(steps=80, lr=3e-2, progress=False))
    after = evaluate(model, text, block_size=32).nll
    assert math.isclose(before, math.log(V), rel_tol=0.1) and after < 0.1


def test_checkpoint_round_trip(tmp_path):
    model = make_model("gru")
    save_checkpoint(tmp_path / "rnn.pt", model)
    loaded, _ = load_checkpoint(tmp_path / "rnn.pt")
    idx = torch.randint(0, V, (2, 6))
    assert torch.equal(loaded(idx), model.eval()(idx))


def test_gradient_norms_vanish_for_small_and_grow_for_large_recurrent_weights():
    idx = torch.randint(0, V, (8, 30), generator=torch.Generator().manual_seed(0))
    norms = {}
    for scale in (0.5, 3.0):
        model = make_model(d_hidden=32)
        with torch.no_grad():
            q, _ = torch.linalg.qr(torch.randn(32, 32))
            model.cell.weight_hh.copy_(scale * q)  # all singular values equal `scale`
            model.embedding.weight.mul_(0.01)
        norms[scale] = hidden_gradient_norms(model, idx, idx)
    assert norms[0.5].shape == (30,)
    assert norms[0.5][0] < 1e-6 * norms[0.5][-1]  # 29 steps back: shrunk by about 0.5^29
    assert norms[3.0][0] > 1e3 * norms[3.0][-1]


def test_names_benchmark_runs_on_a_tiny_setting(capsys):
    import json
    import os
    import runpy
    from pathlib import Path

    mirror = os.environ.get("LM_DATA_MIRROR")
    if not mirror or not (Path(mirror) / "names.txt").exists():
        pytest.skip("names.txt is not in $LM_DATA_MIRROR")
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_names.py"
    summary = runpy.run_path(str(script))["main"](
        ["--steps-scale", "0.0005", "--max-eval-batches", "1", "--only", "window_mlp_n3,rnn_gru"]
    )
    last_line = capsys.readouterr().out.strip().splitlines()[-1]
    assert json.loads(last_line) == json.loads(json.dumps(summary))
    assert set(summary["models"]) >= {"window_mlp_n3", "rnn_gru"}
    assert all(math.isfinite(m["test_nll"]) for m in summary["models"].values())
