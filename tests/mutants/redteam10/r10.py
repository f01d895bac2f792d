"""Red team Q: mutants of notebook 10 (generation cost, KV cache)."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "10_generation_cost_kv_cache.ipynb"

SHOWS = ["08622f53", "5cc90a8f", "positions_read", "sequential_depth", "c3a1be2e", "28435f6e", "prefill_decode",
         "cache_memory", "kv_heads", "cached_beam", "ragged_batch"]


def skip_but(*keep, models=True):
    """Every show cell except `keep` (and load_models10 unless models)."""
    return [c for c in SHOWS if c not in keep] + ([] if models else ["load_models10"])


PROMPT = "prompt = torch.tensor([corpus_prompt(dataset.tokenizer, 'The value of ')[0]])\n"

# A "cache" that keeps the embeddings of the tokens seen and re-runs every block over the whole history at each
# step: the token embedding reads one new position per call, but every layer recomputes all n positions.
EMBEDDING_CACHE = """
import torch as _t
from utils.transformer import TransformerLM as _TLM, TransformerState as _TS
_orig_step = _TLM.step
def _embedding_cache_step(self, new_idx, state):
    if not self.use_kv_cache or not isinstance(state, _TS):
        return _orig_step(self, new_idx, state)
    x_new = self._embed(new_idx, state.position)  # only the new tokens are embedded
    state.emb = x_new if getattr(state, 'emb', None) is None else _t.cat([state.emb, x_new], dim=1)
    state.tokens = new_idx if state.tokens is None else _t.cat([state.tokens, new_idx], dim=1)
    x = state.emb
    positions = self._position_kwargs(x.shape[1], 0, new_idx.device)
    for block in self.blocks:  # every layer re-runs the whole history: no keys or values kept
        x, _ = block(x, False, None, None, **positions)
    state.position += new_idx.shape[1]
    return self.lm_head(self.final_norm(x))[:, -1, :], state
_TLM.step = _embedding_cache_step
print('MUTANT ACTIVE: embedding cache')
"""

MUTANTS = [
    # ---- 08622f53 cache_equals_full_attention
    Mutant(
        name="prealloc_copies_whole_prefix",
        removes="the preallocated cache writes only the new row: here every append re-copies all filled positions "
                "through a fresh temporary (O(n) bytes moved per token, as torch.cat), into the same buffer",
        target="08622f53", message="preallocated|reserve",
        patches=[Patch("08622f53", src_patch("utils.attention", "PreallocatedKVCache.append", [(
            "    self._k[:, :, self._length : end] = k\n    self._v[:, :, self._length : end] = v\n",
            "    self._k[:, :, :end] = torch.cat([self._k[:, :, : self._length].clone(), k], dim=-2)\n"
            "    self._v[:, :, :end] = torch.cat([self._v[:, :, : self._length].clone(), v], dim=-2)\n")]))],
        skip=skip_but("08622f53", models=False),
    ),
    Mutant(
        name="cache_keeps_last_128",
        removes="the cache keeps every past key: here the torch.cat cache silently keeps only the last 128 positions",
        target="08622f53", message="differs from the full pass",
        patches=[Patch("08622f53", src_patch("utils.attention", "KVCache.append", [(
            "    return self.k, self.v\n",
            "    self.k, self.v = self.k[:, :, -128:], self.v[:, :, -128:]\n    return self.k, self.v\n")]))],
        skip=skip_but("08622f53", models=False),
    ),
    # ---- 5cc90a8f cached_equals_uncached
    Mutant(
        name="start_state_ignores_capacity",
        removes="the preallocated way uses a preallocated cache: start_state silently ignores capacity and gives "
                "torch.cat caches, so the 'KV cache (preallocated)' way never exercises the preallocated cache",
        target="5cc90a8f", message="preallocated",
        patches=[Patch("5cc90a8f", src_patch("utils.transformer", "TransformerLM.start_state", [(
            "if capacity is not None:", "if False and capacity is not None:")]))],
        skip=skip_but("5cc90a8f"),
    ),
    Mutant(
        name="embedding_cache_equal",
        removes="the cache keeps keys and values: here the 'cache' keeps only the token embeddings and every layer "
                "re-runs the whole history at each step (no per-layer saving at all)",
        target="5cc90a8f", message="cache is not used|read one new position",
        patches=[Patch("5cc90a8f", EMBEDDING_CACHE)],
        skip=skip_but("5cc90a8f"),
    ),
    # ---- positions_read cache_reads_one_position_per_token
    Mutant(
        name="embedding_cache_positions",
        removes="the cache keeps keys and values: here it keeps only the token embeddings and every layer re-runs the "
                "whole history, so the work per token is O(n) while the embedding still reads one position",
        target="positions_read", message="one position per call|far more positions",
        patches=[Patch("positions_read", PROMPT + EMBEDDING_CACHE)],
        skip=skip_but("positions_read"),
    ),
    # ---- sequential_depth rnn_chain_grows_with_n
    Mutant(
        name="graph_depth_counts_nodes",
        removes="the depth measures the longest chain of dependent operations: here graph_depth returns the number of "
                "operations in the graph (work, not dependency), which grows with n for any unbatched computation",
        target="sequential_depth", message="chain should",
        edits=[Edit("sequential_depth", "    return depth[output.grad_fn]", "    return len(depth)")],
        skip=skip_but("sequential_depth"),
    ),
    # ---- c3a1be2e training_time_against_n
    Mutant(
        name="attention_loops_over_queries",
        removes="the Transformer runs all positions in one batched product (n_layer sequential steps): here its "
                "training attention loops over the n query positions, one small product each (n sequential steps)",
        target="c3a1be2e", message="one call of each block|slope|positions in parallel",
        patches=[Patch("c3a1be2e", src_patch("utils.attention", "MultiHeadAttention.forward", [(
            "out = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout, is_causal=True)",
            "out = torch.cat([F.scaled_dot_product_attention(q[:, :, t : t + 1], k[:, :, : t + 1], v[:, :, : t + 1], "
            "dropout_p=dropout) for t in range(T)], dim=2)")]))],
        skip=skip_but("c3a1be2e"),
    ),
    Mutant(
        name="rnn_forward_two_token_window",
        removes="the RNN's state carries the whole past step after step: here its forward pass (training, logits) "
                "computes h_t from x_t and x_{t-1} only, all positions in one batched product (no recurrence)",
        target="c3a1be2e", message="RNN|recurrence",
        patches=[Patch("c3a1be2e", """
import torch as _t
from utils.rnn import RNNLM as _R
def _two_token_forward(self, idx):
    self.validate_input(idx)
    p = self.cell.project_inputs(self.embedding(idx))  # (B, T, H)
    prev = _t.cat([_t.zeros_like(p[:, :1]), _t.tanh(p[:, :-1])], dim=1)  # h_{t-1} as if h_{t-2} were 0
    return self.output(_t.tanh(p + prev @ self.cell.weight_hh.T))
_R.forward = _two_token_forward
print('MUTANT ACTIVE')
""")],
        skip=skip_but("c3a1be2e"),
    ),
    # ---- 28435f6e generation_time_against_n
    Mutant(
        name="embedding_cache_timing",
        removes="the cache keeps keys and values: here it keeps only embeddings and re-runs every layer on the history",
        target="28435f6e", message="flatten|half",
        patches=[Patch("28435f6e", EMBEDDING_CACHE)],
        skip=skip_but("28435f6e"),
    ),
    Mutant(
        name="rnn_step_reruns_history",
        removes="the RNN reads one token and its fixed-size state: here its state is the token history and every "
                "step re-runs the recurrence over all of it",
        target="28435f6e", message="RNN",
        patches=[Patch("28435f6e", """
from utils.interface import LanguageModel as _LM
from utils.rnn import RNNLM as _R
_R.start_state = lambda self, batch_size=1: None
_R.step = _LM.step
print('MUTANT ACTIVE')
""")],
        skip=skip_but("28435f6e"),
    ),
    Mutant(
        name="rnn_state_grows_with_history",
        removes="the RNN's state has a fixed size: here the state is every hidden state so far, (B, t, H), "
                "concatenated at every step (O(n) bytes copied per token, like a torch.cat cache)",
        target="28435f6e", message="RNN",
        patches=[Patch("28435f6e", """
import torch as _t
from utils.rnn import RNNLM as _R
def _growing_step(self, new_idx, state):
    if state is None:
        state = self.initial_hidden(new_idx.shape[0])[:, None]  # (B, 1, H)
    states, h = self.run(new_idx, state[:, -1])
    return self.output(h), _t.cat([state, states], dim=1)  # (B, t, H): every state kept
_R.start_state = lambda self, batch_size=1: self.initial_hidden(batch_size)[:, None]
_R.step = _growing_step
print('MUTANT ACTIVE')
""")],
        skip=skip_but("28435f6e"),
    ),
    # ---- prefill_decode prefill_against_decode
    Mutant(
        name="ffn_loops_over_positions",
        removes="the prefill runs the n positions as large matrix products: here the position-wise feed-forward "
                "network is applied position by position in a loop (n small products per layer)",
        target="prefill_decode", message="faster|parallel|one call",
        patches=[Patch("prefill_decode", src_patch("utils.transformer", "FeedForward.forward", [(
            "return self.down(self.activation(self.up(x)))",
            "return torch.cat([self.down(self.activation(self.up(x[:, t : t + 1]))) for t in range(x.shape[1])], dim=1)")]))],
        skip=skip_but("prefill_decode"),
    ),
    # ---- cache_memory cache_bytes_against_n
    Mutant(
        name="cache_keeps_old_copies",
        removes="the cache holds exactly 2 x layers x KV heads x d_head x n values: here every append keeps the "
                "previous key and value tensors alive in a list (the older copies the prose says would show)",
        target="cache_memory", message="exactly|linearly|per KV head",
        patches=[Patch("cache_memory", src_patch("utils.attention", "KVCache.append", [(
            "    self.k = k if self.k is None",
            "    self.old = getattr(self, 'old', []) + [(self.k, self.v)]\n    self.k = k if self.k is None")]))],
        skip=skip_but("cache_memory"),
    ),
    # ---- kv_heads fewer_kv_heads
    Mutant(
        name="attention_sees_only_itself",
        removes="the small models use their attention: here each position's attention output is its own value "
                "(attends to itself only), so no model sees context",
        target="kv_heads", message="use its attention|silenced|keep most",
        patches=[Patch("kv_heads", src_patch("utils.attention", "MultiHeadAttention.forward", [(
            "out = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout, is_causal=True)", "out = v")]))],
        skip=skip_but("kv_heads"),
    ),
    # ---- cached_beam cached_beam_search
    Mutant(
        name="beam_cache_not_reordered",
        removes="the caches are reordered by parent beam: here after the first expansion each beam keeps the cache "
                "of the slot it occupies",
        target="cached_beam", message="same hypotheses|same log-prob",
        patches=[Patch("cached_beam", PROMPT + src_patch("utils.attention", "KVCache.reorder", [(
            "    if self.k is not None:\n",
            "    if self.k is not None:\n        if self.k.shape[0] > 1:\n"
            "            index = torch.arange(len(index)).clamp(max=self.k.shape[0] - 1)\n")]))],
        skip=skip_but("cached_beam"),
    ),
    # ---- ragged_batch ragged_prompts_equal_alone
    Mutant(
        name="ragged_decode_unmasked",
        removes="the padding mask: here it is applied to the prefill only, the decode steps attend to the padding",
        target="ragged_batch", message="ragged batch",
        patches=[Patch("ragged_batch", src_patch("utils.ragged", "ragged_greedy", [(
            "logits = _forward(model, token, positions, real, caches, mask_padding)[:, -1]",
            "logits = _forward(model, token, positions, real, caches, False)[:, -1]")]))],
        skip=skip_but("ragged_batch"),
    ),
    Mutant(
        name="ragged_positions_start_at_one",
        removes="position ids start at 0 at each row's first real token: here they start at 1 (cumsum without - 1)",
        target="ragged_batch", message="ragged batch",
        patches=[Patch("ragged_batch", src_patch("utils.ragged", "position_ids", [(
            "(real.long().cumsum(dim=1) - 1).clamp(min=0)", "real.long().cumsum(dim=1).clamp(min=0)")]))],
        skip=skip_but("ragged_batch"),
    ),
    Mutant(
        name="control_untrained_models_at_40_steps",
        removes="the silenced control is trained like the models (so beating it means using attention): here the "
                "control is never trained, and the models get the 40 steps at which, per the notebook, none used its "
                "attention yet",
        target="kv_heads", message="use its attention|silenced|keep most",
        edits=[Edit("153c8028", "KV_STEPS = pick(full=300, fast=200)", "KV_STEPS = 40"),
               Edit("kv_heads", "    train(small, batches,", "    heads == 'no attention' or train(small, batches,")],
        skip=skip_but("kv_heads"),
    ),
]
