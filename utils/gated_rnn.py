"""The gated recurrent unit (Cho et al., 2014): gates decide how much of the old state to keep.

    r_t = sigmoid(W_ir x_t + b_ir + W_hr h_{t-1} + b_hr)          reset gate
    z_t = sigmoid(W_iz x_t + b_iz + W_hz h_{t-1} + b_hz)          update gate
    n_t = tanh(W_in x_t + b_in + r_t * (W_hn h_{t-1} + b_hn))     candidate state
    h_t = (1 - z_t) * n_t + z_t * h_{t-1}

When z_t is close to 1 the state is copied forward almost unchanged, so the gradient
through many steps need not shrink the way it does through repeated tanh(W_hh h).
The weights live in a torch.nn.GRU (stacked in the order r, z, n), whose compiled loop
runs the sequence; `step` writes one step out with the same weights.
"""

from __future__ import annotations

import torch
from torch import nn

from utils.rnn import RecurrentCell


class GRUCell(RecurrentCell):
    """GRU recurrence: `run` over a whole sequence (torch's kernel), `step` written out for one step."""

    def __init__(self, d_input: int, d_hidden: int):
        super().__init__()
        self.d_hidden = d_hidden
        self.rnn = nn.GRU(d_input, d_hidden, batch_first=True)  # uniform(-1/sqrt(H), 1/sqrt(H)) init

    def project_inputs(self, x: torch.Tensor) -> torch.Tensor:
        """[W_ir; W_iz; W_in] x + b_i for every time step: (B, T, E) -> (B, T, 3H)."""
        return x @ self.weight_ih.T + self.rnn.bias_ih_l0  # (B, T, 3H)

    def step(self, projected_x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        """h_t from the projected input (B, 3H) and h_{t-1} (B, H), written out."""
        x_r, x_z, x_n = projected_x.chunk(3, dim=-1)  # 3 x (B, H)
        h_r, h_z, h_n = (h @ self.weight_hh.T + self.rnn.bias_hh_l0).chunk(3, dim=-1)  # 3 x (B, H)
        reset = torch.sigmoid(x_r + h_r)  # (B, H)
        update = torch.sigmoid(x_z + h_z)  # (B, H)
        candidate = torch.tanh(x_n + reset * h_n)  # (B, H)
        return (1 - update) * candidate + update * h  # (B, H)
