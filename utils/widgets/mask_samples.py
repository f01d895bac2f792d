"""The mask grid's kernel work for a new prefix, made fast enough to feel live (notebook 08's widget).

The four cells (trained with or without the mask x run with or without it) are built once, not per
prefix (`cell_runs`); a cell run with the mask keeps a KV cache whatever it was trained with (the
mask makes the cache exact), a cell run without it re-runs its history at every step (earlier tokens
see later ones). `grid_cell_maps` gives the four attention maps; `stream_samples` writes the four
cells' samples step by step, all cells together, and yields the text written so far every
`interval_s` seconds, so the widget shows the maps at once and the samples as they grow. A cell run
without the mask re-runs its history for each character, but only the last position's logits are
needed, so its last block computes that position alone (TransformerLM.next_logits). With one layer a
row's two cells compute the same logits (the last position has no later one to hide, and its keys come
from the embeddings, which no mask touches), so the cell run without the mask takes the draws of the
cell run with it, seeded alike, instead of re-running its history: half the model runs of fast mode.
The cells run with the mask (cached) take their steps together, their weights stacked
(utils/widgets/stacked_decoder.py): at the notebook's sizes two models then cost about one.

The draws are those of `utils.copy_failure.sample_continuations` (the same seed, the same
`utils.sampling.sample_next` on the same logits, one step fewer: generate() also runs the model after
its last token); tests/test_widget_mask.py holds the two equal.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

import torch

from utils.copy_failure import MASK_SETTINGS, mean_attention, next_position_share, with_mask
from utils.i18n.text import tr
from utils.sampling import sample_next
from utils.transformer import TransformerLM
from utils.widgets.stacked_decoder import StackedDecoder, unsupported_reason

Key = tuple[str, str]  # (trained, evaluated)


def cell_runs(models: dict[str, TransformerLM]) -> dict[Key, TransformerLM]:
    """The four (trained, evaluated) models, each a copy of `models[trained]` run with or without the mask."""
    if set(models) != set(MASK_SETTINGS):
        raise ValueError(f"give models for exactly the keys 'masked' and 'unmasked', got {sorted(models)}")
    runs = {}
    for trained in MASK_SETTINGS:
        for evaluated in MASK_SETTINGS:
            run = with_mask(models[trained], evaluated == "masked")
            run.use_kv_cache = evaluated == "masked"  # exact under the mask, impossible without it
            runs[trained, evaluated] = run
    return runs


@torch.no_grad()
def grid_cell_maps(runs: dict[Key, TransformerLM], ids: Sequence[int]) -> dict[Key, tuple[torch.Tensor, float]]:
    """Per cell: the last layer's attention on `ids`, mean over heads (T, T), and its look-ahead share."""
    if len(ids) == 0:
        raise ValueError(tr("the prefix is empty: type at least one character"))
    ids = torch.as_tensor(list(ids), dtype=torch.long)  # (T,)
    maps = {}
    for key, run in runs.items():
        attention = mean_attention(run, ids)  # (T, T)
        maps[key] = attention, next_position_share(attention) if len(ids) > 1 else 0.0
    return maps


@torch.no_grad()
def stream_samples(
    runs: dict[Key, TransformerLM], prefix: Sequence[int], n_samples: int, length: int, seed: int = 0,
    interval_s: float = 0.1, stack: bool = True,
) -> Iterator[tuple[int, dict[Key, list[list[int]]]]]:
    """Sample every cell's continuations of `prefix` (temperature 1, a generator seeded `seed` per cell) together.

    Yields (tokens written, {cell: n_samples lists of token ids so far}): after the first token, then
    whenever `interval_s` seconds have passed since the last yield, and once at the end (`length`).
    stack: the cells run with the mask step together when they can (False: one model at a time, as a baseline).
    """
    if not prefix:
        raise ValueError(tr("the prefix is empty: type at least one character"))
    if n_samples < 1 or length < 1:
        raise ValueError(f"n_samples and length must be at least 1, got {n_samples} and {length}")
    idx = torch.tensor([list(prefix)] * n_samples, dtype=torch.long)  # (N, P)
    twins = one_layer_twins(runs)  # cell -> the cell whose draws it shares
    computed = {key: run for key, run in runs.items() if key not in twins}
    generators = {key: torch.Generator().manual_seed(seed) for key in computed}
    for run in computed.values():
        run.validate_input(idx)
    cached = [key for key, run in computed.items() if run.start_state(n_samples) is not None]
    stacked = cached if stack and unsupported_reason([computed[key] for key in cached]) is None else []
    decoder = StackedDecoder([computed[key] for key in stacked]) if stacked else None
    states, logits = {}, {}
    if decoder is not None:  # the cached cells, one batched step for all of them (utils/widgets/stacked_decoder.py)
        first = decoder.start(idx.to(decoder.embedding.device), len(prefix) + length)  # (M, N, V)
        logits.update(zip(stacked, first))
    for key, run in computed.items():
        if key not in stacked:
            logits[key], states[key] = _step(run, idx.to(run.device), run.start_state(n_samples))  # (N, V), on its device
    written: dict[Key, list[torch.Tensor]] = {key: [] for key in computed}
    last = time.perf_counter()
    for t in range(length):
        for key in computed:
            written[key].append(sample_next(logits[key], 1.0, None, None, generators[key]))  # (N,)
        now = time.perf_counter()
        if t == 0 or t + 1 == length or now - last >= interval_s:  # before the next model runs: shown sooner
            last = now
            so_far = {key: torch.stack(ids, dim=1).tolist() for key, ids in written.items()}  # each (N, t+1)
            yield t + 1, {key: so_far[twins.get(key, key)] for key in runs}
        if t + 1 < length:  # no model run after the last token
            if decoder is not None:
                logits.update(zip(stacked, decoder.step(torch.stack([written[key][-1] for key in stacked]))))  # (M, N, V)
            for key, run in computed.items():
                if key not in stacked:
                    logits[key], states[key] = _step(run, written[key][-1][:, None], states[key])


def one_layer_twins(runs: dict[Key, TransformerLM]) -> dict[Key, Key]:
    """{(trained, "unmasked"): (trained, "masked")} for each one-layer row whose two cells are the same weights.

    With one layer the next token's logits cannot depend on the mask: the last position's query sees
    every key either way, and the keys are computed from the embeddings alone.
    """
    twins = {}
    for (trained, evaluated), run in runs.items():
        partner = runs.get((trained, "masked"))
        if evaluated == "unmasked" and partner is not None and run.config.n_layer == 1 == partner.config.n_layer:
            if all(torch.equal(a, b) for a, b in zip(run.state_dict().values(), partner.state_dict().values())):
                twins[trained, evaluated] = trained, "masked"
    return twins


def _step(run: TransformerLM, new_idx: torch.Tensor, state):
    """run.step(new_idx, state): with the mask, the KV cache; without it, a re-run of the history (B, T_hist)
    in which the last block computes only the last position (TransformerLM.next_logits: the same logits)."""
    if state is None or isinstance(state, torch.Tensor):  # the history, as LanguageModel.step keeps it
        history = new_idx if state is None else torch.cat([state, new_idx], dim=1)  # (B, T_hist)
        if run.context_length is not None:
            history = history[:, -run.context_length :]
        return run.next_logits(history), history  # (B, V)
    return run.step(new_idx, state)
