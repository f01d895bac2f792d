"""Wrong answers and delegations for notebook 05's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "05_attention.ipynb"

_ATT = ("def my_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,\n"
        "                 mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:\n")
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
    "ex1_attention": [
        Wrong("no_scale", _ATT + "    weights = torch.softmax(q @ k.transpose(-2, -1) + (0 if mask is None else mask), dim=-1)\n"
                                 "    return weights @ v, weights",
              visible=r"did you divide the scores by sqrt\(d_k\)"),
        Wrong("softmax_over_queries", _ATT + "    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])\n"
                                             "    if mask is not None:\n        scores = scores + mask\n"
                                             "    weights = torch.softmax(scores, dim=-2)\n    return weights @ v, weights",
              visible=r"each row of the weights"),
        Wrong("mask_ignored", _ATT + "    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1)\n"
                                     "    return weights @ v, weights",
              visible=r"with a causal mask the weights above the diagonal must be 0"),
        Wrong("mask_after_softmax", _ATT + "    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1)\n"
                                           "    if mask is not None:\n        weights = weights * (mask == 0)\n"
                                           "    return weights @ v, weights",
              visible=r"query 1 shares its weight between keys 0 and 1 only"),
        Wrong("scale_by_keys", _ATT + "    scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-2])\n"
                                      "    if mask is not None:\n        scores = scores + mask\n"
                                      "    weights = torch.softmax(scores, dim=-1)\n    return weights @ v, weights",
              visible=r"did you divide the scores by sqrt\(d_k\)"),
        Wrong("two_d_transpose", _ATT + "    scores = q @ k.T / math.sqrt(q.shape[-1])\n"
                                        "    if mask is not None:\n        scores = scores + mask\n"
                                        "    weights = torch.softmax(scores, dim=-1)\n    return weights @ v, weights"),
    ],
    "ex2_previous_token_head": [
        Wrong("tied", _head("math.sqrt(T) * math.log(100 * T) * shift", "math.sqrt(T) * math.log(100 * T) * shift"),
              visible=r"below 0\.9"),
        Wrong("too_weak", _head("shift", "torch.eye(T)"), visible=r"below 0\.9"),
        Wrong("fixed_strength", _head("math.sqrt(T) * 5.0 * shift", "torch.eye(T)"), visible=r"at T = 64 .*below 0\.9"),
        Wrong("shift_the_wrong_way", _head("math.sqrt(T) * math.log(100 * T) * shift.T", "torch.eye(T)"),
              visible=r"below 0\.9"),
        Wrong("scale_forgotten", _head("math.log(100 * T) * shift", "torch.eye(T)"), visible=r"below 0\.9"),
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
    "ex1_attention": [
        Delegation("direct", "from utils.attention import scaled_dot_product_attention\n\n\n" + _ATT +
                   "    return scaled_dot_product_attention(q, k, v, mask)",
                   denied="utils.attention.scaled_dot_product_attention"),
        Delegation("weights_helper", "from utils.attention import attention_weights\n\n\n" + _ATT +
                   "    weights = attention_weights(q, k, mask)\n    return weights @ v, weights",
                   denied="utils.attention.attention_weights"),
        Delegation("torch_sdpa", "import torch.nn.functional as F\n\n\n" + _ATT +
                   "    eye = torch.eye(k.shape[-2]).expand(*k.shape[:-1], k.shape[-2])  # values = one-hot keys: out = weights\n"
                   "    weights = F.scaled_dot_product_attention(q, k, eye, attn_mask=mask)\n"
                   "    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask), weights",
                   denied="torch.nn.functional.scaled_dot_product_attention"),
        Delegation("module_attribute", "import utils.attention as ua\n\n\n" + _ATT +
                   "    return ua.scaled_dot_product_attention(q, k, v, mask)",
                   denied="utils.attention.scaled_dot_product_attention"),
        Delegation("importlib", "import importlib\n\n\n" + _ATT +
                   "    weights = getattr(importlib.import_module('utils.' + 'attention'), 'attention_weights')(q, k, mask)\n"
                   "    return weights @ v, weights",
                   denied="utils.attention.attention_weights"),
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
