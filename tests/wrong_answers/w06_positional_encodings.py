"""Delegations for notebook 06's exercises (its wrong answers come with the notebook's own issue)."""

from tests.wrong_answers.spec import Delegation

NOTEBOOK = "06_positional_encodings.ipynb"
WRONG: dict = {}
DELEGATIONS = {
    "ex1_sinusoidal": [
        Delegation("function_copy", "def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:\n"
                                    "    return _encoding(T, d)",
                   before="import types\nimport utils.positional\n\n_f = utils.positional.sinusoidal_encoding\n"
                          "_encoding = types.FunctionType(_f.__code__, _f.__globals__, 'mine', _f.__defaults__)",
                   denied="utils.positional.sinusoidal_encoding"),
    ],
    "ex2_rope": [
        Delegation("alias", "from utils.positional import apply_rotary as rotate, rotary_cos_sin as angles\n\n\n"
                            "def my_rope(x: torch.Tensor) -> torch.Tensor:\n"
                            "    return rotate(x, *angles(*x.shape))"),
    ],
}
