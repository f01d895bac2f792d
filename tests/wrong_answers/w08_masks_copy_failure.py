"""Wrong answers and delegations for notebook 08's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "08_masks_copy_failure.ipynb"

_MASK = "def make_causal_mask(T: int) -> torch.Tensor:\n"
_SHARE = "def look_ahead_share(weights: torch.Tensor) -> float:\n    T = weights.shape[0]\n"
_LOSS = ("@torch.no_grad()\ndef generation_time_loss(model, ids: list[int]) -> float:\n"
         "    idx = torch.tensor(ids)[None]  # (1, n)\n")

WRONG = {
    "ex1_causal_mask": [
        Wrong("only_row_0", _MASK + "    mask = torch.zeros(T, T)\n    mask[0, 1:] = float('-inf')\n    return mask",
              visible=r"^failed: CheckFailed: .*entry \(1, 2\) holds 0\.0, but every entry above the diagonal must be "
                      r"-inf .*in every row"),
        Wrong("diagonal_hidden", _MASK + "    return torch.full((T, T), float('-inf')).triu(diagonal=0) + "
                                         "torch.zeros(T, T).tril(-1)",
              visible=r"entry \(0, 0\) holds -inf, but the diagonal must be 0: a query may read its own position"),
        Wrong("next_token_visible", _MASK + "    return torch.zeros(T, T).masked_fill("
                                            "torch.ones(T, T, dtype=torch.bool).triu(diagonal=2), float('-inf'))",
              visible=r"entry \(0, 1\) holds 0\.0, .*must not see key i\+1, the very token it predicts"),
        Wrong("multiplicative_0_1", _MASK + "    return torch.ones(T, T).tril()  # 1 = keep, 0 = drop",
              visible=r"entry \(0, 0\) holds 1\.0, but the diagonal must be 0"),
        Wrong("zeros_not_inf", _MASK + "    future = torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)\n"
                                       "    return torch.zeros(T, T).masked_fill(future, 0.0)",
              visible=r"entry \(0, 1\) holds 0\.0, but every entry above the diagonal must be -inf"),
        Wrong("transposed", _MASK + "    return torch.zeros(T, T).masked_fill("
                                    "torch.ones(T, T, dtype=torch.bool).tril(diagonal=-1), float('-inf'))",
              visible=r"entry \(1, 0\) holds -inf, but below the diagonal the mask must be 0: the past stays visible"),
        Wrong("bool_mask", _MASK + "    return torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)",
              visible=r"has dtype torch\.bool: the mask is ADDED to the scores"),
        Wrong("large_negative", _MASK + "    return torch.zeros(T, T).masked_fill("
                                        "torch.ones(T, T, dtype=torch.bool).triu(diagonal=1), -1e9)",
              visible=r"holds -1000000000\.0, but every entry above the diagonal must be -inf"),
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
    "ex1_causal_mask": [
        Delegation("direct", "from utils.attention import causal_mask\n\n\n" + _MASK + "    return causal_mask(T)",
                   denied="utils.attention.causal_mask"),
        Delegation("alias", "from utils.attention import causal_mask as cm\n\n\n" + _MASK + "    return cm(T)",
                   denied="utils.attention.causal_mask"),
        Delegation("torch_equivalent", _MASK + "    return torch.nn.Transformer.generate_square_subsequent_mask(T)",
                   denied="torch.nn.Transformer.generate_square_subsequent_mask"),
        Delegation("copy_in_earlier_cell", _MASK + "    return _my_helper(T)",
                   before="import types\nimport utils.attention\n\n_f = utils.attention.causal_mask\n"
                          "_my_helper = types.FunctionType(_f.__code__, _f.__globals__, 'helper', _f.__defaults__)",
                   denied="utils.attention.causal_mask"),
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
