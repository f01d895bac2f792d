"""Delegations for notebook 04's exercises, their plausible wrong answers and other right answers."""

from tests.wrong_answers.spec import Delegation, Right, Wrong

NOTEBOOK = "04_recurrent_networks.ipynb"
_GRU = ("def gru_step(x_t, h_prev, W_ih, W_hh, b_ih, b_hh):\n"
        "    x_r, x_z, x_n = (x_t @ W_ih.T + b_ih).chunk(3, dim=-1)\n")
_CLIP = ("def clipped_sgd_step(model, x, y, lr: float, max_norm: float) -> tuple[float, float]:\n"
         "    parameters = [p for p in model.parameters() if p.requires_grad]\n")
_ZERO = "    for p in parameters:\n        p.grad = None\n"
_BACKWARD = "    loss = model.loss(x, y)\n    loss.backward()\n"
_NORM = ("    grads = [p.grad for p in parameters]\n"
         "    norm = torch.sqrt(sum((g.double() ** 2).sum() for g in grads)).item()\n")
_UPDATE = "    with torch.no_grad():\n        for p in parameters:\n            p -= lr * p.grad\n    return loss.item(), norm\n"
_LINE = '\n\nBUGGY_LINE = "g = g * (max_norm / norm)"\n'
_INIT = ("def recurrent_init(rnn, ids: torch.Tensor, generator: torch.Generator) -> torch.Tensor:\n"
         "    d_hidden = rnn.cell.d_hidden\n")
_QR = "    rotation, _ = torch.linalg.qr(torch.randn(d_hidden, d_hidden, generator=generator))\n"
_PROBE = ("    def kept(gain):\n        with torch.no_grad():\n            rnn.cell.weight_hh.copy_(GAIN_TIMES_MATRIX)\n"
          "        norms = hidden_gradient_norms(rnn, ids[:, :-1], ids[:, 1:])\n        return float(norms[0] / norms[-1])\n")
_BISECT = ("    low, high = 0.5, 16.0\n    for _ in range(30):\n        middle = (low * high) ** 0.5\n"
           "        low, high = (middle, high) if kept(middle) < 1 else (low, middle)\n")
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
        # the colleague's step handed in as it was, the update line blamed: nothing is clipped
        Wrong("colleague_unchanged", _CLIP + _ZERO + _BACKWARD + _NORM
              + "    if norm > max_norm:\n        for g in grads:\n            g = g * (max_norm / norm)\n" + _UPDATE
              + '\n\nBUGGY_LINE = "p -= lr * p.grad"\n',
              visible=r"should be 0\.1 long"),
        # fixed, but the gradients are never reset: they pile up from one call to the next (a single step is right)
        Wrong("accumulates_gradients", _CLIP + _BACKWARD + _NORM
              + "    if norm > max_norm:\n        for g in grads:\n            g *= max_norm / norm\n" + _UPDATE + _LINE),
        # the right step, the wrong line named
        Wrong("blames_the_update", _CLIP + _ZERO + _BACKWARD + _NORM
              + "    if norm > max_norm:\n        for g in grads:\n            g *= max_norm / norm\n" + _UPDATE
              + '\n\nBUGGY_LINE = "p -= lr * p.grad"\n'),
        # the `if` dropped: every gradient is rescaled to norm max_norm, small ones blown up
        Wrong("always_rescales", _CLIP + _ZERO + _BACKWARD + _NORM
              + "    for g in grads:\n        g *= max_norm / norm\n" + _UPDATE + _LINE,
              visible=r"leave such a gradient as it is"),
    ],
    "ex3_recurrent_init": [
        # section 3's construction copied as it is: an orthogonal matrix, gain 1; with saturating inputs it vanishes
        Wrong("copy_on_screen", _INIT + _QR + "    return rotation", visible=r"it vanishes"),
        # one gain for every model, right for inputs of standard deviation 1 only (passes the visible checks)
        Wrong("fixed_gain", _INIT + _QR + "    return 2.0 * rotation"),
        # the gain from the inputs' saturation alone, ignoring what the recurrent part adds
        Wrong("inputs_only_theory", _INIT + _QR + "    with torch.no_grad():\n"
              "        pre = rnn.embedding(ids) @ rnn.cell.weight_ih.T + rnn.cell.bias\n"
              "    return rotation / float((1 - torch.tanh(pre) ** 2).mean())", visible=r"it vanishes"),
        # calibrated, but on a scaled identity: with saturating inputs no gain keeps its gradient level
        Wrong("identity_calibrated", _INIT + _PROBE.replace("GAIN_TIMES_MATRIX", "gain * torch.eye(d_hidden)")
              + _BISECT + "    return low * torch.eye(d_hidden)", visible=r"it vanishes"),
        # shrinks the model's inputs so that section 3's matrix works: the judge uses the model as it was
        Wrong("shrinks_inputs", _INIT + _QR + "    with torch.no_grad():\n        rnn.embedding.weight.mul_(0.01)\n"
              "    return rotation", visible=r"it vanishes"),
        Wrong("rotation_too_large", _INIT + _QR + "    return 3.0 * rotation", visible=r"it explodes"),
    ],
}
RIGHT = {
    "ex2_clipped_sgd_step": [
        # the clipped gradients kept in a new list and applied from it; the norm in float32
        Right("new_list_applied", _CLIP + _ZERO + _BACKWARD
              + "    grads = [p.grad for p in parameters]\n"
              "    norm = torch.cat([g.flatten() for g in grads]).norm().item()\n"
              "    if norm > max_norm:\n        grads = [g * (max_norm / norm) for g in grads]\n"
              "    with torch.no_grad():\n        for p, g in zip(parameters, grads):\n            p -= lr * g\n"
              "    return loss.item(), norm\n" + _LINE),
        # the scale folded into the update, zero_grad and float32 norms; the line copied with other spacing and a comment
        Right("scale_in_update", _CLIP + "    model.zero_grad()\n" + _BACKWARD
              + "    norm = float(torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad) for p in parameters])))\n"
              "    with torch.no_grad():\n        for p in parameters:\n"
              "            p.add_(p.grad, alpha=-lr * min(1.0, max_norm / norm))\n"
              "    return loss.item(), norm\n"
              '\n\nBUGGY_LINE = "  g = g*(max_norm/norm)   # rebinds g, p.grad unchanged"\n'),
    ],
    "ex3_recurrent_init": [
        # a fixed-point iteration on the gain instead of a bisection; the model itself used as the probe
        Right("fixed_point_gain", _INIT + _QR + "    gain = 1.0\n    for _ in range(40):\n"
              "        with torch.no_grad():\n            rnn.cell.weight_hh.copy_(gain * rotation)\n"
              "        norms = hidden_gradient_norms(rnn, ids[:, :-1], ids[:, 1:])\n"
              "        gain /= max(float(norms[0] / norms[-1]), 1e-30) ** (1 / (ids.shape[1] - 2))\n"
              "    return gain * rotation"),
        # a Gaussian matrix of spectral norm 1 (not orthogonal), its gain found by bisection
        Right("gaussian_calibrated", _INIT + "    matrix = torch.randn(d_hidden, d_hidden, generator=generator)\n"
              "    matrix = matrix / torch.linalg.matrix_norm(matrix, ord=2)\n"
              + _PROBE.replace("GAIN_TIMES_MATRIX", "gain * matrix") + _BISECT + "    return low * matrix"),
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
                                    "    return loss.item(), norm\n" + _LINE,
                   denied="torch.nn.utils.clip_grad_norm_"),
    ],
    "ex3_recurrent_init": [
        # section 3's recipe with a calibrated gain, the orthogonal matrix from torch.nn.init
        Delegation("torch_orthogonal", _INIT
                   + "    rotation = torch.nn.init.orthogonal_(torch.empty(d_hidden, d_hidden), generator=generator)\n"
                   + _PROBE.replace("GAIN_TIMES_MATRIX", "gain * rotation") + _BISECT + "    return low * rotation",
                   denied="torch.nn.init.orthogonal_"),
    ],
}

from tests.wrong_answers.red_team_1 import adopt  # noqa: E402

# The third exercise red team's (written from the released notebook alone): tests/wrong_answers/red_team_3.
adopt("04", WRONG, DELEGATIONS, RIGHT, bypasses=set(), wrong_right=set(), team=3)
