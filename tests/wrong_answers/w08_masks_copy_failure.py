"""Wrong answers and delegations for notebook 08's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "08_masks_copy_failure.ipynb"

_ATT = "def causal_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:\n"
_SCORES = _ATT + "    scores = q @ k.T / q.shape[-1] ** 0.5\n"
_FUTURE = "    mask = torch.full_like(scores, float('-inf')).triu(diagonal=1)\n"
_SHARE = "def look_ahead_share(weights: torch.Tensor) -> float:\n    T = weights.shape[0]\n"
_LOSS = ("@torch.no_grad()\ndef generation_time_loss(model, ids: list[int]) -> float:\n"
         "    idx = torch.tensor(ids)[None]  # (1, n)\n")

WRONG = {
    "ex1_find_the_leak": [
        Wrong("as_given", "causal_attention = colleague_attention",
              visible=r"the future still reaches the past"),
        Wrong("no_mask", _SCORES + "    return torch.softmax(scores, dim=-1) @ v",
              visible=r"the future still reaches the past"),
        Wrong("diagonal_hidden", _SCORES + "    mask = torch.full_like(scores, float('-inf')).triu(diagonal=0)\n"
                                           "    return torch.softmax(scores + mask, dim=-1) @ v",
              visible=r"returned NaN or inf: .*the diagonal must stay visible"),
        Wrong("mask_after_softmax", _SCORES + "    return (torch.softmax(scores, dim=-1) * torch.ones_like(scores).tril()) @ v",
              visible=r"the future still reaches the past"),
        Wrong("not_normalised", _SCORES + "    return (scores.exp() * torch.ones_like(scores).tril()) @ v",
              visible=r"position 0 may read key 0 only, so its output must be v\[0\]"),
        Wrong("mask_hides_the_past", _SCORES + "    mask = torch.full_like(scores, float('-inf')).tril(diagonal=-1)\n"
                                               "    return torch.softmax(scores + mask, dim=-1) @ v",
              visible=r"the future still reaches the past"),
        Wrong("no_scale", _ATT + "    scores = q @ k.T\n" + _FUTURE + "    return torch.softmax(scores + mask, dim=-1) @ v"),
        Wrong("transposed_weights", _SCORES + _FUTURE + "    return torch.softmax(scores + mask, dim=-1).T @ v",
              visible=r"the future still reaches the past"),
    ],
    "ex2_look_ahead_share": [
        Wrong("all_t_rows", _SHARE + "    return float((weights.argmax(dim=-1) == torch.arange(1, T + 1)).float().mean())",
              visible=r"you averaged over all T rows, but the last row has no key i\+1"),
        Wrong("argmax_over_queries", _SHARE + "    return float((weights.argmax(dim=0)[:-1] == torch.arange(1, T))"
                                              ".float().mean())",
              visible=r"take each row's argmax over the keys,? \(?dim=-1"),
        Wrong("reads_itself", _SHARE + "    return float((weights[:-1].argmax(dim=-1) == torch.arange(T - 1))"
                                       ".float().mean())",
              visible=r"look_ahead_share of the identity .*expected 0, got 1"),
        Wrong("weight_over_half", _SHARE + "    return float((weights[:-1].diagonal(1) > 0.5).float().mean())",
              visible=r"rows 0 and 2 put their LARGEST weight on key i\+1 .*expected 0\.666667, got 0\.333333"),
        Wrong("count_not_share", _SHARE + "    return float((weights[:-1].argmax(dim=-1) == torch.arange(1, T)).sum())",
              visible=r"rows 0\.\.3 all look one step ahead .*expected 1, got 4"),
        Wrong("returns_tensor", _SHARE + "    return (weights[:-1].argmax(dim=-1) == torch.arange(1, T)).float().mean()",
              visible=r"look_ahead_share\(weights\): expected a float, got Tensor"),
    ],
    "ex3_generation_time_loss": [
        Wrong("teacher_forced", _LOSS + "    log_probs = torch.log_softmax(model(idx[:, :-1])[0], dim=-1)  # (n-1, V)\n"
                                        "    return float(-log_probs.gather(-1, idx[0, 1:, None]).mean())",
              visible=r"UNMASKED model equals its teacher-forced loss: the model saw the tokens it predicts"),
        Wrong("sum_not_mean", _LOSS + "    total = 0.0\n    for t in range(idx.shape[1] - 1):\n"
                                      "        logits = model(idx[:, : t + 1])[0, -1]\n"
                                      "        total -= float(torch.log_softmax(logits, dim=-1)[idx[0, t + 1]])\n"
                                      "    return total",
              visible=r"MASKED model: it must equal the teacher-forced loss"),
        Wrong("predicts_current_token", _LOSS + "    total = 0.0\n    for t in range(idx.shape[1] - 1):\n"
                                                "        logits = model(idx[:, : t + 1])[0, -1]\n"
                                                "        total -= float(torch.log_softmax(logits, dim=-1)[idx[0, t]])\n"
                                                "    return total / (idx.shape[1] - 1)",
              visible=r"MASKED model: it must equal the teacher-forced loss"),
        Wrong("softmax_over_batch", _LOSS + "    total = 0.0\n    for t in range(idx.shape[1] - 1):\n"
                                            "        logits = model(idx[:, : t + 1])[:, -1]  # (1, V)\n"
                                            "        total -= float(torch.log_softmax(logits, dim=0)[0, idx[0, t + 1]])\n"
                                            "    return total / (idx.shape[1] - 1)",
              visible=r"MASKED model: it must equal the teacher-forced loss"),
        Wrong("first_position", _LOSS + "    total = 0.0\n    for t in range(idx.shape[1] - 1):\n"
                                        "        logits = model(idx[:, : t + 1])[0, 0]  # the first position, not the last\n"
                                        "        total -= float(torch.log_softmax(logits, dim=-1)[idx[0, t + 1]])\n"
                                        "    return total / (idx.shape[1] - 1)"),
    ],
}

DELEGATIONS = {
    "ex1_find_the_leak": [
        Delegation("sdpa", "import torch.nn.functional as F\n\n\n" + _ATT +
                   "    return F.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=True)[0]",
                   denied="torch.nn.functional.scaled_dot_product_attention"),
        Delegation("package", "from utils.attention import attention_weights, causal_mask\n\n\n" + _ATT +
                   "    return attention_weights(q, k, causal_mask(q.shape[0])) @ v",
                   denied="utils.attention.attention_weights"),
    ],
    "ex2_look_ahead_share": [
        Delegation("module_access", "import utils.copy_failure as cf\n\n\n"
                                    "def look_ahead_share(weights: torch.Tensor) -> float:\n"
                                    "    return cf.next_position_share(weights)",
                   denied="utils.copy_failure.next_position_share"),
        Delegation("getattr", "import importlib\n\n\ndef look_ahead_share(weights: torch.Tensor) -> float:\n"
                              "    module = importlib.import_module('utils.copy_' + 'failure')\n"
                              "    return getattr(module, 'next_position' + '_share')(weights)",
                   denied="utils.copy_failure.next_position_share"),
        Delegation("direct", "from utils.copy_failure import next_position_share\n\n\n"
                             "def look_ahead_share(weights: torch.Tensor) -> float:\n"
                             "    return next_position_share(weights)",
                   denied="utils.copy_failure.next_position_share"),
        Delegation("copy_in_earlier_cell", "def look_ahead_share(weights: torch.Tensor) -> float:\n"
                                           "    return _my_helper(weights)",
                   before="import types\nimport utils.copy_failure\n\n_f = utils.copy_failure.next_position_share\n"
                          "_my_helper = types.FunctionType(_f.__code__, _f.__globals__, 'helper', _f.__defaults__)",
                   denied="utils.copy_failure.next_position_share"),
    ],
    "ex3_generation_time_loss": [
        Delegation("direct", "from utils.copy_failure import generation_time_nll\n\n\n"
                             "def generation_time_loss(model, ids: list[int]) -> float:\n"
                             "    return generation_time_nll(model, [ids])",
                   denied="utils.copy_failure.generation_time_nll"),
        Delegation("copy_before_test", "from utils.copy_failure import generation_time_nll as _nll\n\n"
                                       "_saved = _nll\n\n\n"
                                       "def generation_time_loss(model, ids: list[int]) -> float:\n"
                                       "    return _saved(model, [list(ids)])",
                   denied="utils.copy_failure.generation_time_nll"),
    ],
}
