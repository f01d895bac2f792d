"""Independent red team K for notebook 06 (positional encodings)."""
from tests.mutation.redteam_help import src_patch
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "06_positional_encodings.ipynb"

PARAMS, IMPORTS = "125c9b14", "e4e91598"
C_PERM, S_ORDER = "11d723af", "7b1633c0"
S_SIM, S_SHIFT, C_BANDS, C_LEARNED, C_REL, S_ROPE = "7dd5bca7", "519dc9b6", "7e72550a", "52fddf42", "2ee7d3e1", "010cfc97"
C_TRAIN, S_EXTRA, S_WIDGET = "1dd16d67", "27dedd15", "a982eae2"

SKIP_SIM = [C_PERM, S_ORDER]
SKIP_SHIFT = SKIP_SIM + [S_SIM]
SKIP_ROPE = SKIP_SHIFT + [S_SHIFT, C_BANDS, C_LEARNED, C_REL]
SKIP_EXTRA = SKIP_ROPE + [S_ROPE]
SKIP_WIDGET = SKIP_ROPE + [C_TRAIN, S_EXTRA]

REBIND_SIN = "\nimport utils.transformer as _ut, utils.positional as _up\n_ut.sinusoidal_encoding = _up.sinusoidal_encoding\n"
REBIND_WIDGET = ("\nimport utils.widgets.positional as _wp, utils.widgets.position_scores as _ws\n"
                 "_wp.rotary_offset_scores = _ws.rotary_offset_scores\n")
NOOP = "pass  # baseline: no change\n"
# the widget reads only d_head of the rotary model: fresh (untrained) models replace the expensive section 6
FRESH_MODELS = ("extrapolation_models = {k: TransformerLM(TransformerConfig(64, context_length=TRAIN_LENGTH, positional=k, "
                "n_layer=2, n_head=4, d_model=64)) for k in POSITIONAL_KINDS}\n")

SIN_ADD = "x = x + sinusoidal_encoding(T, self.config.d_model, offset, device=idx.device).to(x.dtype)"
COS_LINE = "encoding[:, 1::2] = torch.cos(angles[:, : d // 2])"
EX1_BUG = ("encoding[:, 1::2] = torch.cos(positions[:, None] * base ** "
           "(-torch.arange(1, d, 2, device=device, dtype=torch.float32) / d))")

MUTANTS = [
    # ---------------- show 1: order_invisible_without_positions ----------------
    Mutant("base_order_invisible_without_positions", "nothing (baseline)", S_ORDER, "never",
           patches=[Patch(S_ORDER, NOOP)]),
    Mutant("k_order_sin_not_added", "the sinusoidal model no longer adds the encoding (scale kept)", S_ORDER,
           "tell the two phrases apart",
           patches=[Patch(C_PERM, src_patch("utils.transformer", "TransformerLM._embed", [(SIN_ADD, "x = x")]))]),
    Mutant("k_order_constant_encoding", "the encoding is the same vector at every position (positions all 0)", S_ORDER,
           "tell the two phrases apart",
           patches=[Patch(C_PERM, src_patch("utils.positional", "sinusoidal_encoding", [(
               "positions = torch.arange(offset, offset + T, device=device, dtype=torch.float32)",
               "positions = torch.zeros(T, device=device)")]) + REBIND_SIN)]),
    Mutant("k_order_control_has_positions", "the control 'none' is given positions too (control = effect)", S_ORDER,
           "without positions",
           edits=[Edit(C_PERM, 'for kind in ("none", "sinusoidal")}', 'for kind in ("none", "sinusoidal")}\n'
                       'outputs["none"] = outputs["sinusoidal"]')]),
    Mutant("k_order_causal_mask", "the model is causal, so it is not permutation-equivariant", S_ORDER,
           "without positions",
           edits=[Edit(C_PERM, "positional=positional, causal=False)", "positional=positional, causal=True)")]),

    # ---------------- show 2: sinusoidal_similarity_depends_on_distance ----------------
    Mutant("base_sinusoidal_similarity_depends_on_distance", "nothing (baseline)", S_SIM, "never",
           patches=[Patch(S_SIM, NOOP)], skip=SKIP_SIM),
    Mutant("k_sim_cos_slower_hand", "cos column 2i+1 turns at 10000^-(2i+1)/d (exercise 1's bug)", S_SIM,
           "function of i - j",
           patches=[Patch(S_SIM, src_patch("utils.positional", "sinusoidal_encoding", [(COS_LINE, EX1_BUG)]))],
           skip=SKIP_SIM),
    Mutant("k_sim_sin_twice", "the odd columns hold sin instead of cos (no (sin, cos) pairs)", S_SIM,
           "function of i - j",
           patches=[Patch(S_SIM, src_patch("utils.positional", "sinusoidal_encoding", [(
               COS_LINE, "encoding[:, 1::2] = torch.sin(angles[:, : d // 2])")]))], skip=SKIP_SIM),
    Mutant("k_sim_tokens_not_scaled", "the sinusoidal model no longer scales its tokens by sqrt(d)", S_SIM,
           "scale its token embeddings",
           patches=[Patch(S_SIM, src_patch("utils.transformer", "TransformerLM._embed", [(
               "x = x * math.sqrt(self.config.d_model)", "x = x")]))], skip=SKIP_SIM),
    Mutant("k_sim_control_scaled_too", "every model scales its tokens (the control is made like the effect)", S_SIM,
           "unscaled",
           patches=[Patch(S_SIM, src_patch("utils.transformer", "TransformerLM._embed", [(
               "x = self.token_embedding(idx)  # (B, T, D)",
               "x = self.token_embedding(idx) * (1.0 if self.config.positional == 'sinusoidal' "
               "else math.sqrt(self.config.d_model))  # (B, T, D)")]))], skip=SKIP_SIM),

    # ---------------- show 3: pe_shift_is_a_rotation ----------------
    Mutant("base_pe_shift_is_a_rotation", "nothing (baseline)", S_SHIFT, "never",
           patches=[Patch(S_SHIFT, NOOP)], skip=SKIP_SHIFT),
    Mutant("k_shift_cos_slower_hand", "cos column 2i+1 at its own slower frequency: no pairs, no rotation", S_SHIFT,
           "block rotation|one matrix|identity",
           patches=[Patch(S_SHIFT, src_patch("utils.positional", "sinusoidal_encoding", [(COS_LINE, EX1_BUG)]))],
           skip=SKIP_SHIFT),
    Mutant("k_shift_zero", "a shift by k = 0: the fitted map and the rotation are both the identity", S_SHIFT,
           "no identity",
           edits=[Edit(S_SHIFT, "d_small, k_shift, T_fit = 16, 5, 10000", "d_small, k_shift, T_fit = 16, 0, 10000")],
           skip=SKIP_SHIFT),
    Mutant("k_shift_matrix_off_by_one", "the block rotation is by k - 1, not by the shift k", S_SHIFT,
           "block rotation",
           patches=[Patch(S_SHIFT, src_patch("utils.positional", "sinusoidal_shift_matrix", [(
               "angles = k * _frequencies(d, base)", "angles = (k - 1) * _frequencies(d, base)")],
               rebind="sinusoidal_shift_matrix"))], skip=SKIP_SHIFT),
    Mutant("k_shift_matrix_wrong_direction", "the block rotation turns by -k (sin signs swapped)", S_SHIFT,
           "block rotation",
           patches=[Patch(S_SHIFT, src_patch("utils.positional", "sinusoidal_shift_matrix", [
               ("matrix[rows, rows], matrix[rows, rows + 1] = cos, sin", "matrix[rows, rows], matrix[rows, rows + 1] = cos, -sin"),
               ("matrix[rows + 1, rows], matrix[rows + 1, rows + 1] = -sin, cos",
                "matrix[rows + 1, rows], matrix[rows + 1, rows + 1] = sin, cos")], rebind="sinusoidal_shift_matrix"))],
           skip=SKIP_SHIFT),

    # ---------------- show 4: rope_score_depends_on_offset ----------------
    Mutant("base_rope_score_depends_on_offset", "nothing (baseline)", S_ROPE, "never",
           patches=[Patch(S_ROPE, NOOP)], skip=SKIP_ROPE),
    Mutant("k_rope_identity", "the rotation is the identity (cos 1, sin 0): no position", S_ROPE,
           "carry the position",
           edits=[Edit(S_ROPE, "cos, sin = rotary_cos_sin(T_rope, d_head)",
                       "cos, sin = torch.ones(T_rope, d_head // 2), torch.zeros(T_rope, d_head // 2)")], skip=SKIP_ROPE),
    Mutant("k_rope_key_other_base", "keys are rotated at other frequencies than queries (base 100)", S_ROPE,
           "offset only",
           edits=[Edit(S_ROPE, "k_rot = apply_rotary(k_vec.expand(T_rope, d_head), cos, sin)",
                       "k_rot = apply_rotary(k_vec.expand(T_rope, d_head), *rotary_cos_sin(T_rope, d_head, base=100.0))")],
           skip=SKIP_ROPE),
    Mutant("k_rope_sign_dropped", "apply_rotary drops a minus sign: [[c, s], [s, c]] is no rotation", S_ROPE,
           "offset only",
           patches=[Patch(S_ROPE, src_patch("utils.positional", "apply_rotary", [(
               "first * cos - second * sin", "first * cos + second * sin")]))], skip=SKIP_ROPE),
    Mutant("k_rope_quadratic_angles", "angles grow with pos^2: not a rotation by the offset", S_ROPE,
           "offset only",
           patches=[Patch(S_ROPE, src_patch("utils.positional", "rotary_cos_sin", [(
               "angles = positions[:, None] * _frequencies", "angles = positions[:, None] ** 2 / 64 * _frequencies")]))],
           skip=SKIP_ROPE),

    # ---------------- show 5: extrapolation_train_short_eval_long ----------------
    Mutant("base_extrapolation_train_short_eval_long", "nothing (baseline)", S_EXTRA, "never",
           patches=[Patch(S_EXTRA, NOOP)], skip=SKIP_EXTRA),
    Mutant("k_extra_untrained", "the models barely train (15 steps instead of 150)", S_EXTRA,
           "letter frequencies",
           edits=[Edit(PARAMS, "EXTRAPOLATION_STEPS = pick(full=300, fast=150)", "EXTRAPOLATION_STEPS = pick(full=30, fast=15)")],
           skip=SKIP_EXTRA),
    Mutant("k_extra_bias_frozen", "the relative bias table is frozen at 0 (never trained)", S_EXTRA,
           "should be trained",
           edits=[Edit(C_TRAIN, "model = (ScaledTokensLM if name == SCALED else TransformerLM)(config)",
                       "model = (ScaledTokensLM if name == SCALED else TransformerLM)(config)\n"
                       "        if model.relative_bias is not None:\n"
                       "            model.relative_bias.bias.weight.requires_grad_(False)")], skip=SKIP_EXTRA),
    Mutant("k_extra_bias_unclipped", "offsets past the table get bias 0 instead of the last row (not clipped)", S_EXTRA,
           "clipped",
           patches=[Patch(C_TRAIN, src_patch("utils.positional", "RelativePositionBias.forward", [(
               "distance = (query_pos[:, None] - key_pos[None, :]).clamp(-self.max_distance + 1, self.max_distance - 1)\n"
               "    return self.bias(distance + self.max_distance - 1).permute(2, 0, 1)",
               "raw = query_pos[:, None] - key_pos[None, :]\n"
               "    distance = raw.clamp(-self.max_distance + 1, self.max_distance - 1)\n"
               "    inside = (raw.abs() < self.max_distance).to(self.bias.weight.dtype)[..., None]\n"
               "    return (self.bias(distance + self.max_distance - 1) * inside).permute(2, 0, 1)")]))],
           skip=SKIP_EXTRA),
    Mutant("k_extra_bias_dropped_long", "the relative bias is left out past the training length", S_EXTRA,
           "add its bias",
           patches=[Patch(C_TRAIN, src_patch("utils.transformer", "TransformerLM._position_kwargs", [(
               "if self.relative_bias is not None:",
               "if self.relative_bias is not None and T <= self.config.context_length:")]))], skip=SKIP_EXTRA),
    Mutant("k_extra_sin_not_added", "the sinusoidal model adds no encoding (only the sqrt(d) scale)", S_EXTRA,
           "sinusoidal",
           patches=[Patch(C_TRAIN, src_patch("utils.transformer", "TransformerLM._embed", [(SIN_ADD, "x = x")]))],
           skip=SKIP_EXTRA),
    Mutant("k_extra_rotary_not_rotated", "the rotary model never rotates q and k", S_EXTRA,
           "rotary",
           patches=[Patch(C_TRAIN, src_patch("utils.transformer", "TransformerLM._position_kwargs", [(
               'return {"rotary": self._rotary_angles(T, offset, device)}', "return {}")]))], skip=SKIP_EXTRA),
    Mutant("k_extra_scaled_control_unscaled", "the 'none, scaled' control is not scaled (identical to 'none')", S_EXTRA,
           "scal",
           edits=[Edit(C_TRAIN, "return super()._embed(idx, offset) * math.sqrt(self.config.d_model)",
                       "return super()._embed(idx, offset)")], skip=SKIP_EXTRA),
    Mutant("k_extra_one_seed_thrice", "every 'seed' reruns seed SEED: no replication over seeds", S_EXTRA,
           "seed",
           edits=[Edit(C_TRAIN, "generator = set_seed(seed)", "generator = set_seed(SEED)")], skip=SKIP_EXTRA),

    # ---------------- show 6: widget_rotary_offset_only ----------------
    Mutant("base_widget_rotary_offset_only", "nothing (baseline; fresh models stand in for section 6's)", S_WIDGET,
           "never", patches=[Patch(S_WIDGET, FRESH_MODELS)], skip=SKIP_WIDGET),
    Mutant("k_widget_quadratic_angles", "the panel's angles grow with pos^2: not a rotation by the offset", S_WIDGET,
           "coincide",
           patches=[Patch(S_WIDGET, FRESH_MODELS + src_patch("utils.widgets.position_scores", "rotary_offset_scores", [(
               "cos, sin = cos_sin(length, d, base)",
               "cos, sin = [f(torch.arange(length)[:, None].float() ** 2 / 64 * base ** (-torch.arange(0, d, 2) / d)) "
               "for f in (torch.cos, torch.sin)]")]) + REBIND_WIDGET)], skip=SKIP_WIDGET),
    Mutant("k_widget_base_ignored", "the panel always rotates with base 10000, whatever the slider says", S_WIDGET,
           "should draw",
           patches=[Patch(S_WIDGET, FRESH_MODELS + src_patch("utils.widgets.position_scores", "rotary_offset_scores", [(
               "cos, sin = cos_sin(length, d, base)", "cos, sin = cos_sin(length, d)")]) + REBIND_WIDGET)],
           skip=SKIP_WIDGET),
    Mutant("k_widget_same_position", "all curves are drawn for one query position (comparison with itself)", S_WIDGET,
           "distinct query positions",
           patches=[Patch(S_WIDGET, FRESH_MODELS + src_patch("utils.widgets.positional", "positional_scores_data", [(
               "query_positions=ROTARY_QUERY_POSITIONS) -> dict:", "query_positions=(63, 63, 63, 63)) -> dict:")]))],
           skip=SKIP_WIDGET),
    Mutant("k_widget_not_rotated", "the panel does not rotate q and k (flat curves)", S_WIDGET,
           "flat line",
           patches=[Patch(S_WIDGET, FRESH_MODELS + src_patch("utils.widgets.position_scores", "rotary_offset_scores", [
               ("q_at = apply_rotary(q.expand(length, d), cos, sin)", "q_at = q.expand(length, d)"),
               ("k_at = apply_rotary(k.expand(length, d), cos, sin)", "k_at = k.expand(length, d)")]) + REBIND_WIDGET)],
           skip=SKIP_WIDGET),
]
