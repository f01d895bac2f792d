"""Second red team's mutants of 05_attention.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 15 of 17 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "05_attention.ipynb"

EARLY = ["bc1b2111", "17e9bb04", "e1ae3576", "02f4fa4b", "0dfe2874"]  # sections 2-4: no show depends on them
TO_SCALE = EARLY + ["868e99b1", "4650175e"]
TO_HEADS = TO_SCALE + ["scale_training", "3cd0329f"]
TO_TIED = TO_HEADS + ["376a9aa4", "06e796ed", "8b07a118"]
TO_CAN = TO_TIED + ["tied_qk_training", "10e895a0", "90ec215c"]

# can_states reads the character model only for a printed number; stand in an untrained one (skips 250 steps)
CHAR_STANDIN = Patch("can_states", """
CAN_SENTENCE = "Can you can a can like a canner can a can."
from utils.tokenizers import CharTokenizer as _CT
tokenizer = _CT.from_text(CAN_SENTENCE)
set_seed(SEED)
model = OneLayerAttentionLM(AttentionLMConfig(tokenizer.vocab_size, d_model=D_MODEL, n_head=N_HEAD)).to(device)
""")

MUTANTS = [
    # ---- 4650175e score_variance_grows_with_d_k -------------------------------------------------------------
    Mutant("scale_by_d_k", "the sqrt(d_k) normalisation: scores divided by d_k (a common slip), variance no longer 1",
           "4650175e", ".", edits=[Edit("868e99b1", "scaled = raw / math.sqrt(width)", "scaled = raw / width")], skip=EARLY),
    Mutant("unit_norm_qk", "the unit-variance entries: q and k normalised to unit length, so q.k no longer grows with d_k",
           "4650175e", ".",
           edits=[Edit("868e99b1", "q = torch.randn(n_queries, width) + QK_MEAN",
                       "q = F.normalize(torch.randn(n_queries, width) + QK_MEAN, dim=-1)"),
                  Edit("868e99b1", "k = torch.randn(n_queries, n_keys, width) + QK_MEAN",
                       "k = F.normalize(torch.randn(n_queries, n_keys, width) + QK_MEAN, dim=-1)")], skip=EARLY),
    Mutant("stats_copy_paste", "the unscaled softmax: its stats computed on the scaled scores (copy-paste)",
           "4650175e", ".", edits=[Edit("868e99b1", "*softmax_stats(raw), *softmax_stats(scaled)",
                                        "*softmax_stats(scaled), *softmax_stats(scaled)")], skip=EARLY),
    # ---- scale_training unscaled_attention_stalls -----------------------------------------------------------
    Mutant("scale_flag_dropped", "the missing scale: the config always scales, so 'unscaled' is the scaled run",
           "scale_training", ".", edits=[Edit("scale_training", "n_head=1, scale=scale, residual=False",
                                              "n_head=1, scale=True, residual=False")], skip=TO_SCALE),
    Mutant("narrow_head", "the large d_k: the head is 16 wide (WIDE_D_K still 256, so the asserts run)",
           "scale_training", ".", edits=[Edit("scale_training", "d_model=WIDE_D_K, n_head=1", "d_model=16, n_head=1")],
           skip=TO_SCALE),
    Mutant("small_embedding_init", "the large raw scores: embeddings drawn with std 0.02 (GPT-style) so unscaled scores are small",
           "scale_training", ".", patches=[Patch("scale_training", """
import utils.attention_lm as _m
_orig_init = _m.OneLayerAttentionLM.__init__
def _init(self, config):
    _orig_init(self, config)
    torch.nn.init.normal_(self.embedding.weight, std=0.02)
_m.OneLayerAttentionLM.__init__ = _init
OneLayerAttentionLM.__init__ = _init
print("PATCH small_embedding_init active")
""")], skip=TO_SCALE),
    Mutant("over_scaled_by_d_k", "the right scale: the model divides by d_k instead of sqrt(d_k) (scaled run over-flattened)",
           "scale_training", ".", patches=[Patch("scale_training", """
import types, utils.attention_lm as _m
_m.math = types.SimpleNamespace(sqrt=lambda x: x)
print("PATCH over_scaled_by_d_k active")
""")], skip=TO_SCALE),
    # ---- 06e796ed heads_attend_differently ------------------------------------------------------------------
    Mutant("control_not_shuffled", "the control: the 'shuffled' corpus is the text itself",
           "06e796ed", ".", edits=[Edit("06e796ed",
               "train_tokens[torch.randperm(len(train_tokens), generator=torch.Generator().manual_seed(SEED))]",
               "train_tokens")], skip=TO_HEADS),
    Mutant("initial_aliases_model", "the initial baseline: `untrained` is an alias of the model, so it is trained too",
           "06e796ed", ".", edits=[Edit("376a9aa4", "untrained = OneLayerAttentionLM(lm_config).to(device).eval()",
                                        "untrained = model")], skip=TO_HEADS),
    Mutant("future_visible", "the causal mask: every model sees the future (so the shuffled control can read the next char)",
           "06e796ed", ".", patches=[Patch("376a9aa4", """
import utils.attention_lm as _m
_m.causal_mask = lambda T, device=None: torch.zeros(T, T, device=device)
print("PATCH future_visible active")
""")], skip=TO_HEADS),
    Mutant("trained_is_shuffled_model", "reading the text: the 'trained' heads are those of the model trained on shuffled characters",
           "06e796ed", ".", edits=[Edit("06e796ed", '(("trained", model), ("shuffled text", shuffled_model)',
                                        '(("trained", shuffled_model), ("shuffled text", shuffled_model)')], skip=TO_HEADS),
    # ---- tied_qk_training tied_qk_fails_previous_token ------------------------------------------------------
    Mutant("tie_ignored", "the tie: tie_qk=True still builds a separate W_K",
           "tied_qk_training", ".", patches=[Patch("tied_qk_training", """
import utils.attention_lm as _m
_orig_init = _m.OneLayerAttentionLM.__init__
def _init(self, config):
    _orig_init(self, config)
    if self.w_k is None:
        self.w_k = torch.nn.Linear(config.d_model, config.d_model, bias=False)
_m.OneLayerAttentionLM.__init__ = _init
print("PATCH tie_ignored active")
""")], skip=TO_TIED),
    Mutant("residual_on", "the 'no residual' condition: the tied model gets the residual (exercise 4's way around)",
           "tied_qk_training", ".", edits=[Edit("tied_qk_training", "tie_qk=tie, residual=False", "tie_qk=tie, residual=True")],
           skip=TO_TIED),
    Mutant("key_rotary_off_by_one", "the Gram restriction: keys rotated one position further than queries, so q_i.k_{i-1} is the self-score",
           "tied_qk_training", ".", patches=[Patch("tied_qk_training", """
import utils.attention_lm as _m, utils.positional as _P
_calls = {"n": 0}
def _ar(x, cos, sin):
    _calls["n"] += 1
    if _calls["n"] % 2 == 0:  # attend() rotates q first, then k
        c, s = _P.rotary_cos_sin(cos.shape[-2] + 1, 2 * cos.shape[-1], device=cos.device)
        cos, sin = c[1:], s[1:]
    return _P.apply_rotary(x, cos, sin)
_m.apply_rotary = _ar
print("PATCH key_rotary_off_by_one active")
""")], skip=TO_TIED),
    # ---- can_states can_vectors_follow_sense ----------------------------------------------------------------
    Mutant("can_control_not_shuffled", "the control: the 'shuffled' words are the corpus in order",
           "can_states", ".", edits=[Edit("can_states",
               "word_ids[torch.randperm(len(word_ids), generator=torch.Generator().manual_seed(SEED))]", "word_ids")],
           patches=[CHAR_STANDIN], skip=TO_CAN),
    Mutant("can_gap_of_untrained", "training: the 'trained' gap is measured on the untrained word model",
           "can_states", ".", edits=[Edit("can_states", '"trained": sense_gap(word_model,', '"trained": sense_gap(word_untrained,')],
           patches=[CHAR_STANDIN], skip=TO_CAN),
    Mutant("can_self_only_window", "reading the context: the mask lets each word attend to itself only (window off by one)",
           "can_states", ".", patches=[CHAR_STANDIN, Patch("can_states", """
import utils.attention_lm as _m
_m.causal_mask = lambda T, device=None: torch.full((T, T), float("-inf"), device=device).fill_diagonal_(0.0)
print("PATCH can_self_only_window active")
""")], skip=TO_CAN),
]


import dataclasses as _dataclasses  # noqa: E402

_KILLED = ['can_control_not_shuffled', 'can_gap_of_untrained', 'can_self_only_window', 'control_not_shuffled', 'future_visible', 'initial_aliases_model', 'key_rotary_off_by_one', 'narrow_head', 'residual_on', 'scale_by_d_k', 'scale_flag_dropped', 'small_embedding_init', 'stats_copy_paste', 'tie_ignored', 'unit_norm_qk']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
