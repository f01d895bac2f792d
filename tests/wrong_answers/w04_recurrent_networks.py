"""Delegations for notebook 04's exercises (its wrong answers come with the notebook's own issue)."""

from tests.wrong_answers.spec import Delegation

NOTEBOOK = "04_recurrent_networks.ipynb"
WRONG: dict = {}
DELEGATIONS = {
    "ex1_gru_step": [
        Delegation("torch_builtin", "def gru_step(x_t, h_prev, W_ih, W_hh, b_ih, b_hh):\n"
                                    "    return torch.gru_cell(x_t, h_prev, W_ih, W_hh, b_ih, b_hh)",
                   denied="torch.gru_cell"),
    ],
    "ex2_clipped_sgd_step": [
        Delegation("module_access", "import torch.nn.utils as nn_utils\n\n\n"
                                    "def clipped_sgd_step(model, x, y, lr: float, max_norm: float) -> tuple[float, float]:\n"
                                    "    model.zero_grad()\n"
                                    "    loss = model.loss(x, y)\n"
                                    "    loss.backward()\n"
                                    "    norm = float(nn_utils.clip_grad_norm_(model.parameters(), max_norm))\n"
                                    "    with torch.no_grad():\n"
                                    "        for p in model.parameters():\n"
                                    "            if p.grad is not None:\n"
                                    "                p -= lr * p.grad\n"
                                    "    return loss.item(), norm",
                   denied="torch.nn.utils.clip_grad_norm_"),
    ],
}
