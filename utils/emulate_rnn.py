"""torch's fused recurrent kernels (rnn_tanh, rnn_relu, gru, lstm) written out step by step, each matrix product's
inputs passed through `round_inputs` first: how utils.emulate_precision gives an RNN the precision of a cuDNN kernel.

cuDNN computes the input projections of all steps as one matrix product, then one product with h_{t-1} per step;
the loops below do the same, so the state h_{t-1} is rounded at every step, as the GPU's is. The arguments are those
of torch._VF.rnn_tanh & co. (what nn.RNN, nn.GRU and nn.LSTM call); packed sequences and projected LSTMs are refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch
import torch.nn.functional as F

Rounding = Callable[[torch.Tensor], torch.Tensor]


def _layer_params(params: Sequence[torch.Tensor], has_biases: bool, kind: str) -> list[tuple[torch.Tensor, ...]]:
    """The flat weight list split per (layer, direction): (w_ih, w_hh, b_ih, b_hh), biases None when absent."""
    per = 4 if has_biases else 2
    if len(params) % per:
        raise NotImplementedError(f"emulated {kind}: {len(params)} weights is not a multiple of {per} "
                                  "(an LSTM with proj_size is not emulated); unset LM_PRECISION to run it natively")
    groups = [tuple(params[i:i + per]) for i in range(0, len(params), per)]
    return [group if has_biases else (*group, None, None) for group in groups]


def _cell_step(kind: str, projected_x: torch.Tensor, state, w_hh: torch.Tensor, b_hh: torch.Tensor | None,
               round_inputs: Rounding):
    """One step of `kind` from the input's projection (B, G) and the state (h or (h, c), each (B, H))."""
    h = state[0] if kind == "lstm" else state
    projected_h = F.linear(round_inputs(h), round_inputs(w_hh), b_hh)  # (B, G)
    if kind == "rnn_tanh":
        return torch.tanh(projected_x + projected_h)
    if kind == "rnn_relu":
        return torch.relu(projected_x + projected_h)
    if kind == "gru":  # gates r, z, n; r multiplies the state's share of n, bias included (torch's form)
        x_r, x_z, x_n = projected_x.chunk(3, dim=-1)  # 3 x (B, H)
        h_r, h_z, h_n = projected_h.chunk(3, dim=-1)  # 3 x (B, H)
        reset, update = torch.sigmoid(x_r + h_r), torch.sigmoid(x_z + h_z)
        candidate = torch.tanh(x_n + reset * h_n)
        return (1 - update) * candidate + update * h
    gate_i, gate_f, gate_g, gate_o = (projected_x + projected_h).chunk(4, dim=-1)  # lstm: 4 x (B, H)
    cell = torch.sigmoid(gate_f) * state[1] + torch.sigmoid(gate_i) * torch.tanh(gate_g)
    return torch.sigmoid(gate_o) * torch.tanh(cell), cell


def _run_direction(kind: str, x: torch.Tensor, state, weights: tuple, reverse: bool, round_inputs: Rounding):
    """One layer, one direction over x (T, B, E): outputs (T, B, H) and the last state."""
    w_ih, w_hh, b_ih, b_hh = weights
    projected = F.linear(round_inputs(x), round_inputs(w_ih), b_ih)  # (T, B, G): every step's input at once
    outputs = []
    for t in (range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])):
        state = _cell_step(kind, projected[t], state, w_hh, b_hh, round_inputs)
        outputs.append(state[0] if kind == "lstm" else state)
    if reverse:
        outputs.reverse()
    return torch.stack(outputs), state  # (T, B, H)


def run_recurrent_kernel(kind: str, args: tuple, round_inputs: Rounding):
    """torch.<kind>(*args) (kind: rnn_tanh, rnn_relu, gru or lstm; the unpacked form), written out with rounding."""
    if len(args) != 9 or not isinstance(args[3], bool):  # packed: (data, batch_sizes, hx, params, ...)
        raise NotImplementedError(f"emulated {kind}: only padded (not packed) sequences are emulated; "
                                  "unset LM_PRECISION to run packed sequences natively")
    x, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first = args
    if batch_first:
        x = x.transpose(0, 1)  # (T, B, E)
    directions = 2 if bidirectional else 1
    layers = _layer_params(params, has_biases, kind)
    h_last, c_last = [], []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            state = (hx[0][index], hx[1][index]) if kind == "lstm" else hx[index]
            out, state = _run_direction(kind, x, state, layers[index], direction == 1, round_inputs)
            outputs.append(out)
            h_last.append(state[0] if kind == "lstm" else state)
            if kind == "lstm":
                c_last.append(state[1])
        x = torch.cat(outputs, dim=-1) if directions == 2 else outputs[0]  # (T, B, D * H)
        if dropout > 0 and train and layer < num_layers - 1:
            x = F.dropout(x, dropout, training=True)
    output = x.transpose(0, 1) if batch_first else x
    if kind == "lstm":
        return output, torch.stack(h_last), torch.stack(c_last)
    return output, torch.stack(h_last)


RECURRENT_KERNELS = {torch.rnn_tanh: "rnn_tanh", torch.rnn_relu: "rnn_relu", torch.gru: "gru", torch.lstm: "lstm"}

__all__ = ["RECURRENT_KERNELS", "run_recurrent_kernel"]
