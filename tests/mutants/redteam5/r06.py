"""The third red team's mutants of notebook 06's shows (2026-12-06), written from the notebook alone by a helper that had
not seen tests/mutants/. In its run 13 of 18 were killed; the five survivors (rt5_no_sqrt_d_scale, rt5_zero_shift,
rt5_relative_bias_dropped_long, rt5_widget_base_ignored, rt5_widget_one_position) were mended since: the shows now
measure the token scale in real models, check that M_k is no identity, capture the bias the forward pass adds at 128,
compare the rotary panel with apply_rotary at every base and check its query positions distinct. All 18 are killed at
their show. Adopted by tests/mutants/m06_positional_encodings.py (slow tier)."""
from tests.mutation.redteam_help import src_patch
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "06_positional_encodings.ipynb"

_TO_SIN = ["11d723af", "7b1633c0"]
_TO_SHIFT = _TO_SIN + ["7dd5bca7"]
_TO_ROPE = _TO_SHIFT + ["519dc9b6", "7e72550a", "52fddf42", "2ee7d3e1"]
_TO_EXTRA = _TO_ROPE + ["010cfc97"]

_WIDGET_BASE_IGNORED = src_patch("utils.widgets.position_scores", "rotary_offset_scores",
                                 [("cos, sin = cos_sin(length, d, base)", "cos, sin = cos_sin(length, d)")]) + """
import utils.widgets.positional as _wp
_wp.rotary_offset_scores = _mnewobj
"""
_WIDGET_ONE_POSITION = """
import utils.widgets.positional as _wp
_wp.ROTARY_QUERY_POSITIONS = (63, 63, 63, 63)
_wp.positional_scores_data.__defaults__ = (64, None, 0, (63, 63, 63, 63))
print('MUTANT ACTIVE: one query position')
"""

MUTANTS = [
    # ---- 7b1633c0: order invisible without positions
    Mutant(name="rt5_none_gets_positions", removes="the absence of positions: 'none' adds the sinusoidal encoding too",
           target="7b1633c0", message=r"without positions: the outputs are the same rows, permuted",
           patches=[Patch(before="11d723af", code=src_patch("utils.transformer", "TransformerLM._embed", [(
               'elif self.config.positional == "sinusoidal":', 'elif self.config.positional in ("sinusoidal", "none"):')]))]),
    Mutant(name="rt5_sinusoidal_not_added", removes="the positions: the sinusoidal encoding is multiplied by 0",
           target="7b1633c0", message=r"with positions the model can tell the two phrases apart",
           patches=[Patch(before="11d723af", code=src_patch("utils.transformer", "TransformerLM._embed", [(
               "x = x + sinusoidal_encoding(", "x = x + 0 * sinusoidal_encoding(")]))]),
    Mutant(name="rt5_causal_none", removes="the set symmetry: the 'bidirectional' models get the causal mask",
           target="7b1633c0", message=r"without positions: the outputs are the same rows, permuted",
           edits=[Edit(cell="11d723af", old="positional=positional, causal=False", new="positional=positional, causal=True")]),
    # ---- 7dd5bca7: sinusoidal similarity depends on distance
    Mutant(name="rt5_sin_only_encoding", removes="the sin/cos pairing: odd columns hold sin as well",
           target="7dd5bca7", message=r"the similarity is a function of i - j",
           patches=[Patch(before="7dd5bca7", code=src_patch("utils.positional", "sinusoidal_encoding", [(
               "encoding[:, 1::2] = torch.cos(angles[:, : d // 2])", "encoding[:, 1::2] = torch.sin(angles[:, : d // 2])")]))],
           skip=_TO_SIN),
    Mutant(name="rt5_increasing_frequencies", removes="the slow clock hands: frequencies base^(+2i/d) instead of base^(-2i/d)",
           target="7dd5bca7", message=r"the similarity is a function of i - j",
           patches=[Patch(before="7dd5bca7", code=src_patch("utils.positional", "_frequencies", [(
               "base ** (-torch.arange(", "base ** (torch.arange(")]))],
           skip=_TO_SIN),
    Mutant(name="rt5_no_sqrt_d_scale", removes="the sqrt(d_model) scaling of the token embeddings in the utils Transformer "
           "(the prose: 'lifts the tokens from 0.02 to 0.16 ... the cell below measures both')",
           target="7dd5bca7", message=r"should scale its token embeddings",
           patches=[Patch(before="e4e91598", code=src_patch("utils.transformer", "TransformerLM._embed", [(
               "x = x * math.sqrt(self.config.d_model)", "pass")]))],
           skip=_TO_SIN),
    # ---- 519dc9b6: PE shift is a rotation
    Mutant(name="rt5_cos_half_frequency", removes="one frequency per pair: the cos column turns at half the sin's speed",
           target="519dc9b6", message=r"the least-squares map is the block rotation",
           patches=[Patch(before="519dc9b6", code=src_patch("utils.positional", "sinusoidal_encoding", [(
               "torch.cos(angles[:, : d // 2])", "torch.cos(0.5 * angles[:, : d // 2])")]))],
           skip=_TO_SHIFT),
    Mutant(name="rt5_zero_shift", removes="the shift: k = 0, so the fitted map and the 'rotation' are both the identity",
           target="519dc9b6", message=r"M_k is no identity",
           edits=[Edit(cell="519dc9b6", old="d_small, k_shift, T_fit = 16, 5, 10000", new="d_small, k_shift, T_fit = 16, 0, 10000")],
           skip=_TO_SHIFT),
    Mutant(name="rt5_encoding_positions_squared", removes="angles linear in the position (angle = pos^2 / 64 * w)",
           target="519dc9b6", message=r"the least-squares map is the block rotation",
           patches=[Patch(before="519dc9b6", code=src_patch("utils.positional", "sinusoidal_encoding", [(
               "angles = positions[:, None] *", "angles = (positions[:, None] ** 2 / 64) *")]))],
           skip=_TO_SHIFT),
    # ---- 010cfc97: RoPE score depends on offset only
    Mutant(name="rt5_identity_rotation", removes="the rotation (cos = 1, sin = 0)", target="010cfc97", message=r"different offsets should give different scores",
           patches=[Patch(before="010cfc97", code=src_patch("utils.positional", "rotary_cos_sin", [(
               "return torch.cos(angles), torch.sin(angles)", "return torch.ones_like(angles), torch.zeros_like(angles)")]))],
           skip=_TO_ROPE),
    Mutant(name="rt5_keys_not_rotated", removes="the rotation of the keys", target="010cfc97", message=r"the score depends on the offset only",
           edits=[Edit(cell="010cfc97", old="k_rot = apply_rotary(k_vec.expand(T_rope, d_head), cos, sin)",
                       new="k_rot = k_vec.expand(T_rope, d_head)")],
           skip=_TO_ROPE),
    Mutant(name="rt5_rotary_angles_quadratic", removes="angles linear in the position (rotary angle = pos^2 / 40 * w)",
           target="010cfc97", message=r"the score depends on the offset only",
           patches=[Patch(before="010cfc97", code=src_patch("utils.positional", "rotary_cos_sin", [(
               "angles = positions[:, None] *", "angles = (positions[:, None] ** 2 / 40) *")]))],
           skip=_TO_ROPE),
    # ---- 27dedd15: train short, evaluate long
    Mutant(name="rt5_train_long", removes="the extrapolation: every model but 'learned' trains on windows of 128 "
           "(it has seen every position it is evaluated on)", target="27dedd15", message=r"the (sinusoidal|rotary) model's loss should rise more",
           edits=[Edit(cell="1dd16d67", old="batch_sampler(train_tokens, BATCH_SIZE, TRAIN_LENGTH, generator=generator)",
                       new="batch_sampler(train_tokens, BATCH_SIZE, TRAIN_LENGTH if kind == 'learned' else EVAL_LENGTHS[-1], generator=generator)")],
           skip=_TO_EXTRA),
    Mutant(name="rt5_relative_bias_dropped_long", removes="the clipped relative bias at long lengths: beyond the "
           "training length the model runs without its bias (nothing is clipped at evaluation)",
           target="27dedd15", message=r"should add its bias to the scores at length",
           patches=[Patch(before="1dd16d67", code=src_patch("utils.transformer", "TransformerLM._position_kwargs", [(
               "if self.relative_bias is not None:",
               "if self.relative_bias is not None and offset + T <= self.config.context_length:")]))],
           skip=_TO_EXTRA),
    Mutant(name="rt5_eval_first_positions", removes="the long positions in the evaluation: the loss of a long window "
           "counts only its first 32 positions", target="27dedd15", message=r"the (sinusoidal|rotary) model's loss should rise more",
           patches=[Patch(before="1dd16d67", code=src_patch("utils.extrapolation", "loss_at_length", [(
               "total, n = summed_nll(model(x.to(model.device)), y.to(model.device))",
               "total, n = summed_nll(model(x.to(model.device))[:, :32], y.to(model.device)[:, :32])")]))],
           skip=_TO_EXTRA),
    # ---- a982eae2: the widget's rotary curves are offset only
    Mutant(name="rt5_widget_base_ignored", removes="the base slider: the rotary panel ignores the base (always 10000)",
           target="a982eae2", message=r"the rotary panel should draw",
           patches=[Patch(before="a982eae2", code=_WIDGET_BASE_IGNORED)],
           skip=_TO_SHIFT + ["519dc9b6", "7e72550a", "52fddf42", "2ee7d3e1", "27dedd15"]),
    Mutant(name="rt5_widget_one_position", removes="different absolute query positions: all four curves are the query "
           "at 63, so 'they coincide' compares a curve with itself", target="a982eae2", message=r"distinct query positions",
           patches=[Patch(before="a982eae2", code=_WIDGET_ONE_POSITION)],
           skip=_TO_SHIFT + ["519dc9b6", "7e72550a", "52fddf42", "2ee7d3e1", "27dedd15"]),
    Mutant(name="rt5_widget_key_at_query", removes="the offset: the widget rotates the key at the query's position",
           target="a982eae2", message=r"should coincide|should change with the offset|the rotary panel should draw",
           patches=[Patch(before="a982eae2", code=src_patch("utils.widgets.position_scores", "rotary_offset_scores", [(
               "(k_at[keys] @ q_at[i]", "(k_at[[i] * len(keys)] @ q_at[i]")]) + """
import utils.widgets.positional as _wp
_wp.rotary_offset_scores = _mnewobj
""")],
           skip=_TO_SHIFT + ["519dc9b6", "7e72550a", "52fddf42", "2ee7d3e1", "27dedd15"]),
]
