"""utils/widgets/stacked_decoder.py: several cached models stepping together give each model's own logits."""

import pytest
import torch

from utils.copy_failure import sample_continuations, with_mask
from utils.transformer import TransformerConfig, TransformerLM
from utils.widgets.mask_samples import cell_runs, stream_samples
from utils.widgets.stacked_decoder import StackedDecoder, unsupported_reason

VOCAB = 11


def model(seed: int, **config) -> TransformerLM:
    """An untrained model with weights large enough that every part of the block moves the logits."""
    torch.manual_seed(seed)
    net = TransformerLM(TransformerConfig(VOCAB, **{"context_length": 8, "n_layer": 1, "n_head": 2, "d_model": 16,
                                                    "positional": "rotary", **config})).eval()
    with torch.no_grad():
        for parameter in net.parameters():
            parameter.normal_(0, 0.4)
    return net


@pytest.mark.parametrize("config", [
    {}, {"n_layer": 2, "activation": "relu"}, {"positional": "none"}, {"tie_weights": True, "n_head": 4},
    {"d_ff": 24, "rotary_base": 50.0},
], ids=["rotary", "two_layers_relu", "no_positions", "tied_four_heads", "narrow_ffn_low_base"])
def test_stacked_steps_give_each_models_own_logits(config):
    models = [model(seed, **config) for seed in (0, 1, 2)]
    prefix = torch.tensor([[1, 2, 3], [4, 5, 6]])  # (N=2, P=3)
    steps = torch.tensor([[[7, 8], [0, 1], [2, 2]], [[3, 9], [10, 4], [5, 6]],
                          [[1, 1], [6, 0], [9, 3]], [[2, 7], [8, 8], [0, 5]]])  # (steps, M, N)
    decoder = StackedDecoder(models)
    got = [decoder.start(prefix, capacity=3 + len(steps))]  # (M, N, V)
    got += [decoder.step(ids) for ids in steps]
    for m, net in enumerate(models):
        logits, state = net.step(prefix, net.start_state(2))
        expected = [logits]
        for ids in steps:
            logits, state = net.step(ids[m][:, None], state)
            expected.append(logits)
        for t, (ours, theirs) in enumerate(zip(got, expected)):
            assert torch.allclose(ours[m], theirs, atol=1e-5, rtol=1e-4), (config, m, t, (ours[m] - theirs).abs().max())
    differs = (got[-1][0] - got[-1][1]).abs().max()
    assert differs > 0.1, "the models' weights differ, so must their logits (else a mix-up could pass)"


def test_the_logit_check_catches_a_decoder_that_loses_the_angles():
    """A mutant that skips the rotary turn in step() gives logits the check above rejects."""
    models = [model(0), model(1)]
    prefix, new = torch.tensor([[1, 2, 3]]), torch.tensor([[4], [4]])
    decoder = StackedDecoder(models)
    decoder.start(prefix, capacity=4)
    decoder.rotary = False  # the mutant
    lost = decoder.step(new)  # (M, 1, V)
    logits, state = models[0].step(prefix, models[0].start_state(1))
    theirs, _ = models[0].step(new[0][:, None], state)
    assert (lost[0] - theirs).abs().max() > 1e-3


def test_what_cannot_be_stacked_is_named():
    rotary = model(0)
    assert unsupported_reason([rotary, model(1)]) is None
    cases = {
        "fewer than two": [rotary],
        "differ in shape": [rotary, model(1, d_model=32)],
        "positional 'learned'": [model(0, positional="learned"), model(1, positional="learned")],
        "positional 'relative'": [model(0, positional="relative"), model(1, positional="relative")],
        "Post-LN": [model(0, norm_placement="post"), model(1, norm_placement="post")],
        "grouped-query": [model(0, n_head=4, n_kv_head=2), model(1, n_head=4, n_kv_head=2)],
        "without the causal mask": [with_mask(rotary, False), with_mask(model(1), False)],
    }
    uncached = model(1)
    uncached.use_kv_cache = False
    cases["without its KV cache"] = [rotary, uncached]
    cases["training mode"] = [rotary, model(1).train()]
    cases["different devices or have different dtypes"] = [rotary, model(1).double()]
    for phrase, models in cases.items():
        assert phrase in (unsupported_reason(models) or ""), phrase
        with pytest.raises(ValueError, match="cannot decode together"):
            StackedDecoder(models)


def test_steps_need_a_start_and_room():
    decoder = StackedDecoder([model(0), model(1)])
    with pytest.raises(ValueError, match="after start"):
        decoder.step(torch.tensor([[1], [2]]))
    with pytest.raises(ValueError, match="at least the prefix"):
        decoder.start(torch.tensor([[1, 2, 3]]), capacity=2)
    decoder.start(torch.tensor([[1, 2]]), capacity=3)
    decoder.step(torch.tensor([[1], [2]]))
    with pytest.raises(ValueError, match="within the capacity"):
        decoder.step(torch.tensor([[1], [2]]))
    with pytest.raises(ValueError, match=r"\(2, N\) ids"):
        StackedDecoder([model(0), model(1)]).step(torch.tensor([[1]]))
    with pytest.raises(ValueError, match="must lie in"):  # the model's own check: no id wraps around
        decoder.step(torch.tensor([[-1], [2]]))


@pytest.mark.parametrize("n_layer", [1, 2])  # 2: the cells run without the mask re-run their histories beside
def test_the_mask_grid_steps_its_cached_cells_together(monkeypatch, n_layer: int):
    """stream_samples: each cached cell's own step() runs once (its prefix), the rest is stacked; draws unchanged."""
    pair = {"masked": model(0, n_layer=n_layer), "unmasked": model(1, causal=False, n_layer=n_layer)}
    runs = cell_runs(pair)
    own_steps = []
    step = TransformerLM.step
    monkeypatch.setattr(TransformerLM, "step", lambda self, *args: own_steps.append(self) or step(self, *args))
    final = list(stream_samples(runs, [1, 2, 3], 2, 6, seed=3, interval_s=60.0))[-1][1]
    cached = [runs["masked", "masked"], runs["unmasked", "masked"]]
    assert [id(r) for r in own_steps] == [id(r) for r in cached], "only the prefix runs through the models' own step()"
    monkeypatch.setattr(TransformerLM, "step", step)
    for key, run in runs.items():
        assert final[key] == sample_continuations(run, [1, 2, 3], 2, 6, seed=3), key
