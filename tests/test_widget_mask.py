"""The 2 x 2 mask experiment (utils.copy_failure) and its widget, on tiny untrained models."""

import re
import numpy as np
import pytest
import torch
import traitlets

import utils.training
from utils.copy_failure import (
    GridCell,
    generation_time_nll,
    grid_losses,
    grid_maps,
    grid_samples,
    judge_samples,
    mask_grid,
    next_position_share,
    sample_continuations,
    teacher_forced_nll,
    with_mask,
)
from utils.ngram import NGramLM
from utils.tokenizers import CharTokenizer
from utils.transformer import TransformerConfig, TransformerLM
from utils.widgets.colors import colormap_table
from utils.widgets.mask import MaskGridWidget, cell_payload, mask_widget
from utils.widgets.mask_samples import cell_runs, grid_cell_maps, one_layer_twins, stream_samples

TOKENIZER = CharTokenizer.from_text("abcdefgh The")
TEXT = "The cafe had a bag The bead faded " * 4
WINDOWS = [TOKENIZER.encode(TEXT[s : s + 12]) for s in (0, 7, 20)]


def tiny(causal: bool, n_layer: int = 1) -> TransformerLM:
    torch.manual_seed(0)
    model = TransformerLM(TransformerConfig(TOKENIZER.vocab_size, context_length=16, n_layer=n_layer, n_head=2,
                                            d_model=16, causal=causal, positional="rotary")).eval()
    with torch.no_grad():  # sharper attention than at initialisation, so masked and unmasked runs differ clearly
        for parameter in model.parameters():
            parameter.mul_(3)
    model.use_kv_cache = causal
    return model


def pair(n_layer: int = 1) -> dict:
    return {"masked": tiny(True, n_layer), "unmasked": tiny(False, n_layer)}


def judge() -> NGramLM:
    return NGramLM.fit(torch.tensor(TOKENIZER.encode(TEXT)), TOKENIZER.vocab_size, n=3)


def test_next_position_share():
    ahead = torch.eye(5).roll(1, dims=1)  # row i puts all weight on i+1
    assert next_position_share(ahead) == 1.0
    assert next_position_share(torch.eye(5)) == 0.0
    with pytest.raises(ValueError, match="square"):
        next_position_share(torch.ones(3, 4))


def test_sample_continuations_gives_n_samples_of_the_asked_length():
    model = tiny(True)
    samples = sample_continuations(model, [1, 2], 3, 10)
    assert len(samples) == 3 and all(len(s) == 10 for s in samples)
    assert all(0 <= token < model.vocab_size for s in samples for token in s)


def test_with_mask_switches_the_attention_and_leaves_the_original_alone():
    unmasked = tiny(False)
    masked_run = with_mask(unmasked, True)
    assert masked_run.config.causal and all(block.causal for block in masked_run.blocks)
    assert not unmasked.config.causal and not any(block.causal for block in unmasked.blocks), "the original is unchanged"
    assert all(torch.equal(a, b) for a, b in zip(unmasked.parameters(), masked_run.parameters()))
    ids = torch.tensor([TOKENIZER.encode("The cafe")])  # (1, T)
    with torch.no_grad():
        assert torch.allclose(masked_run(ids), tiny(True)(ids), atol=1e-6), "same weights + mask = the masked model"
    assert not with_mask(tiny(True), False).use_kv_cache, "without the mask there is no KV cache"


def test_generation_time_nll_matches_the_masked_forward_and_hides_the_future():
    from utils.decoding import sequence_log_prob

    windows = [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]]
    masked = tiny(True)
    expected = -sum(sequence_log_prob(masked, torch.tensor(w[:1]), torch.tensor(w[1:])) for w in windows) / 10
    assert generation_time_nll(masked, windows) == pytest.approx(expected, rel=1e-4)
    assert masked.use_kv_cache  # restored afterwards
    unmasked = tiny(False)
    step_by_step = generation_time_nll(unmasked, windows)
    seeing_all = -sum(sequence_log_prob(unmasked, torch.tensor(w[:1]), torch.tensor(w[1:])) for w in windows) / 10
    assert step_by_step != pytest.approx(seeing_all, rel=1e-4)  # the full forward pass lets it see the future
    with pytest.raises(ValueError, match="two tokens"):
        generation_time_nll(masked, [[1]])


def test_generation_time_nll_scores_from_an_index():
    windows = [[1, 2, 3, 4, 5, 6]]
    masked = tiny(True)
    with torch.no_grad():
        log_probs = torch.log_softmax(masked(torch.tensor(windows)[:, :-1]), -1)[0]  # (5, V)
    tail = -float(sum(log_probs[t, windows[0][t + 1]] for t in range(3, 5))) / 2  # tokens 4 and 5 only
    assert generation_time_nll(masked, windows, score_from=4) == pytest.approx(tail, rel=1e-4)
    with pytest.raises(ValueError, match="score_from"):
        generation_time_nll(masked, windows, score_from=0)
    with pytest.raises(ValueError, match="index 6"):
        generation_time_nll(masked, windows, score_from=6)


def test_judge_samples_is_the_generation_time_nll_of_the_continuations():
    referee = judge()
    prefix, continuations = TOKENIZER.encode("The "), [TOKENIZER.encode("cafe had"), TOKENIZER.encode("hhhhhhhh")]
    windows = [prefix + c for c in continuations]
    assert judge_samples(referee, prefix, continuations) == pytest.approx(
        generation_time_nll(referee, windows, score_from=len(prefix)), rel=1e-6)
    assert judge_samples(referee, prefix, continuations[:1]) < judge_samples(referee, prefix, continuations[1:]), (
        "text like the judge's corpus must score lower than a run of one letter")
    with pytest.raises(ValueError, match="prefix is empty"):
        judge_samples(referee, [], continuations)


def test_teacher_forced_nll_is_one_forward_pass_and_agrees_with_generation_only_when_masked():
    windows = [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]]
    masked, unmasked = tiny(True), tiny(False)
    with torch.no_grad():
        ids = torch.tensor(windows)
        by_hand = -torch.log_softmax(masked(ids[:, :-1]), -1).gather(-1, ids[:, 1:, None]).mean().item()
        forced = teacher_forced_nll(masked, windows)
    assert forced == pytest.approx(by_hand, rel=1e-6)
    assert forced == pytest.approx(generation_time_nll(masked, windows), abs=1e-5)  # past-only either way
    assert teacher_forced_nll(unmasked, windows) != pytest.approx(generation_time_nll(unmasked, windows), abs=1e-3)
    with pytest.raises(ValueError, match="one common length"):
        teacher_forced_nll(masked, [[1, 2, 3], [1, 2]])


def test_grid_losses_run_each_model_with_and_without_the_mask():
    models = pair()
    losses = grid_losses(models, WINDOWS)
    assert set(losses) == {(t, e) for t in ("masked", "unmasked") for e in ("masked", "unmasked")}
    assert losses["masked", "masked"] == pytest.approx(teacher_forced_nll(models["masked"], WINDOWS))
    assert losses["unmasked", "unmasked"] == pytest.approx(teacher_forced_nll(models["unmasked"], WINDOWS))
    # trained unmasked, run with the mask: exactly what the masked weights would do... with the unmasked weights
    assert losses["unmasked", "masked"] == pytest.approx(teacher_forced_nll(with_mask(models["unmasked"], True), WINDOWS))
    assert losses["unmasked", "masked"] == pytest.approx(generation_time_nll(with_mask(models["unmasked"], True), WINDOWS),
                                                         abs=1e-5), "with the mask, teacher forcing is past-only"
    assert losses["unmasked", "masked"] != pytest.approx(losses["unmasked", "unmasked"], abs=1e-3)
    with pytest.raises(ValueError, match="exactly the keys"):
        grid_losses({"masked": models["masked"]}, WINDOWS)


def test_grid_maps_are_masked_exactly_in_the_masked_column():
    maps = grid_maps(pair(), TOKENIZER, "The cafe")
    for (trained, evaluated), (tokens, attention, share) in maps.items():
        assert tokens == list("The cafe") and attention.shape == (8, 8)
        assert torch.allclose(attention.sum(-1), torch.ones(8), atol=1e-5)
        above = float(attention.triu(1).sum())
        if evaluated == "masked":
            assert above < 1e-6 and share == 0.0, (trained, evaluated)
        else:
            assert above > 0.1, (trained, evaluated)
    with pytest.raises(ValueError, match="empty"):
        grid_maps(pair(), TOKENIZER, "")
    with pytest.raises(ValueError, match="not in the vocabulary"):
        grid_maps(pair(), TOKENIZER, "xyz")


def test_one_layer_writes_the_same_text_with_and_without_the_mask_two_layers_do_not():
    """Generation reads the last position only; in one layer its attention row has no future to hide."""
    one = grid_samples(pair(1), judge(), TOKENIZER, "The ", n_samples=3, length=12)
    for trained in ("masked", "unmasked"):
        assert one[trained, "masked"][0] == one[trained, "unmasked"][0]
    two = grid_samples(pair(2), judge(), TOKENIZER, "The ", n_samples=3, length=12)
    assert any(two[t, "masked"][0] != two[t, "unmasked"][0] for t in ("masked", "unmasked")), (
        "with two layers, earlier positions that see later ones change what the last one writes")
    texts, nll = two["masked", "masked"]
    assert len(texts) == 3 and all(len(t) == 12 for t in texts) and nll > 0


def test_mask_grid_puts_it_together():
    cells = mask_grid(pair(), judge(), TOKENIZER, WINDOWS, "The ", n_samples=2, length=8)
    cell = cells["unmasked", "masked"]
    assert isinstance(cell, GridCell) and cell.trained == "unmasked" and cell.evaluated == "masked"
    assert cell.teacher_forced == pytest.approx(grid_losses(pair(), WINDOWS)["unmasked", "masked"])
    assert len(cell.samples) == 2 and cell.attention.shape == (4, 4)


def test_cell_payload_is_json_ready():
    import json

    payload = cell_payload("masked", "unmasked", 1.23456, ["a", "b"], torch.tensor([[0.5, 0.5], [0.25, 0.75]]), 0.5,
                           ["x"], 2.0)
    assert json.loads(json.dumps(payload))["attention"] == [[0.5, 0.5], [0.25, 0.75]]
    assert payload["teacher_forced"] == 1.2346 and payload["sample_nll"] == 2.0
    assert cell_payload("masked", "masked", 1, ["a"], torch.ones(1, 1), 0, None, None)["samples"] is None


def test_colormap_table():
    table = colormap_table("viridis", 8)
    assert len(table) == 8 and all(len(c) == 7 and c.startswith("#") for c in table)
    assert table[0] != table[-1]
    with pytest.raises(ValueError, match="at least 2"):
        colormap_table("viridis", 1)


def test_widget_computes_cells_once_per_prefix_without_training(monkeypatch):
    def no_training(*args, **kwargs):
        raise AssertionError("the widget must not train")

    monkeypatch.setattr(utils.training, "train", no_training)
    models = pair()
    weights_before = {k: [p.clone() for p in m.parameters()] for k, m in models.items()}
    widget = mask_widget(models, judge(), TOKENIZER, WINDOWS, prefix="The ", n_samples=2, length=10)
    assert isinstance(widget, MaskGridWidget) and widget.updates == 1 and widget.status == ""
    assert [(c["trained"], c["evaluated"]) for c in widget.cells] == [
        ("masked", "masked"), ("masked", "unmasked"), ("unmasked", "masked"), ("unmasked", "unmasked")]
    assert widget.selected == "unmasked/masked", "the most telling cell is shown first"
    cell = widget.cell("unmasked", "masked")
    assert cell["tokens"] == list("The ") and len(cell["samples"]) == 2 and cell["sample_nll"] > 0
    assert np.allclose(np.triu(np.array(cell["attention"]), 1), 0)
    assert cell["teacher_forced"] == pytest.approx(grid_losses(models, WINDOWS)["unmasked", "masked"], abs=1e-4)
    assert widget.texts["done"] and widget.texts["written"] == 10 and widget.texts["prefix"] == "The "
    widget.prefix = "bad "
    assert widget.updates == 2 and widget.cell("masked", "masked")["tokens"] == list("bad ")
    widget.prefix = "The "
    assert widget.updates == 3 and set(widget.cache) == {"The ", "bad "}, "each prefix computed once"
    widget.prefix = "xyz"
    assert "not in the vocabulary" in widget.status and widget.cell("masked", "masked")["tokens"] == list("The ")
    widget.prefix = ""
    assert "empty" in widget.status
    with pytest.raises(traitlets.TraitError, match="trained/evaluated"):
        widget.selected = "masked"  # the view would find no such cell
    for name, model in models.items():
        assert all(torch.equal(a, b) for a, b in zip(weights_before[name], model.parameters()))


def test_widget_ships_its_front_end_offline():
    esm = MaskGridWidget._esm
    assert "export default" in esm and "lm-main-control" in esm and "lm-mask-widget" in esm
    urls = set(re.findall(r"https?://[^\s\"'`]+", esm))
    assert urls <= {"http://www.w3.org/2000/svg"}, f"the front end must fetch nothing: {urls}"
    assert "\nimport " not in esm and "fetch(" not in esm, "no imports, no requests"
    assert "https://" not in MaskGridWidget._css


def test_bad_keys():
    with pytest.raises(ValueError, match="masked"):
        MaskGridWidget({"a": tiny(True)}, judge(), TOKENIZER, WINDOWS)


def test_cell_runs_cache_exactly_the_masked_column():
    runs = cell_runs(pair(2))
    for (trained, evaluated), run in runs.items():
        assert run.config.causal == (evaluated == "masked") and run.use_kv_cache == (evaluated == "masked"), (trained, evaluated)
    with pytest.raises(ValueError, match="exactly the keys"):
        cell_runs({"masked": tiny(True)})


def test_grid_cell_maps_are_grid_maps():
    models = pair(2)
    reference = grid_maps(models, TOKENIZER, "The cafe")
    fast = grid_cell_maps(cell_runs(models), TOKENIZER.encode("The cafe"))
    for key, (tokens, attention, share) in reference.items():
        assert torch.allclose(fast[key][0], attention, atol=1e-6) and fast[key][1] == share, key
    with pytest.raises(ValueError, match="empty"):
        grid_cell_maps(cell_runs(models), [])


def test_streamed_samples_are_the_reference_samples_and_grow_to_the_end():
    """Every yield extends the last; the final texts are sample_continuations' draws with the same seed."""
    models = pair(2)
    runs = cell_runs(models)
    prefix = TOKENIZER.encode("The ")
    steps = list(stream_samples(runs, prefix, 3, 8, seed=5, interval_s=0.0))  # interval 0: a yield per token
    assert [written for written, _ in steps] == list(range(1, 9))
    for (_, before), (_, after) in zip(steps, steps[1:]):
        assert all(a[: len(b)] == b for key in before for a, b in zip(after[key], before[key]))
    final = steps[-1][1]
    for (trained, evaluated), run in runs.items():
        expected = sample_continuations(run, prefix, 3, 8, seed=5)
        assert final[trained, evaluated] == expected, (trained, evaluated)
    reference = grid_samples(models, judge(), TOKENIZER, "The ", n_samples=3, length=8, seed=5)
    for key in (("masked", "masked"), ("masked", "unmasked"), ("unmasked", "unmasked")):  # same cache setting as there
        assert [TOKENIZER.decode(c) for c in final[key]] == reference[key][0], key
    assert [written for written, _ in stream_samples(runs, prefix, 1, 6, interval_s=60.0)] == [1, 6], (
        "with a long interval: the first token and the end only")
    with pytest.raises(ValueError, match="empty"):
        next(stream_samples(runs, [], 2, 5))
    with pytest.raises(ValueError, match="at least 1"):
        next(stream_samples(runs, prefix, 0, 5))


def test_one_layer_rows_share_draws_that_a_re_run_would_give():
    """One layer: a row's unmasked cell takes the masked cell's draws, and they are what re-running its history draws."""
    models = pair(1)
    torch.manual_seed(1)
    with torch.no_grad():  # the two rows' weights differ, so a draw taken from the wrong row shows
        for parameter in models["unmasked"].parameters():
            parameter.add_(0.3 * torch.randn_like(parameter))
    one, two = cell_runs(models), cell_runs(pair(2))
    assert one_layer_twins(one) == {("masked", "unmasked"): ("masked", "masked"),
                                    ("unmasked", "unmasked"): ("unmasked", "masked")}
    assert one_layer_twins(two) == {}, "with two layers the first layer's earlier positions see later ones"
    prefix = TOKENIZER.encode("The ")
    final = list(stream_samples(one, prefix, 3, 12, seed=7))[-1][1]
    for (trained, evaluated), run in one.items():
        assert final[trained, evaluated] == sample_continuations(run, prefix, 3, 12, seed=7), (trained, evaluated)
    alone = {("masked", "unmasked"): one["masked", "unmasked"]}  # no twin given: it re-runs its history
    assert list(stream_samples(alone, prefix, 3, 12, seed=7))[-1][1] == {k: final[k] for k in alone}
    changed = cell_runs(pair(1))
    with torch.no_grad():
        changed["masked", "unmasked"].lm_head.weight.add_(0.1)  # other weights in one cell: no twin
    assert one_layer_twins(changed) == {("unmasked", "unmasked"): ("unmasked", "masked")}


def test_widget_sends_maps_before_samples_and_samples_as_they_grow():
    widget = mask_widget(pair(2), judge(), TOKENIZER, WINDOWS, prefix="The ", n_samples=2, length=8, interval_s=0.0)
    sent = []
    widget.observe(lambda change: sent.append(("cells", change["new"][0]["prefix"])), names="cells")
    widget.observe(lambda change: sent.append(("texts", change["new"]["written"], change["new"]["done"])), names="texts")
    widget.prefix = "bead "
    assert sent[0] == ("cells", "bead "), "the four maps go first"
    assert [item[1] for item in sent[1:]] == list(range(1, 9)) and [item[2] for item in sent[1:]] == [False] * 7 + [True]
    cell = widget.cell("unmasked", "unmasked")
    assert len(cell["samples"]) == 2 and all(len(t) == 8 for t in cell["samples"]) and cell["sample_nll"] > 0
    assert cell["sample_nll"] == pytest.approx(judge_samples(judge(), TOKENIZER.encode("bead "),
                                                             [TOKENIZER.encode(t) for t in cell["samples"]]), abs=1e-4)
