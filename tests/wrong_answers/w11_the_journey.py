"""Wrong answers and delegations for notebook 11's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "11_the_journey.ipynb"

_PPL = "def perplexity(token_log_probs: torch.Tensor) -> float:\n"
_SPEED = "def tokens_per_second(run, n_tokens: int, repeats: int = 5, clock=time.perf_counter) -> float:\n"
_BOUNDARY = "**({'boundary_id': dataset.tokenizer.boundary_id} if dataset.kind == 'items' else {})"

WRONG = {
    "ex1_perplexity": [
        Wrong("sum_not_mean", _PPL + "    return float(torch.exp(-token_log_probs.sum()))",
              visible=r"uniform guess over 8 tokens: expected 8, got 1\.07"),
        Wrong("sign", _PPL + "    return float(torch.exp(token_log_probs.mean()))",
              visible=r"uniform guess over 8 tokens: expected 8, got 0\.125"),
        Wrong("base_two", _PPL + "    return float(2 ** (-token_log_probs.mean()))", visible=r"uniform guess over 8 tokens"),
        Wrong("returns_tensor", _PPL + "    return torch.exp(-token_log_probs.mean())", visible=r"perplexity\(log_probs\)"),
    ],
    "ex2_tokens_per_second": [
        Wrong("mean_of_times", _SPEED + "    run()\n    times = []\n    for _ in range(repeats):\n"
                                        "        start = clock()\n        run()\n        times.append(clock() - start)\n"
                                        "    return n_tokens / (sum(times) / len(times))",
              visible=r"you averaged the times"),
        Wrong("no_warmup", _SPEED + "    speeds = []\n    for _ in range(repeats):\n        start = clock()\n        run()\n"
                                    "        speeds.append(n_tokens / (clock() - start))\n    return statistics.median(speeds)",
              visible=r"run\(\) was called 5 times"),
        Wrong("warmup_timed", _SPEED + "    speeds = []\n    for _ in range(repeats + 1):\n        start = clock()\n        run()\n"
                                       "        speeds.append(n_tokens / (clock() - start))\n    return statistics.median(speeds)",
              visible=r"median"),
        Wrong("one_run", _SPEED + "    run()\n    start = clock()\n    run()\n    return n_tokens / (clock() - start)",
              visible=r"run\(\) was called 2 times"),
    ],
    "ex3_budget_model": [
        Wrong("bigram_itself", "BUDGET = 100_000\nbudget_tokens_used = BUDGET\n"
              f"budget_model = NGramLM.fit(dataset.train[:BUDGET], dataset.vocab_size, n=2, smoothing='add_k', k=1.0, {_BOUNDARY})"),
        Wrong("unigram", "BUDGET = 100_000\nbudget_tokens_used = BUDGET\n"
              f"budget_model = NGramLM.fit(dataset.train[:BUDGET], dataset.vocab_size, n=1, smoothing='add_k', k=1.0, {_BOUNDARY})"),
        Wrong("over_budget", "BUDGET = 100_000\nbudget_tokens_used = 5 * BUDGET\n"
              f"budget_model = NGramLM.fit(dataset.train[: 5 * BUDGET], dataset.vocab_size, n=4, {_BOUNDARY})",
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
    "ex2_tokens_per_second": [
        Delegation("package_speed", "from utils.generation_cost import median_tokens_per_second\n\n\n" + _SPEED
                   + "    return median_tokens_per_second(run, n_tokens, repeats, 1, clock)",
                   denied="utils.generation_cost.median_tokens_per_second"),
    ],
    "ex3_budget_model": [
        Delegation("zoo_model", "from utils.zoo import load_or_train\n\nBUDGET = 100_000\nbudget_tokens_used = BUDGET\n"
                                "budget_model = load_or_train('ngram', dataset)[0]", denied="utils.zoo.load_or_train"),
    ],
}
