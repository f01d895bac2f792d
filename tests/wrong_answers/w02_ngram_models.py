"""Delegations for notebook 02's exercises (its wrong answers come with the notebook's own issue)."""

from tests.wrong_answers.spec import Delegation

NOTEBOOK = "02_ngram_models.ipynb"
WRONG: dict = {}
DELEGATIONS = {
    "ex1_count_bigrams": [
        Delegation("alias", "from utils.ngram_counts import NGramCounts as Counts\n\n\n"
                            "def count_bigrams(ids: torch.Tensor, vocab_size: int) -> torch.Tensor:\n"
                            "    table = Counts.from_sequences([ids], vocab_size, 2).raw[1]\n"
                            "    return table.find_values(torch.arange(vocab_size ** 2)).reshape(vocab_size, vocab_size)",
                   denied="utils.ngram_counts.NGramCounts.from_sequences"),
    ],
    "ex2_add_k_probs": [
        Delegation("via_fit", "from utils.ngram import NGramLM\n\n\n"
                              "def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:\n"
                              "    V = counts.shape[0]\n"
                              "    pairs = [torch.tensor([a, b]) for a in range(V) for b in range(V)\n"
                              "             for _ in range(int(counts[a, b]))]  # one 2-token sequence per bigram\n"
                              "    model = NGramLM.fit(pairs or [torch.tensor([0])], V, 2, 'add_k', k=k)\n"
                              "    return torch.stack([model.next_token_distribution([a]) for a in range(V)])",
                   denied="utils.ngram.NGramLM.fit"),
    ],
    "ex3_text_perplexity": [
        Delegation("getattr", "def text_perplexity(model: NGramLM, ids: list[int]) -> float:\n"
                              "    return float(getattr(model, 'perplex' + 'ity')(torch.tensor(ids)))",
                   denied="utils.ngram.NGramLM.perplexity"),
    ],
    "ex4_continuation_counts": [
        Delegation("module_access", "import utils.ngram_counts as nc\n\n\n"
                                    "def continuation_counts(ids: torch.Tensor, vocab_size: int) -> torch.Tensor:\n"
                                    "    counts = nc.NGramCounts.from_sequences([ids], vocab_size, 2)\n"
                                    "    return counts.continuation[0].find_values(torch.arange(vocab_size))",
                   denied="utils.ngram_counts.NGramCounts.from_sequences"),
    ],
}
