"""Mutants of notebook 06: each removes the cause of one show."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "06_positional_encodings.ipynb"

# cell ids of notebook 06
PARAMETERS, PHRASES, ORDER_SHOW, SIMILARITY_SHOW = "125c9b14", "11d723af", "7b1633c0", "7dd5bca7"
SHIFT_SHOW, BANDS, LEARNED, RELATIVE, ROPE_SHOW = "519dc9b6", "7e72550a", "52fddf42", "2ee7d3e1", "010cfc97"
EXTRAPOLATE, EXTRAPOLATION_SHOW, EXPLORER_SHOW = "1dd16d67", "27dedd15", "a982eae2"
BEFORE_EXTRAPOLATION = [PHRASES, ORDER_SHOW, SIMILARITY_SHOW, SHIFT_SHOW, BANDS, LEARNED, RELATIVE, ROPE_SHOW]

MUTANTS = [
    Mutant(name="positions_in_the_none_model", removes="the missing positions: the 'none' model gets learned positions",
           target=ORDER_SHOW, message=r"without positions: the outputs are the same rows, permuted",
           edits=[Edit(cell=PHRASES, old="positional=positional, causal=False",
                       new='positional="learned" if positional == "none" else positional, causal=False')]),
    Mutant(name="random_codes", removes="the sinusoids: every position gets a random vector",
           target=SIMILARITY_SHOW, message=r"the similarity is a function of i - j",
           edits=[Edit(cell=SIMILARITY_SHOW, old="P = sinusoidal_encoding(T_pe, d_pe)  # (T, d)",
                       new="P = torch.randn(T_pe, d_pe)  # (T, d)")],
           skip=[PHRASES, ORDER_SHOW]),
    Mutant(name="shift_of_random_codes", removes="the sinusoids: the shift is fitted on random vectors",
           target=SHIFT_SHOW, message=r"the least-squares map is the block rotation",
           edits=[Edit(cell=SHIFT_SHOW, old="P_small = sinusoidal_encoding(T_fit + k_shift, d_small).double()",
                       new="P_small = torch.randn(T_fit + k_shift, d_small).double()")],
           skip=[PHRASES, ORDER_SHOW, SIMILARITY_SHOW]),
    Mutant(name="identity_rotation", removes="the rotation: q and k are not rotated at all",
           target=ROPE_SHOW, message=r"different offsets should give different scores",
           edits=[Edit(cell=ROPE_SHOW, old="q_rot = apply_rotary(q_vec.expand(T_rope, d_head), cos, sin)",
                       new="q_rot = q_vec.expand(T_rope, d_head)"),
                  Edit(cell=ROPE_SHOW, old="k_rot = apply_rotary(k_vec.expand(T_rope, d_head), cos, sin)",
                       new="k_rot = k_vec.expand(T_rope, d_head)")],
           skip=[PHRASES, ORDER_SHOW, SIMILARITY_SHOW, SHIFT_SHOW, BANDS, LEARNED, RELATIVE]),
    Mutant(name="nothing_learned", removes="training: every extrapolation model takes one step",
           target=EXTRAPOLATION_SHOW, message=r"learned more than letter frequencies",
           edits=[Edit(cell=PARAMETERS, old="EXTRAPOLATION_STEPS = pick(full=300, fast=150)", new="EXTRAPOLATION_STEPS = 1")],
           skip=BEFORE_EXTRAPOLATION),
    Mutant(name="sinusoidal_model_without_positions", removes="the encoding: the 'sinusoidal' extrapolation models get no positions",
           target=EXTRAPOLATION_SHOW, message=r"the sinusoidal model's loss should rise more",
           edits=[Edit(cell=EXTRAPOLATE, old="positional=kind,", new='positional="none" if kind == "sinusoidal" else kind,')],
           skip=BEFORE_EXTRAPOLATION),
    Mutant(name="rotary_model_without_positions", removes="the encoding: the 'rotary' extrapolation models get no positions",
           target=EXTRAPOLATION_SHOW, message=r"the rotary model's loss should rise more",
           edits=[Edit(cell=EXTRAPOLATE, old="positional=kind,", new='positional="none" if kind == "rotary" else kind,')],
           skip=BEFORE_EXTRAPOLATION),
    Mutant(name="explorer_does_not_rotate", removes="the rotation: the explorer's q and k keep angle 0 at every position",
           target=EXPLORER_SHOW, message=r"the score should change with the offset",
           patches=[Patch(before=EXPLORER_SHOW, code=(
               "import functools\n"
               "import torch\n"
               "import utils.widgets.positional as _explorer\n"
               "def _no_turn(length, d, base):\n"
               "    return torch.ones(length, d // 2), torch.zeros(length, d // 2)  # cos 1, sin 0: no rotation\n"
               "_explorer.rotary_offset_scores = functools.partial(_explorer.rotary_offset_scores, cos_sin=_no_turn)\n"))],
           skip=[*BEFORE_EXTRAPOLATION, EXTRAPOLATION_SHOW]),
    Mutant(name="explorer_turns_by_squared_position",
           removes="the linear angle: the explorer turns position p by p**2 times each frequency, so the turn between "
                   "a query and a key depends on where they are, not only on their offset",
           target=EXPLORER_SHOW, message=r"the rotary curves of different query positions should coincide",
           patches=[Patch(before=EXPLORER_SHOW, code=(
               "import functools\n"
               "import torch\n"
               "import utils.widgets.positional as _explorer\n"
               "from utils.positional import rotary_cos_sin as _cos_sin\n"
               "def _squared(length, d, base):\n"
               "    cos, sin = _cos_sin(length * length, d, base)  # (L*L, d/2) each\n"
               "    at = torch.arange(length) ** 2  # (L,): position p turned as far as p**2\n"
               "    return cos[at], sin[at]\n"
               "_explorer.rotary_offset_scores = functools.partial(_explorer.rotary_offset_scores, cos_sin=_squared)\n"))],
           skip=[*BEFORE_EXTRAPOLATION, EXTRAPOLATION_SHOW]),
    # ---- the second red team's survivors (stop 38), mended in the show
    Mutant(name="relative_unclipped", removes="the clipping: the relative table covers offsets up to 4x the training length (unseen offsets keep bias 0)",
           target=EXTRAPOLATION_SHOW, message=r"relative",
           patches=[Patch(before=EXTRAPOLATE, code=(
               "import utils.transformer as _t, utils.positional as _P\n"
               "_t.RelativePositionBias = lambda n_heads, max_distance: _P.RelativePositionBias(n_heads, 4 * max_distance)\n"
               "print('PATCH relative_unclipped active')\n"))],
           skip=BEFORE_EXTRAPOLATION),
    Mutant(name="relative_bias_frozen", removes="the relative mechanism: the bias table is never trained (stays 0), so 'relative' is a model without positions",
           target=EXTRAPOLATION_SHOW, message=r"relative",
           patches=[Patch(before=EXTRAPOLATE, code=(
               "import utils.transformer as _t, utils.positional as _P\n"
               "def _frozen(n_heads, max_distance):\n"
               "    module = _P.RelativePositionBias(n_heads, max_distance)\n"
               "    module.bias.weight.requires_grad_(False)\n"
               "    return module\n"
               "_t.RelativePositionBias = _frozen\n"
               "print('PATCH relative_bias_frozen active')\n"))],
           skip=BEFORE_EXTRAPOLATION),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("06")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam5 import adopted as _adopted_redteam5  # noqa: E402

MUTANTS += _adopted_redteam5("06")  # the third red team's mutants, 2026-12-06 (slow tier)

from tests.mutants.redteam9 import adopted as adopted9  # noqa: E402

MUTANTS += adopted9("06")  # the seventh red team's mutants (slow tier)

from tests.mutants.redteam10 import adopted as adopted10  # noqa: E402

MUTANTS += adopted10("06")  # the eighth red team's mutants (slow tier)
