"""Delegations for notebook 02's exercises, their plausible wrong answers and other right answers."""

from tests.wrong_answers.spec import Delegation, Right, Wrong

NOTEBOOK = "02_ngram_models.ipynb"
_TP = ("def text_perplexity(model: NGramLM, ids: list[int]) -> float:\n"
       "    idx = torch.tensor(ids)[None, :]  # (1, T)\n")
_AK = ("def add_k_log_probs(train: torch.Tensor, ids: torch.Tensor, vocab_size: int, n: int, k: float) -> torch.Tensor:\n"
       "    weights = vocab_size ** torch.arange(n - 1, -1, -1)\n"
       "    train_grams = (train.unfold(0, n, 1) * weights).sum(1)\n"
       "    grams = (ids.unfold(0, n, 1) * weights).sum(1)\n"
       "    ngram_counts = count_in(grams, train_grams)\n")
_AK_RET = "    return ((ngram_counts + k) / (context_counts + k * vocab_size)).double().log()"
_KN_HEAD = ("def kneser_ney_probs(counts: torch.Tensor, discount: float) -> torch.Tensor:\n"
            "    counts = counts.double()\n"
            "    vocab = counts.shape[1]\n")
_KN_TAIL = ("    context_total = counts.sum(dim=1, keepdim=True)\n"
            "    followers = (counts > 0).sum(dim=1, keepdim=True)\n"
            "    probs = ((counts - discount).clamp(min=0) + discount * followers * p_lower) / context_total.clamp(min=1)\n"
            "{ret}")
_KN_RET = "    return torch.where(context_total > 0, probs, p_lower)"
_P_LOWER = "    p_lower = ((lower - discount).clamp(min=0) + discount * (lower > 0).sum() / vocab) / lower.sum()\n"


def _kn(lower: str, p_lower: str = _P_LOWER, ret: str = _KN_RET) -> str:
    """A Kneser-Ney bigram whose unigram level counts `lower` (one line) and is smoothed by `p_lower`."""
    return _KN_HEAD + lower + p_lower + _KN_TAIL.format(ret=ret)


_TUNE = "def tune_kneser_ney(counts: NGramCounts, val_ids: list[int], perplexity) -> tuple[int, float]:\n"
_SCORE = ("    def score(n, discount):\n"
          "        return perplexity(NGramLM.from_counts(counts, n, 'kneser_ney', discount=discount), val_ids)\n\n")
_GRID = (_TUNE + "    best = None\n    for n in range(1, counts.max_order + 1):\n"
         "        model = NGramLM.from_counts(counts, n, 'kneser_ney')\n"
         "        for discount in (0.3, 0.5, 0.7, 0.8, 0.9):\n"
         "            score = {score}\n"
         "            if best is None or score {better} best[0]:\n"
         "                best = (score, n, discount)\n"
         "    return best[1], best[2]")
WRONG = {
    "ex1_text_perplexity": [
        Wrong("factor_at_own_position", _TP + "    log_probs = model(idx)[0, 1:].double()\n"
                                             "    picked = log_probs.gather(-1, idx[0, 1:, None]).squeeze(-1)\n"
                                             "    return math.exp(-float(picked.mean()))",
              visible=r"sqrt\(2\)|math\.inf"),
        Wrong("divides_by_t", _TP + "    log_probs = model(idx[:, :-1])[0].double()\n"
                                   "    picked = log_probs.gather(-1, idx[0, 1:, None]).squeeze(-1)\n"
                                   "    return math.exp(-float(picked.sum()) / len(ids))",
              visible=r"it should be V|sqrt\(2\)"),
        Wrong("clipped_zeros", _TP + "    log_probs = model(idx[:, :-1])[0].double().clamp(min=-30)\n"
                                    "    picked = log_probs.gather(-1, idx[0, 1:, None]).squeeze(-1)\n"
                                    "    return math.exp(-float(picked.mean()))",
              visible=r"math\.inf"),
        Wrong("base_two", _TP + "    log_probs = model(idx[:, :-1])[0].double()\n"
                               "    picked = log_probs.gather(-1, idx[0, 1:, None]).squeeze(-1)\n"
                               "    return 2 ** (-float(picked.mean()))",
              visible=r"it should be V"),
    ],
    "ex2_add_k_log_probs": [
        Wrong("colleague_unchanged", "def add_k_log_probs(train, ids, vocab_size, n, k):\n"
                                     "    return colleague_add_k_log_probs(train, ids, vocab_size, n, k)",
              visible=r"sum to .*not a distribution"),
        Wrong("context_windows_at_the_end", _AK + "    windows = (train.unfold(0, n - 1, 1) * weights[1:]).sum(1)  # every (n-1)-gram of train\n"
                                                 "    context_counts = count_in(grams // vocab_size, windows)\n" + _AK_RET,
              visible=r"sum to"),
        Wrong("k_once_in_denominator", _AK + "    context_counts = count_in(grams // vocab_size, train_grams // vocab_size)\n"
                                            "    return ((ngram_counts + k) / (context_counts + k)).double().log()",
              visible=r"sum to"),
        Wrong("little_endian_packing", _AK.replace("torch.arange(n - 1, -1, -1)", "torch.arange(n)")
              + "    context_counts = count_in(grams // vocab_size, train_grams // vocab_size)\n" + _AK_RET,
              visible=r"sum to"),
        Wrong("contexts_counted_on_the_scored_text", _AK + "    context_counts = count_in(grams // vocab_size, grams // vocab_size)\n" + _AK_RET,
              visible=r"sum to"),
    ],
    "ex3_kneser_ney_probs": [
        Wrong("colleague_unchanged", "def kneser_ney_probs(counts: torch.Tensor, discount: float) -> torch.Tensor:\n"
                                     "    return colleague_kneser_ney(counts, discount)",
              visible=r"better guess"),
        Wrong("distinct_followers", _kn("    lower = (counts > 0).sum(dim=1).double()  # distinct tokens seen AFTER b\n"),
              visible=r"fix only what is wrong|better guess"),
        Wrong("no_fallback_for_unseen_contexts", _kn("    lower = (counts > 0).sum(dim=0).double()\n", ret="    return probs")),
        Wrong("undiscounted_unigram_level", _kn("    lower = (counts > 0).sum(dim=0).double()\n",
                                                p_lower="    p_lower = lower / lower.sum()\n")),
    ],
    "ex4_tune_kneser_ney": [
        Wrong("full_grid", _GRID.format(better="<", score="perplexity(model.with_settings(discount=discount), val_ids)"),
              visible=r"budget is 10"),
        Wrong("keeps_highest", _TUNE + _SCORE + "    by_order = {n: score(n, 0.8) for n in range(1, counts.max_order + 1)}\n"
                                                "    n = max(by_order, key=by_order.get)\n"
                                                "    by_discount = {d: score(n, d) for d in (0.6, 0.8, 0.9, 0.95)}\n"
                                                "    return n, max(by_discount, key=by_discount.get)",
              visible=r"cannot be best"),
        Wrong("grid_scored_outside_the_budget", _GRID.format(better="<", score="text_perplexity(model.with_settings(discount=discount), val_ids)")),
        Wrong("default_settings", _TUNE + "    return counts.max_order, 0.75"),
        Wrong("order_only", _TUNE + _SCORE + "    scores = {n: score(n, 0.75) for n in range(1, counts.max_order + 1)}\n"
                                             "    return min(scores, key=scores.get), 0.75"),
        Wrong("returns_list", _TUNE + "    return [counts.max_order, 0.8]", visible=r"tuple|\(n, discount\)"),
        # tunes D at the top order, then tries only the two orders below it: wrong where a low order wins (the hidden
        # order-2 Markov chain over 30 symbols: n = 4 is 9% above n = 3)
        Wrong("discount_first", _TUNE + _SCORE + "    top = counts.max_order\n"
                                                 "    by_discount = {d: score(top, d) for d in (0.6, 0.8, 0.9, 0.95)}\n"
                                                 "    d = min(by_discount, key=by_discount.get)\n"
                                                 "    by_order = {top: by_discount[d]} | {n: score(n, d) for n in range(max(top - 2, 1), top)}\n"
                                                 "    return min(by_order, key=by_order.get), d"),
    ],
}
DELEGATIONS = {
    "ex1_text_perplexity": [
        Delegation("getattr", "def text_perplexity(model: NGramLM, ids: list[int]) -> float:\n"
                              "    return float(getattr(model, 'perplex' + 'ity')(torch.tensor(ids)))",
                   denied="utils.ngram.NGramLM.perplexity"),
    ],
    "ex2_add_k_log_probs": [
        Delegation("via_fit", "from utils.ngram import NGramLM as _Model\n\n\n"
                              "def add_k_log_probs(train, ids, vocab_size, n, k):\n"
                              "    return _Model.fit(train, vocab_size, n, 'add_k', k=k).token_log_probs(ids)[n - 2:]",
                   denied="utils.ngram.NGramLM.fit"),
        Delegation("copy_and_getattr", "def add_k_log_probs(train, ids, vocab_size, n, k):\n"
                                       "    counts = _count([train], vocab_size, n)\n"
                                       "    model = NGramLM(NGramLM.config_class(vocab_size, n, 'add_k', k=k), counts)\n"
                                       "    return getattr(model, 'token_' + 'log_probs')(ids)[n - 2:]",
                   before="_count = NGramCounts.from_sequences"),
    ],
    "ex3_kneser_ney_probs": [
        Delegation("module_access", "import utils.ngram_counts as nc\n\n\n" + _kn(
            "    pairs = [torch.tensor([a, b]) for a in range(vocab) for b in range(vocab) for _ in range(int(counts[a, b]))]\n"
            "    lower = nc.NGramCounts.from_sequences(pairs, vocab, 2).continuation[0].find_values(torch.arange(vocab)).double()\n"),
                   denied="utils.ngram_counts.NGramCounts.from_sequences"),
    ],
    "ex4_tune_kneser_ney": [
        Delegation("evaluation_token_log_probs", "from utils.evaluation import token_log_probs as tlp\n\n\n" + _TUNE
                   + "    def score(n, discount):\n"
                     "        model = NGramLM.from_counts(counts, n, 'kneser_ney', discount=discount)\n"
                     "        return math.exp(-float(tlp(model, val_ids).double().mean()))\n\n"
                     "    by_order = {n: score(n, 0.8) for n in range(1, counts.max_order + 1)}\n"
                     "    n = min(by_order, key=by_order.get)\n"
                     "    by_discount = {d: score(n, d) for d in (0.6, 0.8, 0.9, 0.95)}\n"
                     "    return n, min(by_discount, key=by_discount.get)",
                   denied="utils.evaluation.token_log_probs"),
    ],
}
RIGHT = {  # other correct answers: they must earn full marks
    "ex2_add_k_log_probs": [
        Right("python_counters", "def add_k_log_probs(train, ids, vocab_size, n, k):\n"
                                 "    t, s = train.tolist(), ids.tolist()\n"
                                 "    grams = Counter(tuple(t[i:i + n]) for i in range(len(t) - n + 1))\n"
                                 "    contexts = Counter(tuple(t[i:i + n - 1]) for i in range(len(t) - n + 1))  # followed by a token\n"
                                 "    return torch.tensor([math.log((grams[tuple(s[i:i + n])] + k) / (contexts[tuple(s[i:i + n - 1])] + k * vocab_size))\n"
                                 "                         for i in range(len(s) - n + 1)], dtype=torch.float64)"),
    ],
    "ex3_kneser_ney_probs": [
        Right("count_nonzero", _kn("    lower = torch.count_nonzero(counts, dim=0).double()  # N1+(. b)\n")),
        Right("python_sets", _kn("    lower = torch.tensor([float(len({a for a in range(vocab) if counts[a, b] > 0})) for b in range(vocab)],\n"
                                 "                         dtype=torch.float64)  # distinct left neighbours of b\n")),
    ],
}

from tests.wrong_answers.red_team_1 import adopt  # noqa: E402

# The third exercise red team's (written from the released notebook alone): tests/wrong_answers/red_team_3.
adopt("02", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=3)
# Exercise 2 was replaced (add_k_probs(counts, k) became add_k_log_probs(train, ids, vocab_size, n, k)): the red team's
# 02_ex2_*.py answers were written for the old function and no longer fit it, so they are not adopted.
for _table in (WRONG, DELEGATIONS, RIGHT):
    _table["ex2_add_k_log_probs"] = [_entry for _entry in _table.get("ex2_add_k_log_probs", []) if not _entry.name.startswith("red3_")]
    if not _table["ex2_add_k_log_probs"]:
        del _table["ex2_add_k_log_probs"]
# The sixth exercise red team's (released notebooks only): tests/wrong_answers/red_team_6. Its ex2 w5 (float32 returned)
# and ex4 w1 (always the highest order, D tuned) earned full marks until the visible checks asked for float64 and the
# hidden test gained a second text where a lower order wins. Not filed: ex2 w7 computes the logs in float32 and casts
# them to float64 (within the 1e-6 tolerance: right in substance).
adopt("02", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=6)
WRONG["ex2_add_k_log_probs"] = [_entry for _entry in WRONG["ex2_add_k_log_probs"] if _entry.name != "red6_w7"]
