"""Red team F: mutants of notebook 10 (generation cost, KV cache). Run: python /work/rt/runmut.py /work/rt/rtF/r10.py"""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "10_generation_cost_kv_cache.ipynb"

SHOWS = ["08622f53", "5cc90a8f", "positions_read", "sequential_depth", "c3a1be2e", "28435f6e", "prefill_decode",
         "cache_memory", "kv_heads", "cached_beam", "ragged_batch"]


def skip_for(target, keep=(), extra=()):
    """Every other show cell (and `extra`), except those in `keep` (cells the target needs)."""
    return [s for s in SHOWS if s != target and s not in keep] + list(extra)


# --- assert messages of each show (any of its asserts failing counts) -----------------------------------------
MSG = {  # the alternatives after the last "|" of positions_read, 28435f6e, cache_memory, kv_heads: added with the mends
    "08622f53": r"differs from the full pass|project only its new position|should reserve its",
    "5cc90a8f": r"cached tokens differ|cached logits differ|cache is not used|re-read the whole history",
    "positions_read": r"prompt should be read once|re-read the whole history|far more positions|after the prompt and the full pass",
    "sequential_depth": r"chain should grow|should not depend on n|recurrence",
    "c3a1be2e": r"in one call of each block|RNN's training time|Transformer's training time|first token should reach",
    "28435f6e": r"should cost more as n grows|flatten the curve|RNN's time per token|cost under half|longest history timed",
    "prefill_decode": r"prefill should be one call|several times faster",
    "cache_memory": r"hold exactly|grow linearly|one key and one value per KV head|fewer KV heads",
    "kv_heads": r"use its attention|shrink the cache 4 times|MQA should keep most|fewer KV heads",
    "cached_beam": r"same hypotheses|same log-probabilities|read the prompt once|far more positions|should be faster|timed searches should be one cached",
    "ragged_batch": r"should write the tokens|should equal each prompt|^$|should be read in one call",
}

# --- reusable patches ---------------------------------------------------------------------------------------


def step_patch(replacements):
    """TransformerLM.step re-defined with textual changes (its zero-argument super() made explicit first)."""
    return src_patch("utils.transformer", "TransformerLM.step",
                     [("super().step(new_idx, state)", "LanguageModel.step(self, new_idx, state)")] + list(replacements))


RUN_CACHED = "logits, _ = self._run(new_idx, caches=state.caches, offset=state.position)"
# the cached step reads the whole history again: the cache is filled but never read
CACHE_NEVER_USED = step_patch([(RUN_CACHED, "logits, _ = self._run(state.tokens)")])
# every call gets fresh, empty caches: the new token attends only to itself (the history is dropped)
CACHE_DROPPED = step_patch([("caches=state.caches", "caches=[KVCache() for _ in self.blocks]")])
# the prompt is read one token per call inside step()
PREFILL_TOKEN_BY_TOKEN = step_patch([(RUN_CACHED,
    "logits = torch.cat([self._run(new_idx[:, i : i + 1], caches=state.caches, offset=state.position + i)[0] "
    "for i in range(new_idx.shape[1])], dim=1); _ = None")])
# decode steps (one new token) re-run the whole history; the prefill still fills a cache
DECODE_REREADS = step_patch([(RUN_CACHED,
    "logits, _ = self._run(state.tokens) if state.position else self._run(new_idx, caches=state.caches, offset=0)")])


def cache_window(window):
    """KVCache (torch.cat) keeps only the last `window` positions for later calls (a silent sliding window)."""
    return src_patch("utils.attention", "KVCache.append", [(
        "    return self.k, self.v",
        f"    _out = (self.k, self.v)\n    self.k, self.v = self.k[:, :, -{window}:], self.v[:, :, -{window}:]\n    return _out")])


PREALLOC_GROWS_BY_CAT = """
import utils.attention as _ua
_ua.PreallocatedKVCache.append = _ua.KVCache.append      # 'preallocated' cache grows by torch.cat
_ua.PreallocatedKVCache._storage = _ua.KVCache._storage
_ua.PreallocatedKVCache.length = _ua.KVCache.length
print('MUTANT ACTIVE: PreallocatedKVCache grows by torch.cat')
"""

# a Transformer whose forward runs the positions one after another through a KV cache (sequential)
TRANSFORMER_TOKEN_BY_TOKEN = """
import torch, utils.transformer as _ut
from utils.attention import KVCache as _KV
def _forward(self, idx):
    self.validate_input(idx)
    caches = [_KV() for _ in self.blocks]
    return torch.cat([self._run(idx[:, t : t + 1], caches=caches, offset=t)[0] for t in range(idx.shape[1])], dim=1)
_ut.TransformerLM.forward = _forward
print('MUTANT ACTIVE: TransformerLM.forward token by token')
"""

# an 'RNN' with no recurrence: h_t = tanh(W_xh x_t + b + W_hh h_0), every position computed at once
RNN_NO_RECURRENCE_KERNEL = """
import torch, utils.rnn as _ur
def _run(self, idx, h0=None):
    h = self._check_h0(idx, h0)  # (B, H)
    states = torch.tanh(self.cell.project_inputs(self.embedding(idx)) + (h @ self.cell.weight_hh.T)[:, None])  # (B, T, H)
    return states, states[:, -1]
_ur.RNNLM.run = _run
print('MUTANT ACTIVE: RNNLM.run without recurrence')
"""
RNN_NO_RECURRENCE_WRITTEN = src_patch("utils.rnn", "RNNLM.hidden_states", [(
    "h = self.cell.step(projected[:, t], h)  # (B, H)\n        states.append(h)",
    "states.append(self.cell.step(projected[:, t], h))  # (B, H): always from h_0")])

RNN_REREADS_HISTORY = """
import utils.rnn as _ur, utils.interface as _ui
_ur.RNNLM.step = _ui.LanguageModel.step            # the state is the token history, re-read every step
_ur.RNNLM.start_state = _ui.LanguageModel.start_state
print('MUTANT ACTIVE: RNN re-reads its history')
"""

FUSED = "out = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout, is_causal=True)  # (B, H, T, Dh)"
# training/prefill attention only within blocks of 32 positions: O(n) attention instead of O(n^2)
BLOCK_LOCAL_ATTENTION = src_patch("utils.attention", "MultiHeadAttention.forward", [(FUSED,
    "_c = 32 if T % 32 == 0 else T; out = F.scaled_dot_product_attention(q.unflatten(2, (-1, _c)), "
    "k.unflatten(2, (-1, _c)), v.unflatten(2, (-1, _c)), dropout_p=dropout, is_causal=True).flatten(2, 3)")])
# prefill/training attention computed one query position after another (inside one call of the block)
SEQUENTIAL_ATTENTION = src_patch("utils.attention", "MultiHeadAttention.forward", [(FUSED,
    "out = torch.cat([F.scaled_dot_product_attention(q[:, :, i : i + 1], k[:, :, : i + 1], v[:, :, : i + 1], "
    "dropout_p=dropout) for i in range(T)], dim=2)")])
# a block given several new positions and a cache runs them one at a time (one call of the block, sequential work)
BLOCK_SEQUENTIAL = """
import torch, utils.transformer as _ut
_orig_block_forward = _ut.Block.forward
def _block_forward(self, x, need_weights=False, cache=None, queries=None, **positions):
    if cache is None or x.shape[1] == 1 or queries is not None or need_weights or set(positions) != {"rotary"}:
        return _orig_block_forward(self, x, need_weights, cache, queries, **positions)
    cos, sin = positions["rotary"]
    rows = [_orig_block_forward(self, x[:, t : t + 1], False, cache, None, rotary=(cos[..., t : t + 1, :], sin[..., t : t + 1, :]))[0]
            for t in range(x.shape[1])]
    return torch.cat(rows, dim=1), None
_ut.Block.forward = _block_forward
print('MUTANT ACTIVE: Block runs several positions one at a time')
"""

# keys and values repeated to every query head before they are cached (GQA/MQA save nothing)
KV_REPEATED_BEFORE_CACHE = src_patch("utils.attention", "MultiHeadAttention.forward", [
    ("k, v = cache.append(k, v)  # (B, H_kv, T_all, Dh)",
     "k, v = cache.append(k.repeat_interleave(self.n_heads // self.n_kv_heads, dim=1), "
     "v.repeat_interleave(self.n_heads // self.n_kv_heads, dim=1))"),
    ("if self.n_kv_heads != self.n_heads:  # each", "if self.n_kv_heads != self.n_heads and cache is None:  # each"),
])

# KV heads not shared: every query head gets its own key and value (MHA weights and computation); only the cache
# keeps n_kv_heads of them (every group-th head), repeated back for the past positions at decode time
KV_NOT_SHARED = """
import torch.nn as _nn, utils.attention as _ua
_orig_mha_init = _ua.MultiHeadAttention.__init__
def _mha_init(self, d_model, n_heads, dropout=0.0, n_kv_heads=None):
    _orig_mha_init(self, d_model, n_heads, dropout, n_kv_heads)
    self.k_proj, self.v_proj = _nn.Linear(d_model, d_model), _nn.Linear(d_model, d_model)  # one key/value per query head
_ua.MultiHeadAttention.__init__ = _mha_init
""" + src_patch("utils.attention", "MultiHeadAttention.forward", [
    ("k, v = cache.append(k, v)  # (B, H_kv, T_all, Dh)",
     "_g = self.n_heads // self.n_kv_heads; _ck, _cv = cache.append(k[:, ::_g], v[:, ::_g]); "
     "k = torch.cat([_ck[:, :, : _ck.shape[2] - k.shape[2]].repeat_interleave(_g, dim=1), k], dim=2); "
     "v = torch.cat([_cv[:, :, : _cv.shape[2] - v.shape[2]].repeat_interleave(_g, dim=1), v], dim=2)"),
    ("if self.n_kv_heads != self.n_heads:  # each", "if False:  # each"),
])

# the torch.cat cache keeps every earlier version of its tensors (memory O(n^2) over a generation)
CACHE_KEEPS_OLD_VERSIONS = """
import utils.attention as _ua
_orig_kv_append = _ua.KVCache.append
def _kv_append(self, k, v):
    if self.k is not None:
        self.__dict__.setdefault('_old', []).append((self.k, self.v))
    return _orig_kv_append(self, k, v)
def _kv_storage(self):
    return tuple(t for pair in [(self.k, self.v), *self.__dict__.get('_old', [])] for t in pair)
_ua.KVCache.append = _kv_append
_ua.KVCache._storage = _kv_storage
print('MUTANT ACTIVE: KVCache keeps old versions')
"""

# blocks after the first (the one the show hooks) run a many-position input one position at a time, with a cache
LATER_BLOCKS_SEQUENTIAL = """
import torch, utils.transformer as _ut
from utils.attention import KVCache as _KV
_orig_block_forward = _ut.Block.forward
_first_block = transformer.blocks[0]
def _block_forward(self, x, need_weights=False, cache=None, queries=None, **positions):
    if self is _first_block or cache is not None or x.shape[1] == 1 or queries is not None or need_weights \\
            or set(positions) != {"rotary"}:
        return _orig_block_forward(self, x, need_weights, cache, queries, **positions)
    cos, sin = positions["rotary"]
    own = _KV()
    rows = [_orig_block_forward(self, x[:, t : t + 1], False, own, None, rotary=(cos[..., t : t + 1, :], sin[..., t : t + 1, :]))[0]
            for t in range(x.shape[1])]
    return torch.cat(rows, dim=1), None
_ut.Block.forward = _block_forward
print('MUTANT ACTIVE: blocks after the first run position by position')
"""

# the cache stores keys and values rounded to float16 (an approximation, not the exact keys)
CACHE_HALF = src_patch("utils.attention", "KVCache.append", [(
    "    self.k = k if self.k is None",
    "    k, v = k.half().to(k.dtype), v.half().to(v.dtype)\n    self.k = k if self.k is None")])

RAGGED_ROWS_ALONE = """
import torch, utils.ragged as _ur
_orig_ragged = _ur.ragged_greedy
def _ragged(model, prompts, n_new, pad_id=0, offset_positions=True, mask_padding=True):
    if not (offset_positions and mask_padding):  # the two mistakes still shown on the real batch
        return _orig_ragged(model, prompts, n_new, pad_id, offset_positions, mask_padding)
    runs = [_orig_ragged(model, [p], n_new, pad_id) for p in prompts]  # each prompt alone: no padding at all
    return [r[0][0] for r in runs], torch.cat([r[1] for r in runs])
_ur.ragged_greedy = _ragged
print('MUTANT ACTIVE: ragged_greedy runs every prompt alone')
"""


def base(name, target, keep=(), extra=()):
    return Mutant(name, "nothing (baseline: the show must pass unmutated with this skip list)", target, "NEVER",
                  patches=[Patch(target, "pass")], skip=skip_for(target, keep, extra))


def mut(name, removes, target, patch=None, edits=(), keep=(), extra=(), before=None, message=None):
    return Mutant(name, removes, target, message or MSG[target], edits=list(edits),
                  patches=[Patch(before or target, patch)] if patch else [], skip=skip_for(target, keep, extra))


NEEDS_PROMPT = ("5cc90a8f",)
NO_MODELS = ("load_models10",)

MUTANTS = [
    # ---------------- 08622f53 cache_equals_full_attention ----------------
    base("base_full_attention", "08622f53", extra=NO_MODELS),
    mut("cat_cache_window_150", "the torch.cat cache silently keeps only the last 150 positions", "08622f53",
        cache_window(150), extra=NO_MODELS),
    mut("prealloc_returns_whole_buffer", "the preallocated cache hands attention its whole buffer, unwritten rows included",
        "08622f53", src_patch("utils.attention", "PreallocatedKVCache.append", [
            ("self.k, self.v = self._k[:, :, :end], self._v[:, :, :end]", "self.k, self.v = self._k, self._v")]),
        extra=NO_MODELS),
    mut("prealloc_grows_by_cat", "the 'preallocated' cache reserves nothing: it grows by torch.cat like the other",
        "08622f53", PREALLOC_GROWS_BY_CAT, extra=NO_MODELS),
    mut("one_by_one_recomputes_history", "the 'one token at a time' loop re-runs the whole prefix each step "
        "(queries=1) and fills the cache separately: the cache is never read", "08622f53",
        edits=[Edit("08622f53", "attention(x[:, t : t + 1], causal=True, cache=cache)[0] for t in range(200)], dim=1)",
                    "attention(x[:, : t + 1], causal=True, queries=1)[0] for t in range(200)], dim=1); "
                    "attention(x, causal=True, cache=cache)")], extra=NO_MODELS),

    # ---------------- 5cc90a8f cached_equals_uncached ----------------
    base("base_cached_equals_uncached", "5cc90a8f"),
    mut("step_cache_never_read", "the cached step re-runs the whole history (cache filled, never read)", "5cc90a8f",
        CACHE_NEVER_USED),
    mut("step_cache_dropped", "every cached step starts from empty caches (the history is dropped)", "5cc90a8f",
        CACHE_DROPPED),
    mut("step_offset_zero", "the cached token gets position 0 instead of its own (rotary offset lost)", "5cc90a8f",
        step_patch([("offset=state.position", "offset=0")])),
    mut("position_advances_by_one", "the position counter advances by 1 per call, not by the tokens fed (prompt)",
        "5cc90a8f", step_patch([("state.position += new_idx.shape[1]", "state.position += 1")])),
    mut("cache_half_precision", "the torch.cat cache keeps keys/values rounded to float16 (not exact)", "5cc90a8f",
        CACHE_HALF),
    mut("uncached_way_is_cached", "the 'no cache' way runs with the cache on: the control is no control",
        "5cc90a8f", edits=[Edit("5cc90a8f", "transformer.use_kv_cache = cached", "transformer.use_kv_cache = True")]),

    # ---------------- positions_read cache_reads_one_position_per_token ----------------
    base("base_positions_read", "positions_read", keep=NEEDS_PROMPT),
    mut("reads_cache_dropped", "every cached step starts from empty caches: one position read, history not used",
        "positions_read", CACHE_DROPPED, keep=NEEDS_PROMPT),
    mut("reads_cache_never_read", "the cached step re-runs the whole history", "positions_read", CACHE_NEVER_USED,
        keep=NEEDS_PROMPT),
    mut("reads_control_is_cached", "the 'no cache' run has the cache on: the control is no control", "positions_read",
        edits=[Edit("positions_read", "transformer.use_kv_cache = cached", "transformer.use_kv_cache = True")],
        keep=NEEDS_PROMPT),

    # ---------------- sequential_depth rnn_chain_grows_with_n ----------------
    base("base_sequential_depth", "sequential_depth"),
    mut("rnn_written_no_recurrence", "the written-out RNN computes every h_t from h_0 (no chain)", "sequential_depth",
        RNN_NO_RECURRENCE_WRITTEN),
    mut("rnn_no_recurrence_both", "the RNN (written-out and kernel alike) has no recurrence: h_t from h_0",
        "sequential_depth", RNN_NO_RECURRENCE_WRITTEN + RNN_NO_RECURRENCE_KERNEL),
    mut("transformer_sequential_forward", "the Transformer's forward runs positions one after another via a cache",
        "sequential_depth", TRANSFORMER_TOKEN_BY_TOKEN),

    # ---------------- c3a1be2e training_time_against_n ----------------
    base("base_training_time", "c3a1be2e"),
    mut("train_transformer_token_by_token", "the Transformer trains position by position (sequential)", "c3a1be2e",
        TRANSFORMER_TOKEN_BY_TOKEN),
    mut("train_rnn_without_recurrence", "the timed RNN has no recurrence: all positions computed at once (parallel)",
        "c3a1be2e", RNN_NO_RECURRENCE_KERNEL),
    mut("train_later_blocks_sequential", "blocks after the first (unhooked) run position by position (sequential)",
        "c3a1be2e", LATER_BLOCKS_SEQUENTIAL),
    mut("train_attention_block_local", "attention only inside blocks of 32 positions: O(n), no O(n^2) term",
        "c3a1be2e", BLOCK_LOCAL_ATTENTION),

    # ---------------- 28435f6e generation_time_against_n ----------------
    base("base_generation_time", "28435f6e"),
    mut("gen_cache_never_read", "the cached step re-runs the whole history", "28435f6e", CACHE_NEVER_USED),
    mut("gen_cache_dropped", "cached steps start from empty caches: one position against nothing, not n keys",
        "28435f6e", CACHE_DROPPED),
    mut("gen_cache_window_64", "the cache keeps only the last 64 positions: no O(n) attention over the history",
        "28435f6e", cache_window(64)),
    mut("gen_rnn_rereads_history", "the RNN keeps no state: it re-reads its whole history every token", "28435f6e",
        RNN_REREADS_HISTORY),

    # ---------------- prefill_decode prefill_against_decode ----------------
    base("base_prefill_decode", "prefill_decode"),
    mut("prefill_token_by_token", "step() reads the prompt one token per call", "prefill_decode",
        PREFILL_TOKEN_BY_TOKEN),
    mut("decode_rereads_history", "decode steps re-run the whole history (no cache read)", "prefill_decode",
        DECODE_REREADS),
    mut("prefill_attention_sequential", "the prefill's attention runs one query position after another",
        "prefill_decode", SEQUENTIAL_ATTENTION),
    mut("prefill_block_sequential", "a block given the prompt runs its positions one at a time (one call, serial work)",
        "prefill_decode", BLOCK_SEQUENTIAL),

    # ---------------- cache_memory cache_bytes_against_n ----------------
    base("base_cache_memory", "cache_memory"),
    mut("mem_kv_repeated_before_cache", "keys/values repeated to every query head before caching", "cache_memory",
        KV_REPEATED_BEFORE_CACHE),
    mut("mem_kv_not_shared", "KV heads not shared: a key/value per query head, only the cache keeps n_kv of them",
        "cache_memory", KV_NOT_SHARED),
    mut("mem_cache_keeps_old_versions", "the cache keeps a copy of every earlier version: not 1 row per token",
        "cache_memory", CACHE_KEEPS_OLD_VERSIONS),

    # ---------------- kv_heads fewer_kv_heads ----------------
    base("base_kv_heads", "kv_heads", extra=NO_MODELS),
    mut("kv_not_shared", "KV heads not shared: every model has a key/value per query head; only the cache is cut",
        "kv_heads", KV_NOT_SHARED, extra=NO_MODELS),
    mut("kv_control_not_silenced", "the control's attention is not silenced (hook returns the real output)",
        "kv_heads", edits=[Edit("kv_heads", "(torch.zeros_like(output[0]), *output[1:])", "(output[0], *output[1:])")],
        extra=NO_MODELS),
    mut("kv_steps_40", "the models train 40 steps (the earlier setting): none uses its attention yet", "kv_heads",
        edits=[Edit("153c8028", "KV_STEPS = pick(full=300, fast=200)", "KV_STEPS = pick(full=40, fast=40)")],
        extra=NO_MODELS),
    mut("kv_attention_self_only", "attention reads only each position's own value (no context) in every model",
        "kv_heads", src_patch("utils.attention", "MultiHeadAttention.forward", [(FUSED, "out = v  # (B, H, T, Dh)")]),
        extra=NO_MODELS),

    # ---------------- cached_beam cached_beam_search ----------------
    base("base_cached_beam", "cached_beam", keep=NEEDS_PROMPT),
    mut("beam_reorder_sorted", "the caches are reordered by the parents sorted, not by each beam's own parent",
        "cached_beam",
        src_patch("utils.decoding", "beam_search", [("state = reorder_state(state, index)",
                                                     "state = reorder_state(state, index.sort().values)")]),
        keep=NEEDS_PROMPT),
    mut("beam_cache_dropped", "cached beam steps start from empty caches (the history is not read)", "cached_beam",
        CACHE_DROPPED, keep=NEEDS_PROMPT),
    mut("beam_timed_control_cached", "the timed 'uncached' search is cached too: the timing has no control",
        "cached_beam", edits=[Edit("cached_beam",
                                   "hyps = beam_search(transformer, prompt[0], BEAM_TOKENS, beam_width=4, cached=cached)",
                                   "hyps = beam_search(transformer, prompt[0], BEAM_TOKENS, beam_width=4, cached=True)")],
        keep=NEEDS_PROMPT),

    # ---------------- ragged_batch ragged_prompts_equal_alone ----------------
    base("base_ragged", "ragged_batch"),
    mut("ragged_rows_alone", "the prompts never share a batch: each runs alone (no padding, mask or offsets needed)",
        "ragged_batch", RAGGED_ROWS_ALONE),
    mut("ragged_positions_not_advanced", "decode positions do not advance: every new token at its row's last position",
        "ragged_batch", src_patch("utils.ragged", "ragged_greedy",
                                  [("positions = positions[:, -1:] + 1", "positions = positions[:, -1:]")])),
    mut("ragged_mask_prefill_only", "the padding mask is applied in the prefill only, not to decode steps",
        "ragged_batch", src_patch("utils.ragged", "ragged_greedy", [(
            "logits = _forward(model, token, positions, real, caches, mask_padding)[:, -1]",
            "logits = _forward(model, token, positions, real, caches, False)[:, -1]")])),
    mut("ragged_positions_from_column0", "position ids always counted from column 0 (padding shifts positions)",
        "ragged_batch", src_patch("utils.ragged", "ragged_greedy", [(
            "positions = position_ids(real) if offset_positions else",
            "positions = position_ids(real) if False else")])),
]
