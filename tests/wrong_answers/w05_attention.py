"""Delegations for notebook 05's exercises (its wrong answers come with the notebook's own issue)."""

from tests.wrong_answers.spec import Delegation

NOTEBOOK = "05_attention.ipynb"
WRONG: dict = {}
DELEGATIONS = {
    "ex1_attention": [
        Delegation("module_access", "import utils.attention as a\n\n\n"
                                    "def my_attention(q, k, v, mask=None):\n"
                                    "    return a.scaled_dot_product_attention(q, k, v, mask)",
                   denied="utils.attention.scaled_dot_product_attention"),
    ],
    "ex2_causal_mask": [
        Delegation("getattr", "import importlib\n\n\n"
                              "def my_causal_mask(T: int) -> torch.Tensor:\n"
                              "    return getattr(importlib.import_module('utils.attention'), 'causal_' + 'mask')(T)",
                   denied="utils.attention.causal_mask"),
    ],
    "ex3_split_merge": [
        Delegation("copy_before_test", "def my_split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:\n"
                                       "    return _split(MultiHeadAttention(x.shape[-1], n_heads), x)\n\n\n"
                                       "def my_merge_heads(x: torch.Tensor) -> torch.Tensor:\n"
                                       "    B, H, T, Dh = x.shape\n"
                                       "    return _merge(MultiHeadAttention(H * Dh, H), x)",
                   before="from utils.attention import MultiHeadAttention\n\n"
                          "_split, _merge = MultiHeadAttention.split_heads, MultiHeadAttention.merge_heads",
                   denied="utils.attention.MultiHeadAttention.split_heads"),
    ],
}
