"""Wrong answers and delegations for notebook 11's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "11_the_journey.ipynb"

_PPL = "def perplexity(token_log_probs: torch.Tensor) -> float:\n"

WRONG = {
    "ex1_perplexity": [
        Wrong("sum_not_mean", _PPL + "    return float(torch.exp(-token_log_probs.sum()))",
              visible=r"uniform guess over 8 tokens: expected 8, got 1\.07"),
        Wrong("sign", _PPL + "    return float(torch.exp(token_log_probs.mean()))",
              visible=r"uniform guess over 8 tokens: expected 8, got 0\.125"),
        Wrong("base_two", _PPL + "    return float(2 ** (-token_log_probs.mean()))", visible=r"uniform guess over 8 tokens"),
        Wrong("returns_tensor", _PPL + "    return torch.exp(-token_log_probs.mean())", visible=r"perplexity\(log_probs\)"),
    ],
    "ex2_budget_model": [
        Wrong("bigram_itself", "BUDGET = 100_000\nbudget_tokens_used = BUDGET\n"
              "budget_model = NGramLM.fit(dataset.train[:BUDGET], dataset.vocab_size, n=2, smoothing='add_k', k=1.0)"),
        Wrong("unigram", "BUDGET = 100_000\nbudget_tokens_used = BUDGET\n"
              "budget_model = NGramLM.fit(dataset.train[:BUDGET], dataset.vocab_size, n=1, smoothing='add_k', k=1.0)"),
        Wrong("order_not_chosen", "BUDGET = 100_000\nbudget_tokens_used = BUDGET\n"
              "budget_model = NGramLM.fit(dataset.train[:BUDGET], dataset.vocab_size, n=4, smoothing='kneser_ney')"),
        Wrong("over_budget", "BUDGET = 100_000\nbudget_tokens_used = 5 * BUDGET\n"
              "budget_model = NGramLM.fit(dataset.train[: 5 * BUDGET], dataset.vocab_size, n=6)",
              visible=r"budget_tokens_used must be an int between 1 and 100,000"),
        Wrong("untrained_transformer", "from utils.transformer import TransformerConfig, TransformerLM\n\nBUDGET = 100_000\n"
              "budget_tokens_used = 1\nbudget_model = TransformerLM(TransformerConfig(dataset.vocab_size, context_length=64, "
              "n_layer=1, n_head=2, d_model=32, positional='rotary')).eval()"),
    ],
}

DELEGATIONS = {
    "ex1_perplexity": [
        Delegation("package_metrics", "from utils.evaluation import Metrics\n\n\n" + _PPL
                   + "    return Metrics(float(-token_log_probs.mean()), len(token_log_probs)).perplexity",
                   denied="utils.evaluation.Metrics.perplexity"),
    ],
    "ex2_budget_model": [
        Delegation("zoo_model", "from utils.zoo import load_or_train\n\nBUDGET = 100_000\nbudget_tokens_used = BUDGET\n"
                                "budget_model = load_or_train('ngram', dataset)[0]", denied="utils.zoo.load_or_train"),
    ],
}
