"""Red team I, notebook 05: mutants of every show cell (one no-change baseline per show)."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "05_attention.ipynb"

EARLY = ["bc1b2111", "17e9bb04", "e1ae3576", "02f4fa4b", "0dfe2874"]
S1 = EARLY                                             # score_variance_grows_with_d_k needs 868e99b1
S2 = EARLY + ["868e99b1", "4650175e"]                   # unscaled_attention_stalls
S3 = S2 + ["scale_training", "3cd0329f"]                # heads_attend_differently needs 376a9aa4
S4 = S3 + ["376a9aa4", "06e796ed", "8b07a118"]          # tied_qk_fails_previous_token
S5 = S3 + ["06e796ed", "90ec215c", "8b07a118", "tied_qk_training"]  # can_vectors_follow_sense needs 376a9aa4, 10e895a0

V1, V2, V3, V4, V5 = "4650175e", "scale_training", "06e796ed", "tied_qk_training", "can_states"

NO_MASK = src_patch("utils.attention_lm", "OneLayerAttentionLM.attend",
                    [("self.scores(idx) + causal_mask(T, idx.device)", "self.scores(idx)")])

MUTANTS = [
    # ---------------- show 1: score_variance_grows_with_d_k
    Mutant("base_score_variance", "nothing (baseline)", V1, ".", patches=[Patch(V1, "pass")], skip=S1),
    Mutant("v_scaled_by_d_k", "scaled scores divided by d_k instead of sqrt(d_k)", V1, "variance about 1",
           edits=[Edit("868e99b1", "scaled = raw / math.sqrt(width)", "scaled = raw / width")], skip=S1),
    Mutant("v_unscaled_stats_from_scaled", "the unscaled softmax statistics computed on the scaled scores (control = effect)",
           V1, "saturated", edits=[Edit("868e99b1", "*softmax_stats(raw), *softmax_stats(scaled)",
                                        "*softmax_stats(scaled), *softmax_stats(scaled)")], skip=S1),
    Mutant("v_jacobian_sign", "softmax Jacobian written diag(a) + a a^T (wrong sign): a saturated softmax no longer has a small one",
           V1, "saturated", edits=[Edit("868e99b1", "torch.diag_embed(a) - a[:, :, None]", "torch.diag_embed(a) + a[:, :, None]")],
           skip=S1),
    Mutant("v_unit_norm_queries", "queries with entries of variance 1/d_k (normalised): raw scores stop growing with d_k",
           V1, "grows like d_k", edits=[Edit("868e99b1", "q = torch.randn(n_queries, width) + QK_MEAN",
                                             "q = torch.randn(n_queries, width) / math.sqrt(width) + QK_MEAN")], skip=S1),
    # ---------------- show 2: unscaled_attention_stalls
    Mutant("base_unscaled_stalls", "nothing (baseline)", V2, ".", patches=[Patch(V2, "pass")], skip=S2),
    Mutant("s_unscaled_run_trained_scaled", "the 'unscaled' training run trains with the scale (probe still unscaled)",
           V2, "stall", edits=[Edit(V2, "wide_model, wide_history = train_previous_token(wide_config,",
                                    "wide_model, wide_history = train_previous_token(dataclasses.replace(wide_config, scale=True),")],
           skip=S2),
    Mutant("s_model_divides_by_d_k", "the model divides its scores by d_k, not sqrt(d_k)", V2, "variance",
           patches=[Patch(V2, src_patch("utils.attention_lm", "OneLayerAttentionLM.scores",
                                        [("scores / math.sqrt(q.shape[-1])", "scores / q.shape[-1]")]))], skip=S2),
    Mutant("s_control_not_shrunk", "the control's 50-step run starts from the unscaled weights (W_Q not divided): "
           "the control made identical to the unscaled run", V2, "stall|start from|step",
           edits=[Edit(V2, "shrunk_model, shrunk_history = train_previous_token(shrunk_config, WIDE_STEPS, PREV_LENGTH, seed=SEED, w_q_gain=WIDE_D_K ** -0.5)",
                       "shrunk_model, shrunk_history = train_previous_token(shrunk_config, WIDE_STEPS, PREV_LENGTH, seed=SEED)")],
           skip=S2),
    Mutant("s_control_scaled", "the step-size control keeps the scale (W_Q/16 and scaled scores)", V2, "start from|stall|step",
           edits=[Edit(V2, "shrunk_config = dataclasses.replace(wide_config, scale=False)",
                       "shrunk_config = dataclasses.replace(wide_config, scale=True)")], skip=S2),
    # ---------------- show 3: heads_attend_differently
    Mutant("base_heads", "nothing (baseline)", V3, ".", patches=[Patch(V3, "pass")], skip=S3),
    Mutant("h_control_not_shuffled", "the control trained on the unshuffled text (control = effect)", V3, "control|unigram|further apart",
           edits=[Edit(V3, "shuffled_tokens = train_tokens[torch.randperm(len(train_tokens), generator=torch.Generator().manual_seed(SEED))]",
                       "shuffled_tokens = train_tokens")], skip=S3),
    Mutant("h_tv_sum_before_abs", "total variation written |sum(a - a')| (always 0) instead of sum|a - a'|", V3, "far more differently|apart",
           edits=[Edit(V3, "(w[a] - w[b]).abs().sum(-1).mean()", "(w[a] - w[b]).sum(-1).abs().mean()")], skip=S3),
    Mutant("h_heads_forced_alike", "every head uses head 0's weights (the heads cannot attend differently)", V3, "differently|apart",
           patches=[Patch("376a9aa4", src_patch("utils.attention_lm", "OneLayerAttentionLM.attend",
                    [("dim=-1)  # (B, H, T, T)", "dim=-1)[:, :1].expand(-1, self.config.n_head, -1, -1)  # (B, H, T, T)")]))],
           skip=S3),
    Mutant("h_sees_future", "no causal mask: the models read the future", V3, "control|unigram|apart",
           patches=[Patch("376a9aa4", NO_MASK)], skip=S3),
    Mutant("h_measured_on_shuffled_text", "heads measured on shuffled characters (no text structure to read)", V3, "control|apart",
           edits=[Edit(V3, "sample_text = tokenizer.decode(val_tokens[:48].tolist())",
                       "sample_text = tokenizer.decode(val_tokens[:48][torch.randperm(48, generator=torch.Generator().manual_seed(SEED))].tolist())")],
           skip=S3),
    # ---------------- show 4: tied_qk_fails_previous_token
    Mutant("base_tied", "nothing (baseline)", V4, ".", patches=[Patch(V4, "pass")], skip=S4),
    Mutant("t_tie_flag_dropped", "the 'tied' model built with separate W_Q, W_K", V4, "W_K = W_Q|Gram",
           edits=[Edit(V4, "tie_qk=tie", "tie_qk=False")], skip=S4),
    Mutant("t_tied_keys_from_w_v", "tying implemented as k from W_V (not a Gram matrix)", V4, "W_K = W_Q|Gram",
           patches=[Patch(V4, src_patch("utils.attention_lm", "OneLayerAttentionLM.queries_keys",
                    [("k = q if self.w_k is None", "k = self._split(self.w_v(x)) if self.w_k is None")]))], skip=S4),
    Mutant("t_tied_undertrained", "the tied run trained with lr 100x smaller (baseline weakened)", V4, "train as long|falls",
           edits=[Edit(V4, "train_previous_token(prev_config, PREV_STEPS, PREV_LENGTH, seed=SEED)",
                       "train_previous_token(prev_config, PREV_STEPS, PREV_LENGTH, seed=SEED, lr=3e-5 if tie else 3e-3)")], skip=S4),
    Mutant("t_previous_on_future_diagonal", "'previous token' weight read from the diagonal above (offset +1: the next token)",
           V4, "one step back|W_K = W_Q", edits=[Edit(V4, "diagonal(offset=-1, dim1=1, dim2=2)", "diagonal(offset=1, dim1=1, dim2=2)")],
           skip=S4),
    Mutant("t_tied_at_init_only", "'tying' done once at initialisation: W_K is its own matrix, a copy of W_Q that then trains apart",
           V4, "W_K = W_Q|Gram", patches=[Patch(V4, src_patch("utils.attention_lm", "OneLayerAttentionLM.__init__",
                    [("super().__init__()", "LanguageModel.__init__(self)"),
                     ("self.w_k = None if config.tie_qk else nn.Linear(D, D, bias=False)",
                      "self.w_k = nn.Linear(D, D, bias=False)\n    if config.tie_qk:\n        self.w_k.weight.data.copy_(self.w_q.weight.data)")]))],
           skip=S4),
    Mutant("h_control_undertrained", "the shuffled-text control trained a tenth of the steps (heads have no time to drift)", V3,
           "control|drift apart|further apart",
           edits=[Edit(V3, "TrainConfig(steps=TRAIN_STEPS, lr=3e-3", "TrainConfig(steps=TRAIN_STEPS // 10, lr=3e-3")], skip=S3),
    # ---------------- show 5: can_vectors_follow_sense
    Mutant("base_can", "nothing (baseline)", V5, ".", patches=[Patch(V5, "pass")], skip=S5),
    Mutant("c_control_not_shuffled", "the word control trained on the unshuffled words (control = effect)", V5, "shuffled|unigram",
           edits=[Edit(V5, "shuffled_words = word_ids[torch.randperm(len(word_ids), generator=torch.Generator().manual_seed(SEED))]",
                       "shuffled_words = word_ids")], skip=S5),
    Mutant("c_gap_of_untrained", "the 'trained' gap measured on the never-trained model", V5, "noun 'can's",
           edits=[Edit(V5, '"trained": sense_gap(word_model, word_tokenizer, new_text)',
                       '"trained": sense_gap(word_untrained, word_tokenizer, new_text)')], skip=S5),
    Mutant("c_gap_on_embeddings", "sense_gap measures the embeddings (before attention), not the attention outputs", V5, "noun 'can's",
           patches=[Patch(V5, src_patch("utils.can_senses", "sense_gap",
                    [("model.attend(idx.to(model.device))[1]", "model.attend(idx.to(model.device))[0]")], rebind="sense_gap"))],
           skip=S5),
    Mutant("c_articles_count_as_subjects", "sense_gap's subject words keep the articles (a, the): noun cans fall in both groups",
           V5, "noun 'can's", patches=[Patch(V5, src_patch("utils.can_senses", "sense_gap",
                    [(" - set(ARTICLES)", "")], rebind="sense_gap"))], skip=S5),
    Mutant("c_sees_future", "the word models have no causal mask: they read the word after 'can'", V5, "unigram|noun 'can's",
           patches=[Patch(V5, NO_MASK)], skip=S5),
    Mutant("c_control_undertrained", "the word control trained with lr 1e-5 (it learns nothing, not even frequencies)", V5, "unigram|frequencies",
           edits=[Edit(V5, "TrainConfig(steps=CAN_STEPS, lr=1e-2, warmup_steps=CAN_STEPS // 10, progress=False))\nnew_text",
                       "TrainConfig(steps=CAN_STEPS, lr=1e-5, warmup_steps=CAN_STEPS // 10, progress=False))\nnew_text")], skip=S5),
]
