"""Wrong answers, delegations and other right answers for notebook 06's exercises."""

from dataclasses import replace

from tests.wrong_answers.red_team_1 import adopt
from tests.wrong_answers.spec import Delegation, Right, Wrong

NOTEBOOK = "06_positional_encodings.ipynb"
_SIN = "def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:\n    positions = torch.arange(T, dtype=torch.float32)[:, None]\n"
_LINE = '\n\nBUGGY_LINE = "frequencies = torch.exp(-math.log(10000.0) * columns / d)"\n'
_ROPE = "def my_rope(x: torch.Tensor) -> torch.Tensor:\n    T, d = x.shape\n    half = d // 2\n"
_BIAS = "def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:\n    offsets = torch.arange(T)[:, None] - torch.arange(T)[None, :]\n"


def _fix(exponent: str) -> str:
    """The colleague's encoding with the given exponent numerator in its frequencies line (its own: "columns")."""
    return (_SIN + "    columns = torch.arange(d)[None, :]  # (1, d): column j\n"
            f"    frequencies = torch.exp(-math.log(10000.0) * {exponent} / d)  # (1, d)\n"
            "    angles = positions * frequencies  # (T, d)\n"
            "    return torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))  # (T, d)")


def _rope(angles: str, first: str = "x[:, :half]", second: str = "x[:, half:]") -> str:
    """A RoPE solution with the given angle expression and pairing."""
    return (_ROPE + f"    angles = {angles}\n    first, second = {first}, {second}\n"
            "    return torch.cat([first * angles.cos() - second * angles.sin(), first * angles.sin() + second * angles.cos()], dim=-1)")


WRONG = {
    "ex1_sinusoidal": [
        # the colleague's encoding handed in as it was, the return line blamed: each cos column turns slower than its sin
        Wrong("colleague_unchanged", _fix("columns") + '\n\nBUGGY_LINE = "return torch.where(columns % 2 == 0, '
                                     'torch.sin(angles), torch.cos(angles))"\n', visible=r"must have length"),
        # the right line, mended with the pair index i instead of 2i: pairs consistent, frequencies 10000^(-i/d)
        Wrong("pair_index_not_doubled", _fix("(columns // 2)") + _LINE),  # passes every visible check: the hidden entries stop it
        # the right encoding (rewritten from section 2's formula), the wrong line named
        Wrong("right_fix_wrong_line", _fix("(columns - columns % 2)")
              + '\n\nBUGGY_LINE = "angles = positions * frequencies  # (T, d): the angle of every entry"\n'),
        # the right line, mended the wrong way round: cos column 2i + 1 now turns with pair i + 1's frequency
        Wrong("cos_uses_next_pair", _fix("(columns + columns % 2)") + _LINE, visible=r"must have length"),
        # the right line, mended, but sin and cos traded places
        Wrong("sin_cos_swapped", _fix("(columns - columns % 2)").replace("columns % 2 == 0, torch.sin", "columns % 2 == 1, torch.sin")
              + _LINE, visible=r"position 0 must be"),
    ],
    "ex2_rope": [
        Wrong("adjacent_pairs", _rope("torch.arange(T, dtype=torch.float32)[:, None] * 10000.0 ** (-torch.arange(0, d, 2) / d)",
                                      "x[:, 0::2]", "x[:, 1::2]"),
              visible=r"position 0 has angle 0"),
        Wrong("linear_frequencies", _rope("torch.arange(T, dtype=torch.float32)[:, None] / (1 + torch.arange(0, d, 2))"),
              visible=r"pair \(x_1, x_5\) at position 3"),
        Wrong("one_angle_for_all", _rope("torch.arange(T, dtype=torch.float32)[:, None].expand(T, half)"),
              visible=r"pair \(x_1, x_5\) at position 3"),
        Wrong("rotation_backwards", _ROPE + "    angles = -torch.arange(T, dtype=torch.float32)[:, None] * 10000.0 ** (-torch.arange(0, d, 2) / d)\n"
                                            "    first, second = x[:, :half], x[:, half:]\n"
                                            "    return torch.cat([first * angles.cos() - second * angles.sin(), "
                                            "first * angles.sin() + second * angles.cos()], dim=-1)",
              visible=r"turns by 1 radian"),
        Wrong("exponent_over_8", _rope("torch.arange(T, dtype=torch.float32)[:, None] * 10000.0 ** (-torch.arange(0, d, 2) / 8)")),
        # right at d = 8 and for pair 0, as every visible check: the hidden widths stop it
    ],
    "ex3_length_free_bias": [
        Wrong("four_heads_hard_coded", _BIAS + "    slopes = torch.tensor([1.0, 0.5, 0.25, 0.0625])  # the four heads of the example\n"
                                               "    return -slopes[:, None, None] * offsets.clamp(min=0).float()",
              visible=r"expected a tensor of shape \(6, 9, 9\)"),
        Wrong("one_slope", _BIAS + "    return (-0.5 * offsets.clamp(min=0).float()).expand(n_heads, T, T)"),
        Wrong("slopes_too_flat", _BIAS + "    slopes = 2.0 ** (-8.0 * torch.arange(1, n_heads + 1) / n_heads)\n"
                                         "    return -slopes[:, None, None] * offsets.clamp(min=0).float()"),
        Wrong("absolute_positions", "def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:\n"
                                    "    keys = torch.arange(T).float()\n"
                                    "    return (0.5 * keys)[None, None, :].expand(n_heads, T, T).clone()",
              visible=r"depend on i - j only"),
        Wrong("grows_with_length", _BIAS + "    slopes = torch.arange(1, n_heads + 1).float() / T\n"
                                           "    return -slopes[:, None, None] * offsets.clamp(min=0).float()"),
        Wrong("six_slopes_listed", _BIAS + "    slopes = torch.tensor([1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125])[:n_heads]\n"
                                           "    return -slopes[:, None, None] * offsets.clamp(min=0).float()"),
        # right for 4 and 6 heads, as the visible checks: 2 heads are too alike and 7 or more get 6 slopes
        Wrong("steepest_slope_too_flat", _BIAS + "    slopes = 2.0 ** (-4.0 * torch.arange(1, n_heads + 1) / n_heads)\n"
                                                 "    return -slopes[:, None, None] * offsets.clamp(min=0).float()"),
        # the steepest slope is 2^(-4/H): with 2 heads 1/4, whose head looks 3.5 tokens back (hidden part 2 only)
        Wrong("wrong_sign", _BIAS + "    slopes = 2.0 ** (-4.0 * torch.arange(n_heads) / max(n_heads - 1, 1))\n"
                                    "    return slopes[:, None, None] * offsets.clamp(min=0).float()",
              visible=r"at least 4 times as far|less than 3 tokens back"),
    ],
}
DELEGATIONS = {
    "ex1_sinusoidal": [
        Delegation("rotary_tables", "from utils.positional import rotary_cos_sin\n\n\n"
                                    "def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:\n"
                                    "    cos, sin = rotary_cos_sin(T, d)  # (T, d/2) each: the angles pos * 10000^(-2i/d)\n"
                                    "    return torch.stack([sin, cos], dim=-1).reshape(T, d)" + _LINE,
                   denied="utils.positional.rotary_cos_sin"),
        Delegation("shift_matrix", "from utils.positional import sinusoidal_shift_matrix\n\n\n"
                                   "def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:\n"
                                   "    start = torch.tensor([0.0, 1.0] * (d // 2))  # PE(0)\n"
                                   "    return torch.stack([sinusoidal_shift_matrix(pos, d) @ start for pos in range(T)])" + _LINE,
                   denied="utils.positional.sinusoidal_shift_matrix"),
        Delegation("function_copy", "def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:\n"
                                    "    return _encoding(T, d)" + _LINE,
                   before="import types\nimport utils.positional\n\n_f = utils.positional.sinusoidal_encoding\n"
                          "_encoding = types.FunctionType(_f.__code__, _f.__globals__, 'mine', _f.__defaults__)",
                   denied="utils.positional.sinusoidal_encoding"),
        Delegation("module_attribute", "import utils.positional as up\n\n\n"
                                       "def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:\n"
                                       "    return up.sinusoidal_encoding(T, d)" + _LINE,
                   denied="utils.positional.sinusoidal_encoding"),
    ],
    "ex2_rope": [
        Delegation("alias", "from utils.positional import apply_rotary as rotate, rotary_cos_sin as angles\n\n\n"
                            "def my_rope(x: torch.Tensor) -> torch.Tensor:\n"
                            "    return rotate(x, *angles(*x.shape))"),
        Delegation("sinusoidal_angles", "from utils.positional import sinusoidal_encoding\n\n\n" + _ROPE +
                   "    table = sinusoidal_encoding(T, d)  # (T, d): sin and cos of the rotary angles, interleaved\n"
                   "    sin, cos = table[:, 0::2], table[:, 1::2]  # (T, d/2) each\n"
                   "    first, second = x[:, :half], x[:, half:]\n"
                   "    return torch.cat([first * cos - second * sin, first * sin + second * cos], dim=-1)",
                   denied="utils.positional.sinusoidal_encoding"),
    ],
    "ex3_length_free_bias": [
        Delegation("package_bias", "from utils.positional import RelativePositionBias\n\n\n" + _BIAS +
                   "    table = RelativePositionBias(n_heads, T)  # one row per offset -(T-1) .. T-1, no clipping inside T\n"
                   "    slopes = 2.0 ** (-4.0 * torch.arange(1, n_heads + 1) / n_heads)  # (H,)\n"
                   "    rows = torch.arange(-(T - 1), T)  # (2T-1,): the offset of each row of the table\n"
                   "    with torch.no_grad():\n"
                   "        table.bias.weight.copy_(-rows.clamp(min=0).float()[:, None] * slopes[None, :])  # (2T-1, H)\n"
                   "    return table(T).detach()",
                   denied="utils.positional.RelativePositionBias.forward"),
    ],
}

RIGHT = {
    "ex1_sinusoidal": [
        # the colleague's line mended with a power and the pair index; the line copied with its comment and other spacing
        Right("power_of_pair_index", _SIN + "    columns = torch.arange(d)[None, :]\n"
              "    frequencies = 10000.0 ** (-2 * (columns // 2) / d)\n    angles = positions * frequencies\n"
              "    return torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))"
              + '\n\nBUGGY_LINE = "    frequencies = torch.exp(-math.log(10000.0)*columns/d)  # (1, d): 10000^(-j/d), slower to the right"\n'),
        # rewritten in float64, one (sin, cos) pair per frequency stacked and interleaved by reshape
        Right("float64_pairs", "def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:\n"
              "    angles = torch.arange(T, dtype=torch.float64)[:, None] * 10000.0 ** (-torch.arange(0, d, 2).double() / d)\n"
              "    return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(T, d).float()" + _LINE),
    ],
    "ex3_length_free_bias": [
        Right("linear_slopes", _BIAS + "    slopes = torch.linspace(2.0, 0.1, n_heads)  # (H,): reaches 0.16 to 9.5 tokens\n"
                                       "    return -slopes[:, None, None] * offsets.clamp(min=0).float()"),
        Right("symmetric_distance", _BIAS + "    slopes = 2.0 ** (-4.0 * torch.arange(n_heads) / max(n_heads - 1, 1))\n"
                                            "    return -slopes[:, None, None] * offsets.abs().float()  # |i - j|: the future is masked anyway"),
    ],
}

# The first exercise red team's answers (tests/wrong_answers/red_team_1): wrong ones in the slow tier, bypasses by default.
adopt("06", WRONG, DELEGATIONS, RIGHT, bypasses={"ex1_w3", "ex1_w8", "ex1_w9", "ex2_w4", "ex2_w7", "ex2_w8"},
      wrong_right=set())
# The second exercise red team's (it had not seen the first's): tests/wrong_answers/red_team_2.
adopt("06", WRONG, DELEGATIONS, RIGHT, bypasses={"ex1_w4", "ex2_w4"}, wrong_right=set(), team=2)
# Their exercise 1 answers were written when it asked for the encoding from the formula; it now also asks for the
# colleague's wrong line (BUGGY_LINE), so each gets the right line: their right encodings stay right, the others are
# judged on their encodings, and their bypasses still call the reference after the visible BUGGY_LINE check.
for _table in (WRONG, DELEGATIONS, RIGHT):
    _table["ex1_sinusoidal"] = [replace(_entry, source=_entry.source + _LINE) if _entry.name.startswith("red") else _entry
                                for _entry in _table["ex1_sinusoidal"]]
# The fifth exercise red team's (written from the released notebook alone): tests/wrong_answers/red_team_5. Not filed:
# ex1 w5 returns the right encoding in float64; the text asks for "the same return" as the colleague's (float32) but the
# tests compare the values only (left open: a question of the exercise's wording).
adopt("06", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=5)
for _table in (WRONG, RIGHT):
    _table["ex1_sinusoidal"] = [answer for answer in _table.get("ex1_sinusoidal", []) if answer.name != "red5_w5"]
