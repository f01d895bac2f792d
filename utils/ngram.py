"""The n-gram language model: counts of the last n-1 tokens, smoothed; no trainable parameters.

Probability of the next token w after the context h = (w_{t-n+2}, ..., w_t), built up order
by order, k = 1..n, starting from the uniform p_0(w) = 1/V, with the k-gram table's values
v(h_k, w), their total S(h_k) and number of distinct next tokens T(h_k) for the last k-1
tokens h_k:

    mle            p_k = v / S                                     (unsmoothed)
    add_k          p_k = (v + k) / (S + k V)                       (Laplace for k = 1)
    interpolated   p_k = lam v / S + (1 - lam) p_{k-1}             (Jelinek-Mercer)
    kneser_ney     p_k = max(v - D, 0) / S + D T / S p_{k-1}       (interpolated Kneser-Ney)

A context never seen at order k keeps p_{k-1} (add_k with k > 0: the uniform 1/V instead,
as NLTK's Laplace). Kneser-Ney uses raw counts at the top order n and continuation counts
N1+(. h_k w) below it. At the unigram level, `interpolate_uniform=True` (default) discounts
the continuation counts too and mixes in 1/V (Chen & Goodman), so no token ever gets
probability 0; `False` keeps them undiscounted, exactly as NLTK's KneserNeyInterpolated.
For n = 1 Kneser-Ney has no lower order: it is the unigram frequencies, discounted and mixed
with 1/V (with interpolate_uniform=False: plain, what NLTK's MLE(1) gives; NLTK's
KneserNeyInterpolated(1) divides by zero).

Short histories: at the start of running text, with fewer than n-1 tokens seen, the model
backs off to the shorter context (the distribution of order t+1 above, as NLTK scores a
shorter context). A model fitted on items (names) with a boundary token instead pads every
history on the left with boundary tokens, and frames each training item as
[boundary] * (n-1) + item + [boundary].
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from utils.i18n.text import tr
from utils.interface import LanguageModel, register_model
from utils.ngram_counts import NGramCounts, NGramTable, ngram_windows, pack

SMOOTHINGS = ("mle", "add_k", "interpolated", "kneser_ney")


@dataclass
class NGramConfig:
    """What the model is: its order, vocabulary, smoothing and the smoothing's strength."""

    vocab_size: int
    n: int = 3  # tokens per n-gram: the context is the last n-1 tokens
    smoothing: str = "kneser_ney"  # one of SMOOTHINGS
    k: float = 1.0  # add_k: pseudo-count added to every next token
    lam: float = 0.8  # interpolated: weight of the order-k estimate against the lower orders
    discount: float = 0.75  # kneser_ney: D subtracted from every count, 0 <= D <= 1
    interpolate_uniform: bool = True  # kneser_ney: discount the unigram level and mix in 1/V
    boundary_id: int | None = None  # items: the boundary token that pads short histories


def validate_config(config: NGramConfig) -> None:
    """Raise ValueError on a setting the model cannot use, saying which and why."""
    if not isinstance(config.n, int) or config.n < 1:
        raise ValueError(tr("n must be an integer >= 1 (1 = unigram, 2 = bigram, ...), got {value!r}", value=config.n))
    if config.vocab_size < 1:
        raise ValueError(f"vocab_size must be at least 1, got {config.vocab_size}")
    if config.smoothing not in SMOOTHINGS:
        raise ValueError(tr("unknown smoothing {value!r}: choose one of {known}", value=config.smoothing,
                            known=", ".join(SMOOTHINGS)))
    if not config.k >= 0:
        raise ValueError(tr("k must be >= 0 (0 = no smoothing, 1 = add-one), got {value}", value=config.k))
    if not 0 <= config.lam <= 1:
        raise ValueError(tr("lam must lie in [0, 1], got {value}", value=config.lam))
    if not 0 <= config.discount <= 1:
        raise ValueError(tr("discount must lie in [0, 1] (0.75 is usual), got {value}", value=config.discount))
    if config.boundary_id is not None and not 0 <= config.boundary_id < config.vocab_size:
        raise ValueError(f"boundary_id {config.boundary_id} is outside the vocabulary of size {config.vocab_size}")


def as_sequences(data: torch.Tensor | Sequence[torch.Tensor], pad: int, boundary_id: int | None) -> list[torch.Tensor]:
    """Running text (1-D ids) as one sequence; items as separate sequences framed [boundary] * pad + item + [boundary]."""
    if isinstance(data, torch.Tensor):
        if data.dim() != 1:
            raise ValueError(f"expected a 1-D tensor of token ids (or a list of items), got shape {tuple(data.shape)}")
        return [data.long().cpu()]
    items = [torch.as_tensor(item, dtype=torch.long).cpu() for item in data]
    if boundary_id is None:
        return items
    start, end = torch.full((pad,), boundary_id, dtype=torch.long), torch.tensor([boundary_id])
    return [torch.cat([start, item, end]) for item in items]


@register_model
class NGramLM(LanguageModel):
    """An n-gram model over count tables; forward returns log-probabilities (B, T, V)."""

    config_class = NGramConfig

    def __init__(self, config: NGramConfig, counts: NGramCounts | None = None):
        super().__init__()
        validate_config(config)
        self.config, self.vocab_size, self.n = config, config.vocab_size, config.n
        self.context_length = None  # any length: only the last n-1 tokens matter
        if counts is None:  # empty tables (filled by fit or from_checkpoint)
            empty = torch.zeros(0, dtype=torch.long)
            tables = [NGramTable.from_keys(k, config.vocab_size, empty, empty) for k in range(1, config.n + 1)]
        else:
            if counts.max_order < config.n or counts.vocab_size != config.vocab_size:
                raise ValueError(
                    f"counts go up to order {counts.max_order} over {counts.vocab_size} tokens; "
                    f"this model needs order {config.n} over {config.vocab_size}"
                )
            tables = self._choose_tables(counts, config)
        self.tables = tables
        for table in tables:  # buffers, so state_dict() holds the tables
            for name, tensor in table.tensors().items():
                self.register_buffer(f"order{table.order}_{name}", tensor)

    @staticmethod
    def _choose_tables(counts: NGramCounts, config: NGramConfig) -> list[NGramTable]:
        """Kneser-Ney: continuation tables below the top order; the others: raw counts at every order."""
        if config.smoothing == "kneser_ney":
            return [*counts.continuation[: config.n - 1], counts.raw[config.n - 1]]
        return counts.raw[: config.n]

    @classmethod
    def fit(
        cls,
        tokens: torch.Tensor | Sequence[torch.Tensor],
        vocab_size: int,
        n: int = 3,
        smoothing: str = "kneser_ney",
        **settings,
    ) -> "NGramLM":
        """Count the n-grams of `tokens` (1-D ids, or a list of items with boundary_id=...) and build the model.

        `settings` are the other NGramConfig fields: k, lam, discount, interpolate_uniform, boundary_id.
        """
        config = NGramConfig(vocab_size, n, smoothing, **settings)
        validate_config(config)
        sequences = as_sequences(tokens, n - 1, config.boundary_id)
        total = sum(s.numel() for s in sequences)
        if total == 0:
            raise ValueError("cannot fit an n-gram model on an empty corpus: give at least one token")
        low, high = min(int(s.min()) for s in sequences if s.numel()), max(int(s.max()) for s in sequences if s.numel())
        if low < 0 or high >= vocab_size:
            raise ValueError(f"token ids must lie in [0, {vocab_size}), got min {low}, max {high}")
        return cls(config, NGramCounts.from_sequences(sequences, vocab_size, n))

    @classmethod
    def from_counts(cls, counts: NGramCounts, n: int, smoothing: str = "kneser_ney", **settings) -> "NGramLM":
        """A model of order n <= counts.max_order on counts made once (cheap: the tables are shared)."""
        return cls(NGramConfig(counts.vocab_size, n, smoothing, **settings), counts)

    def with_settings(self, **changes) -> "NGramLM":
        """The same tables with another smoothing strength (k, lam, discount, interpolate_uniform)."""
        if {"n", "smoothing", "vocab_size", "boundary_id"} & set(changes):
            raise ValueError("n, smoothing, vocab_size and boundary_id need other tables: use from_counts or fit")
        model = NGramLM(dataclasses.replace(self.config, **changes))
        model._set_tables(self.tables)
        return model

    @classmethod
    def from_checkpoint(cls, config: dict, state_dict: dict[str, torch.Tensor]) -> "NGramLM":
        """Rebuild a saved model from its config and tables (used by utils.checkpoint.load_checkpoint)."""
        model = cls(NGramConfig(**config))
        tables = []
        for table in model.tables:
            prefix = f"order{table.order}_"
            tensors = {name: state_dict[prefix + name] for name in table.tensors()}
            tables.append(NGramTable(table.order, model.vocab_size, **tensors))
        model._set_tables(tables)
        return model

    def _set_tables(self, tables: list[NGramTable]) -> None:
        self.tables = list(tables)
        for table in self.tables:
            for name, tensor in table.tensors().items():
                setattr(self, f"order{table.order}_{name}", tensor)

    # ---- sizes: the memory side of the impossible triangle ----
    @property
    def num_contexts(self) -> int:
        """Distinct contexts of n-1 tokens stored at the top order."""
        return self.tables[-1].num_contexts

    @property
    def num_ngrams(self) -> int:
        """Distinct n-grams stored at the top order."""
        return self.tables[-1].num_ngrams

    def table_bytes(self) -> int:
        """Bytes of every table the model keeps (all orders 1..n)."""
        return sum(table.nbytes() for table in self.tables)

    # ---- probabilities ----
    def histories(self, idx: torch.Tensor) -> torch.Tensor:
        """The last n-1 tokens up to and including each position: (B, T) -> (B, T, n-1); -1 where there is none."""
        if self.n == 1:
            return torch.zeros((*idx.shape, 0), dtype=torch.long)
        pad_id = -1 if self.config.boundary_id is None else self.config.boundary_id
        padded = torch.cat([torch.full((idx.shape[0], self.n - 1), pad_id, dtype=torch.long), idx.long().cpu()], dim=1)
        return padded.unfold(1, self.n - 1, 1)[:, 1:]  # (B, T, n-1)

    def probabilities(self, history: torch.Tensor, words: torch.Tensor | None = None) -> torch.Tensor:
        """p(word | history) in float64: history (P, n-1), -1 for missing tokens; words (P, W) -> (P, W), None -> (P, V).

        Computed in NumPy: on small CPU tensors it is several times faster than torch.
        """
        config, vocab = self.config, self.vocab_size
        shape = (history.shape[0], vocab) if words is None else tuple(words.shape)
        probs = np.full(shape, 1.0 / vocab)  # p_0: uniform  (P, W)
        history = history.cpu().numpy()
        for table in self.tables:
            order = table.order
            context = history[:, history.shape[1] - (order - 1) :]  # (P, order-1)
            has_history = (context >= 0).all(axis=1)[:, None]  # (P, 1)
            context_keys = pack(torch.from_numpy(np.maximum(context, 0)), vocab)  # (P,)
            rows, totals, types = table.find_contexts(context_keys)  # (P,) each
            if words is None:
                values = table.dense_values(rows, types).numpy().astype(np.float64)  # (P, V)
            else:
                values = table.find_values(context_keys[:, None] * vocab + words).numpy().astype(np.float64)  # (P, W)
            totals, types = totals.numpy()[:, None].astype(np.float64), types.numpy()[:, None]  # (P, 1)
            seen = totals > 0  # (P, 1)
            safe_totals = np.maximum(totals, 1.0)
            if config.smoothing == "mle":
                level = values / safe_totals
            elif config.smoothing == "add_k":
                level = (values + config.k) / np.maximum(totals + config.k * vocab, 1e-300)
                seen = seen | (config.k > 0)
            elif config.smoothing == "interpolated":
                level = config.lam * values / safe_totals + (1 - config.lam) * probs
            else:
                discount = config.discount if (order > 1 or config.interpolate_uniform) else 0.0
                level = np.maximum(values - discount, 0.0) / safe_totals + discount * types / safe_totals * probs
            probs = np.where(seen & has_history, level, probs)
        return torch.from_numpy(probs)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        """Log-probabilities of every next token at every position."""
        self.validate_input(idx)
        batch, length = idx.shape
        history = self.histories(idx).reshape(batch * length, self.n - 1)  # (B*T, n-1)
        probs = self.probabilities(history)  # (B*T, V)
        return probs.log().float().reshape(batch, length, self.vocab_size).to(idx.device)

    def step(self, new_idx: torch.Tensor, state):
        """Incremental generation that keeps only the last n-1 tokens of history."""
        history = new_idx if state is None else torch.cat([state, new_idx], dim=1)  # (B, T_hist)
        logits = self(history)[:, -1, :]  # (B, V)
        return logits, history[:, -max(self.n - 1, 1) :]

    def _check_ids(self, ids: torch.Tensor, what: str) -> None:
        if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= self.vocab_size):
            raise ValueError(
                f"{what} holds token ids outside the vocabulary [0, {self.vocab_size}): "
                f"min {int(ids.min())}, max {int(ids.max())}; encode text with the model's tokenizer"
            )

    def next_token_distribution(self, context_ids: Sequence[int] | torch.Tensor) -> torch.Tensor:
        """p(. | context) over the vocabulary (V,) in float64; only the last n-1 ids count."""
        ids = torch.as_tensor(context_ids, dtype=torch.long).flatten()
        self._check_ids(ids, "the context")
        if ids.numel() == 0 and self.config.boundary_id is not None:
            ids = torch.tensor([self.config.boundary_id])  # an item's start
        history = self.histories(ids[None, :])[:, -1] if ids.numel() else torch.full((1, self.n - 1), -1)  # (1, n-1)
        return self.probabilities(history)[0]  # (V,)

    def token_log_probs(self, tokens: torch.Tensor | Sequence[torch.Tensor]) -> torch.Tensor:
        """log p (float64) of every token after the first of running text (1-D), or of every token of framed items.

        Items are framed as evaluate() frames them: '.item' predicts 'item.'.
        """
        scores = []
        for sequence in as_sequences(tokens, 1, self.config.boundary_id):
            self._check_ids(sequence, "the text")
            if sequence.numel() >= 2:
                history = self.histories(sequence[None, :-1])[0]  # (L-1, n-1)
                scores.append(self.probabilities(history, sequence[1:, None])[:, 0].log())  # (L-1,)
        if not scores:
            raise ValueError("nothing to score: give at least 2 tokens")
        return torch.cat(scores)

    def perplexity(self, tokens: torch.Tensor | Sequence[torch.Tensor]) -> float:
        """exp of the mean negative log-probability of the tokens (inf if one has probability 0)."""
        return float(torch.exp(-self.token_log_probs(tokens).mean()))

    def unseen_share(self, tokens: torch.Tensor | Sequence[torch.Tensor]) -> float:
        """Sparsity: the share of the text's n-grams that never occurred in training."""
        windows = ngram_windows(as_sequences(tokens, self.n - 1, self.config.boundary_id), self.n)  # (N, n)
        if windows.shape[0] == 0:
            raise ValueError(f"the text has no {self.n}-grams: give at least {self.n} tokens")
        self._check_ids(windows, "the text")
        return float((~self.tables[-1].contains(pack(windows, self.vocab_size))).double().mean())
