"""Wrong answers and delegations for notebook 05's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "05_attention.ipynb"

_LEAK = "def leaks_future(layer, T: int, d: int) -> bool:\n"


def _probe(compare: str, threshold: str = "1e-4", prelude: str = "") -> str:
    """A leaks_future answer that redraws the inputs after t for every t and applies `compare` to the old and new outputs."""
    return (_LEAK + prelude + "    g = torch.Generator().manual_seed(0)\n    x = torch.randn(8, T, d, generator=g)\n"
            "    base = layer(x)\n    for t in range(T - 1):\n        y = x.clone()\n"
            "        y[:, t + 1:] = torch.randn(8, T - t - 1, d, generator=g)\n        new = layer(y)\n"
            f"        if {compare.format(threshold=threshold)}:\n            return True\n    return False")


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
    "ex1_leaks_future": [
        Wrong("exact_equality", _probe("not torch.equal(new[:, :t + 1], base[:, :t + 1])"),
              visible=r"answered True for a causal layer"),
        Wrong("last_input_first_output", _LEAK + "    x = torch.randn(8, T, d)\n    y = x.clone()\n"
                                          "    y[:, -1] = torch.randn(8, d)\n"
                                          "    return bool((layer(y)[:, 0] - layer(x)[:, 0]).abs().max() > 1e-4)",
              visible=r"answered False for a layer that reads the future"),
        Wrong("every_position_compared", _probe("(new - base).abs().max() > {threshold}"),
              visible=r"answered True for a causal layer"),
        Wrong("loose_threshold", _probe("(new[:, :t + 1] - base[:, :t + 1]).abs().max() > {threshold}", "0.1")),
        Wrong("only_after_the_first_position", _LEAK + "    x = torch.randn(8, T, d)\n    y = x.clone()\n"
                                                "    y[:, 1:] = torch.randn(8, T - 1, d)\n"
                                                "    return bool((layer(y)[:, 0] - layer(x)[:, 0]).abs().max() > 1e-4)"),
        Wrong("one_input_tight_threshold", _LEAK + "    g = torch.Generator().manual_seed(0)\n"
                                            "    x = torch.randn(1, T, d, generator=g)\n    base = layer(x)\n"
                                            "    for t in range(T - 1):\n        y = x.clone()\n"
                                            "        y[:, t + 1:] = 1e-3 * torch.randn(1, T - t - 1, d, generator=g) + x[:, t + 1:]\n"
                                            "        if (layer(y)[:, :t + 1] - base[:, :t + 1]).abs().max() > 1e-3:\n"
                                            "            return True\n    return False"),
        Wrong("always_false", _LEAK + "    return False", visible=r"answered False for a layer that reads the future"),
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
    "ex1_leaks_future": [
        Delegation("alias", "from utils.causal_probe import leaks_future as _probe\n\n\n" + _LEAK +
                   "    return _probe(layer, T, d)", denied="utils.causal_probe.leaks_future"),
        Delegation("module_attribute", "import utils.causal_probe as cp\n\n\n" + _LEAK +
                   "    return cp.largest_leak(layer, T, d) > 1e-4", denied="utils.causal_probe.largest_leak"),
        Delegation("getattr", "import importlib\n\n\n" + _LEAK +
                   "    return getattr(importlib.import_module('utils.causal_' + 'probe'), 'leaks_future')(layer, T, d)",
                   denied="utils.causal_probe.leaks_future"),
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

# The fifth exercise red team's (written from the released notebook alone): tests/wrong_answers/red_team_5. Its ex1 w4
# (output t against input t + 1 only) and w6 (only the last input redrawn) earned full marks until the hidden layers gained
# a leak that skips the next key and one from key 1 to query 0 alone (utils.causal_probe). Not filed: w7 reads the layer's
# closure (flagged for manual review by the grader, automatic marks full) and w11 (uniform inputs, one row) still earns
# full marks: no hidden leak is faint enough to need normal inputs (left open).
RIGHT: dict = {}
adopt("05", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=5)
for _table in (WRONG, RIGHT):
    for _key in list(_table):
        _table[_key] = [answer for answer in _table[_key] if not (_key.startswith("ex1") and answer.name in ("red5_w7", "red5_w11"))]
