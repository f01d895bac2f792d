"""Wrong answers and delegations for notebook 12's exercises."""

from tests.wrong_answers.spec import Delegation, Wrong

NOTEBOOK = "12_tang_poems.ipynb"

_FORM = "def keeps_form(poem: str) -> bool:\n"
_CONSTRAIN = ("def constrain_logits(logits: torch.Tensor, written: int, comma_id: int, period_id: int, "
              "boundary_id: int) -> torch.Tensor:\n")


def _constrain(place: str, inside: str = "    out[:, [comma_id, period_id, boundary_id]] = float('-inf')\n",
               forbid: str = "float('-inf')") -> str:
    """A constrain_logits whose rule for the forced places is `place` (a condition on written -> allowed id)."""
    return (_CONSTRAIN + "    out = logits.clone()\n" + place
            + "    if allowed is None:\n" + inside.replace("    out", "        out") + "        return out\n"
            + f"    keep = out[:, allowed].clone()\n    out[:] = {forbid}\n    out[:, allowed] = keep\n    return out")


_RIGHT_PLACES = ("    allowed = boundary_id if written >= 24 else comma_id if written in (5, 17) "
                 "else period_id if written in (11, 23) else None\n")

WRONG = {
    "ex1_keeps_form": [
        Wrong("counts_only", _FORM + "    return len(poem) == 24 and poem.count('，') == 2 and poem.count('。') == 2",
              visible=r"first two lines have 4 and 6 characters"),
        Wrong("any_mark_in_place", _FORM + "    return len(poem) == 24 and all(poem[i] in '，。' for i in (5, 11, 17, 23)) "
                                           "and sum(ch in '，。' for ch in poem) == 4",
              visible=r"must be ， after lines 1 and 3"),
        Wrong("first_four_lines_only", _FORM + "    head = poem[:24]\n    return len(head) == 24 and all(head[i] == '，。，。'[k] for k, i in "
                                               "enumerate((5, 11, 17, 23))) and sum(ch in '，。' for ch in head) == 4",
              visible=r"eight lines \(a 律诗\) are not a quatrain"),
        Wrong("any_symbol_is_a_character", _FORM + "    return len(poem) == 24 and all(poem[i] == '，。，。'[k] for k, i in "
                                                   "enumerate((5, 11, 17, 23))) and sum(ch in '，。' for ch in poem) == 4"),
    ],
    "ex2_constrain_logits": [
        Wrong("one_based", _constrain("    allowed = boundary_id if written >= 25 else comma_id if written in (6, 18) "
                                      "else period_id if written in (12, 24) else None\n"),
              visible=r"after 5 symbols only ， is allowed"),
        Wrong("zero_not_minus_inf", _constrain(_RIGHT_PLACES, inside="    out[:, [comma_id, period_id, boundary_id]] = 0.0\n",
                                               forbid="0.0"),
              visible=r"must get -inf \(not 0"),
        Wrong("punctuation_free_inside_lines", _constrain(_RIGHT_PLACES, inside=""),
              visible=r"inside a line \(written = 0\) ，, 。 and the boundary must get -inf"),
        Wrong("end_only_at_24", _constrain("    allowed = boundary_id if written == 24 else comma_id if written in (5, 17) "
                                           "else period_id if written in (11, 23) else None\n")),
    ],
    "ex3_poem_model": [
        Wrong("kn_five_gram", "poem_model = NGramLM.fit(dataset.train, V, n=5, smoothing='kneser_ney', discount=0.9, "
              "boundary_id=BOUNDARY)", visible=r"poem_model stores [\d,]+ bytes, the budget is below"),
        Wrong("kn_bigram", "poem_model = NGramLM.fit(dataset.train, V, n=2, smoothing='kneser_ney', boundary_id=BOUNDARY)",
              visible=r"the budget is below"),
        Wrong("add_one_trigram", "poem_model = NGramLM.fit(dataset.train, V, n=3, smoothing='add_k', k=1.0, boundary_id=BOUNDARY)"),
        Wrong("mle_fourgram", "poem_model = NGramLM.fit(dataset.train, V, n=4, smoothing='mle', boundary_id=BOUNDARY)",
              visible=r"the perplexity is not finite"),
        Wrong("untrained_small_transformer", "torch.manual_seed(0)\npoem_model = TransformerLM(TransformerConfig(V, "
              "context_length=32, n_layer=2, n_head=4, d_model=32, tie_weights=True)).eval()",
              visible=r"the target below"),
        Wrong("unigram", "poem_model = NGramLM.fit(dataset.train, V, n=1, smoothing='kneser_ney', boundary_id=BOUNDARY)",
              visible=r"the target below"),
    ],
}

DELEGATIONS = {
    "ex1_keeps_form": [
        Delegation("alias", "from utils.tang import is_quatrain as iq\n\n\n" + _FORM + "    return iq(poem)",
                   denied="utils.tang.is_quatrain"),
        Delegation("module_report", "import utils.tang as t\n\n\n" + _FORM + "    return t.form_report([poem])['form'] == 1.0",
                   denied="utils.tang.form_report"),
    ],
    "ex2_constrain_logits": [
        Delegation("getattr", "import utils.tang\n\n\n" + _CONSTRAIN
                   + "    return getattr(utils.tang, 'constrain_to_form')(logits, written, comma_id, period_id, boundary_id)",
                   denied="utils.tang.constrain_to_form"),
        Delegation("copy_before", _CONSTRAIN + "    return _ref(logits, written, comma_id, period_id, boundary_id)",
                   before="from utils.tang import constrain_to_form\n_ref = constrain_to_form", denied="utils.tang.constrain_to_form"),
    ],
    "ex3_poem_model": [
        Delegation("saved_checkpoint", "poem_model = load_checkpoint(_saved)[0].to(device).eval()",
                   before="from utils.checkpoint import load_checkpoint, save_checkpoint\nimport tempfile, os\n"
                          "_saved = os.path.join(tempfile.mkdtemp(), 'poems.pt')\ntorch.manual_seed(SEED)\n"
                          "_small = TransformerLM(TransformerConfig(V, context_length=32, n_layer=2, n_head=4, d_model=32, "
                          "positional='learned', tie_weights=True)).to(device)\n"
                          "train(_small, batch_sampler(dataset.train, BATCH, boundary_id=BOUNDARY, "
                          "generator=torch.Generator().manual_seed(SEED)), TrainConfig(steps=300, lr=1e-2, warmup_steps=30, "
                          "eval_every=301))\nsave_checkpoint(_saved, _small)",
                   denied="utils.checkpoint.load_checkpoint"),
    ],
}
