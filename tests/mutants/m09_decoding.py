"""Mutants of notebook 09: each removes the cause of one show."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "09_decoding.ipynb"

TEMPERATURE, TOP_K, TRAP, LENGTH_NORM, COMPARE = "27cb18aa", "8b1c97ff", "beam_trap", "length_norm", "193081ff"
RANDOM_TABLES, SAMPLE_ENTROPY = "beam_random", "sample_entropy"
WIDGET_CELLS = ["4e2a2836", "2a8464c7", "40127c3b"]
_UNTRAINED_CODE = """
torch.manual_seed(0)
transformer = TransformerLM(TransformerConfig(dataset.vocab_size, context_length=64, n_layer=2, n_head=4, d_model=48,
                                              positional="rotary")).eval()
zoo["transformer"] = transformer
"""

MUTANTS = [
    Mutant(name="temperature_ignored", removes="the division of the logits by T", target=TEMPERATURE,
           message=r"temperature does not flatten the distribution",
           patches=[Patch(before=TEMPERATURE, code="""
import utils.sampling as _sampling
_tempered = _sampling.softmax_with_temperature
_sampling.softmax_with_temperature = lambda logits, temperature=1.0: _tempered(logits, 1.0)
""")],
           skip=[TRAP, LENGTH_NORM, COMPARE, *WIDGET_CELLS]),
    Mutant(name="temperature_untrained", removes="the training (an untrained model's logits are nearly equal)",
           target=TEMPERATURE, message=r"should be \(almost\) greedy|far from uniform",
           patches=[Patch(before=TEMPERATURE, code=_UNTRAINED_CODE)],
           skip=[TRAP, LENGTH_NORM, COMPARE, *WIDGET_CELLS]),
    Mutant(name="no_trap", removes="the trap: a locally best first token with poor continuations", target=TRAP,
           message=r"greedy should miss the optimum",
           edits=[Edit(cell=TRAP, old="trap = TableLM(GREEDY_TRAP)",
                       new="trap = TableLM([[0.30, 0.30, 0.40], [0.30, 0.45, 0.25], [0.20, 0.05, 0.75]])")],
           skip=[TEMPERATURE, TOP_K, LENGTH_NORM, COMPARE, *WIDGET_CELLS, "load_models"]),
    Mutant(name="beam_width_ignored", removes="the beam: every width searches like greedy", target=TRAP,
           message=r"should reach the optimum at B = 3|B = 2 should still beat greedy",
           patches=[Patch(before=TRAP, code="""
import utils.decoding as _decoding
_beam = _decoding.beam_search
_decoding.beam_search = lambda *args, beam_width=4, **kwargs: _beam(*args, beam_width=1, **kwargs)
""")],
           skip=[TEMPERATURE, TOP_K, LENGTH_NORM, COMPARE, *WIDGET_CELLS, "load_models"]),
    Mutant(name="beam_forgets_its_score", removes="the running score: each step ranks by the new token's log p alone",
           target=RANDOM_TABLES, message=r"a beam's score must be the summed log p",
           patches=[Patch(before=RANDOM_TABLES, code="""
import utils.decoding as _decoding
_step = _decoding.beam_step
_decoding.beam_step = lambda scores, log_probs, width: _step(torch.zeros_like(scores), log_probs, width)
""")],
           skip=[TEMPERATURE, TOP_K, TRAP, *WIDGET_CELLS, "load_models"]),
    Mutant(name="wide_beam_capped", removes="the unpruned beam: every width above 3 is searched as 3",
           target=RANDOM_TABLES, message=r"a beam that prunes nothing must find the optimum|should keep every candidate",
           patches=[Patch(before=RANDOM_TABLES, code="""
import utils.decoding as _decoding
_beam = _decoding.beam_search
_decoding.beam_search = lambda *args, beam_width=4, **kwargs: _beam(*args, beam_width=min(beam_width, 3), **kwargs)
""")],
           skip=[TEMPERATURE, TOP_K, TRAP, *WIDGET_CELLS, "load_models"]),
    Mutant(name="no_length_penalty", removes="GNMT's length penalty (the plain sum ranks every hypothesis)",
           target=LENGTH_NORM, message=r"length penalty should let 'b c \.' win",
           patches=[Patch(before=TRAP, code="""
import utils.decoding as _decoding
_decoding.Hypothesis.score = lambda self, length_norm=0.0: self.log_prob
""")],
           skip=[TEMPERATURE, TOP_K, COMPARE, *WIDGET_CELLS, "load_models"]),
    Mutant(name="search_untrained", removes="the training: an untrained model's greedy text is no likelier than any",
           target=COMPARE, message=r"search \(greedy, beam\) should write text far likelier",
           patches=[Patch(before=COMPARE, code=_UNTRAINED_CODE)],
           skip=[TRAP, LENGTH_NORM]),
    Mutant(name="search_replaced_by_sampling", removes="the search: greedy and beam search sample at T = 1 instead",
           target=COMPARE, message=r"far likelier than held-out text|less diverse",
           patches=[Patch(before=COMPARE, code="""
import dataclasses
import utils.decoding as _decoding
_decode = _decoding.decode
_decoding.decode = lambda model, prefix, n, method, generator=None, stop_id=None: _decode(
    model, prefix, n, dataclasses.replace(method, temperature=1.0, beam_width=None), generator, stop_id)
""")],
           skip=[TRAP, LENGTH_NORM]),
    Mutant(name="sampled_below_t1", removes="sampling from the model's own distribution: the 'T = 1' samples are drawn at 0.85 T",
           target=SAMPLE_ENTROPY, message=r"T = 1 samples should score the entropy",
           edits=[Edit(cell=SAMPLE_ENTROPY, old="temperature = table_sampler.temperature if T == 1.0 else T",
                       new="temperature = 0.85 * (table_sampler.temperature if T == 1.0 else T)")],
           skip=[RANDOM_TABLES, LENGTH_NORM, *WIDGET_CELLS]),  # the trap cell imports package_beam_search
    Mutant(name="scored_at_the_sampling_temperature", removes="the controls: each sample is scored under the tempered "
           "distribution it was drawn from", target=SAMPLE_ENTROPY, message=r"the controls should miss the entropy",
           edits=[Edit(cell=SAMPLE_ENTROPY, old="transformer(out[:, :-1]).double()", new="(transformer(out[:, :-1]).double() / T)")],
           skip=[RANDOM_TABLES, LENGTH_NORM, *WIDGET_CELLS]),  # the trap cell imports package_beam_search
    Mutant(name="sampler_temperature_squared", removes="drawing at the temperature asked for: the sampler draws at T^2 "
           "(T = 1 unchanged, 0.7 -> 0.49, 1.4 -> 1.96: the controls still miss on the right side)", target=SAMPLE_ENTROPY,
           message=r"should draw at the temperature it is given",
           edits=[Edit(cell=SAMPLE_ENTROPY, old="temperature = table_sampler.temperature if T == 1.0 else T",
                       new="temperature = table_sampler.temperature if T == 1.0 else T ** 2")],
           skip=[RANDOM_TABLES, LENGTH_NORM, *WIDGET_CELLS]),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("09")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam7 import adopted as adopted7  # noqa: E402

MUTANTS += adopted7("09")  # the fifth red team's mutants (slow tier)

from tests.mutants.redteam8 import adopted as adopted8  # noqa: E402

MUTANTS += adopted8("09")  # the sixth red team's mutants (slow tier)

from tests.mutants.redteam9 import adopted as adopted9  # noqa: E402

MUTANTS += adopted9("09")  # the seventh red team's mutants (slow tier)

from tests.mutants.redteam10 import adopted as adopted10  # noqa: E402

MUTANTS += adopted10("09")  # the eighth red team's mutants (slow tier)
