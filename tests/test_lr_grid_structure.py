"""utils.lr_grid.ends_in_layernorm: true for Pre-LN and Post-LN Transformers, false when the last norm is dropped."""

from __future__ import annotations

import pytest
from torch import nn

from utils.lr_grid import ends_in_layernorm
from utils.transformer import TransformerConfig, TransformerLM


@pytest.mark.parametrize("placement", ["pre", "post"])
def test_both_placements_end_in_a_layernorm(placement: str) -> None:
    model = TransformerLM(TransformerConfig(11, context_length=16, n_layer=2, n_head=2, d_model=16, norm_placement=placement))
    assert ends_in_layernorm(model)
    assert model.training, "the check leaves the model in the mode it found it in"


def test_a_post_ln_model_without_its_last_norm_does_not() -> None:
    model = TransformerLM(TransformerConfig(11, context_length=16, n_layer=2, n_head=2, d_model=16, norm_placement="post"))
    model.blocks[-1].norm2 = nn.Identity()
    assert not ends_in_layernorm(model)
    pre = TransformerLM(TransformerConfig(11, context_length=16, n_layer=2, n_head=2, d_model=16, norm_placement="pre"))
    pre.final_norm = nn.Identity()
    assert not ends_in_layernorm(pre)
