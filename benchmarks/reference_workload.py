"""The frozen reference workloads: the speed unit U and the two reference runs the benchmarks compare against.

FROZEN: written once, plain PyTorch, never optimised, and importing nothing from `utils`, so
that the course's own speed-ups can never shrink the unit they are measured in. Change it only
to fix a bug, and then re-calibrate (below) and say so in the README.

Two workloads, each a faithful re-implementation (written for this course, not copied) of a
published recipe's whole run, model, data path, optimiser, schedule and evaluation included:

* `nanogpt_char_run`: nanoGPT's CPU recipe for shakespeare_char, i.e.
  `train.py config/train_shakespeare_char.py --device=cpu --compile=False --eval_iters=20
  --block_size=64 --batch_size=12 --n_layer=4 --n_head=4 --n_embd=128 --max_iters=2000
  --lr_decay_iters=2000 --dropout=0.0`. A GPT of 4 layers x 4 heads x 128 wide, no biases
  (nanoGPT's default bias=False), LayerNorm without bias, tied input/output embeddings, learned
  positions, fused SDPA causal attention; AdamW (lr 1e-3, betas (0.9, 0.99), weight decay 0.1 on
  matrices), warm-up 100 steps as lr * (it + 1) / 101, cosine to 1e-4 at step 2000, gradient
  clipping at 1.0; 2001 optimiser steps (iterations 0..2000); batches of 12 random windows of
  64 characters, cut from a uint16 array and converted per batch; every 250 iterations
  (0, 250, ..., 2000) the mean loss of 20 random batches of train and of val, and a serialised
  checkpoint (model and optimiser) when val improved; the training loss read every 10
  iterations. Data: Tiny Shakespeare, first 90% train, last 10% val, vocabulary of 65 chars.
* `makemore_transformer_run`: makemore's default model, `makemore.py -i names.txt --max-steps
  10000 -n 0`. A GPT-2 style Transformer of 4 layers x 4 heads x 64 wide with biases, the
  tanh GELU, explicit masked attention, PyTorch's default initialisation; AdamW on every
  parameter (lr 5e-4 constant, weight decay 0.01, betas (0.9, 0.99), eps 1e-8), no clipping;
  10000 steps of batches of 32 names drawn with replacement through a DataLoader (0 workers),
  each name encoded per item into (x, y) of length 16 with y = -1 past the end; every 500 steps
  the loss of 11 shuffled batches of 100 training names and of the 1000 test names (10 batches),
  and a serialised state_dict when the test loss improved; every 200 steps 10 samples of 15
  tokens, each looked up in the train and test lists; the training loss read every 10 steps.
  Split: torch seeded with 3407, a random permutation, the last 1000 names for test.

What differs from the original scripts: the data come from a text file passed in, not from
nanoGPT's prepared .bin files (the windows are still cut from a uint16 array each batch);
checkpoints are serialised into memory rather than written to disk; nothing is printed (the
values that would be printed are still computed: loss.item() every 10 steps, the samples'
decoding and look-ups); no tensorboard writer (makemore) or MFU estimate (nanoGPT); makemore's
DataLoader does not pin memory (CPU only). Everything else follows the originals' defaults
(seeds 1337 and 3407, the same threads as the calling process).

Calibration (done once; the factor is a constant of this file). The speed unit U is the wall
time of nanoGPT's real CPU recipe (the command above, run by `/usr/bin/time` on nanoGPT's own
code, commit 3adf61e, outside this repository, its data prepared offline from the same
tinyshakespeare.txt), and U = NANOGPT_CALIBRATION * seconds of `nanogpt_char_run` in this run.
Measured on the 2-core course machine on 2026-12-01, PyTorch 2.13.0+cpu, OMP_NUM_THREADS=1,
one after the other: nanoGPT 180.05 s user + 6.74 s sys = 186.79 CPU seconds (wall 593.8 s),
this workload 173.31 CPU seconds in `nanogpt_char_run` (wall 1405.6 s). The machine was shared
(load average 5 to 22 on 2 cores), so the wall times say nothing and the factor is taken from
CPU seconds, which with one thread equal the wall time of an idle machine:
186.79 / 173.31 = 1.078 (the extra in nanoGPT: its start-up and imports, the np.memmap opened
per batch, checkpoints written to disk, printing). Both runs gave the same nine evaluations to
four decimals (val 4.1649, 2.4447, ..., 1.8921, 1.8857): the same initialisation, batches and
arithmetic as the original. Re-calibrate on an idle machine (both at the default threads) if
the wall-time ratio matters more than the CPU-time one. The makemore workload has not been
timed against makemore's own script (which needs tensorboard; not installed here): its
faithfulness rests on the reading of makemore.py (commit 988aa59) above.
"""

from __future__ import annotations

import io
import math
import time
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

# U = NANOGPT_CALIBRATION * nanogpt_char_run(...).seconds (see the module docstring)
NANOGPT_CALIBRATION = 1.078


@dataclass
class ReferenceResult:
    """What a reference run measured: wall seconds of the whole run and its own loss estimates."""

    recipe: str
    seconds: float  # wall time of the whole run: data, model, training, its periodic evaluations
    steps: int  # optimiser steps taken
    eval_steps: list[int] = field(default_factory=list)
    eval_loss: list[float] = field(default_factory=list)  # the script's own held-out estimate at eval_steps
    final_loss: float = math.nan  # the last held-out estimate
    best_loss: float = math.nan  # the best held-out estimate (what the script keeps a checkpoint of)
    model: nn.Module | None = None  # the trained model, for an evaluation outside the timed run


# --------------------------------------------------------------------------- nanoGPT-like


class _BiaslessLayerNorm(nn.Module):
    """LayerNorm with a learnable scale and no bias (nanoGPT's bias=False)."""

    def __init__(self, width: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, T, C) -> (B, T, C)
        return F.layer_norm(x, (x.shape[-1],), self.weight, None, 1e-5)


class _GPTBlock(nn.Module):
    """Pre-LN block: fused q/k/v projection, SDPA causal attention, 4x GELU MLP, no biases."""

    def __init__(self, width: int, heads: int):
        super().__init__()
        self.heads = heads
        self.norm_attn = _BiaslessLayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width, bias=False)
        self.attn_out = nn.Linear(width, width, bias=False)
        self.norm_mlp = _BiaslessLayerNorm(width)
        self.mlp_in = nn.Linear(width, 4 * width, bias=False)
        self.mlp_out = nn.Linear(4 * width, width, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, T, C) -> (B, T, C)
        B, T, C = x.shape
        q, k, v = self.qkv(self.norm_attn(x)).split(C, dim=2)  # 3 x (B, T, C)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))  # (B, H, T, Dh)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, H, T, Dh)
        x = x + self.attn_out(y.transpose(1, 2).contiguous().view(B, T, C))
        return x + self.mlp_out(F.gelu(self.mlp_in(self.norm_mlp(x))))


class NanoGPTLike(nn.Module):
    """nanoGPT's GPT at the CPU recipe's size: tied embeddings, learned positions, std-0.02 init."""

    def __init__(self, vocab_size: int, block_size: int, n_layer: int, n_head: int, n_embd: int):
        super().__init__()
        self.block_size = block_size
        self.token = nn.Embedding(vocab_size, n_embd)
        self.position = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList(_GPTBlock(n_embd, n_head) for _ in range(n_layer))
        self.norm = _BiaslessLayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)
        self.token.weight = self.head.weight  # tied
        for module in self.modules():
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, mean=0.0, std=0.02)
        for block in self.blocks:  # residual projections scaled by 1/sqrt(2 n_layer)
            for layer in (block.attn_out, block.mlp_out):
                nn.init.normal_(layer.weight, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))

    def forward(self, idx: torch.Tensor, targets: torch.Tensor | None = None):
        """idx (B, T) -> logits (B, T, V) and the mean cross-entropy against targets (B, T) if given."""
        T = idx.shape[1]
        x = self.token(idx) + self.position(torch.arange(T, device=idx.device))  # (B, T, C)
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.norm(x))  # (B, T, V)
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1), ignore_index=-1)
        return logits, loss


def nanogpt_char_run(
    text: str,
    max_iters: int = 2000,
    eval_interval: int = 250,
    eval_iters: int = 20,
    batch_size: int = 12,
    block_size: int = 64,
    n_layer: int = 4,
    n_head: int = 4,
    n_embd: int = 128,
    warmup_iters: int = 100,
    seed: int = 1337,
) -> ReferenceResult:
    """nanoGPT's shakespeare_char CPU recipe, whole run (defaults: the issue's command); see the module docstring."""
    start = time.perf_counter()
    lr_max, lr_min, weight_decay, betas, grad_clip = 1e-3, 1e-4, 0.1, (0.9, 0.99), 1.0
    chars = sorted(set(text))
    lookup = {c: i for i, c in enumerate(chars)}
    ids = np.array([lookup[c] for c in text], dtype=np.uint16)  # (N,)
    cut = int(0.9 * len(ids))
    splits = {"train": ids[:cut], "val": ids[cut:]}
    if min(len(part) for part in splits.values()) <= block_size + 1:
        raise ValueError(f"text too short for windows of {block_size}: {len(ids)} characters")
    torch.manual_seed(seed)

    def get_batch(split: str) -> tuple[torch.Tensor, torch.Tensor]:
        data = splits[split]
        starts = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([torch.from_numpy(data[i : i + block_size].astype(np.int64)) for i in starts])  # (B, T)
        y = torch.stack([torch.from_numpy(data[i + 1 : i + 1 + block_size].astype(np.int64)) for i in starts])  # (B, T)
        return x, y

    model = NanoGPTLike(len(chars), block_size, n_layer, n_head, n_embd)
    matrices = [p for p in model.parameters() if p.dim() >= 2]
    vectors = [p for p in model.parameters() if p.dim() < 2]
    optimizer = torch.optim.AdamW(
        [{"params": matrices, "weight_decay": weight_decay}, {"params": vectors, "weight_decay": 0.0}], lr=lr_max, betas=betas
    )

    def lr_at(it: int) -> float:
        if it < warmup_iters:
            return lr_max * (it + 1) / (warmup_iters + 1)
        if it > max_iters:
            return lr_min
        ratio = (it - warmup_iters) / (max_iters - warmup_iters)
        return lr_min + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (lr_max - lr_min)

    @torch.no_grad()
    def estimate() -> dict[str, float]:
        model.eval()
        out = {}
        for split in ("train", "val"):
            losses = torch.zeros(eval_iters)
            for k in range(eval_iters):
                losses[k] = model(*get_batch(split))[1].item()
            out[split] = float(losses.mean())
        model.train()
        return out

    result = ReferenceResult("nanogpt shakespeare_char (CPU recipe)", 0.0, 0)
    best = math.inf
    x, y = get_batch("train")
    it = 0
    while True:
        for group in optimizer.param_groups:
            group["lr"] = lr_at(it)
        if it % eval_interval == 0:
            val = estimate()["val"]
            result.eval_steps.append(it)
            result.eval_loss.append(val)
            if val < best:
                best = val
                if it > 0:
                    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "iter": it}, io.BytesIO())
        _, loss = model(x, y)
        x, y = get_batch("train")
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if it % 10 == 0:
            loss.item()
        it += 1
        if it > max_iters:
            break
    result.seconds = time.perf_counter() - start
    result.steps, result.final_loss, result.best_loss, result.model = it, result.eval_loss[-1], best, model
    return result


@torch.no_grad()
def nanogpt_full_val_loss(model: NanoGPTLike, text: str, batch_size: int = 256) -> float:
    """Mean loss of every val target (last 10%) in consecutive windows of block_size: the course's measure, untimed."""
    chars = sorted(set(text))
    lookup = {c: i for i, c in enumerate(chars)}
    ids = torch.tensor([lookup[c] for c in text[int(0.9 * len(text)) :]], dtype=torch.long)  # (N_val,)
    model.eval()
    total, count, T = 0.0, 0, model.block_size
    windows = [ids[i : i + T + 1] for i in range(0, ids.numel() - 1, T)]
    for first in range(0, len(windows), batch_size):
        group = windows[first : first + batch_size]
        for length in sorted({w.numel() for w in group}):  # the last window may be shorter
            same = torch.stack([w for w in group if w.numel() == length])  # (b, length)
            logits, _ = model(same[:, :-1])  # (b, length-1, V)
            total += float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), same[:, 1:].reshape(-1), reduction="sum"))
            count += same[:, 1:].numel()
    return total / count


# --------------------------------------------------------------------------- makemore-like


class _TanhGELU(nn.Module):
    """GELU by its tanh approximation, written out (as GPT-2 and makemore compute it)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class _MakemoreBlock(nn.Module):
    """Pre-LN block with biases: explicit masked softmax attention over a tril buffer, tanh-GELU MLP."""

    def __init__(self, width: int, heads: int, block_size: int):
        super().__init__()
        self.heads = heads
        self.norm_attn = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.attn_out = nn.Linear(width, width)
        self.register_buffer("allowed", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))
        self.norm_mlp = nn.LayerNorm(width)
        self.mlp_in = nn.Linear(width, 4 * width)
        self.act = _TanhGELU()
        self.mlp_out = nn.Linear(4 * width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, T, C) -> (B, T, C)
        B, T, C = x.shape
        q, k, v = self.qkv(self.norm_attn(x)).split(C, dim=2)  # 3 x (B, T, C)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))  # (B, H, T, Dh)
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.shape[-1]))  # (B, H, T, T)
        scores = scores.masked_fill(self.allowed[:, :, :T, :T] == 0, float("-inf"))
        y = F.softmax(scores, dim=-1) @ v  # (B, H, T, Dh)
        x = x + self.attn_out(y.transpose(1, 2).contiguous().view(B, T, C))
        return x + self.mlp_out(self.act(self.mlp_in(self.norm_mlp(x))))


class MakemoreLike(nn.Module):
    """makemore's Transformer: learned positions, untied head, PyTorch's default initialisation."""

    def __init__(self, vocab_size: int, block_size: int, n_layer: int = 4, n_head: int = 4, n_embd: int = 64):
        super().__init__()
        self.block_size = block_size
        self.token = nn.Embedding(vocab_size, n_embd)
        self.position = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList(_MakemoreBlock(n_embd, n_head, block_size) for _ in range(n_layer))
        self.norm = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx: torch.Tensor, targets: torch.Tensor | None = None):
        """idx (B, T) -> logits (B, T, V) and the mean cross-entropy against targets (B, T), -1 ignored."""
        T = idx.shape[1]
        x = self.token(idx) + self.position(torch.arange(T, device=idx.device).unsqueeze(0))  # (B, T, C)
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.norm(x))  # (B, T, V)
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1), ignore_index=-1)
        return logits, loss


class _NamesDataset(torch.utils.data.Dataset):
    """Names as (x, y) pairs: x = 0 then the name, y = the name then 0, then -1 (ignored) to the fixed length."""

    def __init__(self, words: list[str], chars: list[str], max_length: int):
        self.words, self.max_length = words, max_length
        self.stoi = {c: i + 1 for i, c in enumerate(chars)}
        self.itos = {i: c for c, i in self.stoi.items()}

    def __len__(self) -> int:
        return len(self.words)

    def __getitem__(self, index: int) -> tuple[torch.Tensor, torch.Tensor]:
        ids = torch.tensor([self.stoi[c] for c in self.words[index]], dtype=torch.long)
        x = torch.zeros(self.max_length + 1, dtype=torch.long)  # (T,)
        y = torch.zeros(self.max_length + 1, dtype=torch.long)  # (T,)
        x[1 : 1 + len(ids)] = ids
        y[: len(ids)] = ids
        y[len(ids) + 1 :] = -1
        return x, y


def makemore_split(lines: list[str], seed: int = 3407) -> tuple[list[str], list[str], list[str]]:
    """makemore's split (torch seeded, a permutation, the last min(1000, 10%) for test): train, test, characters."""
    words = [w.strip() for w in lines]
    words = [w for w in words if w]
    torch.manual_seed(seed)
    order = torch.randperm(len(words)).tolist()
    test_size = min(1000, int(len(words) * 0.1))
    return [words[i] for i in order[:-test_size]], [words[i] for i in order[-test_size:]], sorted(set("".join(words)))


def makemore_transformer_run(
    names_text: str,
    max_steps: int = 10_000,
    batch_size: int = 32,
    eval_every: int = 500,
    sample_every: int = 200,
    n_layer: int = 4,
    n_head: int = 4,
    n_embd: int = 64,
    seed: int = 3407,
) -> ReferenceResult:
    """makemore's default transformer on names, whole run (defaults: `--max-steps 10000 -n 0`); see the module docstring."""
    start = time.perf_counter()
    train_words, test_words, chars = makemore_split(names_text.splitlines(), seed)
    longest = max(len(w) for w in train_words + test_words)
    train_set, test_set = _NamesDataset(train_words, chars, longest), _NamesDataset(test_words, chars, longest)
    block_size = longest + 1
    model = MakemoreLike(len(chars) + 1, block_size, n_layer, n_head, n_embd)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.01, betas=(0.9, 0.99), eps=1e-8)
    sampler = torch.utils.data.RandomSampler(train_set, replacement=True, num_samples=int(1e10))
    batches = iter(torch.utils.data.DataLoader(train_set, sampler=sampler, batch_size=batch_size, num_workers=0))

    @torch.inference_mode()
    def held_out(dataset: _NamesDataset, max_batches: int) -> float:
        model.eval()
        losses = []
        for i, (x, y) in enumerate(torch.utils.data.DataLoader(dataset, shuffle=True, batch_size=100, num_workers=0)):
            losses.append(model(x, y)[1].item())
            if i >= max_batches:
                break
        model.train()
        return torch.tensor(losses).mean().item()

    @torch.no_grad()
    def samples(num: int = 10) -> list[str]:
        idx = torch.zeros(num, 1, dtype=torch.long)  # (num, 1): the start token
        for _ in range(block_size - 1):
            logits, _ = model(idx[:, -block_size:])  # (num, t, V)
            probs = F.softmax(logits[:, -1, :], dim=-1)  # (num, V)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
        words = []
        for row in idx[:, 1:].tolist():
            row = row[: row.index(0)] if 0 in row else row
            word = "".join(train_set.itos[i] for i in row)
            words.append((word, word in train_set.words or word in test_set.words))
        return words

    result = ReferenceResult("makemore transformer (defaults)", 0.0, 0)
    best = math.inf
    step = 0
    while True:
        x, y = next(batches)
        _, loss = model(x, y)
        model.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            loss.item()
        if step > 0 and step % eval_every == 0:
            held_out(train_set, 10)
            test_loss = held_out(test_set, 10)
            result.eval_steps.append(step)
            result.eval_loss.append(test_loss)
            if test_loss < best:
                best = test_loss
                torch.save(model.state_dict(), io.BytesIO())
        if step > 0 and step % sample_every == 0:
            samples(10)
        step += 1
        if step >= max_steps:
            break
    result.seconds = time.perf_counter() - start
    result.steps, result.model = step, model
    result.final_loss = result.eval_loss[-1] if result.eval_loss else math.nan
    result.best_loss = best
    return result


def speed_unit(nanogpt_seconds: float) -> float:
    """U in seconds: nanoGPT's CPU recipe's wall time on this machine, from the frozen workload's seconds."""
    return NANOGPT_CALIBRATION * nanogpt_seconds


__all__ = [
    "NANOGPT_CALIBRATION",
    "ReferenceResult",
    "NanoGPTLike",
    "MakemoreLike",
    "nanogpt_char_run",
    "nanogpt_full_val_loss",
    "makemore_split",
    "makemore_transformer_run",
    "speed_unit",
]
