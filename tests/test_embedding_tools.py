"""Embedding tools: cosine similarities, nearest neighbours, the PCA projection and group similarities."""

import math

import pytest
import torch

from utils.embedding_tools import cosine_similarities, mean_similarity, nearest_neighbours, neighbour_table, project_2d

# Four hand-checkable rows: east, north, north-east (twice as long), west.
EMBEDDINGS = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0], [-3.0, 0.0]])
R = 1 / math.sqrt(2)


def test_cosine_similarities_of_a_hand_checked_example():
    expected = torch.tensor(
        [
            [1.0, 0.0, R, -1.0],
            [0.0, 1.0, R, 0.0],
            [R, R, 1.0, -R],
            [-1.0, 0.0, -R, 1.0],
        ]
    )
    assert torch.allclose(cosine_similarities(EMBEDDINGS), expected, atol=1e-6)


def test_cosine_similarities_ignore_length_and_carry_no_gradient():
    weights = torch.randn(6, 4, generator=torch.Generator().manual_seed(0), requires_grad=True)
    similarity = cosine_similarities(weights)
    assert similarity.shape == (6, 6) and not similarity.requires_grad
    assert torch.allclose(similarity, similarity.T) and torch.allclose(similarity.diagonal(), torch.ones(6))
    scaled = weights.detach() * torch.tensor([[1.0], [5.0], [0.1], [2.0], [3.0], [7.0]])
    assert torch.allclose(cosine_similarities(scaled), similarity, atol=1e-6)


def test_cosine_similarities_reject_a_non_matrix():
    with pytest.raises(ValueError, match=r"shape \(V, E\), got \(2, 3, 4\)"):
        cosine_similarities(torch.zeros(2, 3, 4))
    with pytest.raises(ValueError, match=r"shape \(V, E\)"):
        cosine_similarities(torch.zeros(5))


def test_nearest_neighbours_are_most_similar_first_and_exclude_the_row_itself():
    assert nearest_neighbours(EMBEDDINGS, 0, k=3) == [2, 1, 3]  # cos R, 0, -1
    assert nearest_neighbours(EMBEDDINGS, 3, k=2) == [1, 2]  # cos 0, -R
    assert nearest_neighbours(EMBEDDINGS, 2, k=1) in ([0], [1])  # a tie at R, never itself (cos 1)


def test_nearest_neighbours_find_an_exact_copy_and_clip_k():
    embeddings = torch.cat([EMBEDDINGS, EMBEDDINGS[1:2] * 4])  # row 4 points exactly like row 1
    assert nearest_neighbours(embeddings, 1, k=1) == [4]
    neighbours = nearest_neighbours(embeddings, 1, k=50)  # at most V - 1 = 4 others
    assert len(neighbours) == 4 and sorted(neighbours) == [0, 2, 3, 4]


def test_nearest_neighbours_reject_an_index_outside_the_vocabulary():
    with pytest.raises(ValueError, match=r"index must lie in \[0, 4\), got 4"):
        nearest_neighbours(EMBEDDINGS, 4)
    with pytest.raises(ValueError, match=r"got -1"):
        nearest_neighbours(EMBEDDINGS, -1)


@pytest.mark.parametrize("vocab_size, dim, index, negative", [(2, 2, 0, False), (60, 2, 59, True), (60, 16, 30, False),
                                                              (5, 3, 2, True)])
def test_neighbour_table_spreads_lengths_and_separates_the_cosines_to_the_query(vocab_size, dim, index, negative):
    table = neighbour_table(vocab_size, dim, index, seed=4, negative=negative)
    assert table.shape == (vocab_size, dim) and table.dtype == torch.float32
    assert torch.equal(table, neighbour_table(vocab_size, dim, index, seed=4, negative=negative))  # seeded
    lengths = table.norm(dim=1)
    assert float(lengths.min()) >= 0.05 * 0.999 and float(lengths.max()) <= 20.0 * 1.001
    unit = torch.nn.functional.normalize(table.double(), dim=1)
    others = torch.cat([unit[:index], unit[index + 1 :]]) @ unit[index]  # (V-1,): cosines to the query
    ordered = others.sort().values
    assert vocab_size < 3 or float((ordered[1:] - ordered[:-1]).min()) > 0.999e-3  # no near-ties: one ranking
    assert float(others.max()) < (0 if negative else 1 - 0.04)
    assert nearest_neighbours(table, index, vocab_size - 1) == (others.argsort(descending=True)
                                                                + (others.argsort(descending=True) >= index)).tolist()


def test_neighbour_table_lengths_change_the_dot_product_ranking():
    table = neighbour_table(40, 8, 5, seed=1)
    by_dot = (table @ table[5]).index_fill(0, torch.tensor([5]), -float("inf")).topk(10).indices.tolist()
    assert by_dot != nearest_neighbours(table, 5, 10)


def test_neighbour_table_refuses_what_cannot_be_built():
    with pytest.raises(ValueError, match="V >= 2, E >= 2"):
        neighbour_table(1, 3, 0, seed=0)
    with pytest.raises(ValueError, match="E >= 2"):
        neighbour_table(5, 1, 0, seed=0)
    with pytest.raises(ValueError, match="do not fit"):
        neighbour_table(200, 4, 0, seed=0, negative=True, gap=0.01)


def test_project_2d_of_points_on_a_line_is_that_line():
    direction = torch.tensor([1.0, 2.0, 2.0]) / 3  # unit length
    offsets = torch.tensor([-2.0, 0.0, 1.0, 4.0])
    points = torch.tensor([5.0, -1.0, 3.0]) + offsets[:, None] * direction  # (4, 3), all on one line
    coordinates = project_2d(points)
    assert coordinates.shape == (4, 2)
    assert torch.allclose(coordinates[:, 1], torch.zeros(4), atol=1e-5)  # no spread off the line
    centred = offsets - offsets.mean()
    sign = 1.0 if float(coordinates[0, 0] * centred[0]) > 0 else -1.0  # the direction's sign is arbitrary
    assert torch.allclose(coordinates[:, 0], sign * centred, atol=1e-5)  # positions along the line


def test_project_2d_is_centred_ordered_by_variance_and_keeps_2d_distances():
    points = torch.randn(10, 2, generator=torch.Generator().manual_seed(1)) * torch.tensor([3.0, 0.5])
    coordinates = project_2d(points)
    assert torch.allclose(coordinates.mean(dim=0), torch.zeros(2), atol=1e-5)
    assert coordinates[:, 0].var() >= coordinates[:, 1].var()
    # With E = 2 the projection is a rotation (or reflection) of the centred points: distances are kept.
    assert torch.allclose(torch.cdist(coordinates, coordinates), torch.cdist(points, points), atol=1e-4)


def test_project_2d_rejects_fewer_than_two_dimensions():
    with pytest.raises(ValueError, match=r"E >= 2, got \(5, 1\)"):
        project_2d(torch.zeros(5, 1))
    with pytest.raises(ValueError, match="E >= 2"):
        project_2d(torch.zeros(5))


def test_mean_similarity_leaves_out_self_pairs():
    similarity = torch.tensor(
        [
            [1.0, 0.2, 0.4, 0.6],
            [0.2, 1.0, 0.8, 0.0],
            [0.4, 0.8, 1.0, 0.5],
            [0.6, 0.0, 0.5, 1.0],
        ]
    )
    assert mean_similarity(similarity, [0, 1], [2, 3]) == pytest.approx((0.4 + 0.6 + 0.8 + 0.0) / 4)
    assert mean_similarity(similarity, [0, 1, 2], [0, 1, 2]) == pytest.approx((0.2 + 0.4 + 0.8) * 2 / 6)
    assert mean_similarity(similarity, [0, 1], [1, 3]) == pytest.approx((0.2 + 0.6 + 0.0) / 3)  # (1, 1) left out
