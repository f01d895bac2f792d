"""Wrong answers and delegations for notebook 09's exercises."""

from tests.wrong_answers.spec import Delegation, Right, Wrong

NOTEBOOK = "09_decoding.ipynb"

_SOFT = "def temperature_softmax(logits: torch.Tensor, T: float) -> torch.Tensor:\n"
_TOPP = ("def keep_top_p(logits: torch.Tensor, p: float) -> torch.Tensor:\n"
         "    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)  # (..., V)\n"
         "    probs = torch.exp(sorted_logits - sorted_logits[..., :1])\n"
         "    probs = probs / probs.sum(dim=-1, keepdim=True)\n")
_BACK = ("    remove = torch.zeros_like(remove_sorted).scatter(-1, order, remove_sorted)\n"
         "    return logits.masked_fill(remove, float('-inf'))\n")
_STEP = "def one_beam_step(scores: torch.Tensor, log_probs: torch.Tensor, width: int):\n    V = log_probs.shape[1]\n"
_BEAM_HEAD = ("def my_beam_search(next_log_probs, prefix, max_new_tokens, width, alpha=0.0, stop_id=None):\n"
              "    alive, finished = [((), 0.0)], []\n"
              "    for _ in range(max_new_tokens):\n"
              "        histories = torch.tensor([prefix + list(tokens) for tokens, _ in alive])\n"
              "        totals = torch.tensor([score for _, score in alive])[:, None] + next_log_probs(histories)\n"
              "        V = totals.shape[1]\n"
              "        values, flat = torch.sort(totals.flatten(), descending=True)\n"
              "        survivors = []\n")
_BEAM_LOOP = ("        for value, index in zip(values.tolist(), flat.tolist()):\n"
              "            if len(survivors) == width or value == float('-inf'):\n"
              "                break\n"
              "            tokens = alive[index // V][0] + (index % V,)\n"
              "            if index % V == stop_id:\n"
              "                finished.append((tokens, value))\n"
              "            else:\n"
              "                survivors.append((tokens, value))\n"
              "        alive = survivors\n"
              "        if not alive:\n"
              "            break\n")
_NEXT = "def my_next_token(logits: torch.Tensor, generator: torch.Generator) -> int:\n"
_GNMT = "    return max(finished + alive, key=lambda h: h[1] / ((5 + len(h[0])) / 6) ** alpha)\n"

WRONG = {
    "ex1_temperature_softmax": [
        Wrong("multiply_by_t", _SOFT + "    shifted = logits - logits.max(dim=-1, keepdim=True).values\n"
                                       "    w = torch.exp(shifted * T)\n    return w / w.sum(dim=-1, keepdim=True)",
              visible=r"divide the logits by T"),
        Wrong("no_shift", _SOFT + "    w = torch.exp(logits / T)\n    return w / w.sum(dim=-1, keepdim=True)",
              visible=r"inf or NaN: subtract the row's maximum"),
        Wrong("global_max", _SOFT + "    w = torch.exp((logits - logits.max()) / T)\n    return w / w.sum(dim=-1, keepdim=True)",
              visible=r"inf or NaN"),
        Wrong("normalise_dim0", _SOFT + "    shifted = logits - logits.max(dim=-1, keepdim=True).values\n"
                                        "    w = torch.exp(shifted / T)\n    return w / w.sum(dim=0, keepdim=True)",
              visible=r"temperature_softmax\(\.\.\., T=1\)"),
        Wrong("shift_by_mean", _SOFT + "    shifted = logits - logits.mean(dim=-1, keepdim=True)\n"
                                       "    w = torch.exp(shifted / T)\n    return w / w.sum(dim=-1, keepdim=True)",
              visible=r"inf or NaN"),
    ],
    "ex2_keep_top_p": [
        Wrong("drops_crossing_token", _TOPP + "    remove_sorted = probs.cumsum(dim=-1) > p\n" + _BACK,
              visible=r"you kept only the 0\.50 token"),
        Wrong("keeps_one_too_many", _TOPP + "    before = probs.cumsum(dim=-1) - probs\n"
                                            "    remove_sorted = (before - probs.roll(1, dims=-1) * (before > 0)) >= p\n" + _BACK,
              visible=r"you kept three tokens|keep the SMALLEST"),
        Wrong("sorted_order", _TOPP + "    remove_sorted = probs.cumsum(dim=-1) - probs >= p\n"
                                      "    return sorted_logits.masked_fill(remove_sorted, float('-inf'))\n",
              visible=r"vocabulary order"),
        Wrong("cumsum_of_logits", "def keep_top_p(logits: torch.Tensor, p: float) -> torch.Tensor:\n"
                                  "    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)\n"
                                  "    probs = sorted_logits / sorted_logits.sum(dim=-1, keepdim=True)\n"
                                  "    remove_sorted = probs.cumsum(dim=-1) - probs >= p\n" + _BACK,
              visible=r"keep_top_p|p = 0\.7"),
        Wrong("one_row_only", _TOPP.replace("dim=-1, descending=True)  # (..., V)", "dim=-1, descending=True)")
              + "    remove_sorted = probs.cumsum(dim=-1) - probs >= p\n"
                "    remove = torch.zeros_like(remove_sorted).scatter(-1, order, remove_sorted)\n"
                "    return logits.masked_fill(remove[..., :1, :] if remove.dim() > 1 else remove, float('-inf'))\n",
              visible=r"each row gets its own nucleus"),
    ],
    "ex3_one_beam_step": [
        Wrong("no_parent_score", _STEP + "    best = torch.topk(log_probs.flatten(), width)\n"
                                         "    return best.values, best.indices // V, best.indices % V",
              visible=r"add each beam's score first"),
        Wrong("divides_by_beams", _STEP + "    totals = scores[:, None] + log_probs\n    N = totals.shape[0]\n"
                                          "    best = torch.topk(totals.flatten(), width)\n"
                                          "    return best.values, best.indices % N, best.indices // N",
              visible=r"expected parents|parent = flat index // V"),
        Wrong("best_per_beam", _STEP + "    totals = scores[:, None] + log_probs\n"
                                       "    values, tokens = totals.max(dim=1)\n"
                                       "    return values[:width], torch.arange(len(values))[:width], tokens[:width]",
              visible=r"expected parents \[1, 0\]"),
        Wrong("smallest", _STEP + "    totals = scores[:, None] + log_probs\n"
                                  "    best = torch.topk(totals.flatten(), width, largest=False)\n"
                                  "    return best.values, best.indices // V, best.indices % V",
              visible=r"expected parents \[0, 1\]"),
    ],
    "ex4_beam_search": [
        Wrong("finished_ignored", _BEAM_HEAD + _BEAM_LOOP +
              "    return max(alive or finished, key=lambda h: h[1] / ((5 + len(h[0])) / 6) ** alpha)\n",
              visible=r"alpha = 0 with stop_id = 0"),
        Wrong("plain_length_division", _BEAM_HEAD + _BEAM_LOOP +
              "    return max(finished + alive, key=lambda h: h[1] / len(h[0]) ** alpha)\n"),
        Wrong("returns_score", _BEAM_HEAD + _BEAM_LOOP +
              "    best = max(finished + alive, key=lambda h: h[1] / ((5 + len(h[0])) / 6) ** alpha)\n"
              "    return best[0], best[1] / ((5 + len(best[0])) / 6) ** alpha\n",
              visible=r"return the summed log p"),
        Wrong("width_per_beam", _BEAM_HEAD.replace("        values, flat = torch.sort(totals.flatten(), descending=True)\n", "")
              + "        for row in range(totals.shape[0]):\n"
                "            top = torch.topk(totals[row], min(width, V))\n"
                "            for value, token in zip(top.values.tolist(), top.indices.tolist()):\n"
                "                tokens = alive[row][0] + (token,)\n"
                "                (finished if token == stop_id else survivors).append((tokens, value))\n"
                "        alive = survivors\n"
                "        if not alive:\n"
                "            break\n" + _GNMT),  # explores more than `width` paths: only the hidden test sees it
        Wrong("always_greedy", _BEAM_HEAD.replace("    alive, finished", "    width = 1\n    alive, finished") + _BEAM_LOOP + _GNMT,
              visible=r"width 2 on the trap should return|width 3 returned \(1, 1, 1, 1\)|width 3 should find the optimum"),
        Wrong("forgets_running_score", _BEAM_HEAD.replace(
            "        totals = torch.tensor([score for _, score in alive])[:, None] + next_log_probs(histories)\n",
            "        step_lp = next_log_probs(histories)\n        base = torch.tensor([score for _, score in alive])\n"
            "        totals = step_lp  # ranked by the new token's log p alone\n")
              + _BEAM_LOOP.replace("            tokens = alive[index // V][0] + (index % V,)\n",
                                   "            tokens = alive[index // V][0] + (index % V,)\n"
                                   "            value = float(base[index // V] + step_lp.flatten()[index])\n") + _GNMT,
              visible=r"ranked the candidates by the new token's log p alone"),
        Wrong("stop_stays_in_beam", _BEAM_HEAD + _BEAM_LOOP.replace("            if index % V == stop_id:\n", "            if False:\n")
              + _GNMT, visible=r"alpha = 0 with stop_id = 0"),
    ],
    "ex5_my_next_token": [
        Wrong("greedy", _NEXT + "    return int(logits.argmax())", visible=r"close to\) greedy"),
        Wrong("plain_sampling", _NEXT + "    probs = torch.exp(logits - logits.max())\n"
                                        "    return int(torch.multinomial(probs / probs.sum(), 1, generator=generator))"),
        Wrong("multiplies_by_t", _NEXT + "    probs = torch.exp((logits - logits.max()) * 0.7)\n"
                                         "    return int(torch.multinomial(probs / probs.sum(), 1, generator=generator))"),
        Wrong("uniform_top_k", _NEXT + "    keep = torch.topk(logits, 5).indices\n"
                                       "    return int(keep[torch.randint(0, 5, (1,), generator=generator)])",
              visible=r"never sample uniformly"),
        Wrong("global_random_state", _NEXT + "    probs = torch.exp((logits - logits.max()) / 0.7)\n"
                                             "    return int(torch.multinomial(probs / probs.sum(), 1))",
              visible=r"same generator seed gave another token"),
    ],
}

_WRAP = ("from utils.interface import LanguageModel\n\n\n"
         "class _Wrapped(LanguageModel):\n"
         "    def __init__(self, fn, vocab_size):\n"
         "        super().__init__()\n"
         "        self.fn, self.vocab_size, self.context_length = fn, vocab_size, None\n\n"
         "    def forward(self, idx):\n"
         "        return self.fn(idx)[:, None, :].repeat(1, idx.shape[1], 1)\n\n\n")

DELEGATIONS = {
    "ex1_temperature_softmax": [
        Delegation("direct", "from utils.sampling import softmax_with_temperature\n\n\n" + _SOFT
                   + "    return softmax_with_temperature(logits, T)", denied="utils.sampling.softmax_with_temperature"),
        Delegation("torch_softmax", _SOFT + "    return torch.softmax(logits / T, dim=-1)", denied="torch.softmax"),
        Delegation("next_token_probs", "import utils.sampling as s\n\n\n" + _SOFT + "    return s.next_token_probs(logits, T)",
                   denied="utils.sampling.next_token_probs"),
    ],
    "ex2_keep_top_p": [
        Delegation("direct", "from utils.sampling import top_p_filter\n\n\n"
                   "def keep_top_p(logits: torch.Tensor, p: float) -> torch.Tensor:\n    return top_p_filter(logits, p)",
                   denied="utils.sampling.top_p_filter"),
        Delegation("alias_module", "import utils.sampling as sampling\n\n\n"
                   "def keep_top_p(logits: torch.Tensor, p: float) -> torch.Tensor:\n"
                   "    return sampling.top_p_filter(logits, p)", denied="utils.sampling.top_p_filter"),
    ],
    "ex3_one_beam_step": [
        Delegation("direct", "from utils.decoding import beam_step\n\n\n"
                   "def one_beam_step(scores, log_probs, width):\n    return beam_step(scores, log_probs, width)",
                   denied="utils.decoding.beam_step"),
        Delegation("getattr", "import utils.decoding\n\n\n"
                   "def one_beam_step(scores, log_probs, width):\n"
                   "    return getattr(utils.decoding, 'beam_step')(scores, log_probs, width)",
                   denied="utils.decoding.beam_step"),
    ],
    "ex4_beam_search": [
        Delegation("package_beam_search", "from utils.decoding import beam_search\n" + _WRAP
                   + "def my_beam_search(next_log_probs, prefix, max_new_tokens, width, alpha=0.0, stop_id=None):\n"
                     "    V = next_log_probs(torch.tensor([prefix])).shape[-1]\n"
                     "    best = beam_search(_Wrapped(next_log_probs, V), prefix, max_new_tokens, beam_width=width,\n"
                     "                       length_norm=alpha, stop_id=stop_id)[0]\n"
                     "    return best.tokens, best.log_prob", denied="utils.decoding.beam_search"),
        Delegation("package_decode", "from utils.decoding import DecodingMethod, decode, sequence_log_prob\n" + _WRAP
                   + "def my_beam_search(next_log_probs, prefix, max_new_tokens, width, alpha=0.0, stop_id=None):\n"
                     "    V = next_log_probs(torch.tensor([prefix])).shape[-1]\n"
                     "    model = _Wrapped(next_log_probs, V)\n"
                     "    new = decode(model, prefix, max_new_tokens, DecodingMethod('b', beam_width=width, length_norm=alpha),\n"
                     "                 stop_id=stop_id)\n"
                     "    return tuple(new), sequence_log_prob(model, torch.tensor(prefix), torch.tensor(new))",
                   denied="utils.decoding.decode"),
    ],
    "ex5_my_next_token": [
        Delegation("sample_next", "from utils.sampling import sample_next\n\n\n" + _NEXT
                   + "    return int(sample_next(logits[None], 0.9, top_p=0.9, generator=generator)[0])",
                   denied="utils.sampling.sample_next"),
        Delegation("next_token_probs_module", "import utils.sampling as sampling\n\n\n" + _NEXT
                   + "    probs = sampling.next_token_probs(logits, 0.9, top_p=0.9)\n"
                     "    return int(torch.multinomial(probs, 1, generator=generator))",
                   denied="utils.sampling.next_token_probs"),
    ],
}

RIGHT = {  # other correct answers: they must earn full marks
    "ex4_beam_search": [
        Right("ties_broken_the_other_way", _BEAM_HEAD.replace(
            "        values, flat = torch.sort(totals.flatten(), descending=True)\n",
            "        flat_totals = totals.flatten().flip(0)\n"
            "        values, flat = torch.sort(flat_totals, descending=True, stable=True)\n"
            "        flat = flat_totals.numel() - 1 - flat  # equal scores: the later (beam, token) pair first\n")
              + _BEAM_LOOP + _GNMT),
    ],
}
