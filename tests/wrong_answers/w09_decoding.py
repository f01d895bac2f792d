"""Delegations for notebook 09's exercises (its wrong answers come with the notebook's own issue)."""

from tests.wrong_answers.spec import Delegation

NOTEBOOK = "09_decoding.ipynb"
WRONG: dict = {}
DELEGATIONS = {
    "ex1_temperature_softmax": [
        Delegation("alias", "from utils.sampling import softmax_with_temperature as soft\n\n\n"
                            "def temperature_softmax(logits: torch.Tensor, T: float) -> torch.Tensor:\n"
                            "    return soft(logits, T)",
                   denied="utils.sampling.softmax_with_temperature"),
    ],
    "ex2_keep_top_k": [
        Delegation("module_access", "import utils.sampling as sampling\n\n\n"
                                    "def keep_top_k(logits: torch.Tensor, k: int) -> torch.Tensor:\n"
                                    "    return sampling.top_k_filter(logits, k)",
                   denied="utils.sampling.top_k_filter"),
    ],
    "ex3_one_beam_step": [
        Delegation("function_copy", "def one_beam_step(scores: torch.Tensor, log_probs: torch.Tensor, width: int):\n"
                                    "    return _step(scores, log_probs, width)",
                   before="import types\nfrom utils.decoding import beam_step as _b\n\n"
                          "_step = types.FunctionType(_b.__code__, _b.__globals__)",
                   denied="utils.decoding.beam_step"),
    ],
}
