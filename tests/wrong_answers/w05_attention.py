"""Wrong answers and delegations for notebook 05's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "05_attention.ipynb"

_COLLEAGUE_LINE = "\n\nBUGGY_LINE = 'scores = torch.einsum(\"bqhd,bkhd->bhqk\", q, k) / math.sqrt(x.shape[-1])'\n"


def _heads(scale: str, view: str = "D // n_heads", mask: str = "triu(1)", line: str = _COLLEAGUE_LINE) -> str:
    """A fixed_attention answer: the colleague's function with the given scale, head view and mask, and a BUGGY_LINE."""
    return ("def fixed_attention(x, W_Q, W_K, W_V, n_heads, causal=True):\n    B, T, D = x.shape\n"
            f"    q = (x @ W_Q).view(B, T, n_heads, {view})\n    k = (x @ W_K).view(B, T, n_heads, {view})\n"
            f"    v = (x @ W_V).view(B, T, n_heads, {view})\n"
            f"    scores = torch.einsum('bqhd,bkhd->bhqk', q, k) / {scale}\n"
            f"    if causal:\n        scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).{mask}, float('-inf'))\n"
            "    weights = torch.softmax(scores, dim=-1)\n"
            "    return torch.einsum('bhqk,bkhd->bqhd', weights, v).reshape(B, T, D)" + line)


_HEAD = "def previous_token_head(T: int) -> tuple[torch.Tensor, torch.Tensor]:\n"


def _head(w_q: str, w_k: str, prelude: str = "") -> str:
    """A previous_token_head answer whose W_Q and W_K are the given expressions (T, T)."""
    return _HEAD + prelude + "    shift = torch.zeros(T, T)\n    shift[1:, :-1] = torch.eye(T - 1)  # row i -> column i - 1\n" \
        f"    return {w_q}, {w_k}"
_MERGE_OK = ("\n\ndef my_merge_heads(x: torch.Tensor) -> torch.Tensor:\n"
             "    B, H, T, Dh = x.shape\n    return x.transpose(1, 2).reshape(B, T, H * Dh)\n")
_SPLIT_OK = ("def my_split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:\n"
             "    B, T, D = x.shape\n    return x.view(B, T, n_heads, D // n_heads).transpose(1, 2)\n\n\n")
_TIED = "def tied_previous_token_model(batches, seed: int = 0) -> OneLayerAttentionLM:\n"


def _tied_loop(config: str, steps: int = 150, extra: str = "", lr: str = "1e-2") -> str:
    """A tied-model solution with the given config source, training steps and learning rate."""
    return (_TIED + "    set_seed(seed)\n"
            f"    model = OneLayerAttentionLM(AttentionLMConfig({config}))\n"
            f"    optimizer = torch.optim.AdamW(model.parameters(), lr={lr})\n"
            f"    for _ in range({steps}):\n        x, y = batches()\n        loss = model.loss(x, y)\n"
            f"        optimizer.zero_grad()\n        loss.backward()\n{extra}"
            "    return model")


WRONG = {
    "ex1_head_scale": [
        # the colleague's function handed in as it was, the output line blamed
        Wrong("colleague_unchanged", _heads("math.sqrt(x.shape[-1])", line="\n\nBUGGY_LINE = 'return torch.einsum(\"bhqk,bkhd->bqhd\", "
                                     "weights, v).reshape(B, T, D)  # (B, T, D): the heads side by side'\n"),
              visible=r"head 0 of fixed_attention"),
        # the scale divided by the number of heads instead of the model's width divided by it
        Wrong("scale_over_heads", _heads("(math.sqrt(D) / n_heads)"), visible=r"head 0 of fixed_attention"),
        # the width of the visible check's heads, hard-coded: right at width 6 only
        Wrong("visible_width", _heads("math.sqrt(6)")),
        # the right fix, the wrong line named
        Wrong("right_fix_wrong_line", _heads("math.sqrt(D // n_heads)", line="\n\nBUGGY_LINE = \"weights = torch.softmax(scores, "
                                      "dim=-1)  # (B, H, T, T): each query's weights sum to 1\"\n")),
        # the right scale, but each head takes every H-th column instead of a block of D/H columns
        Wrong("heads_interleaved", _heads("math.sqrt(D // n_heads)", view="D // n_heads").replace(
            ".view(B, T, n_heads, D // n_heads)", ".view(B, T, D // n_heads, n_heads).transpose(2, 3)"),
              visible=r"head 0 of fixed_attention"),
        # the right scale, the mask now hides the query's own key too
        Wrong("mask_hides_itself", _heads("math.sqrt(D // n_heads)", mask="triu(0)"), visible=r"with one head"),
    ],
    "ex2_previous_token_head": [
        Wrong("one_large_strength", _head("math.sqrt(T) * math.log(100 * T) * shift", "torch.eye(T)"),
              visible=r"at T = 2 query 1 puts 0\.99\d+ .*outside the band"),
        Wrong("ignores_the_other_keys", _head("math.sqrt(T) * math.log(0.935 / 0.065) * shift", "torch.eye(T)"),
              visible=r"outside the band 0\.9 to 0\.97"),
        Wrong("scale_forgotten", _head("strength", "torch.eye(T)",
                                       prelude="    strength = torch.zeros(T, T)\n"
                                               "    strength[1:, :-1] = torch.diag(torch.log(torch.arange(1, T) * 14.4))\n"),
              visible=r"outside the band"),
        Wrong("one_strength_tuned_for_the_middle", _head("math.sqrt(T) * math.log(14.4 * T / 2) * shift", "torch.eye(T)"),
              visible=r"outside the band"),
        Wrong("tied", _head("math.sqrt(T) * math.log(100 * T) * shift", "math.sqrt(T) * math.log(100 * T) * shift"),
              visible=r"outside the band"),
        Wrong("shift_the_wrong_way", _head("math.sqrt(T) * math.log(100 * T) * shift.T", "torch.eye(T)"),
              visible=r"outside the band"),
        Wrong("wrong_shape", _head("math.sqrt(T) * math.log(100 * T) * shift[:, :-1]", "torch.eye(T)"),
              visible=r"must both have shape"),
    ],
    "ex3_split_merge": [
        Wrong("view_without_transpose", "def my_split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:\n"
                                        "    B, T, D = x.shape\n    return x.view(B, n_heads, T, D // n_heads)" + _MERGE_OK,
              visible=r"head 1 of the first token"),
        Wrong("interleaved_columns", "def my_split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:\n"
                                     "    B, T, D = x.shape\n    return x.view(B, T, D // n_heads, n_heads).permute(0, 3, 1, 2)" + _MERGE_OK,
              visible=r"head 1 of the first token"),
        Wrong("merge_without_transpose", _SPLIT_OK + "def my_merge_heads(x: torch.Tensor) -> torch.Tensor:\n"
                                                     "    B, H, T, Dh = x.shape\n    return x.reshape(B, T, H * Dh)",
              visible=r"must give x back"),
        Wrong("four_heads_hard_coded", "def my_split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:\n"
                                       "    B, T, D = x.shape\n    return x.view(B, T, 4, D // 4).transpose(1, 2)" + _MERGE_OK),
    ],
    "ex4_tied_previous_token": [
        Wrong("untied", _tied_loop("16, d_model=32, n_head=1, residual=False", extra="        optimizer.step()\n"),
              visible=r"keep W_K = W_Q"),
        Wrong("section_9_config", _tied_loop("16, d_model=32, n_head=1, tie_qk=True, residual=False",
                                             extra="        optimizer.step()\n"), visible=r"below the target of 90%"),
        Wrong("over_the_parameter_budget", _tied_loop("16, d_model=64, n_head=1, tie_qk=True, residual=True",
                                                      extra="        optimizer.step()\n"), visible=r"over the budget of 4,200"),
        Wrong("over_the_batch_budget", _tied_loop("16, d_model=32, n_head=1, tie_qk=True, residual=True", steps=300,
                                                  extra="        optimizer.step()\n"), visible=r"the budget is 150 batches"),
        Wrong("no_optimizer_step", _tied_loop("16, d_model=32, n_head=1, tie_qk=True, residual=True", steps=150)),
        Wrong("two_heads_no_residual", _tied_loop("16, d_model=32, n_head=2, tie_qk=True, residual=False", steps=150,
                                                  extra="        optimizer.step()\n")),
        Wrong("wrong_vocabulary", _tied_loop("32, d_model=16, n_head=2, tie_qk=True, residual=True", steps=10,
                                             extra="        optimizer.step()\n"),
              visible=r"vocab_size=16"),
    ],
}

DELEGATIONS = {
    "ex1_head_scale": [
        Delegation("pytorch_kernel", "import torch.nn.functional as F\n\n\n"
                   "def fixed_attention(x, W_Q, W_K, W_V, n_heads, causal=True):\n    B, T, D = x.shape\n"
                   "    q, k, v = ((x @ W).view(B, T, n_heads, D // n_heads).transpose(1, 2) for W in (W_Q, W_K, W_V))\n"
                   "    return F.scaled_dot_product_attention(q, k, v, is_causal=causal).transpose(1, 2).reshape(B, T, D)"
                   + _COLLEAGUE_LINE, denied="torch.nn.functional.scaled_dot_product_attention"),
        Delegation("reference", "from utils.head_attention import heads_attention as fixed_attention" + _COLLEAGUE_LINE,
                   denied="utils.head_attention.heads_attention"),
        Delegation("package_per_head", "from utils.attention import scaled_dot_product_attention as attend\n\n\n"
                   "def fixed_attention(x, W_Q, W_K, W_V, n_heads, causal=True):\n    T, D = x.shape[1], x.shape[2]\n"
                   "    w = D // n_heads\n    mask = torch.full((T, T), float('-inf')).triu(1) if causal else None\n"
                   "    return torch.cat([attend(x @ W_Q[:, r * w:(r + 1) * w], x @ W_K[:, r * w:(r + 1) * w], "
                   "x @ W_V[:, r * w:(r + 1) * w], mask)[0] for r in range(n_heads)], dim=-1)" + _COLLEAGUE_LINE,
                   denied="utils.attention.scaled_dot_product_attention"),
    ],
    "ex2_previous_token_head": [
        Delegation("direct", "from utils.attention_lm import previous_token_projections\n\n\n" + _HEAD +
                   "    return previous_token_projections(T)", denied="utils.attention_lm.previous_token_projections"),
        Delegation("module_attribute", "import utils.attention_lm as alm\n\n\n" + _HEAD +
                   "    return alm.previous_token_projections(T)", denied="utils.attention_lm.previous_token_projections"),
        Delegation("copied_function", _HEAD + "    return _head_copy(T)",
                   before="import types\nimport utils.attention_lm\n\n_f = utils.attention_lm.previous_token_projections\n"
                          "_head_copy = types.FunctionType(_f.__code__, _f.__globals__, 'mine', _f.__defaults__)",
                   denied="utils.attention_lm.previous_token_projections"),
    ],
    "ex3_split_merge": [
        Delegation("module_methods", "from utils.attention import MultiHeadAttention\n\n\n"
                   "def my_split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:\n"
                   "    return MultiHeadAttention(x.shape[-1], n_heads).split_heads(x)\n\n\n"
                   "def my_merge_heads(x: torch.Tensor) -> torch.Tensor:\n"
                   "    return MultiHeadAttention(x.shape[1] * x.shape[-1], x.shape[1]).merge_heads(x)",
                   denied="utils.attention.MultiHeadAttention.split_heads"),
    ],
    "ex4_tied_previous_token": [
        Delegation("package_trainer", _TIED + "    model, _ = train_previous_token(AttentionLMConfig(16, d_model=32, n_head=1, "
                   "tie_qk=True), 150, 16, lr=1e-2, seed=seed)\n    return model",
                   denied="utils.attention_lm.train_previous_token"),
        Delegation("shared_loop", "from utils.training import TrainConfig\nfrom utils import training\n\n\n" + _TIED +
                   "    set_seed(seed)\n"
                   "    model = OneLayerAttentionLM(AttentionLMConfig(16, d_model=32, n_head=1, tie_qk=True, residual=True))\n"
                   "    training.train(model, batches,\n"
                   "                   TrainConfig(steps=150, lr=1e-2, warmup_steps=0, schedule='constant', progress=False))\n"
                   "    return model",
                   denied="utils.training.train"),
    ],
}

from tests.wrong_answers.red_team_1 import adopt  # noqa: E402

# The fifth exercise red team's (written from the released notebook alone): tests/wrong_answers/red_team_5, for
# exercise 2 (its answers to the earlier exercise 1, a leak detector that overlapped notebook 08's exercise 3, went with it).
RIGHT: dict = {}
adopt("05", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=5)
