"""Delegations for notebook 01's exercises (its wrong answers come with the notebook's own issue)."""

from tests.wrong_answers.spec import Delegation

NOTEBOOK = "01_autoregression.ipynb"
WRONG: dict = {}
DELEGATIONS = {
    "ex1_cross_entropy": [
        Delegation("alias", "from torch.nn.functional import cross_entropy as ce\n\n\n"
                            "def cross_entropy(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:\n"
                            "    return ce(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))",
                   denied="torch.nn.functional.cross_entropy"),
    ],
    "ex2_perplexity_and_bits": [
        Delegation("module_access", "import utils.evaluation as ev\n\n\n"
                                    "def perplexity_and_bits(mean_nll: float) -> tuple[float, float]:\n"
                                    "    metrics = ev.Metrics(nll=mean_nll, tokens=1)\n"
                                    "    return metrics.perplexity, metrics.bits_per_token"),
    ],
    "ex3_sequence_log_prob": [
        Delegation("copy_before_test", "def sequence_log_prob(model, ids: list[int]) -> float:\n"
                                       "    return float(_log_probs_of(model, ids).sum())",
                   before="from utils.evaluation import token_log_probs\n\n_log_probs_of = token_log_probs",
                   denied="utils.evaluation.token_log_probs"),
    ],
}
