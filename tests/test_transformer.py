"""The Transformer LM: shapes, paths, positions, the KV cache, checkpoints and the shared loop."""

import pytest
import torch

from utils.batching import batch_sampler
from utils.checkpoint import load_checkpoint, save_checkpoint
from utils.evaluation import evaluate
from utils.interface import LanguageModel
from utils.positional import POSITIONAL_KINDS, rotary_cos_sin, sinusoidal_encoding
from utils.sampling import generate
from utils.training import TrainConfig, train
from utils.transformer import TransformerConfig, TransformerLM, TransformerState, count_parameters

V = 13


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny models run faster on one thread, and far faster on a busy shared machine."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def small_model(seed: int = 0, **overrides) -> TransformerLM:
    """A tiny model with non-zero relative biases, in eval mode."""
    torch.manual_seed(seed)
    settings = dict(vocab_size=V, context_length=12, n_layer=2, n_head=2, d_model=16)
    model = TransformerLM(TransformerConfig(**{**settings, **overrides})).eval()
    if model.relative_bias is not None:
        torch.nn.init.normal_(model.relative_bias.bias.weight)
    return model


def test_is_a_language_model_with_the_right_shapes():
    model = small_model()
    assert isinstance(model, LanguageModel)
    idx = torch.randint(0, V, (3, 12))
    assert model(idx).shape == (3, 12, V)
    logits, weights = model.forward_with_attention(idx)
    assert logits.shape == (3, 12, V)
    assert len(weights) == 2 and all(w.shape == (3, 2, 12, 12) for w in weights)
    assert torch.allclose(weights[1].sum(-1), torch.ones(3, 2, 12))


def test_context_length_is_a_limit_only_for_learned_positions():
    assert small_model(positional="learned").context_length == 12
    for kind in ("none", "sinusoidal", "relative", "rotary"):
        model = small_model(positional=kind)
        assert model.context_length is None and model.config.context_length == 12
        assert model(torch.randint(0, V, (1, 30))).shape == (1, 30, V)


def test_bad_input_is_a_clear_error():
    model = small_model(positional="learned")
    with pytest.raises(ValueError, match="longer than the model's context"):
        model(torch.zeros(1, 13, dtype=torch.long))
    with pytest.raises(ValueError, match="integer tensor"):
        model(torch.zeros(1, 4))
    with pytest.raises(ValueError, match=r"\[0, 13\)"):
        model(torch.full((1, 4), V))


@pytest.mark.parametrize(
    "overrides, message",
    [
        (dict(d_model=15, n_head=2), "divisible"),
        (dict(positional="alibi"), "unknown positional"),
        (dict(norm_placement="middle"), "norm_placement"),
        (dict(activation="tanh"), "activation"),
        (dict(positional="rotary", d_model=6, n_head=2), "even head size"),
        (dict(dropout=1.0), "dropout"),
    ],
)
def test_config_rejects_bad_settings(overrides, message):
    with pytest.raises(ValueError, match=message):
        TransformerConfig(**{**dict(vocab_size=V), **overrides})


@pytest.mark.parametrize("kind", POSITIONAL_KINDS)
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("norm", ["pre", "post"])
def test_explicit_and_fused_attention_give_the_same_logits(kind, causal, norm):
    model = small_model(positional=kind, causal=causal, norm_placement=norm)
    idx = torch.randint(0, V, (2, 12))
    assert torch.allclose(model(idx), model.forward_with_attention(idx)[0], atol=1e-5)


def test_causal_model_does_not_look_ahead_and_bidirectional_does():
    idx = torch.randint(0, V, (1, 10))
    changed = idx.clone()
    changed[0, 7] = (changed[0, 7] + 1) % V
    causal, bidirectional = small_model(causal=True), small_model(causal=False)
    assert torch.allclose(causal(idx)[:, :7], causal(changed)[:, :7], atol=1e-6)
    assert not torch.allclose(bidirectional(idx)[:, :7], bidirectional(changed)[:, :7], atol=1e-6)
    assert torch.equal(causal.forward_with_attention(idx)[1][0][0, 0].triu(1), torch.zeros(10, 10))


def test_without_positions_a_permuted_input_gives_permuted_outputs():
    model = small_model(positional="none", causal=False)
    idx = torch.randint(0, V, (1, 9))
    permutation = torch.randperm(9)
    assert torch.allclose(model(idx)[:, permutation], model(idx[:, permutation]), atol=1e-5)
    with_positions = small_model(positional="sinusoidal", causal=False)
    assert not torch.allclose(with_positions(idx)[:, permutation], with_positions(idx[:, permutation]), atol=1e-3)


@pytest.mark.parametrize("kind", POSITIONAL_KINDS)
def test_kv_cache_generation_equals_the_rerun_path(kind):
    model = small_model(seed=4, positional=kind)
    prefix = torch.randint(0, V, (2, 5))
    steps = 20  # 25 tokens in all: past the learned context of 12, so the sliding fallback runs too
    model.use_kv_cache = False
    plain = generate(model, prefix, steps, temperature=0)
    model.use_kv_cache = True
    cached = generate(model, prefix, steps, temperature=0)
    assert torch.equal(plain, cached)
    # logits step by step, on the same tokens
    state_cached, state_plain = model.start_state(2), None
    assert isinstance(state_cached, TransformerState)
    logits_c, state_cached = model.step(plain[:, :5], state_cached)
    logits_p, state_plain = LanguageModel.step(model, plain[:, :5], state_plain)
    for t in range(5, plain.shape[1]):
        assert torch.allclose(logits_c, logits_p, atol=1e-4), f"step {t}"
        logits_c, state_cached = model.step(plain[:, t : t + 1], state_cached)
        logits_p, state_plain = LanguageModel.step(model, plain[:, t : t + 1], state_plain)
    assert state_cached.sliding == (kind == "learned")
    if kind != "learned":
        assert state_cached.caches[0].length == plain.shape[1]


@pytest.mark.parametrize("kind", POSITIONAL_KINDS)
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("norm", ["pre", "post"])
def test_next_logits_are_the_last_logits_of_a_full_run(kind, causal, norm):
    for n_layer, n_kv_head in ((1, None), (2, None), (2, 1)):
        model = small_model(seed=2, positional=kind, causal=causal, norm_placement=norm, n_layer=n_layer,
                            n_kv_head=n_kv_head)
        idx = torch.randint(0, V, (3, 11))
        assert torch.allclose(model.next_logits(idx), model(idx)[:, -1], atol=1e-5), (n_layer, n_kv_head)


def test_next_logits_compute_only_the_last_position_in_the_last_block():
    """The blocks below the last compute every position; the last block's feed-forward sees one."""
    model = small_model(n_layer=2, causal=False, positional="rotary")
    seen = []
    hooks = [block.ffn.register_forward_hook(lambda module, args, out: seen.append(args[0].shape[1]))
             for block in model.blocks]
    model.next_logits(torch.randint(0, V, (2, 9)))
    assert seen == [9, 1]
    seen.clear()
    model(torch.randint(0, V, (2, 9)))
    assert seen == [9, 9]
    for hook in hooks:
        hook.remove()


def test_attention_with_fewer_queries_gives_the_last_rows_of_the_full_output():
    model = small_model(positional="relative", causal=True)
    attention, x = model.blocks[0].attention, torch.randn(2, 8, 16)
    bias = model.relative_bias(8, 8, 0)  # (H, 8, 8)
    full, full_weights = attention(x, True, bias=bias, need_weights=True)
    last, last_weights = attention(x, True, bias=bias, need_weights=True, queries=3)
    assert last.shape == (2, 3, 16) and torch.allclose(last, full[:, -3:], atol=1e-6)
    assert torch.allclose(last_weights, full_weights[:, :, -3:], atol=1e-6)
    for bad in (0, 9):
        with pytest.raises(ValueError, match="queries must be between 1 and the 8 positions"):
            attention(x, queries=bad)


def test_the_rotary_table_gives_rotary_cos_sin_for_any_length_offset_and_base():
    model = small_model(positional="rotary")
    cpu = torch.device("cpu")
    for T, offset in ((5, 0), (1, 40), (7, 100), (3, 2), (12, 0)):  # 40 and 100: the table grows past the context
        cos, sin = model._rotary_angles(T, offset, cpu)
        expected = rotary_cos_sin(T, 8, model.config.rotary_base, offset)
        assert torch.equal(cos, expected[0]) and torch.equal(sin, expected[1]), (T, offset)
    model.config.rotary_base = 500.0  # a new base: a new table
    assert torch.equal(model._rotary_angles(4, 3, cpu)[0], rotary_cos_sin(4, 8, 500.0, 3)[0])


def test_a_bidirectional_model_generates_by_rerunning_the_history():
    model = small_model(causal=False, positional="rotary")
    assert model.start_state() is None
    prefix = torch.randint(0, V, (1, 4))
    out = generate(model, prefix, 3, temperature=0)
    assert int(out[0, 4]) == int(model(prefix)[0, -1].argmax())
    assert int(out[0, 6]) == int(model(out[:, :6])[0, -1].argmax())


def test_kv_cache_first_single_token_equals_forward():
    model = small_model(positional="rotary")
    state = model.start_state()
    logits, state = model.step(torch.tensor([[1]]), state)
    assert logits.shape == (1, V) and state.position == 1
    assert torch.allclose(logits, model(torch.tensor([[1]]))[:, -1], atol=1e-6)


def test_checkpoint_round_trip(tmp_path):
    model = small_model(positional="relative", tie_weights=True)
    path = save_checkpoint(tmp_path / "transformer.pt", model, note="test")
    loaded, metadata = load_checkpoint(path)
    assert isinstance(loaded, TransformerLM) and metadata == {"note": "test"}
    assert loaded.config == model.config
    idx = torch.randint(0, V, (2, 8))
    assert torch.equal(loaded(idx), model(idx))
    assert loaded.lm_head.weight is loaded.token_embedding.weight


def test_shared_training_evaluation_and_sampling_work():
    torch.manual_seed(0)
    text = torch.arange(400) % 7  # a periodic sequence: easy to learn
    model = small_model(positional="rotary", context_length=16)
    sampler = batch_sampler(text, batch_size=8, block_size=16, generator=torch.Generator().manual_seed(0))
    before = evaluate(model, text[:200], block_size=16).nll
    history = train(model, sampler, TrainConfig(steps=60, lr=1e-2, warmup_steps=5, progress=False), sampler)
    after = evaluate(model, text[:200], block_size=16).nll
    assert after < 0.5 * before, (before, after)
    assert not history.diverged and history.val_loss
    continuation = generate(model, text[:8], 14, temperature=0)[0]
    assert torch.equal(continuation, torch.arange(22) % 7)


def test_parameter_count_and_initialisation():
    config = TransformerConfig(vocab_size=65, context_length=64, n_layer=4, n_head=4, d_model=128)
    model = TransformerLM(config)
    assert count_parameters(config) == model.num_parameters()
    assert 0.75e6 < model.num_parameters() < 0.85e6
    assert abs(float(model.blocks[0].ffn.down.weight.detach().std()) - 0.02 / 8**0.5) < 0.002


def test_recipes_build_models_and_fast_mode_is_smaller():
    from utils.recipes import transformer_recipe

    full, fast = transformer_recipe("shakespeare", fast=False), transformer_recipe("shakespeare", fast=True)
    config = full.model_config(65)
    assert (config.n_layer, config.n_head, config.d_model, config.context_length) == (4, 4, 128, 64)
    assert fast.train.steps < full.train.steps and fast.train.warmup_steps < fast.train.steps
    assert count_parameters(fast.model_config(65)) < count_parameters(config)
    assert transformer_recipe() == fast  # the test suite runs in fast mode (LM_FAST=1)
    assert transformer_recipe("names").model_config(27, positional="rotary").positional == "rotary"
    assert transformer_recipe("names").train_config(steps=5).steps == 5
    with pytest.raises(ValueError, match="no Transformer recipe"):
        transformer_recipe("wikipedia")


def test_lean_recipes_are_the_cheaper_models_of_each_corpus():
    from dataclasses import replace

    from utils.recipes import transformer_recipe

    full, lean = transformer_recipe("shakespeare", fast=False), transformer_recipe("shakespeare", fast=False, lean=True)
    config = lean.model_config(65)
    assert (config.n_layer, config.ff_width, config.n_kv_head, config.n_head, config.d_model) == (3, 256, 1, 4, 128)
    assert lean.train == full.train and lean.batch_size == full.batch_size  # running text: trained the same way
    assert count_parameters(config) < 0.45 * count_parameters(full.model_config(65))
    assert full.model_config(65).n_kv_head is None and full.model_config(65).n_layer == 4  # the notebooks' recipe
    # names: the same three levers on makemore's size, a higher peak lr decaying to 0, the rest the items recipe's
    full, lean = transformer_recipe("names", fast=False), transformer_recipe("names", fast=False, lean=True)
    config = lean.model_config(27)
    assert (config.n_layer, config.ff_width, config.n_kv_head, config.n_head, config.d_model) == (3, 128, 1, 4, 64)
    assert (config.context_length, config.positional) == (16, "learned")
    assert lean.train == replace(full.train, lr=6e-3, min_lr_ratio=0.0) and lean.batch_size == full.batch_size == 128
    assert count_parameters(config) < 0.45 * count_parameters(full.model_config(27))
    assert full.train.lr == 4e-3 and full.model_config(27).n_layer == 4 and full.model_config(27).n_kv_head is None
    fast = transformer_recipe("names", fast=True, lean=True)  # the test suite's sizes still apply on top
    assert fast.train.steps == 40 and fast.model_config(27).n_kv_head == 1 and fast.model_config(27).n_layer == 2
    with pytest.raises(ValueError, match="no Transformer recipe"):
        transformer_recipe("wikipedia", lean=True)


def test_sinusoidal_positions_scale_the_token_embeddings_by_sqrt_d_model():
    model = small_model(positional="sinusoidal")
    idx = torch.randint(0, V, (2, 7))
    d_model = model.config.d_model
    expected = model.token_embedding(idx) * d_model**0.5 + sinusoidal_encoding(7, d_model, 3)  # (B, T, D)
    assert torch.allclose(model._embed(idx, offset=3), expected, atol=1e-6)
    learned = small_model(positional="learned")
    assert torch.allclose(learned._embed(idx, 0), learned.token_embedding(idx) + learned.position_embedding(7, 0))
