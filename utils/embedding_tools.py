"""Looking at learned embeddings: cosine similarities, nearest neighbours, a 2-D projection."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def cosine_similarities(embeddings: torch.Tensor) -> torch.Tensor:
    """Cosine similarity of every pair of rows: (V, E) -> (V, V)."""
    if embeddings.dim() != 2:
        raise ValueError(f"expected an embedding matrix of shape (V, E), got {tuple(embeddings.shape)}")
    unit = F.normalize(embeddings.detach().float(), dim=1)  # (V, E)
    return unit @ unit.T  # (V, V)


def nearest_neighbours(embeddings: torch.Tensor, index: int, k: int = 5) -> list[int]:
    """The k rows most cosine-similar to row `index` (itself excluded), most similar first."""
    if not 0 <= index < embeddings.shape[0]:
        raise ValueError(f"index must lie in [0, {embeddings.shape[0]}), got {index}")
    similarity = cosine_similarities(embeddings)[index].clone()  # (V,)
    similarity[index] = -float("inf")
    k = min(k, embeddings.shape[0] - 1)
    return similarity.topk(k).indices.tolist()


def neighbour_table(vocab_size: int, dim: int, index: int, seed: int, negative: bool = False,
                    lengths: tuple[float, float] = (0.05, 20.0), gap: float = 1e-3) -> torch.Tensor:
    """A seeded (V, E) table whose rows' lengths span `lengths` and whose cosines to row `index` differ by >= `gap`."""
    if vocab_size < 2 or dim < 2 or not 0 <= index < vocab_size or not 0 < lengths[0] <= lengths[1]:
        raise ValueError(f"neighbour_table needs V >= 2, E >= 2, 0 <= index < V and 0 < lengths[0] <= lengths[1], got "
                         f"V={vocab_size}, E={dim}, index={index}, lengths={lengths}")
    low, high = (-0.95, -0.05) if negative else (-0.95, 0.95)  # negative: every other row points away from the query
    slots = int((high - low) / gap)  # grid points gap or more apart
    if slots + 1 < vocab_size - 1:
        raise ValueError(f"{vocab_size - 1} cosines {gap} apart do not fit between {low} and {high}")
    generator = torch.Generator().manual_seed(seed)
    cosines = low + torch.randperm(slots + 1, generator=generator)[: vocab_size - 1].double() * (high - low) / slots
    query = F.normalize(torch.randn(dim, generator=generator, dtype=torch.float64), dim=0)  # (E,)
    others = torch.randn(vocab_size - 1, dim, generator=generator, dtype=torch.float64)  # (V-1, E)
    others = F.normalize(others - (others @ query)[:, None] * query, dim=1)  # (V-1, E): at right angles to the query
    directions = cosines[:, None] * query + (1 - cosines**2).sqrt()[:, None] * others  # (V-1, E): unit rows
    table = torch.cat([directions[:index], query[None], directions[index:]])  # (V, E)
    log_low, log_high = math.log(lengths[0]), math.log(lengths[1])
    scale = torch.exp(log_low + (log_high - log_low) * torch.rand(vocab_size, 1, generator=generator, dtype=torch.float64))
    return (table * scale).float()  # (V, E)


def project_2d(embeddings: torch.Tensor) -> torch.Tensor:
    """Coordinates on the two principal directions (PCA): (V, E) -> (V, 2)."""
    if embeddings.dim() != 2 or embeddings.shape[1] < 2:
        raise ValueError(f"expected embeddings of shape (V, E) with E >= 2, got {tuple(embeddings.shape)}")
    centred = embeddings.detach().float() - embeddings.detach().float().mean(dim=0)  # (V, E)
    _, _, v = torch.linalg.svd(centred, full_matrices=False)  # rows of v: principal directions
    return centred @ v[:2].T  # (V, 2)


def mean_similarity(similarity: torch.Tensor, group_a: list[int], group_b: list[int]) -> float:
    """Mean cosine similarity between two groups of tokens (pairs of a token with itself left out)."""
    block = similarity[group_a][:, group_b]  # (A, B)
    keep = torch.tensor([[a != b for b in group_b] for a in group_a])  # (A, B)
    return float(block[keep].mean())
