"""Recurrent language model: one hidden state carries the whole past, h_t = tanh(W_hh h_{t-1} + W_xh x_t + b).

    x_t    = E[idx_t]                        embedding of the current token
    h_t    = cell(x_t, h_{t-1}), h_0 = 0      "tanh" (Elman) or "gru" (utils.gated_rnn)
    logits = W_out h_t + b_out               scores the next token

The weights live in torch.nn.RNN / torch.nn.GRU modules, and forward runs their compiled
loop over time (step t needs h_{t-1}, so it is a loop whatever the implementation).
hidden_states() runs the same recurrence written out in Python, one tensor per step, for
teaching and for gradients with respect to every h_t; the tests hold the two equal.
start_state()/step() carry h between calls, so generation costs O(1) per token.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from utils.interface import LanguageModel, register_model

CELL_KINDS = ("tanh", "gru")


class RecurrentCell(nn.Module):
    """A recurrence whose weights live in a one-layer torch module (nn.RNN / nn.GRU, batch_first)."""

    rnn: nn.RNNBase

    @property
    def weight_ih(self) -> torch.Tensor:
        """Input-to-hidden weights (W_xh; stacked per gate for gated cells), shape (G, E)."""
        return self.rnn.weight_ih_l0

    @property
    def weight_hh(self) -> torch.Tensor:
        """Hidden-to-hidden weights (W_hh; stacked per gate for gated cells), shape (G, H)."""
        return self.rnn.weight_hh_l0

    def run(self, x: torch.Tensor, h0: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """All states (B, T, H) and the last one (B, H) for inputs (B, T, E) from h0 (B, H)."""
        states, last = self.rnn(x, h0.unsqueeze(0).contiguous())  # (B, T, H), (1, B, H)
        return states, last[0]

    def project_inputs(self, x: torch.Tensor) -> torch.Tensor:
        """The input's share of every step, computed for all steps at once: (B, T, E) -> (B, T, G)."""
        raise NotImplementedError

    def step(self, projected_x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        """h_t from the projected input (B, G) and h_{t-1} (B, H), written out."""
        raise NotImplementedError


class TanhRNNCell(RecurrentCell):
    """h_t = tanh(W_hh h_{t-1} + W_xh x_t + b): `run` over a sequence (torch's kernel), `step` written out."""

    def __init__(self, d_input: int, d_hidden: int):
        super().__init__()
        self.d_hidden = d_hidden
        self.rnn = nn.RNN(d_input, d_hidden, nonlinearity="tanh", batch_first=True)  # uniform(+-1/sqrt(H)) init

    @property
    def bias(self) -> torch.Tensor:
        """b, shape (H,): torch keeps two bias vectors, and only their sum matters."""
        return self.rnn.bias_ih_l0 + self.rnn.bias_hh_l0

    def project_inputs(self, x: torch.Tensor) -> torch.Tensor:
        """W_xh x_t + b for every time step: (B, T, E) -> (B, T, H)."""
        return x @ self.weight_ih.T + self.bias  # (B, T, H)

    def step(self, projected_x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        """h_t from the projected input (B, H) and h_{t-1} (B, H), written out."""
        return torch.tanh(projected_x + h @ self.weight_hh.T)  # (B, H)


@dataclass
class RNNConfig:
    """Sizes of the recurrent language model."""

    vocab_size: int
    d_embed: int = 32  # size of each token's embedding
    d_hidden: int = 128  # size of the hidden state h_t
    cell: str = "tanh"  # "tanh" (plain RNN) or "gru" (gated)

    def __post_init__(self) -> None:
        if self.vocab_size < 1 or self.d_embed < 1 or self.d_hidden < 1:
            raise ValueError(f"vocab_size, d_embed and d_hidden must all be >= 1, got {self}")
        if self.cell not in CELL_KINDS:
            raise ValueError(f"unknown cell {self.cell!r}: use one of {', '.join(CELL_KINDS)}")


@register_model
class RNNLM(LanguageModel):
    """Embedding -> recurrent cell over time -> linear read-out of h_t at every position."""

    config_class = RNNConfig

    def __init__(self, config: RNNConfig):
        super().__init__()
        self.config, self.vocab_size = config, config.vocab_size
        self.context_length = None  # the state summarises any length of past
        self.embedding = nn.Embedding(config.vocab_size, config.d_embed)
        from utils.gated_rnn import GRUCell  # imported here: gated_rnn builds on RecurrentCell above

        cell_class = TanhRNNCell if config.cell == "tanh" else GRUCell
        self.cell = cell_class(config.d_embed, config.d_hidden)
        self.output = nn.Linear(config.d_hidden, config.vocab_size)
        with torch.no_grad():  # small read-out: the first loss is close to log V
            self.output.weight.mul_(0.1)
            self.output.bias.zero_()

    def initial_hidden(self, batch_size: int) -> torch.Tensor:
        """h_0 = 0, shape (B, H)."""
        return torch.zeros(batch_size, self.config.d_hidden, device=self.device)

    def _check_h0(self, idx: torch.Tensor, h0: torch.Tensor | None) -> torch.Tensor:
        self.validate_input(idx)
        if h0 is None:
            return self.initial_hidden(idx.shape[0])
        if h0.shape != (idx.shape[0], self.config.d_hidden):
            raise ValueError(f"h0 must have shape (B, H) = {(idx.shape[0], self.config.d_hidden)}, got {tuple(h0.shape)}")
        return h0

    def hidden_states(self, idx: torch.Tensor, h0: torch.Tensor | None = None) -> list[torch.Tensor]:
        """[h_1, ..., h_T], each (B, H), by the written-out recurrence (separate tensors, for gradients)."""
        h = self._check_h0(idx, h0)  # (B, H)
        projected = self.cell.project_inputs(self.embedding(idx))  # (B, T, G)
        states = []
        for t in range(idx.shape[1]):  # sequential: step t needs h_{t-1}
            h = self.cell.step(projected[:, t], h)  # (B, H)
            states.append(h)
        return states

    def run(self, idx: torch.Tensor, h0: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """States after every token (B, T, H) and the last state (B, H), with torch's compiled loop."""
        h = self._check_h0(idx, h0)  # (B, H)
        return self.cell.run(self.embedding(idx), h)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        """Logits at every position from the hidden state after reading that token."""
        states, _ = self.run(idx)  # (B, T, H)
        return self.output(states)  # (B, T, V)

    def start_state(self, batch_size: int = 1) -> torch.Tensor:
        """h_0 for incremental generation."""
        return self.initial_hidden(batch_size)

    def step(self, new_idx: torch.Tensor, state: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Read the new tokens (B, T') from state h; return logits for the next token (B, V) and the new h."""
        if state is None:
            state = self.initial_hidden(new_idx.shape[0])
        _, h = self.run(new_idx, state)  # (B, H)
        return self.output(h), h


def hidden_gradient_norms(model: RNNLM, idx: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """||d loss_T / d h_t|| for t = 1..T, where loss_T is the loss at the last position only: (T,).

    Entry T-1-k is the gradient norm at distance k in time from the scored position:
    backpropagation through time multiplies it by one Jacobian dh_{t+1}/dh_t per step.
    """
    if idx.shape != targets.shape or idx.dim() != 2:
        raise ValueError(f"idx and targets must both be (B, T), got {tuple(idx.shape)} and {tuple(targets.shape)}")
    states = model.hidden_states(idx)  # T x (B, H)
    logits = model.output(states[-1])  # (B, V)
    loss = nn.functional.cross_entropy(logits, targets[:, -1])
    grads = torch.autograd.grad(loss, states)  # T x (B, H)
    return torch.stack([g.norm(dim=-1).mean() for g in grads])  # (T,)
