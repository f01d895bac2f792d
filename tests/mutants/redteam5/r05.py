"""Third red team's mutants of 05_attention.ipynb (rt5_*), written from the notebook alone by a helper that had not seen
tests/mutants/; 19 of 22 valid mutants killed in its run on 2026-12-06. The three survivors (rt5_tied_untrained,
rt5_untied_untrained, rt5_can_control_untrained) were mended since in tied_qk_training (the tied scores must form a Gram
matrix, the separate ones not; the tied run must train as long and its loss fall by 1 to 2 nats) and can_states (the
shuffled-words control must reach the unigram entropy). The equivalent one (rt5_unscaled_barely_trained) is dropped.
Every mutant here is killed; its `message` matches the assert that kills it."""
from tests.mutation.redteam_help import src_patch
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "05_attention.ipynb"

_EARLY = ["bc1b2111", "17e9bb04", "e1ae3576", "02f4fa4b", "0dfe2874"]
_TO_SCALE = _EARLY + ["868e99b1", "4650175e"]
_TO_HEADS = _TO_SCALE + ["scale_training", "3cd0329f"]
_TO_TIED = _TO_HEADS + ["376a9aa4", "06e796ed", "8b07a118"]
_TO_CAN = _TO_SCALE + ["scale_training", "3cd0329f", "06e796ed", "8b07a118", "tied_qk_training", "90ec215c"]

# wrap OneLayerAttentionLM.__init__ (it uses zero-argument super(), so src_patch cannot re-define it)
_SMALL_EMBEDDING = """
import torch as _t, utils.attention_lm as _al
_orig_init = _al.OneLayerAttentionLM.__init__
def _init(self, config):
    _orig_init(self, config)
    _t.nn.init.normal_(self.embedding.weight, std=config.d_model ** -0.5)
_al.OneLayerAttentionLM.__init__ = _init
print('MUTANT ACTIVE: small embedding init')
"""
_ALWAYS_WK = """
import torch as _t, utils.attention_lm as _al
_orig_init = _al.OneLayerAttentionLM.__init__
def _init(self, config):
    _orig_init(self, config)
    if self.w_k is None:
        self.w_k = _t.nn.Linear(config.d_model, config.d_model, bias=False)
_al.OneLayerAttentionLM.__init__ = _init
print('MUTANT ACTIVE: tie_qk ignored')
"""

MUTANTS = [
    # ---- 4650175e: score variance grows with d_k; unscaled softmax saturates
    Mutant(name="rt5_scale_by_dk", removes="the 1/sqrt(d_k) scale: scores divided by d_k instead", target="4650175e",
           message=r"scaled scores keep variance about 1", edits=[Edit(cell="868e99b1", old="scaled = raw / math.sqrt(width)", new="scaled = raw / width")],
           skip=_EARLY),
    Mutant(name="rt5_softmax_normalised", removes="the saturation: softmax_stats divides every score matrix by its own std "
           "(the raw scores are secretly scaled before the softmax)", target="4650175e", message=r"unscaled: saturated softmax",
           edits=[Edit(cell="868e99b1", old="a = torch.softmax(scores, dim=-1)", new="a = torch.softmax(scores / scores.std(), dim=-1)")],
           skip=_EARLY),
    Mutant(name="rt5_softmax_over_queries", removes="a per-query softmax over keys (softmax taken over the 1000 queries)",
           target="4650175e", message=r"unscaled: saturated softmax",
           edits=[Edit(cell="868e99b1", old="a = torch.softmax(scores, dim=-1)", new="a = torch.softmax(scores, dim=0)")],
           skip=_EARLY),
    Mutant(name="rt5_uniform_entries", removes="mean-0, variance-1 entries (q, k uniform on [0, 1))", target="4650175e",
           message=r"Var\(q\.k\) grows like d_k",
           edits=[Edit(cell="868e99b1", old="q = torch.randn(n_queries, width) + QK_MEAN", new="q = torch.rand(n_queries, width) + QK_MEAN"),
                  Edit(cell="868e99b1", old="k = torch.randn(n_queries, n_keys, width) + QK_MEAN",
                       new="k = torch.rand(n_queries, n_keys, width) + QK_MEAN")],
           skip=_EARLY),
    # ---- scale_training: unscaled attention stalls
    Mutant(name="rt5_attend_always_scaled", removes="the missing scale in training: attend() always divides by sqrt(d_k); "
           "only scores() (the probe) honours scale=False", target="scale_training", message=r"unscaled attention at a large d_k should stall",
           patches=[Patch(before="scale_training", code=src_patch("utils.attention_lm", "OneLayerAttentionLM.attend", [(
               "self.scores(idx)",
               "(lambda qk: qk[0] @ qk[1].transpose(-2, -1) / math.sqrt(qk[0].shape[-1]))(self.queries_keys(idx))")]))],
           skip=_TO_SCALE),
    Mutant(name="rt5_scale_flag_ignored", removes="the scale switch: scores() always divides by sqrt(d_k)",
           target="scale_training", message=r"variance of the unscaled scores",
           patches=[Patch(before="scale_training", code=src_patch("utils.attention_lm", "OneLayerAttentionLM.scores",
                                                                   [("if self.config.scale:", "if True:")]))],
           skip=_TO_SCALE),
    Mutant(name="rt5_small_embedding", removes="the saturation at initialisation: embeddings drawn with std 1/sqrt(d) "
           "(q, k entries tiny, unscaled scores far from saturating the softmax)", target="scale_training", message=r"scaled attention learns the previous-token head",
           patches=[Patch(before="scale_training", code=_SMALL_EMBEDDING)], skip=_TO_SCALE),
    # ---- 06e796ed: heads attend differently
    Mutant(name="rt5_heads_control_unshuffled", removes="the control's shuffling (trained on the text itself)",
           target="06e796ed", message=r"the control has nothing to read",
           edits=[Edit(cell="06e796ed", old="shuffled_tokens = train_tokens[torch.randperm(len(train_tokens), generator=torch.Generator().manual_seed(SEED))]",
                       new="shuffled_tokens = train_tokens")],
           skip=_TO_HEADS),
    Mutant(name="rt5_heads_share_qk", removes="separate heads: every head uses head 0's queries and keys",
           target="06e796ed", message=r"every pair of trained heads",
           patches=[Patch(before="376a9aa4", code=src_patch("utils.attention_lm", "OneLayerAttentionLM.queries_keys", [(
               "return apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)",
               "q, k = q[:, :1].expand_as(q), k[:, :1].expand_as(k)\n    return apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)")]))],
           skip=_TO_HEADS),
    Mutant(name="rt5_heads_initial_is_control", removes="the initial-weights baseline (the 'initial' model is the "
           "shuffled-text model)", target="06e796ed", message=r"every pair of trained heads",
           edits=[Edit(cell="06e796ed", old='("initial", untrained)', new='("initial", shuffled_model)')],
           skip=_TO_HEADS),
    # ---- tied_qk_training: W_K = W_Q fails the previous-token task
    Mutant(name="rt5_tie_ignored", removes="the tying: tie_qk=True still builds a separate W_K", target="tied_qk_training",
           message=r"with W_K = W_Q the Gram matrix keeps", patches=[Patch(before="tied_qk_training", code=_ALWAYS_WK)], skip=_TO_TIED),
    Mutant(name="rt5_key_rotary_off_by_one", removes="the Gram matrix's self-preference: keys rotated one position later "
           "(off-by-one angle), so the tied maximum q_i R q_j sits on the previous token", target="tied_qk_training",
           message=r"with W_K = W_Q the Gram matrix keeps",
           patches=[Patch(before="tied_qk_training", code=src_patch("utils.attention_lm", "OneLayerAttentionLM.queries_keys", [(
               "return apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)",
               "return apply_rotary(q, cos, sin), apply_rotary(k, *(t[1:] for t in rotary_cos_sin(idx.shape[1] + 1, q.shape[-1], device=idx.device)))")]))],
           skip=_TO_TIED),
    Mutant(name="rt5_tied_key_flip", removes="the Gram matrix: tied keys are the queries with their features reversed "
           "(k = P q, an indefinite form)", target="tied_qk_training", message=r"with W_K = W_Q the Gram matrix keeps",
           patches=[Patch(before="tied_qk_training", code=src_patch("utils.attention_lm", "OneLayerAttentionLM.queries_keys", [(
               "k = q if self.w_k is None else", "k = q.flip(-1) if self.w_k is None else")]))],
           skip=_TO_TIED),
    Mutant(name="rt5_tied_untrained", removes="training of the tied model (1 step)", target="tied_qk_training", message=r"the tied run should train as long as the separate one",
           edits=[Edit(cell="tied_qk_training", old="train_previous_token(prev_config, PREV_STEPS, PREV_LENGTH, seed=SEED)",
                       new="train_previous_token(prev_config, PREV_STEPS if not tie else 1, PREV_LENGTH, seed=SEED)")],
           skip=_TO_TIED),
    # ---- can_states: "can" vectors follow the sense
    Mutant(name="rt5_can_control_unshuffled", removes="the control's shuffling (trained on the words in order)",
           target="can_states", message=r"unlike in the model trained on shuffled words",
           edits=[Edit(cell="can_states", old="shuffled_words = word_ids[torch.randperm(len(word_ids), generator=torch.Generator().manual_seed(SEED))]",
                       new="shuffled_words = word_ids")],
           skip=_TO_CAN),
    Mutant(name="rt5_can_control_untrained", removes="training of the control (the shuffled-words model is never trained)",
           target="can_states", message=r"the control should learn the word frequencies",
           edits=[Edit(cell="can_states", old="train(word_shuffled, ", new="(lambda *a, **k: None)(word_shuffled, ")],
           skip=_TO_CAN),
    Mutant(name="rt5_can_self_only", removes="attention to the context: every token attends only to itself",
           target="can_states", message=r"the noun 'can's should be far more alike",
           patches=[Patch(before="can_states", code=src_patch("utils.attention_lm", "OneLayerAttentionLM.attend", [(
               "weights = torch.softmax(self.scores(idx) + causal_mask(T, idx.device), dim=-1)",
               "weights = torch.eye(T, device=idx.device).expand(B, self.config.n_head, T, T) + 0 * self.scores(idx)")]))],
           skip=_TO_CAN),
    Mutant(name="rt5_can_uniform_attention", removes="content- and position-dependent attention: every score is 0 "
           "(each token averages all earlier ones)", target="can_states", message=r"the noun 'can's should be far more alike",
           patches=[Patch(before="can_states", code=src_patch("utils.attention_lm", "OneLayerAttentionLM.attend", [(
               "self.scores(idx) + causal_mask", "0 * self.scores(idx) + causal_mask")]))],
           skip=_TO_CAN),
    Mutant(name="rt5_can_model_untrained", removes="training of the word model", target="can_states", message=r"the noun 'can's should be far more alike",
           edits=[Edit(cell="can_states", old="train(word_model, word_batches, ", new="(lambda *a, **k: None)(word_model, word_batches, ")],
           skip=_TO_CAN),
]

MUTANTS += [
    Mutant(name="rt5_disguised_scaled_short", removes="the missing scale in training (attend() always scales; the probe "
           "scores() still honours scale=False) AND the unscaled run is trained 10 steps", target="scale_training", message=r"unscaled attention at a large d_k should stall",
           edits=[Edit(cell="scale_training", old="train_previous_token(wide_config, WIDE_STEPS, PREV_LENGTH, seed=SEED)",
                       new="train_previous_token(wide_config, WIDE_STEPS if scale else 10, PREV_LENGTH, seed=SEED)")],
           patches=[Patch(before="scale_training", code=src_patch("utils.attention_lm", "OneLayerAttentionLM.attend", [(
               "self.scores(idx)",
               "(lambda qk: qk[0] @ qk[1].transpose(-2, -1) / math.sqrt(qk[0].shape[-1]))(self.queries_keys(idx))")]))],
           skip=_TO_SCALE),
    Mutant(name="rt5_untied_untrained", removes="the tying (tie_qk=True builds a separate W_K) AND training of that model "
           "(1 step)", target="tied_qk_training", message=r"the tied model's scores should form a Gram matrix",
           edits=[Edit(cell="tied_qk_training", old="train_previous_token(prev_config, PREV_STEPS, PREV_LENGTH, seed=SEED)",
                       new="train_previous_token(prev_config, PREV_STEPS if not tie else 1, PREV_LENGTH, seed=SEED)")],
           patches=[Patch(before="tied_qk_training", code=_ALWAYS_WK)], skip=_TO_TIED),
]

MUTANTS += [
    Mutant(name="rt5_heads_no_rotary", removes="positions in attention: q and k are not rotated (heads cannot prefer the "
           "last character or two over characters further back)", target="06e796ed", message=r"the heads should drift apart too",
           patches=[Patch(before="376a9aa4", code=src_patch("utils.attention_lm", "OneLayerAttentionLM.queries_keys", [(
               "return apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)", "return q, k")]))],
           skip=_TO_HEADS),
]
