"""Second red team's mutants of 10_generation_cost_kv_cache.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 26 of 30 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
import sys
from tests.mutation.redteam_help import src_patch

from tests.mutation.spec import Edit, Mutant, Patch  # noqa: E402

NOTEBOOK = "10_generation_cost_kv_cache.ipynb"

SHOWS = ["08622f53", "5cc90a8f", "positions_read", "sequential_depth", "c3a1be2e", "28435f6e", "prefill_decode",
         "cache_memory", "kv_heads", "cached_beam", "ragged_batch"]


def skip_for(target: str, keep: tuple[str, ...] = ()) -> list[str]:
    """Every show cell before the target that it does not need (they only measure; expensive timings and training)."""
    return [s for s in SHOWS[: SHOWS.index(target)] if s not in keep]


def window(n: int) -> str:
    """Both caches keep only their last n positions (a silent sliding window)."""
    return f"""
from utils.attention import KVCache as _KV, PreallocatedKVCache as _PKV
def _wrap(orig):
    def append(self, k, v):
        K, V = orig(self, k, v)
        self.k, self.v = K[:, :, -{n}:], V[:, :, -{n}:]
        return self.k, self.v
    return append
_KV.append, _PKV.append = _wrap(_KV.append), _wrap(_PKV.append)
print('MUTANT ACTIVE: window {n}')
"""

NEVER_USED = """
from utils.transformer import TransformerLM as _T
_T.start_state = lambda self, batch_size=1, capacity=None: None  # use_kv_cache has no effect: always the re-run path
print('MUTANT ACTIVE: cache never used')
"""

POSITION_NOT_ADVANCED = """
from utils.transformer import TransformerLM as _T, TransformerState as _S
_orig_step = _T.step
def _step(self, new_idx, state):
    logits, state = _orig_step(self, new_idx, state)
    if isinstance(state, _S):
        state.position = 0  # the offset of the next token is never advanced
    return logits, state
_T.step = _step
print('MUTANT ACTIVE: position not advanced')
"""

GENERATE_RESTARTS = src_patch("utils.sampling", "generate", [
    ("logits, state = model.step(next_ids[:, None], state)", "logits, state = model.step(idx, model.start_state(idx.shape[0]))")],
    rebind="generate")

RNN_STATE_DROPPED = """
import types as _ty
_cell = rnn.cell
_cell.step = _ty.MethodType(lambda self, px, h: torch.tanh(px + torch.zeros_like(h) @ self.weight_hh.T), _cell)
def _run(self, x, h0):  # the kernel made to agree: every step starts from h0
    states = torch.tanh(x @ self.rnn.weight_ih_l0.T + self.rnn.bias_ih_l0 + self.rnn.bias_hh_l0 + (h0 @ self.rnn.weight_hh_l0.T)[:, None])
    return states, states[:, -1]
_cell.run = _ty.MethodType(_run, _cell)
print('MUTANT ACTIVE: RNN state dropped')
"""

TOKEN_BY_TOKEN = """
def _fwd(idx):
    state = transformer.start_state(idx.shape[0])
    outs = []
    for t in range(idx.shape[1]):
        logits, state = transformer.step(idx[:, t : t + 1], state)
        outs.append(logits)
    return torch.stack(outs, dim=1)  # (B, T, V)
transformer.forward = _fwd
print('MUTANT ACTIVE: transformer forward token by token')
"""

RNN_RERUNS = """
from utils.interface import LanguageModel as _LM
rnn.start_state = lambda batch_size=1: None
rnn.step = lambda new_idx, state: _LM.step(rnn, new_idx, state)  # the history is kept and re-read, not a state
print('MUTANT ACTIVE: RNN re-runs its history')
"""

PREFILL_BY_TOKEN = """
from utils.transformer import TransformerLM as _T, TransformerState as _S
_orig_step = _T.step
def _step(self, new_idx, state):
    if isinstance(state, _S) and new_idx.shape[1] > 1:
        for t in range(new_idx.shape[1]):
            logits, state = _orig_step(self, new_idx[:, t : t + 1], state)
        return logits, state
    return _orig_step(self, new_idx, state)
_T.step = _step
print('MUTANT ACTIVE: prefill token by token')
"""

QUERY_HEAD_CACHE = src_patch("utils.attention", "MultiHeadAttention.forward", [
    ("past = T - T_q  # keys", "k, v = (k.repeat_interleave(self.n_heads // self.n_kv_heads, dim=1), "
     "v.repeat_interleave(self.n_heads // self.n_kv_heads, dim=1)) if self.n_kv_heads != self.n_heads else (k, v); "
     "past = T - T_q  # keys"),
    ("if self.n_kv_heads != self.n_heads:  # each", "if False:  # each")])

PREALLOC_FIXED = """
from utils.transformer import TransformerLM as _T
_orig_start = _T.start_state
_T.start_state = lambda self, batch_size=1, capacity=None: _orig_start(self, batch_size, 1024 if capacity is None else capacity)
print('MUTANT ACTIVE: caches preallocated for 1024 positions')
"""

REORDER_SKIPPED = """
import utils.decoding as _d
_orig_reorder = _d.reorder_state
def _reorder(state, index):
    rows = state.caches[0].k.shape[0]
    return _orig_reorder(state, torch.arange(len(index)).clamp(max=rows - 1))  # beams keep their own row, not the parent's
_d.reorder_state = _reorder
print('MUTANT ACTIVE: reorder by parent skipped')
"""

MUTANTS = [
    # ---- 08622f53 cache_equals_full_attention
    Mutant("kv_window_64", "the full history: the cache silently keeps the last 64 positions", "08622f53", ".",
           patches=[Patch("08622f53", window(64))], skip=skip_for("08622f53")),
    Mutant("kv_append_returns_new_only", "appending: the cache returns only the new key/value", "08622f53", ".",
           patches=[Patch("08622f53", """
from utils.attention import KVCache as _KV, PreallocatedKVCache as _PKV
def _wrap(orig):
    def append(self, k, v):
        orig(self, k, v)
        return k, v
    return append
_KV.append, _PKV.append = _wrap(_KV.append), _wrap(_PKV.append)
""")], skip=skip_for("08622f53")),
    Mutant("kv_prealloc_length_frozen", "the write offset of the preallocated cache: never advanced", "08622f53", ".",
           patches=[Patch("08622f53", src_patch("utils.attention", "PreallocatedKVCache.append",
                                               [("self._length = end", "self._length = 0")]))], skip=skip_for("08622f53")),
    # ---- 5cc90a8f cached_equals_uncached
    Mutant("gen_position_not_advanced", "the position offset of cached tokens: never advanced", "5cc90a8f", ".",
           patches=[Patch("5cc90a8f", POSITION_NOT_ADVANCED)], skip=skip_for("5cc90a8f")),
    Mutant("gen_window_48", "the full history: the cache silently keeps the last 48 positions", "5cc90a8f", ".",
           patches=[Patch("5cc90a8f", window(48))], skip=skip_for("5cc90a8f")),
    Mutant("gen_cache_never_used", "the cache itself: use_kv_cache ignored, every step re-runs the history", "5cc90a8f", ".",
           patches=[Patch("5cc90a8f", NEVER_USED)], skip=skip_for("5cc90a8f")),
    # ---- positions_read cache_reads_one_position_per_token
    Mutant("read_cache_never_used", "the cache itself: use_kv_cache ignored", "positions_read", ".",
           patches=[Patch("positions_read", NEVER_USED)], skip=skip_for("positions_read", keep=("5cc90a8f",))),
    Mutant("read_generate_restarts_cache", "incremental generation: generate() refills a fresh cache from the whole history each token",
           "positions_read", ".", patches=[Patch("positions_read", GENERATE_RESTARTS)],
           skip=skip_for("positions_read", keep=("5cc90a8f",))),
    # ---- sequential_depth rnn_chain_grows_with_n
    Mutant("depth_rnn_state_dropped", "the recurrence: h_t no longer reads h_{t-1} (kernel made to agree)", "sequential_depth", ".",
           patches=[Patch("sequential_depth", RNN_STATE_DROPPED)], skip=skip_for("sequential_depth")),
    Mutant("depth_transformer_token_by_token", "parallel positions: the Transformer's forward runs token by token through its cache",
           "sequential_depth", ".", patches=[Patch("sequential_depth", TOKEN_BY_TOKEN)], skip=skip_for("sequential_depth")),
    # ---- c3a1be2e training_time_against_n
    Mutant("train_batches_fixed_length", "the length: every timed batch has 64 tokens whatever n is", "c3a1be2e", ".",
           patches=[Patch("c3a1be2e", src_patch("utils.generation_cost", "training_step_times",
                                               [("(batch_size, n), generator", "(batch_size, 64), generator")],
                                               rebind="training_step_times"))], skip=skip_for("c3a1be2e")),
    Mutant("train_rnn_window_64", "the RNN's sequential length: its loss reads only the last 64 tokens", "c3a1be2e", ".",
           patches=[Patch("c3a1be2e", "rnn.loss = lambda idx, targets: type(rnn).loss(rnn, idx[:, -64:], targets[:, -64:])\n")],
           skip=skip_for("c3a1be2e")),
    Mutant("train_transformer_window_64", "the Transformer's length: its loss reads only the last 64 tokens", "c3a1be2e", ".",
           patches=[Patch("c3a1be2e", "transformer.loss = lambda idx, targets: type(transformer).loss(transformer, idx[:, -64:], targets[:, -64:])\n")],
           skip=skip_for("c3a1be2e")),
    Mutant("train_transformer_token_by_token", "parallel positions: the Transformer's forward runs one position at a time (through its cache)",
           "c3a1be2e", ".", patches=[Patch("c3a1be2e", TOKEN_BY_TOKEN)], skip=skip_for("c3a1be2e")),
    # ---- 28435f6e generation_time_against_n
    Mutant("pertok_cache_never_used", "the cache: use_kv_cache ignored, the 'cached' curve re-runs the history", "28435f6e", ".",
           patches=[Patch("28435f6e", NEVER_USED)], skip=skip_for("28435f6e")),
    Mutant("pertok_history_ignored", "the history length: every timed step follows a 64-token history", "28435f6e", ".",
           patches=[Patch("28435f6e", src_patch("utils.generation_cost", "_step_seconds",
                                               [("(1, history_length), generator", "(1, 64), generator")]))],
           skip=skip_for("28435f6e")),
    Mutant("pertok_rnn_reruns_history", "the RNN's fixed-size state: its step re-reads the whole history", "28435f6e", ".",
           patches=[Patch("28435f6e", RNN_RERUNS)], skip=skip_for("28435f6e")),
    # ---- prefill_decode prefill_against_decode
    Mutant("pd_prefill_token_by_token", "parallel prefill: a multi-token step loops over the tokens", "prefill_decode", ".",
           patches=[Patch("prefill_decode", PREFILL_BY_TOKEN)], skip=skip_for("prefill_decode")),
    Mutant("pd_decode_timed_as_one_call", "the dependency of the decode timing loop: it times one call on the whole prompt",
           "prefill_decode", ".", patches=[Patch("prefill_decode", src_patch("utils.generation_cost", "prefill_and_decode_times", [
               ("for t in range(prompt_length):", "for t in range(1):"),
               ("model.step(prompt[:, t : t + 1], state)", "model.step(prompt, state)")], rebind="prefill_and_decode_times"))],
           skip=skip_for("prefill_decode")),
    Mutant("pd_cache_left_off", "the cache: use_kv_cache left False by an earlier cell", "prefill_decode", ".",
           patches=[Patch("prefill_decode", "transformer.use_kv_cache = False\n")], skip=skip_for("prefill_decode")),
    # ---- cache_memory cache_bytes_against_n
    Mutant("mem_prealloc_fixed_1024", "growth with n: caches preallocated for 1024 positions", "cache_memory", ".",
           patches=[Patch("cache_memory", PREALLOC_FIXED)], skip=skip_for("cache_memory")),
    Mutant("mem_window_256", "growth with n: the cache keeps the last 256 positions", "cache_memory", ".",
           patches=[Patch("cache_memory", window(256))], skip=skip_for("cache_memory")),
    Mutant("mem_stores_query_heads", "KV heads in the formula: the cache stores keys/values repeated to every query head",
           "cache_memory", ".", patches=[Patch("cache_memory", QUERY_HEAD_CACHE)], skip=skip_for("cache_memory")),
    # ---- kv_heads fewer_kv_heads
    Mutant("gqa_stores_query_heads", "fewer KV heads in the cache: keys/values repeated to every query head before caching",
           "kv_heads", ".", patches=[Patch("kv_heads", QUERY_HEAD_CACHE)], skip=skip_for("kv_heads")),
    Mutant("gqa_kv_steps_40", "models that use attention: only 40 training steps", "kv_heads", ".",
           edits=[Edit("153c8028", "KV_STEPS = pick(full=300, fast=200)", "KV_STEPS = pick(full=40, fast=40)")],
           skip=skip_for("kv_heads")),
    # ---- cached_beam cached_beam_search
    Mutant("beam_reorder_skipped", "reordering caches by parent beam: every beam keeps its own row", "cached_beam", ".",
           patches=[Patch("cached_beam", REORDER_SKIPPED)], skip=skip_for("cached_beam", keep=("5cc90a8f",))),
    Mutant("beam_cache_never_used", "the cache: 'cached' beam search re-runs every beam's history", "cached_beam", ".",
           patches=[Patch("cached_beam", NEVER_USED)], skip=skip_for("cached_beam", keep=("5cc90a8f",))),
    # ---- ragged_batch ragged_prompts_equal_alone
    Mutant("rag_positions_from_column0", "per-row position ids: positions counted from the padded column 0", "ragged_batch", ".",
           patches=[Patch("ragged_batch", "import utils.ragged as _r\n_r.position_ids = lambda real: torch.arange(real.shape[1]).expand_as(real)\n")],
           skip=skip_for("ragged_batch")),
    Mutant("rag_padding_unmasked", "the padding mask: real tokens attend to the padding", "ragged_batch", ".",
           patches=[Patch("ragged_batch", "import utils.ragged as _r\n_r.padding_bias = lambda real_keys, n_queries: torch.zeros(real_keys.shape[0], 1, n_queries, real_keys.shape[1])\n")],
           skip=skip_for("ragged_batch")),
    Mutant("rag_decode_positions_frozen", "advancing positions while decoding: each new token reuses the last position",
           "ragged_batch", ".", patches=[Patch("ragged_batch", src_patch("utils.ragged", "ragged_greedy", [
               ("positions = positions[:, -1:] + 1", "positions = positions[:, -1:]")]))], skip=skip_for("ragged_batch")),
]


import dataclasses as _dataclasses  # noqa: E402

_KILLED = ['beam_reorder_skipped', 'depth_rnn_state_dropped', 'depth_transformer_token_by_token', 'gen_position_not_advanced', 'gen_window_48', 'gqa_kv_steps_40', 'gqa_stores_query_heads', 'kv_append_returns_new_only', 'kv_prealloc_length_frozen', 'kv_window_64', 'mem_prealloc_fixed_1024', 'mem_window_256', 'pd_cache_left_off', 'pd_decode_timed_as_one_call', 'pd_prefill_token_by_token', 'pertok_cache_never_used', 'pertok_history_ignored', 'pertok_rnn_reruns_history', 'rag_decode_positions_frozen', 'rag_padding_unmasked', 'rag_positions_from_column0', 'read_cache_never_used', 'read_generate_restarts_cache', 'train_batches_fixed_length', 'train_rnn_window_64', 'train_transformer_window_64']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
