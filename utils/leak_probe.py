"""Leaks that a causal mask does not stop, and tiny models that have them (notebook 08's exercises 1 and 3).

`prefix_attention` is the fixed version of notebook 08's "colleague" attention, which centres its
queries over all positions (so the future reaches the past although the upper triangle of its weights
is exactly 0): every position t gets what the colleague's function gives at t on positions 0..t alone.

`probe_model(kind, ...)` builds a one-layer attention language model whose attention is one of
`ATTENTIONS` (masked, unmasked, a mask that also opens j = i + 1, a softmax over the queries, queries
centred over all positions, keys centred over all positions, a mask that opens the future only to one
token, a finite mask of -12 instead of -inf); `LEAKS[kind]` says whether its outputs at position t depend on tokens after t (keys centred over
all positions shift each query's scores by a constant: no leak, only float rounding). `train_probe`
trains one for a few steps; `bare_forward` hides it behind a plain function of token ids.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

Attend = Callable[[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]
GATE_TOKEN = 0  # the one token the "gated" attention lets earlier positions read
FINITE_MASK = -12.0  # the "finite_mask" attention adds this, not -inf, above the diagonal: future weights near e^-12


def _future(T: int, device: torch.device, opened: int = 0) -> torch.Tensor:
    """(T, T) bool: True where key j > query i + opened."""
    return torch.ones(T, T, dtype=torch.bool, device=device).triu(diagonal=1 + opened)


def _softmax_attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, hidden: torch.Tensor | None,
                    dim: int = -1) -> torch.Tensor:
    """softmax(q k^T / sqrt(d) with `hidden` entries at -inf) @ v over (..., T, d) inputs."""
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5  # (..., T, T)
    if hidden is not None:
        scores = scores.masked_fill(hidden, float("-inf"))
    return torch.softmax(scores, dim=dim) @ v  # (..., T, d_v)


def prefix_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Causal attention with queries centred on the running mean of queries 0..i: q, k (T, d_k), v (T, d_v) -> (T, d_v)."""
    counts = torch.arange(1, q.shape[-2] + 1, device=q.device, dtype=q.dtype)[:, None]  # (T, 1)
    centred = q - q.cumsum(dim=-2) / counts  # (..., T, d_k): query i minus the mean of queries 0..i
    return _softmax_attend(centred, k, v, _future(q.shape[-2], q.device))


def colleague_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Notebook 08's leaky attention: queries and keys centred over all T positions, then masked softmax attention."""
    q = q - q.mean(dim=-2, keepdim=True)  # (..., T, d_k): reads every position, the future included
    k = k - k.mean(dim=-2, keepdim=True)  # (..., T, d_k): a constant per query row, harmless
    return _softmax_attend(q, k, v, _future(q.shape[-2], q.device))


ATTENTIONS: dict[str, Attend] = {
    "masked": lambda q, k, v, ids: _softmax_attend(q, k, v, _future(q.shape[-2], q.device)),
    "unmasked": lambda q, k, v, ids: _softmax_attend(q, k, v, None),
    "one_ahead": lambda q, k, v, ids: _softmax_attend(q, k, v, _future(q.shape[-2], q.device, opened=1)),
    "softmax_over_queries": lambda q, k, v, ids: _softmax_attend(q, k, v, _future(q.shape[-2], q.device), dim=-2),
    "centred_queries": lambda q, k, v, ids: colleague_attention(q, k, v),
    "centred_keys": lambda q, k, v, ids: _softmax_attend(q, k - k.mean(dim=-2, keepdim=True), v,
                                                         _future(q.shape[-2], q.device)),
    "gated": lambda q, k, v, ids: _softmax_attend(
        q, k, v, _future(q.shape[-2], q.device) & (ids != GATE_TOKEN)[..., None, :]),
    "finite_mask": lambda q, k, v, ids: torch.softmax(
        q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5 + FINITE_MASK * _future(q.shape[-2], q.device), dim=-1) @ v,
}
LEAKS = {"masked": False, "unmasked": True, "one_ahead": True, "softmax_over_queries": True, "centred_queries": True,
         "centred_keys": False, "gated": True, "finite_mask": True}


class ProbeLM(torch.nn.Module):
    """One attention layer over token and position embeddings, with a residual and an output projection."""

    def __init__(self, attend: Attend, vocab_size: int, context_length: int, d_model: int = 16, seed: int = 0,
                 key_offset: float = 0.0) -> None:
        super().__init__()
        torch.manual_seed(seed)
        self.attend, self.context_length = attend, context_length
        self.embed = torch.nn.Embedding(vocab_size, d_model)
        self.position = torch.nn.Parameter(torch.randn(context_length, d_model))  # (T_max, D)
        self.q, self.k, self.v = (torch.nn.Linear(d_model, d_model) for _ in range(3))
        self.out = torch.nn.Linear(d_model, vocab_size)
        with torch.no_grad():
            self.k.bias += key_offset  # keys far from 0: centring them rounds

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        """Next-token logits of token ids (B, T), T <= context_length."""
        if idx.shape[-1] > self.context_length:
            raise ValueError(f"at most {self.context_length} tokens, got {idx.shape[-1]}")
        x = self.embed(idx) + self.position[: idx.shape[-1]]  # (B, T, D)
        return self.out(x + self.attend(self.q(x), self.k(x), self.v(x), idx))  # (B, T, V)


def probe_model(kind: str, vocab_size: int, context_length: int, seed: int = 0, key_offset: float = 0.0) -> ProbeLM:
    """An untrained ProbeLM whose attention is ATTENTIONS[kind]."""
    return ProbeLM(ATTENTIONS[kind], vocab_size, context_length, seed=seed, key_offset=key_offset).eval()


def train_probe(model: ProbeLM, tokens: torch.Tensor, steps: int = 40, batch_size: int = 8, seed: int = 0,
                lr: float = 2e-2) -> ProbeLM:
    """Train `model` for `steps` Adam steps on random windows of a 1-D tensor of token ids; returns it in eval mode.

    Adam is written out (torch.optim's first optimizer costs seconds of imports, too slow for a hidden test).
    """
    generator = torch.Generator().manual_seed(seed)
    parameters = [p for p in model.parameters() if p.requires_grad]
    first, second = [torch.zeros_like(p) for p in parameters], [torch.zeros_like(p) for p in parameters]
    T = model.context_length
    model.train()
    for step in range(1, steps + 1):
        starts = torch.randint(0, tokens.numel() - T - 1, (batch_size,), generator=generator)
        windows = torch.stack([tokens[s : s + T + 1] for s in starts.tolist()])  # (B, T + 1)
        logits = model(windows[:, :-1])  # (B, T, V)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), windows[:, 1:].reshape(-1))
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for p, m, v in zip(parameters, first, second):
                m.mul_(0.9).add_(p.grad, alpha=0.1)
                v.mul_(0.999).addcmul_(p.grad, p.grad, value=0.001)
                p -= lr * (m / (1 - 0.9**step)) / ((v / (1 - 0.999**step)).sqrt() + 1e-8)
    return model.eval()


def bare_forward(model: torch.nn.Module) -> Callable[[torch.Tensor], torch.Tensor]:
    """A plain function from token ids (1, T) to logits (1, T, V), without gradients: no attribute leads to the model."""
    def forward(idx: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            return model(torch.as_tensor(idx, dtype=torch.long)).detach().clone()
    return forward


def future_reach(forward: Callable[[torch.Tensor], torch.Tensor], vocab_size: int, context_length: int,
                 trials: int = 20, seed: int = 0) -> float:
    """Largest change of a logit at positions <= t when only tokens after t change, over seeded random probes."""
    generator = torch.Generator().manual_seed(seed)
    T, largest = context_length, 0.0
    for trial in range(trials):
        t = trial % (T - 1)  # every cut in turn
        x = torch.randint(0, vocab_size, (1, T), generator=generator)  # (1, T)
        y = x.clone()
        y[:, t + 1 :] = torch.randint(0, vocab_size, (1, T - t - 1), generator=generator)
        largest = max(largest, float((forward(x)[:, : t + 1] - forward(y)[:, : t + 1]).abs().max()))
    return largest


def reference_leaks_future(forward: Callable[[torch.Tensor], torch.Tensor], vocab_size: int, context_length: int,
                           threshold: float = 1e-4) -> bool:
    """Whether tokens after t move some logit at a position <= t by more than `threshold` (float rounding stays below)."""
    return future_reach(forward, vocab_size, context_length, trials=4 * context_length) > threshold


__all__ = ["prefix_attention", "colleague_attention", "ATTENTIONS", "LEAKS", "GATE_TOKEN", "ProbeLM", "probe_model",
           "train_probe", "bare_forward", "future_reach", "reference_leaks_future"]
