"""Delegations for notebook 01's exercises and their plausible wrong answers."""

from tests.wrong_answers.spec import Delegation, Right, Wrong

NOTEBOOK = "01_autoregression.ipynb"
_CE = "def cross_entropy(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:\n"
_TLP = "def texts_log_prob(model, texts: list[list[int]], boundary: int) -> torch.Tensor:\n"
_FRAME = ("    longest = max(len(text) for text in texts)\n"
          "    framed = torch.full((len(texts), longest + 2), {filler})\n"
          "    for row, text in enumerate(texts):\n"
          "        framed[row, 0] = boundary\n"
          "        framed[row, 1 : len(text) + 2] = torch.tensor([*text, boundary], dtype=torch.long)\n"
          "    lengths = torch.tensor([len(text) for text in texts])  # (N,)\n")
_READ = ("    log_probs = F.log_softmax(model(framed[:, :-1]), dim=-1)  # (N, L + 1, V)\n"
         "    picked = log_probs.gather(-1, framed[:, 1:, None]).squeeze(-1)  # (N, L + 1)\n")
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
    "ex2_texts_log_prob": [
        Wrong("left_padded", _TLP +
              "    longest = max(len(text) for text in texts)\n"
              "    framed = torch.full((len(texts), longest + 2), boundary)\n"
              "    for row, text in enumerate(texts):  # the texts end together: the boundaries fill the front\n"
              "        framed[row, longest + 1 - len(text) : longest + 1] = torch.tensor(text, dtype=torch.long)\n"
              "    lengths = torch.tensor([len(text) for text in texts])  # (N,)\n" + _READ +
              "    counted = torch.arange(longest + 1)[None] >= (longest - lengths)[:, None]\n"
              "    return picked.where(counted, torch.zeros(())).sum(dim=1)",
              visible=r"must not change a text's score"),
        Wrong("no_end_boundary", _TLP + _FRAME.format(filler="boundary") + _READ +
              "    counted = torch.arange(longest + 1)[None] < lengths[:, None]  # x_1..x_n only\n"
              "    return picked.where(counted, torch.zeros(())).sum(dim=1)",
              visible=r"add up to"),
        Wrong("no_start_boundary", _TLP +
              "    longest = max(len(text) for text in texts)\n"
              "    framed = torch.full((len(texts), longest + 1), boundary)  # x_1 .. x_n, boundary\n"
              "    for row, text in enumerate(texts):\n"
              "        framed[row, : len(text)] = torch.tensor(text, dtype=torch.long)\n"
              "    lengths = torch.tensor([len(text) for text in texts])  # (N,)\n"
              "    log_probs = F.log_softmax(model(framed[:, :-1]), dim=-1)  # (N, L, V)\n"
              "    picked = log_probs.gather(-1, framed[:, 1:, None]).squeeze(-1)  # (N, L)\n"
              "    counted = torch.arange(longest)[None] < lengths[:, None]  # x_2..x_n and the end\n"
              "    return picked.where(counted, torch.zeros(())).sum(dim=1)",
              visible=r"add up to"),
        Wrong("filler_counted", _TLP + _FRAME.format(filler="boundary") + _READ +
              "    return picked.sum(dim=1)",
              visible=r"add up to"),
        Wrong("mean_not_sum", _TLP + _FRAME.format(filler="boundary") + _READ +
              "    counted = torch.arange(longest + 1)[None] <= lengths[:, None]\n"
              "    return picked.where(counted, torch.zeros(())).sum(dim=1) / (lengths + 1)",
              visible=r"add up to"),
        Wrong("factor_at_own_position", _TLP + _FRAME.format(filler="boundary") +
              "    log_probs = F.log_softmax(model(framed), dim=-1)  # (N, L + 2, V)\n"
              "    picked = log_probs[:, 1:].gather(-1, framed[:, 1:, None]).squeeze(-1)  # position t+1 scores x_{t+1}\n"
              "    counted = torch.arange(longest + 1)[None] <= lengths[:, None]\n"
              "    return picked.where(counted, torch.zeros(())).sum(dim=1)",
              visible=r"add up to"),
        Wrong("one_call_per_text", _TLP +
              "    scores = []\n"
              "    for text in texts:\n"
              "        framed = torch.tensor([[boundary, *text, boundary]])  # (1, n + 2)\n"
              "        log_probs = F.log_softmax(model(framed[:, :-1]), dim=-1)[0]  # (n + 1, V)\n"
              "        scores.append(log_probs.gather(-1, framed[0, 1:, None]).sum())\n"
              "    return torch.stack(scores)",
              visible=r"call the model once"),
        Wrong("returns_list", _TLP + _FRAME.format(filler="boundary") + _READ +
              "    counted = torch.arange(longest + 1)[None] <= lengths[:, None]\n"
              "    return picked.where(counted, torch.zeros(())).sum(dim=1).tolist()",
              visible=r"torch.Tensor|Tensor"),
        Wrong("boundary_fixed_at_zero", _TLP.replace("boundary: int", "boundary: int = 0") +
              "    boundary = 0  # the boundary of the examples\n" + _FRAME.format(filler="boundary") + _READ +
              "    counted = torch.arange(longest + 1)[None] <= lengths[:, None]\n"
              "    return picked.where(counted, torch.zeros(())).sum(dim=1)"),
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
    "ex2_texts_log_prob": [
        Delegation("copy_before_test", _TLP + "    return torch.stack([_log_probs_of(model, [boundary, *text, boundary]).sum() "
                                              "for text in texts])",
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
RIGHT = {  # other correct answers: they must earn full marks
    "ex2_texts_log_prob": [
        Right("filler_zero_cumsum", _TLP + _FRAME.format(filler="0") + _READ +
              "    running = picked.cumsum(dim=1)  # (N, L + 1): the log-probability of each prefix and its next token\n"
              "    return running.gather(1, lengths[:, None]).squeeze(1)  # stop at the closing boundary"),
        Right("pad_sequence", "from torch.nn.utils.rnn import pad_sequence\n\n\n" + _TLP +
              "    rows = [torch.tensor([boundary, *text, boundary], dtype=torch.long) for text in texts]\n"
              "    framed = pad_sequence(rows, batch_first=True, padding_value=boundary)  # (N, L + 2)\n"
              "    log_probs = torch.log_softmax(model(framed[:, :-1]).double(), dim=-1)  # (N, L + 1, V)\n"
              "    picked = log_probs.gather(-1, framed[:, 1:, None])[..., 0]  # (N, L + 1)\n"
              "    real = torch.stack([torch.arange(framed.shape[1] - 1) < len(row) - 1 for row in rows])  # (N, L + 1)\n"
              "    return (picked * real).sum(dim=1)"),
    ],
}

from tests.wrong_answers.red_team_1 import adopt  # noqa: E402

# The third exercise red team's (written from the released notebook alone): tests/wrong_answers/red_team_3.
adopt("01", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=3)
