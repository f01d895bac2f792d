"""Wrong answers and delegations for notebook 08's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "08_masks_copy_failure.ipynb"

_ATT = "def causal_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:\n"
_SEEN = "    seen = torch.arange(1, q.shape[0] + 1, dtype=q.dtype)[:, None]  # (T, 1)\n"
_TAIL = ("    scores = q @ k.T / q.shape[-1] ** 0.5\n"
         "    mask = torch.full_like(scores, float('-inf')).triu(diagonal=1)\n"
         "    return torch.softmax(scores + mask, dim=-1) @ v")
_SHARE = "def look_ahead_share(weights: torch.Tensor) -> float:\n    T = weights.shape[0]\n"
_LEAKS = "def leaks_future(forward, vocab_size: int, context_length: int) -> bool:\n"


def _probe(trials: str = "4 * T", cut: str = "t + 1", compared: str = "t + 1", line: str = "moved > 1e-4",
           change: str = "y[:, {cut} :] = torch.randint(0, vocab_size, (1, T - ({cut})), generator=generator)") -> str:
    """A leaks_future answer that compares x and y, equal before `cut`, at positions < `compared`, `trials` times."""
    return (_LEAKS + "    T = context_length\n    generator = torch.Generator().manual_seed(0)\n"
            f"    for trial in range({trials}):\n        t = trial % (T - 1)\n"
            "        x = torch.randint(0, vocab_size, (1, T), generator=generator)\n        y = x.clone()\n"
            f"        {change.format(cut=cut)}\n"
            f"        moved = float((forward(x)[:, : {compared}] - forward(y)[:, : {compared}]).abs().max())\n"
            f"        if {line}:\n            return True\n    return False")


WRONG = {
    "ex1_find_the_leak": [
        Wrong("as_given", "causal_attention = colleague_attention", visible=r"the future still reaches the past"),
        Wrong("centring_dropped", _ATT + _TAIL, visible=r"at the last position, which has no future to leak"),
        Wrong("keys_on_their_own_prefix", _ATT + _SEEN + "    q = q - q.cumsum(dim=0) / seen\n"
                                          "    k = k - k.cumsum(dim=0) / seen\n" + _TAIL,
              visible=r"at the last position, which has no future to leak"),
        Wrong("queries_before_i", _ATT + _SEEN + "    before = (q.cumsum(dim=0) - q) / (seen - 1).clamp(min=1)\n"
                                  "    q = q - before\n" + _TAIL,
              visible=r"at the last position, which has no future to leak"),
        Wrong("keys_fixed_queries_not", _ATT + _SEEN + "    q = q - q.mean(dim=0, keepdim=True)\n"
                                        "    k = k - k.cumsum(dim=0) / seen\n" + _TAIL,
              visible=r"the future still reaches the past"),
        Wrong("first_query_as_centre", _ATT + "    q = q - q[:1]\n" + _TAIL, visible=r"at the last position"),
    ],
    "ex2_look_ahead_share": [
        Wrong("all_t_rows", _SHARE + "    return float((weights.argmax(dim=-1) == torch.arange(1, T + 1)).float().mean())",
              visible=r"the last row, which has no key i\+1, counted"),
        Wrong("argmax_over_queries", _SHARE + "    return float((weights.argmax(dim=0)[:-1] == torch.arange(1, T))"
                                              ".float().mean())",
              visible=r"rows 0\.\.3 all look one step ahead: expected 1, got 0"),
        Wrong("reads_itself", _SHARE + "    return float((weights[:-1].argmax(dim=-1) == torch.arange(T - 1))"
                                       ".float().mean())",
              visible=r"look_ahead_share of the identity .*expected 0, got 1"),
        Wrong("weight_over_half", _SHARE + "    return float((weights[:-1].diagonal(1) > 0.5).float().mean())",
              visible=r"rows 0 and 2 put their LARGEST weight on key i\+1 .*expected 0\.666667, got 0\.333333"),
        Wrong("count_not_share", _SHARE + "    return float((weights[:-1].argmax(dim=-1) == torch.arange(1, T)).sum())",
              visible=r"rows 0\.\.3 all look one step ahead.*expected 1, got 4"),
        Wrong("returns_tensor", _SHARE + "    return (weights[:-1].argmax(dim=-1) == torch.arange(1, T)).float().mean()",
              visible=r"look_ahead_share\(weights\): expected a float, got Tensor"),
    ],
    "ex3_leaks_future": [
        Wrong("exact_equality", _probe(line="moved > 0"), visible=r"that is float rounding, not a leak"),
        Wrong("own_position_changed", _probe(cut="t"), visible=r"said True for a masked model"),
        Wrong("one_probe", _probe(trials="1")),
        Wrong("too_loose", _probe(line="moved > 1e-2")),
        Wrong("flip_last_token_once", _probe(trials="1", cut="T - 1", compared="T - 1")),
        Wrong("always_true", _LEAKS + "    return True", visible=r"said True for a masked model"),
        Wrong("returns_a_tensor", _LEAKS + "    x = torch.zeros(1, context_length, dtype=torch.long)\n    y = x.clone()\n"
                                           "    y[0, -1] = 1\n    return (forward(x)[:, :-1] - forward(y)[:, :-1]).abs().max() > 1e-4",
              visible=r"expected a bool, got Tensor"),
    ],
}

DELEGATIONS = {
    "ex1_find_the_leak": [
        Delegation("package", "from utils.leak_probe import prefix_attention as fixed\n\n\n" + _ATT +
                   "    return fixed(q, k, v)", denied="utils.leak_probe.prefix_attention"),
        Delegation("sdpa", "import torch.nn.functional as F\n\n\n" + _ATT + _SEEN +
                   "    q = q - q.cumsum(dim=0) / seen\n"
                   "    return F.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=True)[0]",
                   denied="torch.nn.functional.scaled_dot_product_attention"),
        Delegation("attention_weights", "import utils.attention as ua\n\n\n" + _ATT + _SEEN +
                   "    q = q - q.cumsum(dim=0) / seen\n"
                   "    return ua.attention_weights(q, k, ua.causal_mask(q.shape[0])) @ v",
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
    "ex3_leaks_future": [
        Delegation("reference", "from utils.leak_probe import reference_leaks_future as decide\n\n\n" + _LEAKS +
                   "    return decide(forward, vocab_size, context_length)",
                   denied="utils.leak_probe.reference_leaks_future"),
        Delegation("reach_copied_before", _LEAKS + "    return _reach(forward, vocab_size, context_length, trials=64) > 1e-4",
                   before="import utils.leak_probe\n\n_reach = utils.leak_probe.future_reach",
                   denied="utils.leak_probe.future_reach"),
    ],
}
