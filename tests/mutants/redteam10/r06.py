"""Red team rtO: mutants of 06_positional_encodings.ipynb."""
from tests.mutation.redteam_help import src_patch
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "06_positional_encodings.ipynb"

# cells
PARAMS, IMPORTS, S1_SETUP = "125c9b14", "e4e91598", "11d723af"
S1, S2, S3 = "7b1633c0", "7dd5bca7", "519dc9b6"
BANDS, LEARNED, REL_DEMO, S4 = "7e72550a", "52fddf42", "2ee7d3e1", "010cfc97"
TRAIN, S5, S6 = "1dd16d67", "27dedd15", "a982eae2"

SK2 = [S1_SETUP, S1]
SK3 = [S1_SETUP, S1, S2]
SK4 = [S1_SETUP, S1, S2, S3, BANDS, LEARNED, REL_DEMO]
SK5 = SK4 + [S4]
SK6 = SK4 + [S5]  # S6 needs S4's import of apply_rotary / rotary_cos_sin and TRAIN's extrapolation_models

# the rotary panel does not depend on how long the models trained: one seed, few steps (speed only)
FAST6 = [Edit(PARAMS, "EXTRAPOLATION_SEEDS = 3", "EXTRAPOLATION_SEEDS = 1"),
         Edit(PARAMS, "fast=150)", "fast=10)")]

EX1_BUG = src_patch("utils.positional", "sinusoidal_encoding", [(
    "encoding[:, 1::2] = torch.cos(angles[:, : d // 2])",
    "encoding[:, 1::2] = torch.cos(positions[:, None] * base ** (-torch.arange(1, d, 2, device=device, "
    "dtype=torch.float32) / d))")]) + "import utils.transformer as _mt2\n_mt2.sinusoidal_encoding = _mnewobj\n"

OTHERS_SCALED = src_patch("utils.transformer", "TransformerLM._embed", [(
    "    return self.embedding_dropout(x)",
    "    if self.config.positional in ('relative', 'rotary'):  # mutant: the 2017 scaling for these too\n"
    "        x = x * math.sqrt(self.config.d_model)\n"
    "    return self.embedding_dropout(x)")])

MUTANTS = [
    # ------------------------------------------------------------------ show 1: order invisible without positions
    Mutant(
        name="sinusoidal_model_reads_no_tokens",
        removes="the sinusoidal model's token embeddings are multiplied by 0 instead of sqrt(d): its outputs depend on "
                "positions only, so it gives the same logits for 屡败屡战 and 屡战屡败 (cannot tell the phrases apart)",
        target=S1, message="tell the two phrases apart",
        patches=[Patch(S1_SETUP, src_patch("utils.transformer", "TransformerLM._embed", [(
            "x = x * math.sqrt(self.config.d_model)", "x = x * 0.0  # mutant: tokens dropped")]))],
    ),
    Mutant(
        name="same_encoding_at_every_position",
        removes="the sinusoidal model adds PE(offset) (T -> 1) to every position: no position information",
        target=S1, message="tell the two phrases apart",
        patches=[Patch(S1_SETUP, src_patch("utils.transformer", "TransformerLM._embed", [(
            "sinusoidal_encoding(T, self.config.d_model, offset, device=idx.device)",
            "sinusoidal_encoding(1, self.config.d_model, offset, device=idx.device)")]))],
    ),
    # ------------------------------------------------------------------ show 2: similarity depends on distance
    Mutant(
        name="cos_columns_own_frequency",
        removes="exercise 1's bug in the package: cos column 2i+1 turns at 10000^(-(2i+1)/d), not its sin partner's "
                "frequency, so (sin, cos) pairs are no clock hands and PE(i).PE(j) is not a function of i - j",
        target=S2, message="function of i - j", skip=SK2,
        patches=[Patch(S2, EX1_BUG)],
    ),
    Mutant(
        name="others_scaled_too_s2",
        removes="the package scales the token embeddings by sqrt(d) for relative and rotary models too: the prose's "
                "'only the sinusoidal model is scaled: the others keep 0.02' is false",
        target=S2, message="unscaled|scale", skip=SK2,
        patches=[Patch(S2, OTHERS_SCALED)],
    ),
    # ------------------------------------------------------------------ show 3: PE shift is a rotation
    Mutant(
        name="shift_not_rotation_cos_frequency",
        removes="exercise 1's bug in the package encoding: the cos column has another frequency than its sin "
                "partner, so PE(pos + k) is no rotation of PE(pos)",
        target=S3, message="block rotation|one matrix", skip=SK3,
        patches=[Patch(S3, EX1_BUG)],
    ),
    # ------------------------------------------------------------------ show 4: RoPE score depends on offset
    Mutant(
        name="rope_identity_rotation",
        removes="rotary_cos_sin's angles are 0 (positions times 0): RoPE carries no position",
        target=S4, message="different offsets should give different scores", skip=SK4,
        patches=[Patch(S4, src_patch("utils.positional", "rotary_cos_sin", [(
            "angles = positions[:, None] * _frequencies", "angles = 0.0 * positions[:, None] * _frequencies")]))],
    ),
    Mutant(
        name="rope_angles_quadratic",
        removes="rotary angles grow with the square of the position: no rotation by the offset, score depends on "
                "absolute positions",
        target=S4, message="offset only", skip=SK4,
        patches=[Patch(S4, src_patch("utils.positional", "rotary_cos_sin", [(
            "angles = positions[:, None] * _frequencies", "angles = positions[:, None] ** 2 / 64 * _frequencies")]))],
    ),
    # ------------------------------------------------------------------ show 5: extrapolation
    Mutant(
        name="unclipped_control_is_clipped",
        removes="unclipped_copy builds the unclipped table but never installs it: the 'without clipping' control is "
                "the clipped model itself (control == effect), so 'reading it without the clip changed nothing' is "
                "measured as exactly 0",
        target=S5, message="clip", skip=SK5,
        patches=[Patch(S5, src_patch("utils.extrapolation", "unclipped_copy", [(
            "copy.relative_bias = new", "copy.relative_bias = old  # mutant: the new table is never installed")]))],
    ),
    Mutant(
        name="relative_bias_dropped_past_training_length",
        removes="the model computes its relative bias (the hook sees it, clipped, at 128) but leaves it out of the "
                "scores past the training length: the relative model reads long inputs without any position bias",
        target=S5, message="relative|clip", skip=SK5,
        patches=[Patch(TRAIN, src_patch("utils.transformer", "TransformerLM._run", [(
            "positions = self._position_kwargs(idx.shape[1], offset, idx.device)",
            "positions = self._position_kwargs(idx.shape[1], offset, idx.device)\n"
            "    if offset + idx.shape[1] > self.config.context_length:  # mutant: bias left out at long lengths\n"
            "        positions.pop('bias', None)")]))],
    ),
    Mutant(
        name="relative_bias_unclipped_in_scores",
        removes="the bias added to the scores is not clipped (offsets past 31 get 0, as an unclipped table), while "
                "the RelativePositionBias module's own output (what the hook captures) is clipped",
        target=S5, message="clipped", skip=SK5,
        patches=[Patch(TRAIN, src_patch("utils.transformer", "TransformerLM._position_kwargs", [(
            'return {"bias": self.relative_bias(T, offset + T, offset)}',
            'bias = self.relative_bias(T, offset + T, offset)  # mutant: far offsets get 0, not the last value\n'
            '        far = (torch.arange(offset, offset + T, device=device)[:, None]\n'
            '               - torch.arange(offset + T, device=device)[None, :]).abs() >= self.relative_bias.max_distance\n'
            '        return {"bias": bias.masked_fill(far, 0.0)}')]))],
    ),
    Mutant(
        name="scaled_control_scaled_at_init",
        removes="'none, scaled' multiplies its token table by sqrt(d) once at initialisation instead of in every "
                "forward pass: at init it reads the same 0.16 (control_rms passes), but it trains differently from "
                "the sinusoidal model (8x smaller effective embedding step): it differs in more than the encoding",
        target=S5, message="scal", skip=SK5,
        edits=[Edit(TRAIN,
                    "    def _embed(self, idx: torch.Tensor, offset: int) -> torch.Tensor:\n"
                    "        return super()._embed(idx, offset) * math.sqrt(self.config.d_model)  # (B, T, D); no dropout here",
                    "    def __init__(self, config: TransformerConfig):\n"
                    "        super().__init__(config)\n"
                    "        with torch.no_grad():  # mutant: scaled once, at initialisation\n"
                    "            self.token_embedding.weight.mul_(math.sqrt(config.d_model))")],
    ),
    Mutant(
        name="unpaired_models",
        removes="set_seed runs once per seed, not once per encoding: each encoding's model gets other initial "
                "weights and other batches than its control without positions (all else is not equal)",
        target=S5, message="seed|sinusoidal|rotary|relative|scal", skip=SK5,
        edits=[Edit(TRAIN,
                    "for seed in seeds:\n    for name in KINDS:\n        kind = \"none\" if name == SCALED else name\n"
                    "        generator = set_seed(seed)\n",
                    "for seed in seeds:\n    generator = set_seed(seed)\n    for name in KINDS:\n"
                    "        kind = \"none\" if name == SCALED else name\n")],
    ),
    Mutant(
        name="others_scaled_too",
        removes="the relative and rotary models also scale their tokens by sqrt(d): against the same seed's model "
                "without positions they differ in the scale as well as the encoding",
        target=S5, message="rotary|relative", skip=SK5,
        patches=[Patch(TRAIN, OTHERS_SCALED)],
    ),
    # ------------------------------------------------------------------ show 6: widget rotary offset only
    Mutant(
        name="rotary_curves_all_one_position",
        removes="rotary_offset_scores draws every curve for the last query position (i = length - 1) while the panel "
                "reports four distinct positions: 'the curves coincide' compares one position with itself",
        target=S6, message="distinct|coincide|should draw", skip=SK6, edits=FAST6,
        patches=[Patch(S6, src_patch("utils.widgets.position_scores", "rotary_offset_scores", [(
            "for row, i in enumerate(query_positions):",
            "for row, _ in enumerate(query_positions):\n        i = length - 1  # mutant: every curve at the last position")])
            + "import utils.widgets.positional as _wp\n_wp.rotary_offset_scores = _mnewobj\n")],
    ),
    Mutant(
        name="rotary_panel_ignores_base",
        removes="rotary_offset_scores leaves out the base (cos_sin(length, d)): the slider does not change the rotary "
                "frequencies",
        target=S6, message="should draw|base should change", skip=SK6, edits=FAST6,
        patches=[Patch(S6, src_patch("utils.widgets.position_scores", "rotary_offset_scores", [(
            "cos, sin = cos_sin(length, d, base)", "cos, sin = cos_sin(length, d)")])
            + "import utils.widgets.positional as _wp\n_wp.rotary_offset_scores = _mnewobj\n")],
    ),
]

# run order: the costly and most likely survivors first (runmut runs in list order)
_FIRST = ["rotary_curves_all_one_position", "rotary_panel_ignores_base", "relative_bias_unclipped_in_scores",
          "unclipped_control_is_clipped", "relative_bias_dropped_past_training_length", "scaled_control_scaled_at_init",
          "unpaired_models", "others_scaled_too"]
MUTANTS = sorted(MUTANTS, key=lambda m: _FIRST.index(m.name) if m.name in _FIRST else len(_FIRST))
