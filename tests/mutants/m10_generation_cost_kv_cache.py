"""Mutants of notebook 10: each removes the cause of one show."""

from tests.mutation.spec import Mutant, Patch

NOTEBOOK = "10_generation_cost_kv_cache.ipynb"

LAYER, GENERATE, TRAIN, PER_TOKEN = "08622f53", "5cc90a8f", "c3a1be2e", "28435f6e"
PREFILL, MEMORY, KV_HEADS, BEAM = "prefill_decode", "cache_memory", "kv_heads", "cached_beam"
RAGGED = "ragged_batch"
POSITIONS, DEPTH = "positions_read", "sequential_depth"
TIMING = [TRAIN, PER_TOKEN, PREFILL, MEMORY, KV_HEADS, BEAM]


def _others(*keep: str) -> list[str]:
    """The timing and training cells except `keep` (the target needs none of the others)."""
    return [cell for cell in TIMING if cell not in keep]


FORGETFUL_CACHE = """
import utils.attention as _attention


def _forgetful(append):
    def wrapped(self, k, v):
        append(self, k, v)  # stored, but each step attends to its own key and value only
        return k, v
    return wrapped


_attention.KVCache.append = _forgetful(_attention.KVCache.append)
_attention.PreallocatedKVCache.append = _forgetful(_attention.PreallocatedKVCache.append)
"""

MUTANTS = [
    Mutant(name="cache_forgets_the_past", removes="the cached keys and values (each step sees only itself)",
           target=LAYER, message=r"differs from the full pass", patches=[Patch(before=LAYER, code=FORGETFUL_CACHE)],
           skip=[GENERATE, *TIMING, "load_models10"]),
    Mutant(name="positions_restart", removes="the position offset of the cached tokens (rotary angles restart at 0)",
           target=GENERATE, message=r"the cached (tokens|logits) differ",
           patches=[Patch(before=GENERATE, code="""
from utils.transformer import TransformerLM as _LM
_kwargs = _LM._position_kwargs
_LM._position_kwargs = lambda self, T, offset, device: _kwargs(self, T, 0, device)
""")], skip=_others()),
    Mutant(name="rnn_reads_a_fixed_window", removes="the RNN's sequential pass over all n tokens", target=TRAIN,
           message=r"RNN's training time should grow linearly",
           patches=[Patch(before=TRAIN, code="""
_rnn_loss = rnn.loss
rnn.loss = lambda x, y: _rnn_loss(x[:, :64], y[:, :64])
""")], skip=_others(TRAIN)),
    Mutant(name="cache_switched_off", removes="the KV cache (start_state gives no cache)", target=PER_TOKEN,
           message=r"the cache should flatten the curve|under half the uncached one",
           patches=[Patch(before=PER_TOKEN, code="""
from utils.transformer import TransformerLM as _LM
_LM.start_state = lambda self, batch_size=1, capacity=None: None
""")], skip=_others(PER_TOKEN)),
    Mutant(name="prefill_token_by_token", removes="the parallel prefill (the prompt is fed one token per call)",
           target=PREFILL, message=r"several times faster than token by token|prefill should be one call",
           patches=[Patch(before=PREFILL, code="""
from utils.transformer import TransformerLM as _LM
_step = _LM.step


def _sequential(self, new_idx, state):
    for t in range(new_idx.shape[1]):
        logits, state = _step(self, new_idx[:, t : t + 1], state)
    return logits, state


_LM.step = _sequential
""")], skip=_others(PREFILL)),
    Mutant(name="cache_does_not_grow", removes="a cache that grows by one row per token (a fixed buffer of 1024 instead)",
           target=MEMORY, message=r"should hold exactly",
           patches=[Patch(before=MEMORY, code="""
from utils.transformer import TransformerLM as _LM
_start = _LM.start_state
_LM.start_state = lambda self, batch_size=1, capacity=None: _start(self, batch_size, capacity=1024)
""")], skip=_others(MEMORY)),
    Mutant(name="kv_heads_ignored", removes="the fewer key/value heads (every model keeps 4)", target=KV_HEADS,
           message=r"shrink the cache 4 times",
           patches=[Patch(before=KV_HEADS, code="""
import utils.transformer as _transformer
_post_init = _transformer.TransformerConfig.__post_init__


def _ignore_kv(self):
    self.n_kv_head = None
    _post_init(self)


_transformer.TransformerConfig.__post_init__ = _ignore_kv
""")], skip=_others(KV_HEADS)),
    Mutant(name="caches_not_reordered", removes="reordering the caches by parent beam (beams get the wrong parent's cache)", target=BEAM,
           message=r"same hypotheses|same log-probabilities",
           patches=[Patch(before=BEAM, code="""
import utils.decoding as _decoding
_reorder = _decoding.reorder_state
_decoding.reorder_state = lambda state, index: _reorder(state, index.flip(0))  # each beam gets another beam's cache
""")], skip=_others(BEAM)),
    Mutant(name="ragged_positions_from_column_0", removes="the position-id offset (positions counted from the padded row's first column)",
           target=RAGGED, message=r"ragged batch's logits should equal|writes alone",
           patches=[Patch(before=RAGGED, code="""
import torch as _torch
import utils.ragged as _ragged
_ragged.position_ids = lambda real: _torch.arange(real.shape[1]).expand_as(real)
""")], skip=TIMING),
    Mutant(name="ragged_padding_not_masked", removes="the padding mask (real tokens attend to the padding)",
           target=RAGGED, message=r"ragged batch's logits should equal|writes alone",
           patches=[Patch(before=RAGGED, code="""
import torch as _torch
import utils.ragged as _ragged
_ragged.padding_bias = lambda real_keys, n_queries: _torch.zeros(real_keys.shape[0], 1, n_queries, real_keys.shape[1])
""")], skip=TIMING),
    Mutant(name="use_kv_cache_ignored", removes="the switch: every call uses the cache whatever use_kv_cache says",
           target=POSITIONS, message=r"re-read the whole history",
           patches=[Patch(before=POSITIONS, code="""
from utils.transformer import TransformerLM as _LM
_LM.use_kv_cache = property(lambda self: True, lambda self, value: None)
""")], skip=TIMING),
    Mutant(name="rnn_step_without_state", removes="the recurrence: each written-out step starts from a zero state",
           target=DEPTH, message=r"written-out recurrence and the RNN's kernel|grow by at least one step",
           patches=[Patch(before=DEPTH, code="""
import torch as _torch
_cell_step = rnn.cell.step
rnn.cell.step = lambda projected_x, h: _cell_step(projected_x, _torch.zeros_like(h))
""")], skip=[GENERATE, POSITIONS, *TIMING]),
    Mutant(name="kv_models_barely_trained", removes="the training that makes the models use attention (40 steps)",
           target=KV_HEADS, message=r"should use its attention",
           patches=[Patch(before=KV_HEADS, code="KV_STEPS = 40\n")], skip=_others(KV_HEADS)),
]

# The second red team's four survivors (stop 38), re-created here and killed after the shows were mended (slow tier).
from tests.mutants.redteam2.r10 import NEVER_USED, QUERY_HEAD_CACHE, TOKEN_BY_TOKEN  # noqa: E402

MUTANTS += [
    Mutant(name="generation_cache_never_used", removes="the cache itself: use_kv_cache ignored, every step re-runs the history",
           target=GENERATE, message=r"the cache is not used", patches=[Patch(before=GENERATE, code=NEVER_USED)],
           skip=_others()),
    Mutant(name="training_transformer_token_by_token",
           removes="parallel positions: the Transformer's forward runs one position at a time through its cache",
           target=TRAIN, message=r"positions in one call of each block",
           patches=[Patch(before=TRAIN, code=TOKEN_BY_TOKEN)], skip=[LAYER, GENERATE, POSITIONS, DEPTH, *_others(TRAIN)]),
    Mutant(name="memory_stores_query_heads",
           removes="fewer KV heads in the cache: keys and values repeated to every query head before they are cached",
           target=MEMORY, message=r"one key and one value per KV head",
           patches=[Patch(before=MEMORY, code=QUERY_HEAD_CACHE)], skip=[LAYER, GENERATE, POSITIONS, DEPTH, *_others(MEMORY)]),
    Mutant(name="beam_cache_never_used", removes="the cache: the 'cached' beam search re-runs every beam's history",
           target=BEAM, message=r"read the prompt once, then one new position", patches=[Patch(before=BEAM, code=NEVER_USED)],
           skip=[POSITIONS, DEPTH, *_others(BEAM)]),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("10")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam8 import adopted as adopted8  # noqa: E402

MUTANTS += adopted8("10")  # the sixth red team's mutants (slow tier)

from tests.mutants.redteam10 import adopted as adopted10  # noqa: E402

MUTANTS += adopted10("10")  # the eighth red team's mutants (slow tier)
