"""Wrong answers, delegations and other right answers for notebook 10's exercises."""

from tests.wrong_answers.red_team_1 import adopt
from tests.wrong_answers.spec import Delegation, Right, Wrong

NOTEBOOK = "10_generation_cost_kv_cache.ipynb"

_APPEND = "def append_to_cache(cache_k, cache_v, k_new: torch.Tensor, v_new: torch.Tensor):\n"
_STEP = "def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:\n"
_PLAN_DEF = ("def plan_kv_cache(n_layer: int, n_head: int, d_model: int, prompt_lengths: list[int], n_new: int,\n"
             "                  budget: int) -> tuple[int, torch.dtype] | None:\n")
_PLAN = _PLAN_DEF + ("    d_head, dtypes = d_model // n_head, (torch.float32, torch.bfloat16)\n"
                     "    positions = len(prompt_lengths) * (max(prompt_lengths) + n_new)\n"
                     "    heads = [h for h in range(n_head, 0, -1) if n_head % h == 0]\n"
                     "    for kv in heads:\n        for dtype in dtypes:\n"
                     "            size = torch.tensor([], dtype=dtype).element_size()\n"
                     "            if {per_position} * positions <= budget:\n"
                     "                return kv, dtype\n"
                     "    return None")
_PLAN_RIGHT = _PLAN.format(per_position="2 * n_layer * kv * d_head * size")  # the reference's loop, to break below

_FAST = "def fast_greedy(model, prompt: list[int], n_new: int) -> list[int]:\n"
_SOFTMAX_STEP = (_STEP + "    scores = q @ K.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (B, H, 1, n)\n"
                 "    return {softmax} @ V")
_FAST_LOOP = ("    tokens = []\n    with torch.no_grad():\n"
              "        logits, state = model.step(torch.tensor([prompt]), model.start_state(1))\n"
              "        for _ in range(n_new):\n"
              "            tokens.append(int(logits[0].argmax()))\n"
              "            logits, state = model.step(torch.tensor([[tokens[-1]]]), state)\n")

WRONG = {
    "ex1_append_to_cache": [
        Wrong("new_first", _APPEND + "    if cache_k is None:\n        return k_new, v_new\n"
                                     "    return torch.cat([k_new, cache_k], dim=-2), torch.cat([v_new, cache_v], dim=-2)",
              visible=r"old positions first, the new one last"),
        Wrong("wrong_dim", _APPEND + "    if cache_k is None:\n        return k_new, v_new\n"
                                     "    return torch.cat([cache_k, k_new], dim=-1), torch.cat([cache_v, v_new], dim=-1)",
              visible=r"Sizes of tensors must match|time is dimension -2"),
        Wrong("keys_twice", _APPEND + "    if cache_k is None:\n        return k_new, v_new\n"
                                      "    return torch.cat([cache_k, k_new], dim=-2), torch.cat([cache_v, k_new], dim=-2)",
              visible=r"the values get the new position too"),
        Wrong("replace", _APPEND + "    return k_new, v_new", visible=r"keys after appending one position"),
    ],
    "ex2_cached_attention_step": [
        Wrong("no_scale", _STEP + "    s = q @ K.transpose(-2, -1)\n    w = torch.exp(s - s.max(dim=-1, keepdim=True).values)\n"
                                  "    return (w / w.sum(dim=-1, keepdim=True)) @ V",
              visible=r"without the 1/sqrt\(d_head\) scale"),
        Wrong("softmax_over_queries", _STEP + "    s = q @ K.transpose(-2, -1) / math.sqrt(q.shape[-1])\n"
                                              "    w = torch.exp(s - s.max(dim=-2, keepdim=True).values)\n"
                                              "    return (w / w.sum(dim=-2, keepdim=True)) @ V",
              visible=r"softmax\(q K\^T / sqrt\(2\)\) V"),
        Wrong("no_max_shift", _STEP + "    w = torch.exp(q @ K.transpose(-2, -1) / math.sqrt(q.shape[-1]))\n"
                                      "    return (w / w.sum(dim=-1, keepdim=True)) @ V",
              visible=r"inf or NaN"),
        Wrong("only_last_key", _STEP + "    return V[..., -1:, :]", visible=r"softmax\(q K\^T / sqrt\(2\)\) V"),
        Wrong("scale_by_n", _STEP + "    s = q @ K.transpose(-2, -1) / math.sqrt(K.shape[-2])\n"
                                    "    w = torch.exp(s - s.max(dim=-1, keepdim=True).values)\n"
                                    "    return (w / w.sum(dim=-1, keepdim=True)) @ V",
              visible=r"sqrt\(2\)|row t of full causal attention"),
        Wrong("clamped_scores", _STEP + "    s = (q @ K.transpose(-2, -1) / math.sqrt(q.shape[-1])).clamp(-30, 30)  # exp stays finite\n"
                                        "    w = torch.exp(s)\n"
                                        "    return (w / w.sum(dim=-1, keepdim=True)) @ V",
              visible=r"scores in the hundreds"),
    ],
    "ex3_plan_kv_cache": [
        Wrong("query_heads", _PLAN.format(per_position="2 * n_layer * n_head * d_head * size"),  # the cache of n_head heads
              visible=r"None, but 3 KV heads in torch.bfloat16 fit"),
        Wrong("keys_only", _PLAN.format(per_position="n_layer * kv * d_head * size"), visible=r"over the budget"),
        Wrong("no_layers", _PLAN.format(per_position="2 * kv * d_head * size"), visible=r"over the budget"),
        Wrong("heads_before_width", _PLAN_RIGHT.replace("    for kv in heads:\n        for dtype in dtypes:\n",
                                                        "    for dtype in dtypes:\n        for kv in heads:\n"),
              visible=r"2 KV heads in torch.float32 fit .*but so do 3 KV heads in torch.bfloat16"),
        Wrong("mha_or_mqa_only", _PLAN_RIGHT.replace("heads = [h for h in range(n_head, 0, -1) if n_head % h == 0]",
                                                     "heads = sorted({n_head, 1}, reverse=True)"),
              visible=r"but so do 3 KV heads"),
        Wrong("halving_heads", _PLAN_RIGHT.replace("heads = [h for h in range(n_head, 0, -1) if n_head % h == 0]",
                                                   "heads = sorted({n_head >> i for i in range(n_head.bit_length()) if n_head % (n_head >> i) == 0}, "
                                                   "reverse=True)")),  # 6 -> 6, 3, 1: visible right; 12 -> no 4, 2
        Wrong("unpadded_rows", _PLAN_RIGHT.replace("len(prompt_lengths) * (max(prompt_lengths) + n_new)",
                                                   "sum(prompt_lengths) + len(prompt_lengths) * n_new"),
              visible=r"budget 800 bytes.*over the budget"),  # counts the padding out: too few positions
        Wrong("last_token_not_read", _PLAN_RIGHT.replace("max(prompt_lengths) + n_new", "max(prompt_lengths) + max(n_new - 1, 0)"),
              visible=r"budget 800 bytes.*over the budget"),
        Wrong("d_model_per_head", _PLAN.format(per_position="2 * n_layer * kv * d_model * size"), visible=r"None, but"),
        Wrong("strictly_below", _PLAN_RIGHT.replace("<= budget", "< budget"),
              visible=r"budget 5184 bytes.*but so do 6 KV heads"),
    ],
    "ex4_fast_greedy": [
        Wrong("last_prompt_token_twice", _FAST + _FAST_LOOP.replace(
            "        for _ in range(n_new):\n",
            "        logits, state = model.step(torch.tensor([[prompt[-1]]]), state)  # the last prompt token, again\n"
            "        for _ in range(n_new):\n") + "    return tokens"),
        # the off-by-one of issue 30: the visible random models and a bigram-like model agree with greedy; the course's
        # trained Transformer does not (hidden part 1)
        Wrong("rerun_history", _FAST + "    ids = list(prompt)\n    with torch.no_grad():\n        for _ in range(n_new):\n"
                                       "            ids.append(int(model(torch.tensor([ids]))[0, -1].argmax()))\n"
                                       "    return ids[len(prompt):]"),  # right tokens, no faster: only the hidden timing sees it
        Wrong("returns_prompt_too", _FAST + _FAST_LOOP + "    return list(prompt) + tokens", visible=r"return the new tokens only"),
        Wrong("forgets_the_cache", _FAST + "    tokens = []\n    with torch.no_grad():\n"
                                           "        logits, state = model.step(torch.tensor([prompt]), model.start_state(1))\n"
                                           "        for _ in range(n_new):\n"
                                           "            tokens.append(int(logits[0].argmax()))\n"
                                           "            logits, state = model.step(torch.tensor([[tokens[-1]]]), model.start_state(1))\n"
                                           "    return tokens"),  # the visible 1-layer model's greedy text hides it: the hidden test stops it
        Wrong("last_prompt_token_only", _FAST + _FAST_LOOP.replace("torch.tensor([prompt])", "torch.tensor([prompt[-1:]])")
              + "    return tokens"),  # likewise stopped by the hidden test only
        Wrong("skips_first_prompt_token", _FAST + _FAST_LOOP.replace("torch.tensor([prompt])", "torch.tensor([prompt[1:]])")
              + "    return tokens"),
    ],
}

DELEGATIONS = {
    "ex1_append_to_cache": [
        Delegation("package_cache", "from utils.attention import KVCache\n\n\n" + _APPEND
                   + "    cache = KVCache()\n    cache.k, cache.v = cache_k, cache_v\n    return cache.append(k_new, v_new)",
                   denied="utils.attention.KVCache.append"),
    ],
    "ex2_cached_attention_step": [
        Delegation("package_sdpa", "from utils.attention import scaled_dot_product_attention\n\n\n" + _STEP
                   + "    return scaled_dot_product_attention(q, K, V)[0]",
                   denied="utils.attention.scaled_dot_product_attention"),
        Delegation("torch_sdpa", _STEP + "    return torch.nn.functional.scaled_dot_product_attention(q, K, V)",
                   denied="torch.nn.functional.scaled_dot_product_attention"),
        Delegation("package_weights", "from utils.attention import attention_weights\n\n\n" + _STEP
                   + "    return attention_weights(q, K) @ V",
                   denied="utils.attention.attention_weights"),
        Delegation("aten_sdpa", _STEP + "    return torch.ops.aten.scaled_dot_product_attention(q, K, V)",
                   denied="torch.nn.functional.scaled_dot_product_attention"),
    ],
    "ex3_plan_kv_cache": [
        Delegation("package_plan", "from utils.kv_budget import best_kv_plan as plan\n\n\n" + _PLAN_DEF
                   + "    rows, positions = len(prompt_lengths), max(prompt_lengths) + n_new\n"
                   "    measure = lambda kv, dtype: 2 * n_layer * kv * (d_model // n_head) * positions * rows * dtype.itemsize\n"
                   "    return plan(measure, n_head, budget)",
                   denied="utils.kv_budget.best_kv_plan"),
        Delegation("formula_module", "import torch\nimport utils.generation_cost as g\n\n\n" + _PLAN_DEF
                   + "    for kv in [h for h in range(n_head, 0, -1) if n_head % h == 0]:\n"
                   "        for dtype, size in ((torch.float32, 4), (torch.bfloat16, 2)):\n"
                   "            if g.cache_bytes_formula(n_layer, kv, d_model // n_head, max(prompt_lengths) + n_new, size,\n"
                   "                                     len(prompt_lengths)) <= budget:\n"
                   "                return kv, dtype\n"
                   "    return None",
                   denied="utils.generation_cost.cache_bytes_formula"),
    ],
    "ex4_fast_greedy": [
        Delegation("generate", "from utils.sampling import generate\n\n\n" + _FAST
                   + "    out = generate(model, torch.tensor([prompt]), n_new, temperature=0)\n    return out[0, len(prompt):].tolist()",
                   denied="utils.sampling.generate"),
        Delegation("decode_module", "import utils.decoding as d\n\n\n" + _FAST
                   + "    return d.decode(model, prompt, n_new, d.DecodingMethod('greedy', temperature=0))",
                   denied="utils.decoding.decode"),
    ],
}

RIGHT = {
    # measuring is allowed: build each choice's model with the course's classes and read its caches
    "ex3_plan_kv_cache": [
        Right("measures_own_models", "from utils.transformer import TransformerConfig, TransformerLM\n\n\n" + _PLAN_DEF
              + "    ids = torch.zeros(len(prompt_lengths), max(prompt_lengths), dtype=torch.long)  # left-padded batch\n"
              "    for kv in [h for h in range(n_head, 0, -1) if n_head % h == 0]:\n"
              "        for dtype in (torch.float32, torch.bfloat16):\n"
              "            model = TransformerLM(TransformerConfig(5, context_length=ids.shape[1] + n_new + 1, n_layer=n_layer,\n"
              "                n_head=n_head, d_model=d_model, n_kv_head=kv, positional='rotary')).to(dtype).eval()\n"
              "            with torch.no_grad():\n"
              "                logits, state = model.step(ids, model.start_state(len(prompt_lengths)))\n"
              "                for _ in range(n_new):\n"
              "                    logits, state = model.step(logits.argmax(-1, keepdim=True), state)\n"
              "            if sum(cache.nbytes for cache in state.caches) <= budget:\n"
              "                return kv, dtype\n"
              "    return None"),
        Right("finfo_bits", _PLAN_RIGHT.replace("torch.tensor([], dtype=dtype).element_size()", "torch.finfo(dtype).bits // 8")),
    ],
    # every spelling of softmax earns full marks: the exercise asks for cached attention, not for softmax
    "ex2_cached_attention_step": [
        Right("torch_softmax", _SOFTMAX_STEP.format(softmax="torch.softmax(scores, dim=-1)")),
        Right("tensor_softmax", _SOFTMAX_STEP.format(softmax="scores.softmax(dim=-1)")),
        Right("functional_softmax", "import torch.nn.functional as F\n\n\n" + _SOFTMAX_STEP.format(softmax="F.softmax(scores, dim=-1)")),
        Right("special_softmax", _SOFTMAX_STEP.format(softmax="torch.special.softmax(scores, dim=-1)")),
        Right("softmax_module", _SOFTMAX_STEP.format(softmax="torch.nn.Softmax(dim=-1)(scores)")),
    ],
    "ex4_fast_greedy": [
        Right("preallocated_cache", _FAST + _FAST_LOOP.replace("model.start_state(1)", "model.start_state(1, capacity=len(prompt) + n_new)")
              + "    return tokens"),
        Right("prefill_all_but_last", _FAST + "    tokens, last = [], prompt[-1]\n    with torch.no_grad():\n"
                                              "        state = model.start_state(1)\n"
                                              "        if len(prompt) > 1:\n"
                                              "            _, state = model.step(torch.tensor([prompt[:-1]]), state)\n"
                                              "        for _ in range(n_new):\n"
                                              "            logits, state = model.step(torch.tensor([[last]]), state)\n"
                                              "            last = int(logits[0].argmax())\n"
                                              "            tokens.append(last)\n"
                                              "    return tokens"),
    ],
}

# The first exercise red team's answers (tests/wrong_answers/red_team_1): wrong ones in the slow tier, bypasses by default.
# ex4 ok2 feeds the prompt one token at a time (no prefill): right tokens, not 3 times faster, so 2 of 3 points.
adopt("10", WRONG, DELEGATIONS, RIGHT, bypasses={"ex1_w4", "ex2_w4", "ex2_w5", "ex2_w7", "ex2_w8", "ex4_w4"},
      wrong_right={"ex4_ok2"})
# The second exercise red team's (it had not seen the first's): tests/wrong_answers/red_team_2.
adopt("10", WRONG, DELEGATIONS, RIGHT, bypasses={"ex1_w4", "ex2_w4"}, wrong_right=set(), team=2)
# Exercise 3 was "cache bytes per token" when the red teams wrote their answers: theirs answer another question. Dropped.
for _table in (WRONG, DELEGATIONS, RIGHT):
    _table["ex3_plan_kv_cache"] = [answer for answer in _table["ex3_plan_kv_cache"] if not answer.name.startswith("red")]
