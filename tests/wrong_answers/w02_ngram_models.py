"""Delegations for notebook 02's exercises, their plausible wrong answers and other right answers."""

from tests.wrong_answers.spec import Delegation, Right, Wrong

NOTEBOOK = "02_ngram_models.ipynb"
_TP = ("def text_perplexity(model: NGramLM, ids: list[int]) -> float:\n"
       "    idx = torch.tensor(ids)[None, :]  # (1, T)\n")
_AK = "def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:\n    counts = counts.double()\n"
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


_TUNE = "def tune_kneser_ney(counts: NGramCounts, val_ids: list[int]) -> tuple[int, float]:\n"
_KN = (_TUNE + "    best = None\n    for n in range(1, counts.max_order + 1):\n"
       "        model = NGramLM.from_counts(counts, n, 'kneser_ney')\n"
       "        for discount in (0.3, 0.5, 0.7, 0.8, 0.9):\n"
       "            score = text_perplexity(model.with_settings(discount=discount), val_ids)\n"
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
    "ex2_add_k_probs": [
        Wrong("colleague_unchanged", "def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:\n"
                                     "    return colleague_add_k(counts, k)",
              visible=r"rows of your table sum to"),
        Wrong("training_vocabulary", _AK + "    vocab = int((counts.sum(dim=0) > 0).sum())  # the tokens that occur in the text\n"
                                          "    return (counts + k) / (counts.sum(dim=1, keepdim=True) + k * vocab)"),
        Wrong("k_once_in_denominator", _AK + "    return (counts + k) / (counts.sum(dim=1, keepdim=True) + k)",
              visible=r"rows of your table sum to"),
        Wrong("unseen_context_zero", _AK + "    total = counts.sum(dim=1, keepdim=True)\n"
                                          "    return torch.where(total > 0, (counts + k) / (total + k * counts.shape[1]), 0.0)",
              visible=r"every token some probability"),
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
        Wrong("keeps_highest", _KN.format(better=">"), visible=None),
        Wrong("returns_list", _TUNE + "    return [counts.max_order, 0.8]", visible=r"tuple|\(n, discount\)"),
        Wrong("default_settings", _TUNE + "    return counts.max_order, 0.75", visible=None),
        Wrong("order_only", _TUNE + "    scores = {n: text_perplexity(NGramLM.from_counts(counts, n, 'kneser_ney'), val_ids)\n"
                                    "              for n in range(1, counts.max_order + 1)}\n"
                                    "    return min(scores, key=scores.get), 0.75", visible=None),
        Wrong("discount_only", _TUNE + "    model = NGramLM.from_counts(counts, 2, 'kneser_ney')\n"
                                       "    scores = {d: text_perplexity(model.with_settings(discount=d), val_ids) for d in (0.3, 0.5, 0.7, 0.9)}\n"
                                       "    return 2, min(scores, key=scores.get)", visible=None),
    ],
}
DELEGATIONS = {
    "ex1_text_perplexity": [
        Delegation("getattr", "def text_perplexity(model: NGramLM, ids: list[int]) -> float:\n"
                              "    return float(getattr(model, 'perplex' + 'ity')(torch.tensor(ids)))",
                   denied="utils.ngram.NGramLM.perplexity"),
    ],
    "ex2_add_k_probs": [
        Delegation("via_fit", "from utils.ngram import NGramLM\n\n\n"
                              "def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:\n"
                              "    V = counts.shape[0]\n"
                              "    pairs = [torch.tensor([a, b]) for a in range(V) for b in range(V)\n"
                              "             for _ in range(int(counts[a, b]))]  # one 2-token sequence per bigram\n"
                              "    model = NGramLM.fit(pairs or [torch.tensor([0])], V, 2, 'add_k', k=k)\n"
                              "    return torch.stack([model.next_token_distribution([a]) for a in range(V)])",
                   denied="utils.ngram.NGramLM.fit"),
    ],
    "ex3_kneser_ney_probs": [
        Delegation("module_access", "import utils.ngram_counts as nc\n\n\n" + _kn(
            "    pairs = [torch.tensor([a, b]) for a in range(vocab) for b in range(vocab) for _ in range(int(counts[a, b]))]\n"
            "    lower = nc.NGramCounts.from_sequences(pairs, vocab, 2).continuation[0].find_values(torch.arange(vocab)).double()\n"),
                   denied="utils.ngram_counts.NGramCounts.from_sequences"),
    ],
    "ex4_tune_kneser_ney": [
        Delegation("package_perplexity", "def tune_kneser_ney(counts: NGramCounts, val_ids: list[int]) -> tuple[int, float]:\n"
                                         "    scores = {(n, d): NGramLM.from_counts(counts, n, 'kneser_ney', discount=d).perplexity(torch.tensor(val_ids))\n"
                                         "              for n in range(1, counts.max_order + 1) for d in (0.3, 0.5, 0.7, 0.9)}\n"
                                         "    return min(scores, key=scores.get)",
                   denied="utils.ngram.NGramLM.perplexity"),
    ],
}
RIGHT = {  # other correct answers: they must earn full marks
    "ex2_add_k_probs": [
        Right("colleague_renormalised", "def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:\n"
                                        "    probs = colleague_add_k(counts, k)  # right up to one factor per row\n"
                                        "    return probs / probs.sum(dim=1, keepdim=True)"),
        Right("float32", "def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:\n"
                         "    counts = counts.float()\n"
                         "    V = counts.shape[1]\n"
                         "    return (counts + k) / (counts.sum(dim=1, keepdim=True) + k * V)"),
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
