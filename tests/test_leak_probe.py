"""utils.leak_probe: the fixed attention follows the prefix rule, and every probe model leaks as LEAKS says."""

import pytest
import torch

from utils.leak_probe import (ATTENTIONS, LEAKS, bare_forward, colleague_attention, future_reach, prefix_attention,
                              probe_model, reference_leaks_future, train_probe)


def test_prefix_attention_is_the_colleague_on_each_prefix():
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(9, 5, generator=g) + 1.0 for _ in range(3))
    out = prefix_attention(q, k, v)
    for t in range(9):
        assert torch.allclose(out[t], colleague_attention(q[: t + 1], k[: t + 1], v[: t + 1])[t], atol=1e-5)
    assert not torch.allclose(colleague_attention(q, k, v)[:4], out[:4], atol=1e-3)  # the colleague's version leaks


@pytest.mark.parametrize("kind", sorted(ATTENTIONS))
def test_each_probe_model_leaks_as_listed(kind):
    assert set(LEAKS) == set(ATTENTIONS)
    model = probe_model(kind, 13, 10, seed=1)
    reach = future_reach(bare_forward(model), 13, 10, trials=40)
    assert (reach > 1e-4) == LEAKS[kind] and (LEAKS[kind] or reach < 1e-5), f"{kind}: {reach:.3g}"
    assert reference_leaks_future(bare_forward(model), 13, 10) == LEAKS[kind]


def test_training_lowers_the_loss_and_keeps_the_verdict():
    tokens = torch.arange(400) % 7  # a periodic text: easy to learn
    model = probe_model("masked", 7, 8, seed=0)
    x = tokens[:9][None]
    before = torch.nn.functional.cross_entropy(model(x[:, :-1])[0], x[0, 1:])
    trained = train_probe(model, tokens, steps=30)
    after = torch.nn.functional.cross_entropy(trained(x[:, :-1])[0], x[0, 1:])
    assert after < before
    assert not reference_leaks_future(bare_forward(trained), 7, 8)
    with pytest.raises(ValueError):
        trained(torch.zeros(1, 9, dtype=torch.long))
