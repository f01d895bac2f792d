"""Tokens per second generating 512 tokens with and without the KV cache, same model, same greedy outputs.

    python benchmarks/bench_kv_cache.py                 # 512 tokens, the default model
    python benchmarks/bench_kv_cache.py --tokens 64     # a quick smoke run

Target: the cached path at least 5x faster at 512 tokens on CPU, with identical tokens.
The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import time

import torch

from utils.sampling import generate
from utils.transformer import TransformerConfig, TransformerLM

TARGET_RATIO = 5.0


def run(tokens: int = 512, n_layer: int = 4, d_model: int = 128, n_head: int = 4, vocab_size: int = 100,
        threads: int | None = None, seed: int = 0) -> dict:
    """Generate `tokens` greedy tokens twice (cache on, off) from the same prompt; report speeds and agreement."""
    if threads is not None:
        torch.set_num_threads(threads)
    torch.manual_seed(seed)
    config = TransformerConfig(vocab_size, context_length=tokens, n_layer=n_layer, n_head=n_head, d_model=d_model,
                               positional="rotary")
    model = TransformerLM(config).eval()
    prompt = torch.tensor([[1, 2, 3, 4]])  # (1, 4)
    results, outputs = {}, {}
    for name, cached in (("cached", True), ("uncached", False)):
        model.use_kv_cache = cached
        generate(model, prompt, 8, temperature=0)  # warm-up
        start = time.perf_counter()
        outputs[name] = generate(model, prompt, tokens, temperature=0)
        results[name] = tokens / (time.perf_counter() - start)
    ratio = results["cached"] / results["uncached"]
    return {
        "benchmark": "kv_cache",
        "new_tokens": tokens,
        "model": {"n_layer": n_layer, "d_model": d_model, "n_head": n_head, "vocab_size": vocab_size},
        "threads": torch.get_num_threads(),
        "tokens_per_s_cached": round(results["cached"], 1),
        "tokens_per_s_uncached": round(results["uncached"], 1),
        "speedup": round(ratio, 2),
        "outputs_match": bool(torch.equal(outputs["cached"], outputs["uncached"])),
        "target_speedup": TARGET_RATIO,
        "meets_target": bool(ratio >= TARGET_RATIO and torch.equal(outputs["cached"], outputs["uncached"])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=512)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    figures = run(args.tokens, threads=args.threads)
    print(f"cached   {figures['tokens_per_s_cached']:8.1f} tokens/s")
    print(f"uncached {figures['tokens_per_s_uncached']:8.1f} tokens/s")
    print(f"speedup  {figures['speedup']:8.2f}x (target >= {TARGET_RATIO}x), outputs match: {figures['outputs_match']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
