"""Delegations for notebook 01's exercises and their plausible wrong answers."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "01_autoregression.ipynb"
_CE = "def cross_entropy(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:\n"
_SLP = ("def sequence_log_prob(model, ids: list[int]) -> float:\n"
        "    idx = torch.tensor(ids)[None]  # (1, n)\n")
_FIT = ("def fit_bigram_table(ids: torch.Tensor, vocab_size: int) -> BigramTableLM:\n"
        "    counts = torch.zeros(vocab_size, vocab_size)\n"
        "    counts.index_put_((ids[:-1], {target}), torch.ones(ids.numel() - 1), accumulate=True)\n"
        "    model = BigramTableLM(BaselineConfig(vocab_size))\n"
        "    optimizer = {optimizer}\n"
        "    for _ in range({steps}):\n"
        "        optimizer.zero_grad()\n"
        "        loss = -(counts * F.log_softmax(model.logits.weight, dim=-1)).sum() / counts.sum()\n"
        "        loss.backward()\n"
        "        optimizer.step()\n"
        "    return model")
_AUD = "def audit_evaluator(mean_nll) -> bool:\n"
_TABLE = ("    g = torch.Generator().manual_seed(0)\n"
          "    table = BigramTableLM(BaselineConfig(6))\n"
          "    with torch.no_grad():\n"
          "        table.logits.weight.copy_(torch.randn(6, 6, generator=g) * 2)\n")
WRONG = {
    "ex1_cross_entropy": [
        Wrong("log_of_softmax", _CE + "    return -torch.log(torch.softmax(logits, dim=-1)).gather(-1, targets[..., None]).mean()",
              visible=r"underflows to log\(0\); use log_softmax"),
        Wrong("softmax_over_time", _CE + "    return -F.log_softmax(logits, dim=1).gather(-1, targets[..., None]).mean()",
              visible=r"normalises over the vocabulary"),
        Wrong("sum_not_mean", _CE + "    return -F.log_softmax(logits, dim=-1).gather(-1, targets[..., None]).sum()",
              visible=r"the mean of -log p over the positions"),
        Wrong("no_minus", _CE + "    return F.log_softmax(logits, dim=-1).gather(-1, targets[..., None]).mean()",
              visible=r"cross_entropy of the small example"),
    ],
    "ex2_sequence_log_prob": [
        Wrong("factor_at_own_position", _SLP + "    log_probs = F.log_softmax(model(idx), dim=-1)[0]  # (n, V)\n"
                                              "    return log_probs[1:].gather(-1, idx[0, 1:, None]).sum().item()",
              visible=r"read at position i-1"),
        Wrong("mean_not_sum", _SLP + "    log_probs = F.log_softmax(model(idx[:, :-1]), dim=-1)[0]\n"
                                    "    return log_probs.gather(-1, idx[0, 1:, None]).mean().item()",
              visible=r"4 predictions of log 1/V"),
        Wrong("probability_not_log", _SLP + "    log_probs = F.log_softmax(model(idx[:, :-1]), dim=-1)[0]\n"
                                           "    return log_probs.gather(-1, idx[0, 1:, None]).sum().exp().item()",
              visible=r"4 predictions of log 1/V"),
        Wrong("returns_tensor", _SLP + "    log_probs = F.log_softmax(model(idx[:, :-1]), dim=-1)[0]\n"
                                      "    return log_probs.gather(-1, idx[0, 1:, None]).sum()",
              visible=r"float"),
        Wrong("one_call_per_token", _SLP + "    total = 0.0\n"
                                          "    for i in range(1, len(ids)):\n"
                                          "        total += F.log_softmax(model(idx[:, :i]), dim=-1)[0, -1, ids[i]].item()\n"
                                          "    return total",
              visible=r"call the model once"),
    ],
    "ex3_audit_evaluator": [
        Wrong("uniform_only", _AUD + "    return math.isclose(mean_nll(UniformLM(BaselineConfig(5)), [0, 1, 2, 3]), math.log(5), rel_tol=1e-4)"),
        Wrong("always_true", _AUD + "    return True", visible=r"bits instead of nats passed your audit"),
        Wrong("reference_not_shifted", _AUD + _TABLE +
              "    ids = torch.randint(0, 6, (20,), generator=g)\n"
              "    with torch.no_grad():\n"
              "        log_probs = F.log_softmax(table(ids[None])[0].double(), dim=-1)  # (n, V): position t scores x_t?\n"
              "    expected = -float(log_probs[torch.arange(20), ids].mean())\n"
              "    return math.isclose(mean_nll(table, ids.tolist()), expected, rel_tol=1e-4)",
              visible=r"a correct evaluator was judged broken"),
        Wrong("exact_equality", _AUD + _TABLE +
              "    for n in (5, 30):\n"
              "        ids = torch.randint(0, 6, (n,), generator=g)\n"
              "        expected = -F.log_softmax(table(ids[None, :-1]), dim=-1).gather(-1, ids[None, 1:, None]).mean().item()\n"
              "        if mean_nll(table, ids.tolist()) != expected:\n"
              "            return False\n"
              "    return True"),
        Wrong("two_token_texts_only", _AUD + _TABLE +
              "    for model in (UniformLM(BaselineConfig(6)), table):\n"
              "        for first in range(6):\n"
              "            ids = [first, (first + 1) % 6]\n"
              "            with torch.no_grad():\n"
              "                expected = -float(F.log_softmax(model(torch.tensor([[first]]))[0, 0].double(), dim=-1)[ids[1]])\n"
              "            if not math.isclose(mean_nll(model, ids), expected, rel_tol=1e-4, abs_tol=1e-6):\n"
              "                return False\n"
              "    return True"),
    ],
    "ex4_fit_bigram_table": [
        Wrong("too_few_steps", _FIT.format(optimizer="torch.optim.Adam(model.parameters(), lr=0.5)", steps=5, target="ids[1:]"),
              visible=r"train longer or with a larger learning rate"),
        Wrong("sgd_small_lr", _FIT.format(optimizer="torch.optim.SGD(model.parameters(), lr=0.05)", steps=300, target="ids[1:]"),
              visible=r"train longer or with a larger learning rate"),
        Wrong("targets_not_shifted", _FIT.format(optimizer="torch.optim.Adam(model.parameters(), lr=0.5)", steps=300,
                                                 target="ids[:-1]"),
              visible=r"train longer or with a larger learning rate"),
        Wrong("stops_early", _FIT.format(optimizer="torch.optim.Adam(model.parameters(), lr=0.5)", steps=10, target="ids[1:]"),
              visible=None),
    ],
}
DELEGATIONS = {
    "ex1_cross_entropy": [
        Delegation("alias", "from torch.nn.functional import cross_entropy as ce\n\n\n"
                            "def cross_entropy(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:\n"
                            "    return ce(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))",
                   denied="torch.nn.functional.cross_entropy"),
    ],
    "ex2_sequence_log_prob": [
        Delegation("copy_before_test", "def sequence_log_prob(model, ids: list[int]) -> float:\n"
                                       "    return float(_log_probs_of(model, ids).sum())",
                   before="from utils.evaluation import token_log_probs\n\n_log_probs_of = token_log_probs",
                   denied="utils.evaluation.token_log_probs"),
    ],
    "ex3_audit_evaluator": [
        Delegation("module_access", "import utils.evaluation as ev\n\n\n" + _AUD + _TABLE +
                   "    for model in (UniformLM(BaselineConfig(6)), table):\n"
                   "        for n in (2, 5, 30):\n"
                   "            ids = torch.randint(0, 6, (n,), generator=g).tolist()\n"
                   "            expected = -float(ev.token_log_probs(model, ids).double().mean())\n"
                   "            if not math.isclose(mean_nll(model, ids), expected, rel_tol=1e-4, abs_tol=1e-6):\n"
                   "                return False\n"
                   "    return True",
                   denied="utils.evaluation.token_log_probs"),
    ],
    "ex4_fit_bigram_table": [
        Delegation("shared_loop", "from utils.batching import batch_sampler\nfrom utils.training import TrainConfig, train\n\n\n"
                                  "def fit_bigram_table(ids: torch.Tensor, vocab_size: int) -> BigramTableLM:\n"
                                  "    model = BigramTableLM(BaselineConfig(vocab_size))\n"
                                  "    train(model, batch_sampler(ids, 32, 64), TrainConfig(steps=300, lr=0.3, progress=False))\n"
                                  "    return model",
                   denied="utils.training.train"),
    ],
}
