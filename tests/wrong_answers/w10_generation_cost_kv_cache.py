"""Delegations for notebook 10's exercise (its wrong answers come with the notebook's own issue)."""

from tests.wrong_answers.spec import Delegation

NOTEBOOK = "10_generation_cost_kv_cache.ipynb"
WRONG: dict = {}
DELEGATIONS = {
    "ex1_append_to_cache": [
        Delegation("direct", "from utils.attention import KVCache\n\n\n"
                             "def append_to_cache(cache_k, cache_v, k_new: torch.Tensor, v_new: torch.Tensor):\n"
                             "    cache = KVCache()\n"
                             "    if cache_k is not None:\n"
                             "        cache.append(cache_k, cache_v)\n"
                             "    return cache.append(k_new, v_new)",
                   denied="utils.attention.KVCache.append"),
    ],
}
