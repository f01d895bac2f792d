"""A toy word language in which "can" is a modal, a verb ("to put in a can") and a noun (notebook 05).

A character model of Python's help texts has no word senses to show, so notebook 05 trains its
one-layer attention model on sentences of this grammar, where the word after "can" depends on
its sense and only the words before it tell the senses apart:

    question     can SUBJECT VERB NP [like SUBJECT can NP] .     (modal first: a subject follows)
    modal        SUBJECT can VERB NP [like SUBJECT can NP] .     (a verb follows; VERB may be "can")
    verb         SUBJECT can NP [like SUBJECT can NP] .          ("to can": an object follows)
    NP           ARTICLE NOUN                                     (the noun may be "can": "like" or "." follows)

After a subject, "can" is followed by a verb or an object; after an article it is the noun,
followed by "like" or "."; first in a sentence, by a subject. CAN_SENTENCE is one sentence of
the grammar: "can you can a can like a canner can a can ."
"""

from __future__ import annotations

import random

import torch
import torch.nn.functional as F

SUBJECTS = ("you", "we", "they", "a canner", "the canner")
VERBS = ("can", "eat", "open", "see")  # what follows the modal "can" ("can" here: the verb "to can")
ARTICLES = ("a", "the")
NOUNS = ("can", "fish", "bean", "tin")
CAN_SENTENCE = "can you can a can like a canner can a can ."
# the five "can"s of CAN_SENTENCE by word position, grouped by what precedes them
SENTENCE_START, AFTER_SUBJECT, AFTER_ARTICLE = (0,), (2, 8), (4, 10)
CAN_POSITIONS = (0, 2, 4, 8, 10)


def _noun_phrase(rng: random.Random) -> str:
    return f"{rng.choice(ARTICLES)} {rng.choice(NOUNS)}"


def can_sentence(rng: random.Random) -> str:
    """One random sentence of the grammar (words separated by single spaces, ending in ' .')."""
    tail = f" like {rng.choice(SUBJECTS)} can {_noun_phrase(rng)}" if rng.random() < 0.5 else ""
    kind = rng.randrange(3)
    if kind == 0:  # a question: the modal first
        return f"can {rng.choice(SUBJECTS)} {rng.choice(VERBS)} {_noun_phrase(rng)}{tail} ."
    if kind == 1:  # the modal, then a verb
        return f"{rng.choice(SUBJECTS)} can {rng.choice(VERBS)} {_noun_phrase(rng)}{tail} ."
    return f"{rng.choice(SUBJECTS)} can {_noun_phrase(rng)}{tail} ."  # the verb "to can", then its object


def can_corpus(sentences: int, seed: int = 0) -> str:
    """`sentences` random sentences of the grammar, joined by spaces (seeded)."""
    if sentences < 1:
        raise ValueError(f"need at least one sentence, got {sentences}")
    rng = random.Random(seed)
    return " ".join(can_sentence(rng) for _ in range(sentences))


def _mean_off_diagonal(matrix: torch.Tensor) -> float:
    n = matrix.shape[0]
    return float((matrix.sum() - matrix.diagonal().sum()) / (n * n - n))


@torch.no_grad()
def sense_gap(model, tokenizer, text: str, context: int = 24) -> dict[str, float]:
    """Mean cosine of the attention outputs at the "can"s of `text`, within a sense and across the two senses.

    The text is cut into windows of `context` words; a "can" after an article is the noun, one after a
    subject word ("you", "we", "they", "canner") the modal or the verb; a "can" first in its window is skipped.
    `model.attend(idx)` must return (embeddings, attention outputs, weights), as OneLayerAttentionLM's does.
    """
    words = text.split()
    usable = len(words) // context * context
    if usable == 0:
        raise ValueError(f"the text has fewer than {context} words")
    idx = torch.tensor(tokenizer.encode(" ".join(words[:usable]))).view(-1, context)  # (N, T)
    was_training = model.training
    model.eval()
    try:
        outputs = model.attend(idx.to(model.device))[1].reshape(usable, -1).cpu()  # (N * T, D)
    finally:
        model.train(was_training)
    subjects = {word for subject in SUBJECTS for word in subject.split()} - set(ARTICLES)
    noun = [i for i in range(usable) if i % context and words[i] == "can" and words[i - 1] in ARTICLES]
    verb = [i for i in range(usable) if i % context and words[i] == "can" and words[i - 1] in subjects]
    if len(noun) < 2 or len(verb) < 2:
        raise ValueError("the text needs at least two 'can's of each sense")
    a, b = F.normalize(outputs[noun], dim=-1), F.normalize(outputs[verb], dim=-1)  # (n, D), (m, D)
    within = (_mean_off_diagonal(a @ a.T) + _mean_off_diagonal(b @ b.T)) / 2  # a vector with itself left out
    across = float((a @ b.T).mean())
    return {"within": within, "across": across, "gap": within - across, "nouns": len(noun), "verbs": len(verb)}


__all__ = ["SUBJECTS", "VERBS", "ARTICLES", "NOUNS", "CAN_SENTENCE", "SENTENCE_START", "AFTER_SUBJECT",
           "AFTER_ARTICLE", "CAN_POSITIONS", "can_sentence", "can_corpus", "sense_gap"]
