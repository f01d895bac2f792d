"""Delegations for notebook 04's exercises and their plausible wrong answers."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "04_recurrent_networks.ipynb"
_GRU = ("def gru_step(x_t, h_prev, W_ih, W_hh, b_ih, b_hh):\n"
        "    x_r, x_z, x_n = (x_t @ W_ih.T + b_ih).chunk(3, dim=-1)\n")
_CLIP = ("def clipped_sgd_step(model, x, y, lr: float, max_norm: float) -> tuple[float, float]:\n"
         "    parameters = [p for p in model.parameters() if p.requires_grad]\n"
         "    for p in parameters:\n        p.grad = None\n"
         "    loss = model.loss(x, y)\n    loss.backward()\n")
_GLOBAL = "    norm = torch.sqrt(sum((p.grad.double() ** 2).sum() for p in parameters)).item()\n"
_STEP = ("    with torch.no_grad():\n        for p in parameters:\n"
         "            p -= lr * scale * p.grad\n    return loss.item(), {norm}")
_INIT = "def recurrent_init(d_hidden: int, generator: torch.Generator) -> torch.Tensor:\n"
_QR = "    rotation, _ = torch.linalg.qr(torch.randn(d_hidden, d_hidden, generator=generator))\n"
WRONG = {
    "ex1_gru_step": [
        Wrong("b_hn_outside_reset", _GRU + "    H = h_prev.shape[-1]\n"
              "    h_r, h_z, h_n = (h_prev @ W_hh.T).chunk(3, dim=-1)\n"
              "    r = torch.sigmoid(x_r + h_r + b_hh[:H])\n    z = torch.sigmoid(x_z + h_z + b_hh[H:2 * H])\n"
              "    n = torch.tanh(x_n + b_hh[2 * H:] + r * h_n)\n    return (1 - z) * n + z * h_prev",
              visible=r"INSIDE the reset gate"),
        Wrong("z_swapped", _GRU + "    h_r, h_z, h_n = (h_prev @ W_hh.T + b_hh).chunk(3, dim=-1)\n"
              "    r = torch.sigmoid(x_r + h_r)\n    z = torch.sigmoid(x_z + h_z)\n"
              "    n = torch.tanh(x_n + r * h_n)\n    return z * n + (1 - z) * h_prev",
              visible=r"state must be copied"),
        Wrong("gates_in_order_z_r", _GRU.replace("x_r, x_z, x_n", "x_z, x_r, x_n")
              + "    h_z, h_r, h_n = (h_prev @ W_hh.T + b_hh).chunk(3, dim=-1)\n"
              "    r = torch.sigmoid(x_r + h_r)\n    z = torch.sigmoid(x_z + h_z)\n"
              "    n = torch.tanh(x_n + r * h_n)\n    return (1 - z) * n + z * h_prev",
              visible=r"SECOND chunk"),
        Wrong("no_reset_gate", _GRU + "    h_r, h_z, h_n = (h_prev @ W_hh.T + b_hh).chunk(3, dim=-1)\n"
              "    z = torch.sigmoid(x_z + h_z)\n"
              "    n = torch.tanh(x_n + h_n)\n    return (1 - z) * n + z * h_prev",
              visible=r"INSIDE the reset gate"),
    ],
    "ex2_clipped_sgd_step": [
        Wrong("clips_each_tensor", _CLIP + _GLOBAL
              + "    with torch.no_grad():\n        for p in parameters:\n"
                "            p -= lr * min(1.0, max_norm / (p.grad.norm().item() + 1e-12)) * p.grad\n"
                "    return loss.item(), norm",
              visible=r"clip the global norm"),
        Wrong("norm_after_clipping", _CLIP + _GLOBAL + "    scale = min(1.0, max_norm / (norm + 1e-12))\n"
              + _STEP.format(norm="min(norm, max_norm)"),
              visible=r"norm \*before\* clipping"),
        Wrong("never_clips", _CLIP + _GLOBAL + "    scale = 1.0\n" + _STEP.format(norm="norm"),
              visible=r"the size of the update"),
    ],
    "ex3_recurrent_init": [
        Wrong("default_uniform", _INIT + "    return torch.empty(d_hidden, d_hidden).uniform_(-d_hidden**-0.5, d_hidden**-0.5, generator=generator)",
              visible=r"it vanishes"),
        Wrong("zeros", _INIT + "    return torch.zeros(d_hidden, d_hidden)", visible=r"it vanishes"),
        Wrong("rotation_too_small", _INIT + _QR + "    return 0.8 * rotation", visible=r"it vanishes"),
        Wrong("rotation_too_large", _INIT + _QR + "    return 1.6 * rotation", visible=r"it explodes"),
    ],
}
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
    "ex3_recurrent_init": [
        Delegation("torch_orthogonal", "def recurrent_init(d_hidden: int, generator: torch.Generator) -> torch.Tensor:\n"
                                       "    return torch.nn.init.orthogonal_(torch.empty(d_hidden, d_hidden), generator=generator)",
                   denied="torch.nn.init.orthogonal_"),
    ],
}
