"""Delegations for notebook 02's exercises and their plausible wrong answers."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "02_ngram_models.ipynb"
_CB = "def count_bigrams(ids: torch.Tensor, vocab_size: int) -> torch.Tensor:\n"
_AK = "def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:\n    counts = counts.double()\n"
_TP = ("def text_perplexity(model: NGramLM, ids: list[int]) -> float:\n"
       "    idx = torch.tensor(ids)[None, :]  # (1, T)\n")
_CC = "def continuation_counts(ids: torch.Tensor, vocab_size: int) -> torch.Tensor:\n"
_TUNE = "def tune_kneser_ney(counts: NGramCounts, val_ids: list[int]) -> tuple[int, float]:\n"
_KN = (_TUNE + "    best = None\n    for n in range(1, counts.max_order + 1):\n"
       "        model = NGramLM.from_counts(counts, n, 'kneser_ney')\n"
       "        for discount in (0.3, 0.5, 0.7, 0.8, 0.9):\n"
       "            score = text_perplexity(model.with_settings(discount=discount), val_ids)\n"
       "            if best is None or score {better} best[0]:\n"
       "                best = (score, n, discount)\n"
       "    return best[1], best[2]")
WRONG = {
    "ex1_count_bigrams": [
        Wrong("float_counts", _CB + "    pairs = ids[:-1] * vocab_size + ids[1:]\n"
                                   "    return torch.bincount(pairs, minlength=vocab_size**2).reshape(vocab_size, vocab_size).float()",
              visible=r"integer counts"),
        Wrong("transposed", _CB + "    pairs = ids[1:] * vocab_size + ids[:-1]\n"
                                 "    return torch.bincount(pairs, minlength=vocab_size**2).reshape(vocab_size, vocab_size)",
              visible=r"followed by 1 twice|order of the two indices"),
        Wrong("wraps_around", _CB + "    pairs = ids * vocab_size + torch.roll(ids, -1)\n"
                                   "    return torch.bincount(pairs, minlength=vocab_size**2).reshape(vocab_size, vocab_size)",
              visible=r"has 5 bigrams"),
    ],
    "ex2_add_k_probs": [
        Wrong("k_once_in_denominator", _AK + "    return (counts + k) / (counts.sum(dim=1, keepdim=True) + k)",
              visible=r"add_k_probs"),
        Wrong("no_k_in_denominator", _AK + "    return (counts + k) / counts.sum(dim=1, keepdim=True)",
              visible=r"add_k_probs|never seen"),
        Wrong("normalised_by_column", _AK + "    return (counts + k) / (counts.sum(dim=0, keepdim=True) + k * counts.shape[0])",
              visible=r"add_k_probs"),
    ],
    "ex3_text_perplexity": [
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
    "ex4_continuation_counts": [
        Wrong("counts_followers", _CC + "    bigram_types = torch.unique(ids[:-1] * vocab_size + ids[1:])\n"
                                       "    return torch.bincount(bigram_types // vocab_size, minlength=vocab_size)",
              visible=r"FOLLOW"),
        Wrong("every_occurrence", _CC + "    return torch.bincount(ids[1:], minlength=vocab_size)",
              visible=r"every occurrence|preceded"),
        Wrong("distinct_tokens_only", _CC + "    return torch.bincount(torch.unique(ids[1:]), minlength=vocab_size)",
              visible=r"preceded"),
    ],
    "ex5_tune_kneser_ney": [
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
    "ex1_count_bigrams": [
        Delegation("alias", "from utils.ngram_counts import NGramCounts as Counts\n\n\n"
                            "def count_bigrams(ids: torch.Tensor, vocab_size: int) -> torch.Tensor:\n"
                            "    table = Counts.from_sequences([ids], vocab_size, 2).raw[1]\n"
                            "    return table.find_values(torch.arange(vocab_size ** 2)).reshape(vocab_size, vocab_size)",
                   denied="utils.ngram_counts.NGramCounts.from_sequences"),
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
    "ex3_text_perplexity": [
        Delegation("getattr", "def text_perplexity(model: NGramLM, ids: list[int]) -> float:\n"
                              "    return float(getattr(model, 'perplex' + 'ity')(torch.tensor(ids)))",
                   denied="utils.ngram.NGramLM.perplexity"),
    ],
    "ex4_continuation_counts": [
        Delegation("module_access", "import utils.ngram_counts as nc\n\n\n"
                                    "def continuation_counts(ids: torch.Tensor, vocab_size: int) -> torch.Tensor:\n"
                                    "    counts = nc.NGramCounts.from_sequences([ids], vocab_size, 2)\n"
                                    "    return counts.continuation[0].find_values(torch.arange(vocab_size))",
                   denied="utils.ngram_counts.NGramCounts.from_sequences"),
    ],
    "ex5_tune_kneser_ney": [
        Delegation("package_perplexity", "def tune_kneser_ney(counts: NGramCounts, val_ids: list[int]) -> tuple[int, float]:\n"
                                         "    scores = {(n, d): NGramLM.from_counts(counts, n, 'kneser_ney', discount=d).perplexity(torch.tensor(val_ids))\n"
                                         "              for n in range(1, counts.max_order + 1) for d in (0.3, 0.5, 0.7, 0.9)}\n"
                                         "    return min(scores, key=scores.get)",
                   denied="utils.ngram.NGramLM.perplexity"),
    ],
}
