"""Shared package of the course "Language models from n-grams to Transformers".

Foundation
    device, settings            -- CUDA / MPS / CPU and seeding; full or fast (test) sizes
    data, dataset, tokenizers   -- corpora by name (embedded, downloaded, mirrored), fixed splits, tokens
    batching, interface         -- batches; the LanguageModel base class every family implements
    training, evaluation        -- one training loop; NLL, perplexity, bits per token
    sampling, decoding          -- temperature, top-k, top-p, generate(); beam and exhaustive search
    checkpoint, checks, plotting -- safe checkpoints; student-facing checks; lecture figures
    fonts                       -- the CJK font (pip package) every figure falls back to, registered on import
Model families
    baselines                   -- uniform, unigram, a trainable bigram table
    ngram, ngram_counts         -- smoothed n-gram models from vectorised counts
    window_mlp                  -- the fixed-window neural model
    rnn, gated_rnn              -- recurrent models, plain and gated
    attention, positional, transformer, recipes -- the Transformer and its default training recipe
Demonstrations used by the notebooks
    synthetic, embedding_tools, extrapolation, norm_demo, lr_grid, masks, copy_failure,
    generation_cost, work_count, zoo, class_pairs, can_senses
Exercise references (the hidden tests' cases and reference answers)
    head_attention              -- multi-head attention head by head, and its generated cases (05)
    leak_probe                  -- does a whole model read the future, from forward calls (08)
    norm_cases, kv_budget       -- Pre-LN or Post-LN by measurement (07); a KV cache planned for a budget (10)
Tools
    i18n                        -- tr(): what the code prints in the notebook's language; the Chinese edition
    widgets                     -- the interactive widgets (ipywidgets)
    grading                     -- `python -m utils.grading release|grade`
    site                        -- `python -m utils.site build`: the static, offline HTML site
"""

from utils.device import get_device, set_seed
from utils.fonts import register_cjk_font

register_cjk_font()  # Chinese in any figure draws with a CJK font, never as boxes (utils/fonts.py)

__all__ = ["get_device", "set_seed"]
__version__ = "0.1.0"
