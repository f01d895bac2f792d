"""Wrong answers and delegations for notebook 07's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "07_transformer_lm.ipynb"
_STATS = "def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:\n"
_PRE = "def pre_ln_block_forward(block: Block, x: torch.Tensor) -> torch.Tensor:\n"
_WHICH = "def placement_of(block_forward, d_model: int) -> str:\n"
_COLLEAGUE = ("    weights = mask.to(x.dtype).unsqueeze(-1)\n    lengths = weights.sum(dim=1)\n"
              "    sequence_means = (x * weights).sum(dim=1) / lengths\n    mean = {mean}\n    variance = {var}\n"
              "    return mean, variance")
_ROW_MEANS = "sequence_means.mean(dim=0)"  # the colleague's first bug: each sequence counts once
_TOKEN_MEAN = "(sequence_means * lengths).sum(dim=0) / lengths.sum()"
_MASK_FIRST = "((x * weights - mean) ** 2).sum(dim=(0, 1)) / lengths.sum()"  # the second: mean^2 per padding position
_CENTRE_FIRST = "((x - mean) ** 2 * weights).sum(dim=(0, 1)) / lengths.sum()"
_BN = "def masked_batch_norm(x: torch.Tensor, mask: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:\n"
WRONG = {
    "ex1_masked_statistics": [
        Wrong("colleague_as_is", _STATS + _COLLEAGUE.format(mean=_ROW_MEANS, var=_MASK_FIRST),
              visible=r"split differently between the sequences"),
        Wrong("only_the_mean_fixed", _STATS + _COLLEAGUE.format(mean=_TOKEN_MEAN, var=_MASK_FIRST),
              visible=r"more padding positions changed the variance"),
        Wrong("only_the_variance_fixed", _STATS + _COLLEAGUE.format(mean=_ROW_MEANS, var=_CENTRE_FIRST),
              visible=r"split differently between the sequences"),
        Wrong("variance_about_padded_mean", _STATS + _COLLEAGUE.format(
            mean=_TOKEN_MEAN, var="((x - x.mean(dim=(0, 1))) ** 2 * weights).sum(dim=(0, 1)) / lengths.sum()"),
              visible=r"more padding positions changed the variance"),
        Wrong("unbiased_variance", _STATS + "    real = x[mask]\n    return real.mean(0), real.var(0)",
              visible=r"divide by N, not N - 1"),
        Wrong("count_every_position", _STATS + _COLLEAGUE.format(
            mean="(x * weights).sum(dim=(0, 1)) / weights.sum()",
            var="((x - mean) ** 2 * weights).sum(dim=(0, 1)) / weights.numel()"),
              visible=r"more padding positions changed the variance"),
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
    "ex3_which_placement": [
        Wrong("unit_statistics", _WHICH + "    x = torch.randn(2, 6, d_model, generator=torch.Generator().manual_seed(0))\n"
                                          "    y = block_forward(x)\n"
                                          "    unit = y.mean(-1).abs().max() < 0.1 and (y.std(-1, unbiased=False) - 1).abs().max() < 0.1\n"
                                          "    return 'post' if unit else 'pre'",
              visible=r"after the gain and bias a token need not have mean 0 and std 1"),
        Wrong("proportional_output", _WHICH + "    x = torch.randn(2, 6, d_model, generator=torch.Generator().manual_seed(0))\n"
                                              "    y1, y2 = block_forward(x), block_forward(2 * x)\n"
                                              "    return 'pre' if torch.allclose(y2, 2 * y1, rtol=0.05, atol=0.05) else 'post'",
              visible=r"a Pre-LN block of width 16 was called"),
        Wrong("output_shrinks", _WHICH + "    x = torch.randn(2, 6, d_model, generator=torch.Generator().manual_seed(0))\n"
                                         "    return 'post' if block_forward(x).norm() < x.norm() else 'pre'",
              visible=r"Post-LN block of width"),
        Wrong("scale_invariant", _WHICH + "    x = torch.randn(2, 6, d_model, generator=torch.Generator().manual_seed(0))\n"
                                          "    same = torch.allclose(block_forward(10 * x), block_forward(x), atol=1e-3)\n"
                                          "    return 'post' if same else 'pre'",
              visible=r"Post-LN block of width"),
        Wrong("growth_too_small", _WHICH + "    x = torch.randn(2, 6, d_model, generator=torch.Generator().manual_seed(0))\n"
                                           "    growth = block_forward(2 * x).norm() / block_forward(x).norm()\n"
                                           "    return 'pre' if growth > 1.5 else 'post'"),
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
        Delegation("copy_before", _STATS + "    return _statistics(x, mask)", before="_statistics = masked_batch_statistics",
                   denied="utils.norm_demo.masked_batch_statistics"),
    ],
    "ex2_pre_ln_block": [
        Delegation("call_the_block", "def pre_ln_block_forward(block, x: torch.Tensor) -> torch.Tensor:\n"
                                     "    return block(x)[0]",
                   denied="utils.transformer.Block.forward"),
    ],
    "ex3_which_placement": [
        Delegation("alias", "from utils.norm_cases import placement_by_scaling as _pbs\n\n\n" + _WHICH +
                   "    return _pbs(block_forward, d_model)", denied="utils.norm_cases.placement_by_scaling"),
        Delegation("growth_by_getattr", "import utils.norm_cases as _nc\n\n\n" + _WHICH +
                   "    return 'pre' if getattr(_nc, 'scaling_' + 'growth')(block_forward, d_model) > 100 else 'post'",
                   denied="utils.norm_cases.scaling_growth"),
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

from tests.wrong_answers.red_team_1 import adopt  # noqa: E402

RIGHT: dict = {}
# The fourth exercise red team's (written from the released notebook alone): tests/wrong_answers/red_team_4.
adopt("07", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=4)
# Not filed: ex3 w4 reads the block from the callable's closure (the grader flags __closure__ for manual review, but gives
# the automatic marks: only a process boundary could hide the block), and ex3 w5 splits the growth at 5000, inside the
# margin the proven bounds leave (Pre-LN >= 8,409, Post-LN <= 1.004 on the hidden blocks): a right answer by the text's terms.
# Nor ex1 w8, the one-pass variance E[x^2] - mean^2 in float32: within the hidden tolerance on every case (the red team
# found it off on 3 of 288 of its own batches at atol 1e-5), so it earns the marks as the text's terms allow.
for _table in (WRONG, RIGHT):
    _table["ex3_which_placement"] = [answer for answer in _table.get("ex3_which_placement", [])
                                     if answer.name not in ("red4_w4", "red4_w5")]
    _table["ex1_masked_statistics"] = [answer for answer in _table.get("ex1_masked_statistics", [])
                                       if answer.name != "red4_w8"]
