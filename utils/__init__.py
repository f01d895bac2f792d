"""Shared package of the course "Language models from n-grams to Transformers".

Modules, each doing one thing:
    device      -- pick CUDA / MPS / CPU, seed everything
    settings    -- full or fast (test) sizes for notebook runs
    data        -- corpora by name: embedded default, downloads, mirror, splits
    tokenizers  -- character and word tokenizers
    batching    -- random windows of text, framed and padded items
    interface   -- the LanguageModel base class every model family implements
    baselines   -- uniform and unigram models
    training    -- one training loop for every family
    evaluation  -- NLL, perplexity, bits per token
    sampling    -- temperature, top-k, top-p, greedy, generate()
    checkpoint  -- save and load models safely
    checks      -- student-facing checks for exercises
    plotting    -- readable figures for lectures
"""

from utils.device import get_device, set_seed

__all__ = ["get_device", "set_seed"]
__version__ = "0.1.0"
