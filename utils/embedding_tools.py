"""Looking at learned embeddings: cosine similarities, nearest neighbours, a 2-D projection."""

from __future__ import annotations

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
