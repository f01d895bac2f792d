"""Second red team's mutants of 06_positional_encodings.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 17 of 19 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "06_positional_encodings.ipynb"

CHEAP = ["11d723af", "7b1633c0", "7dd5bca7", "519dc9b6", "7e72550a", "52fddf42", "2ee7d3e1", "010cfc97"]
TO_SIM = CHEAP[:2]
TO_SHIFT = CHEAP[:3]
TO_ROPE = CHEAP[:7]
TO_EXTRA = CHEAP
TO_WIDGET = CHEAP + ["1dd16d67", "27dedd15"]

# the widget's rotary panel needs no trained model: stand in untrained ones of the same shapes (skips 15 trainings)
MODELS_STANDIN = Patch("a982eae2", """
from utils.positional import apply_rotary, rotary_cos_sin
set_seed(SEED)
extrapolation_models = {kind: TransformerLM(TransformerConfig(100, context_length=TRAIN_LENGTH, positional=kind, n_layer=2,
                                                              n_head=4, d_model=64)) for kind in POSITIONAL_KINDS}
""")

SIN_EVERYWHERE = """
import utils.positional as _P
def _enc(T, d, offset=0, base=10000.0, device=None):
    positions = torch.arange(offset, offset + T, dtype=torch.float32)
    angles = positions[:, None] * _P._frequencies(d, base)[None, :]
    e = torch.zeros(T, d)
    e[:, 0::2] = torch.sin(angles)
    e[:, 1::2] = torch.sin(angles[:, : d // 2])  # bug: sin in the odd columns too
    return e
_P.sinusoidal_encoding = _enc
print("PATCH sin_everywhere active")
"""

ODD_NEXT_FREQ = """
import utils.positional as _P
def _enc(T, d, offset=0, base=10000.0, device=None):
    positions = torch.arange(offset, offset + T, dtype=torch.float32)[:, None]
    i = torch.arange(0, d, 2, dtype=torch.float32)
    e = torch.zeros(T, d)
    e[:, 0::2] = torch.sin(positions * base ** (-i / d))
    e[:, 1::2] = torch.cos(positions * base ** (-(i + 1) / d))  # bug: column 2i+1 uses exponent (2i+1)/d
    return e
_P.sinusoidal_encoding = _enc
print("PATCH odd_next_frequency active")
"""

NORMALISED_POSITIONS = """
import utils.positional as _P
def _enc(T, d, offset=0, base=10000.0, device=None):
    positions = torch.arange(offset, offset + T, dtype=torch.float32) / (offset + T)  # bug: positions scaled to [0, 1)
    angles = positions[:, None] * _P._frequencies(d, base)[None, :]
    e = torch.zeros(T, d)
    e[:, 0::2] = torch.sin(angles)
    e[:, 1::2] = torch.cos(angles[:, : d // 2])
    return e
_P.sinusoidal_encoding = _enc
print("PATCH normalised_positions active")
"""

MUTANTS = [
    # ---- 7b1633c0 order_invisible_without_positions --------------------------------------------------------
    Mutant("causal_model", "the bidirectional (set) attention: the 'bidirectional' model is causal, which breaks permutation symmetry",
           "7b1633c0", ".", edits=[Edit("11d723af", "positional=positional, causal=False", "positional=positional, causal=True")]),
    Mutant("none_gets_positions", "the missing positions: the 'none' model falls through to adding the sinusoidal encoding",
           "7b1633c0", ".", patches=[Patch("11d723af", """
import utils.transformer as _t
_orig_embed = _t.TransformerLM._embed
def _embed(self, idx, offset):
    x = _orig_embed(self, idx, offset)
    if self.config.positional == "none":
        x = x + _t.sinusoidal_encoding(idx.shape[1], self.config.d_model, offset, device=idx.device)
    return x
_t.TransformerLM._embed = _embed
print("PATCH none_gets_positions active")
""")]),
    Mutant("sinusoidal_not_added", "the positions of the sinusoidal model: its encoding is all zeros (computed but not added)",
           "7b1633c0", ".", patches=[Patch("11d723af", """
import utils.transformer as _t
_t.sinusoidal_encoding = lambda T, d, offset=0, base=10000.0, device=None: torch.zeros(T, d, device=device)
print("PATCH sinusoidal_not_added active")
""")]),
    # ---- 7dd5bca7 sinusoidal_similarity_depends_on_distance -------------------------------------------------
    Mutant("sin_everywhere", "the (sin, cos) pairs: sin in the odd columns too, so PE(i).PE(j) is not a sum of cos(w(i-j))",
           "7dd5bca7", ".", patches=[Patch("7dd5bca7", SIN_EVERYWHERE)], skip=TO_SIM),
    Mutant("one_frequency", "the many speeds: every pair turns at frequency 1 (exponent dropped)",
           "7dd5bca7", ".", patches=[Patch("7dd5bca7", """
import utils.positional as _P
_P._frequencies = lambda d, base, device=None: torch.ones((d + 1) // 2, device=device)
print("PATCH one_frequency active")
""")], skip=TO_SIM),
    Mutant("normalised_positions", "integer positions: positions divided by T (angles all below 1 rad, nothing comes back into phase)",
           "7dd5bca7", ".", patches=[Patch("7dd5bca7", NORMALISED_POSITIONS)], skip=TO_SIM),
    # ---- 519dc9b6 pe_shift_is_a_rotation --------------------------------------------------------------------
    Mutant("odd_next_frequency", "the shared frequency of a (sin, cos) pair: the cos column uses the next exponent",
           "519dc9b6", ".", patches=[Patch("519dc9b6", ODD_NEXT_FREQ)], skip=TO_SHIFT),
    Mutant("shift_normalised_positions", "integer positions: positions divided by T, so a shift of k is not M_k",
           "519dc9b6", ".", patches=[Patch("519dc9b6", NORMALISED_POSITIONS)], skip=TO_SHIFT),
    Mutant("shift_sin_everywhere", "the (sin, cos) pairs: sin in both columns, no rotation maps PE(pos) to PE(pos+k)",
           "519dc9b6", ".", patches=[Patch("519dc9b6", SIN_EVERYWHERE)], skip=TO_SHIFT),
    # ---- 010cfc97 rope_score_depends_on_offset --------------------------------------------------------------
    Mutant("keys_not_rotated", "the rotation of the keys: only q is rotated",
           "010cfc97", ".", edits=[Edit("010cfc97", "k_rot = apply_rotary(k_vec.expand(T_rope, d_head), cos, sin)",
                                        "k_rot = k_vec.expand(T_rope, d_head)")], skip=TO_ROPE),
    Mutant("identity_rotation", "the rotation: every angle is 0 (cos 1, sin 0)",
           "010cfc97", ".", patches=[Patch("010cfc97", """
import utils.positional as _P
_P.rotary_cos_sin = lambda T, d_head, base=10000.0, offset=0, device=None: (torch.ones(T, d_head // 2), torch.zeros(T, d_head // 2))
print("PATCH identity_rotation active")
""")], skip=TO_ROPE),
    Mutant("additive_not_rotary", "the rotation: apply_rotary adds the sinusoidal encoding (absolute) instead of rotating",
           "010cfc97", ".", patches=[Patch("010cfc97", """
import utils.positional as _P
_P.apply_rotary = lambda x, cos, sin: x + _P.sinusoidal_encoding(x.shape[-2], x.shape[-1])
print("PATCH additive_not_rotary active")
""")], skip=TO_ROPE),
    # ---- 27dedd15 extrapolation_train_short_eval_long -------------------------------------------------------
    Mutant("eval_cropped_to_train_length", "evaluating long: every evaluation window is cropped to the training length",
           "27dedd15", ".", patches=[Patch("1dd16d67", """
import utils.extrapolation as _x
_orig_lal = _x.loss_at_length
def _lal(model, tokens, length, count=32, seed=0):
    return _orig_lal(model, tokens, min(length, TRAIN_LENGTH), count, seed)
_x.loss_at_length = _lal
print("PATCH eval_cropped_to_train_length active")
""")], skip=TO_EXTRA),
    Mutant("rotary_is_identity", "the rotary encoding: the model's rotary angles are all 0 (rotary = no positions)",
           "27dedd15", ".", patches=[Patch("1dd16d67", """
import utils.transformer as _t
_t.rotary_cos_sin = lambda T, d_head, base=10000.0, offset=0, device=None: (torch.ones(T, d_head // 2, device=device), torch.zeros(T, d_head // 2, device=device))
print("PATCH rotary_is_identity active")
""")], skip=TO_EXTRA),
    Mutant("relative_unclipped", "the clipping: the relative table covers offsets up to 4x the training length (unseen offsets keep bias 0)",
           "27dedd15", ".", patches=[Patch("1dd16d67", """
import utils.transformer as _t, utils.positional as _P
_t.RelativePositionBias = lambda n_heads, max_distance: _P.RelativePositionBias(n_heads, 4 * max_distance)
print("PATCH relative_unclipped active")
""")], skip=TO_EXTRA),
    Mutant("relative_bias_frozen", "the relative mechanism: the bias table is never trained (stays 0), so 'relative' is a model without positions",
           "27dedd15", ".", patches=[Patch("1dd16d67", """
import utils.transformer as _t, utils.positional as _P
def _frozen(n_heads, max_distance):
    module = _P.RelativePositionBias(n_heads, max_distance)
    module.bias.weight.requires_grad_(False)
    return module
_t.RelativePositionBias = _frozen
print("PATCH relative_bias_frozen active")
""")], skip=TO_EXTRA),
    # ---- a982eae2 widget_rotary_offset_only -----------------------------------------------------------------
    Mutant("panel_keys_unrotated", "the rotation of the key in the panel: k is not rotated",
           "a982eae2", ".", patches=[MODELS_STANDIN, Patch("a982eae2", """
import math as _math, numpy as _np, utils.widgets.positional as _W
def _ros(q, k, n_offsets, query_positions, base=10000.0, cos_sin=None):
    d = q.shape[-1]; length = max(query_positions) + 1
    cos, sin = rotary_cos_sin(length, d, base)
    q_at = apply_rotary(q.expand(length, d), cos, sin)
    k_at = k.expand(length, d)  # bug: the key is not rotated
    rows = _np.full((len(query_positions), n_offsets), _np.nan)
    for row, i in enumerate(query_positions):
        keys = [i - o for o in range(n_offsets) if i - o >= 0]
        rows[row, : len(keys)] = (k_at[keys] @ q_at[i] / _math.sqrt(d)).numpy()
    return rows
_W.rotary_offset_scores = _ros
print("PATCH panel_keys_unrotated active")
""")], skip=TO_WIDGET),
    Mutant("panel_key_at_offset", "the relative placement: k is rotated to position o (the offset) instead of i - o",
           "a982eae2", ".", patches=[MODELS_STANDIN, Patch("a982eae2", """
import math as _math, numpy as _np, utils.widgets.positional as _W
def _ros(q, k, n_offsets, query_positions, base=10000.0, cos_sin=None):
    d = q.shape[-1]; length = max(query_positions) + 1
    cos, sin = rotary_cos_sin(length, d, base)
    q_at = apply_rotary(q.expand(length, d), cos, sin)
    k_at = apply_rotary(k.expand(length, d), cos, sin)
    rows = _np.full((len(query_positions), n_offsets), _np.nan)
    for row, i in enumerate(query_positions):
        keys = [o for o in range(n_offsets) if i - o >= 0]  # bug: the key's position is the offset
        rows[row, : len(keys)] = (k_at[keys] @ q_at[i] / _math.sqrt(d)).numpy()
    return rows
_W.rotary_offset_scores = _ros
print("PATCH panel_key_at_offset active")
""")], skip=TO_WIDGET),
    Mutant("panel_one_curve_copied", "the per-position measurement: the panel computes the curve at i = 63 with an absolute (additive) "
           "encoding and copies it to every query position",
           "a982eae2", ".", patches=[MODELS_STANDIN, Patch("a982eae2", """
import math as _math, numpy as _np, utils.widgets.positional as _W, utils.positional as _P
def _ros(q, k, n_offsets, query_positions, base=10000.0, cos_sin=None):
    d = q.shape[-1]; i = query_positions[0]
    pe = _P.sinusoidal_encoding(i + 1, d, base=base)
    q_at, k_at = q + pe, k + pe  # bug: absolute positions added, not rotated
    row = _np.full(n_offsets, _np.nan)
    keys = [i - o for o in range(n_offsets) if i - o >= 0]
    row[: len(keys)] = (k_at[keys] @ q_at[i] / _math.sqrt(d)).numpy()
    return _np.stack([row] * len(query_positions))  # bug: one curve, copied
_W.rotary_offset_scores = _ros
print("PATCH panel_one_curve_copied active")
""")], skip=TO_WIDGET),
]


import dataclasses as _dataclasses  # noqa: E402

_KILLED = ['additive_not_rotary', 'causal_model', 'eval_cropped_to_train_length', 'identity_rotation', 'keys_not_rotated', 'none_gets_positions', 'normalised_positions', 'odd_next_frequency', 'one_frequency', 'panel_key_at_offset', 'panel_keys_unrotated', 'panel_one_curve_copied', 'rotary_is_identity', 'shift_normalised_positions', 'shift_sin_everywhere', 'sin_everywhere', 'sinusoidal_not_added']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
