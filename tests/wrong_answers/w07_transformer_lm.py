"""Wrong answers and delegations for notebook 07's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "07_transformer_lm.ipynb"
_STATS = "def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:\n"
_PRE = "def pre_ln_block_forward(block: Block, x: torch.Tensor) -> torch.Tensor:\n"
_POST = "def post_ln_block_forward(block: Block, x: torch.Tensor) -> torch.Tensor:\n"
_BN = "def masked_batch_norm(x: torch.Tensor, mask: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:\n"
WRONG = {
    "ex1_masked_statistics": [
        Wrong("padding_included", _STATS + "    return x.mean(dim=(0, 1)), x.var(dim=(0, 1), unbiased=False)",
              visible=r"you averaged over all 6 positions"),
        Wrong("unbiased_variance", _STATS + "    real = x[mask]\n    return real.mean(0), real.var(0)",
              visible=r"divide by N \(biased"),
        Wrong("mean_of_row_means", _STATS + "    w = mask.to(x.dtype).unsqueeze(-1)\n"
                                            "    row_means = (x * w).sum(1) / w.sum(1)\n    mean = row_means.mean(0)\n"
                                            "    return mean, ((x - mean) ** 2 * w).sum((0, 1)) / w.sum()",
              visible=r"mean of the real tokens"),
        Wrong("variance_about_padded_mean", _STATS + "    w = mask.to(x.dtype).unsqueeze(-1)\n"
                                                     "    mean = (x * w).sum((0, 1)) / w.sum()\n"
                                                     "    return mean, ((x - x.mean((0, 1))) ** 2 * w).sum((0, 1)) / w.sum()",
              visible=r"variance of the real tokens"),
    ],
    "ex2_pre_ln_block": [
        Wrong("parallel_block", _PRE + "    attended, _ = block.attention(block.norm1(x), causal=True)\n"
                                       "    return x + attended + block.ffn(block.norm2(x))",
              visible=r"parallel block"),
        Wrong("missing_norm2", _PRE + "    attended, _ = block.attention(block.norm1(x), causal=True)\n"
                                      "    x = x + attended\n    return x + block.ffn(x)",
              visible=r"must go through block\.norm2"),
        Wrong("norm1_twice", _PRE + "    attended, _ = block.attention(block.norm1(x), causal=True)\n"
                                    "    x = x + attended\n    return x + block.ffn(block.norm1(x))",
              visible=r"not block\.norm1 again"),
        Wrong("post_ln_instead", _PRE + "    attended, _ = block.attention(x, causal=True)\n"
                                        "    x = block.norm1(x + attended)\n    return block.norm2(x + block.ffn(x))",
              visible=r"return x unchanged"),
        Wrong("not_causal", _PRE + "    attended, _ = block.attention(block.norm1(x), causal=False)\n"
                                   "    x = x + attended\n    return x + block.ffn(block.norm2(x))",
              visible=r"call the attention with causal=True"),
    ],
    "ex3_post_ln_block": [
        Wrong("pre_ln_instead", _POST + "    attended, _ = block.attention(block.norm1(x), causal=True)\n"
                                        "    x = x + attended\n    return x + block.ffn(block.norm2(x))",
              visible=r"return norm2\(norm1\(x\)\)"),
        Wrong("ffn_reads_block_input", _POST + "    attended, _ = block.attention(x, causal=True)\n"
                                               "    h = block.norm1(x + attended)\n    return block.norm2(h + block.ffn(x))"),
        Wrong("residual_after_norm", _POST + "    attended, _ = block.attention(x, causal=True)\n"
                                             "    x = x + block.norm1(attended)\n    return x + block.norm2(block.ffn(x))",
              visible=r"return norm2\(norm1\(x\)\)"),
        Wrong("not_causal", _POST + "    attended, _ = block.attention(x, causal=False)\n"
                                    "    x = block.norm1(x + attended)\n    return block.norm2(x + block.ffn(x))",
              visible=r"call the attention with causal=True"),
    ],
    "ex4_masked_batch_norm": [
        Wrong("padded_statistics", _BN + "    mean, var = x.mean((0, 1)), x.var((0, 1), unbiased=False)\n"
                                         "    return (x - mean) / torch.sqrt(var + eps) * mask.to(x.dtype).unsqueeze(-1)",
              visible=r"use the real tokens' statistics"),
        Wrong("padding_kept", _BN + "    mean, var = masked_feature_statistics(x, mask)\n    return (x - mean) / torch.sqrt(var + eps)",
              visible=r"padding positions of the output must be 0"),
        Wrong("unbiased_variance", _BN + "    real = x[mask]\n    mean, var = real.mean(0), real.var(0)\n"
                                         "    return (x - mean) / torch.sqrt(var + eps) * mask.to(x.dtype).unsqueeze(-1)",
              visible=r"variance 1"),
        Wrong("per_sequence_statistics", _BN + "    w = mask.to(x.dtype).unsqueeze(-1)\n"
                                               "    mean = (x * w).sum(1, keepdim=True) / w.sum(1, keepdim=True)\n"
                                               "    var = ((x - mean) ** 2 * w).sum(1, keepdim=True) / w.sum(1, keepdim=True)\n"
                                               "    return (x - mean) / torch.sqrt(var + eps) * w"),
    ],
}
DELEGATIONS = {
    "ex1_masked_statistics": [
        Delegation("module_access", "import utils.norm_demo as nd\n\n\n"
                                    "def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor):\n"
                                    "    return nd.masked_batch_statistics(x, mask)",
                   denied="utils.norm_demo.masked_batch_statistics"),
    ],
    "ex2_pre_ln_block": [
        Delegation("call_the_block", "def pre_ln_block_forward(block, x: torch.Tensor) -> torch.Tensor:\n"
                                     "    return block(x)[0]",
                   denied="utils.transformer.Block.forward"),
    ],
    "ex3_post_ln_block": [
        Delegation("getattr", "def post_ln_block_forward(block, x: torch.Tensor) -> torch.Tensor:\n"
                              "    return getattr(block, 'for' + 'ward')(x)[0]",
                   denied="utils.transformer.Block.forward"),
    ],
    "ex4_masked_batch_norm": [
        Delegation("functional_batch_norm", _BN + "    y = torch.nn.functional.batch_norm(x[mask], None, None, training=True, eps=eps)\n"
                   "    out = torch.zeros_like(x)\n    out[mask] = y\n    return out",
                   denied="torch.nn.functional.batch_norm"),
        Delegation("package_statistics", "from utils.norm_demo import masked_batch_statistics\n\n\n" + _BN +
                   "    mean, var = masked_batch_statistics(x, mask)\n"
                   "    return (x - mean) / torch.sqrt(var + eps) * mask.to(x.dtype).unsqueeze(-1)",
                   denied="utils.norm_demo.masked_batch_statistics"),
        Delegation("package_masked_batch_norm", "import utils.norm_demo as _nd\n\n\n" + _BN +
                   "    return _nd.masked_batch_norm(x, mask, eps)",
                   denied="utils.norm_demo.masked_batch_norm"),
    ],
}
