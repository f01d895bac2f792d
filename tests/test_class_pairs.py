"""The class-pair task: the follower rule, a disjoint split, and that only shared structure scores held-out pairs."""

import math

import pytest
import torch

from utils.class_pairs import ClassPairTask, batches_from, follower_loss
from utils.interface import IGNORE_INDEX
from utils.ngram import NGramLM
from utils.ngram_counts import NGramCounts
from utils.training import TrainConfig, train
from utils.window_mlp import WindowMLPConfig, WindowMLPLM


def test_follower_is_a_class_token_at_b_class_place():
    task = ClassPairTask(num_classes=3, class_size=5)
    followers = task.followers()
    assert task.vocab_size == 15 and followers.shape == (15, 15)
    assert int(followers[7, 11]) == 1 * 5 + 2  # a = 7 is in class 1, b = 11 in class 2
    assert int(followers[0, 14]) == 2 and int(followers[14, 0]) == 10
    assert torch.equal(task.token_class(followers), task.token_class(torch.arange(15))[:, None].expand(15, 15))


def test_split_is_disjoint_complete_and_seeded():
    task = ClassPairTask(seen_share=0.25, seed=3)
    seen, held_out = task.pairs("train"), task.pairs("heldout")
    assert len(seen) == 144 and len(held_out) == 432
    keys = lambda pairs: set((pairs[:, 0] * task.vocab_size + pairs[:, 1]).tolist())
    assert not keys(seen) & keys(held_out) and len(keys(seen) | keys(held_out)) == task.vocab_size ** 2
    assert torch.equal(seen, ClassPairTask(seen_share=0.25, seed=3).pairs("train"))
    assert not torch.equal(seen, ClassPairTask(seen_share=0.25, seed=4).pairs("train"))


def test_sequences_follow_the_rule_and_stay_in_their_split():
    task = ClassPairTask()
    sequences = task.sequences("heldout", 500, torch.Generator().manual_seed(0))
    assert sequences.shape == (500, 3) and sequences.dtype == torch.long
    assert torch.equal(sequences[:, 2], task.followers()[sequences[:, 0], sequences[:, 1]])
    held_out = set((task.pairs("heldout") * torch.tensor([task.vocab_size, 1])).sum(1).tolist())
    assert set((sequences[:, 0] * task.vocab_size + sequences[:, 1]).tolist()) <= held_out
    assert task.describe(torch.tensor([10, 13, 8])) == "B4 C1 B2"


def test_unshared_followers_differ_per_pair():
    followers = ClassPairTask(shared=False).followers()
    shared = ClassPairTask().followers()
    assert float((followers != shared).double().mean()) > 0.8
    assert len(set(followers[:6, :6].flatten().tolist())) > 6  # the same class pair, many followers


def test_batches_score_only_the_follower():
    sequences = ClassPairTask().sequences("train", 50, torch.Generator().manual_seed(1))
    x, y = batches_from(sequences, 8, torch.Generator().manual_seed(2))()
    assert x.shape == y.shape == (8, 2)
    assert bool((y[:, 0] == IGNORE_INDEX).all())
    rows = {tuple(r) for r in sequences.tolist()}
    assert all((int(a), int(b), int(c)) in rows for (a, b), c in zip(x, y[:, 1]))


def test_rejects_bad_settings():
    with pytest.raises(ValueError, match="class_size >= num_classes"):
        ClassPairTask(num_classes=4, class_size=3)
    with pytest.raises(ValueError, match="seen_share"):
        ClassPairTask(seen_share=1.0)
    with pytest.raises(ValueError, match="split"):
        ClassPairTask().pairs("test")
    with pytest.raises(ValueError, match=r"\(n, 3\)"):
        batches_from(torch.zeros(4, 2, dtype=torch.long), 2)


def _held_out_losses(task: ClassPairTask) -> tuple[float, float]:
    """(Kneser-Ney trigram, trained window MLP) loss on held-out pairs, both from the same training sequences."""
    generator = torch.Generator().manual_seed(0)
    train_sequences = task.sequences("train", 3000, generator)
    held_out = task.sequences("heldout", 1000, generator)
    kn = NGramLM.from_counts(NGramCounts.from_sequences(list(train_sequences), task.vocab_size, 3), 3)
    torch.manual_seed(0)
    mlp = WindowMLPLM(WindowMLPConfig(task.vocab_size, window=2, d_embed=8, d_hidden=32))
    train(mlp, batches_from(train_sequences, 64, generator), TrainConfig(steps=150, lr=1e-2, progress=False))
    return follower_loss(kn, held_out), follower_loss(mlp, held_out)


def test_only_shared_structure_lets_the_mlp_score_held_out_pairs():
    task = ClassPairTask()
    kn_loss, mlp_loss = _held_out_losses(task)
    assert kn_loss > task.one_token_loss - 0.2 and mlp_loss < 0.3 * task.one_token_loss
    kn_loss, mlp_loss = _held_out_losses(ClassPairTask(shared=False))
    assert min(kn_loss, mlp_loss) > math.log(task.vocab_size) - 0.5  # nothing to share: nobody scores them
