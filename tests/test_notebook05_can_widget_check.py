"""Notebook 05, cell 90ec215c: the check after the "can" head view fails when the view shows the wrong weights.

The cell is a check of the widget, not a show (tests/mutants/ only takes show cells), so its mutants live
here; they run with the same runner (tests/mutation/runner.py): the notebook in a fresh kernel up to the
check, and the check must fail there with an AssertionError whose message matches. The first runs in the
default tier, the others in the slow tier (`pytest -m slow`), as for the shows.
"""

from __future__ import annotations

import pytest

from tests.mutation.runner import plan, run_mutant
from tests.mutation.spec import NOTEBOOKS, Edit, Mutant, Patch

NOTEBOOK = NOTEBOOKS / "05_attention.ipynb"
CAN_WIDGET, CHECK = "10e895a0", "90ec215c"
# cells the check does not need: sections 2-9's experiments and shows
SKIP = ["17e9bb04", "868e99b1", "4650175e", "scale_training", "3cd0329f", "06e796ed", "8b07a118", "tied_qk_training"]
WRONG_VIEW = r"the view should shade the package's weights"

MUTANTS = [
    Mutant(name="can_widget_given_untrained_as_trained", removes="the trained model: the view's 'trained' weights are the untrained model's",
           target=CHECK, message=WRONG_VIEW, skip=SKIP,
           edits=[Edit(cell=CAN_WIDGET, old="attention_widget(model, tokenizer, CAN_SENTENCE, untrained=untrained)",
                       new="attention_widget(untrained, tokenizer, CAN_SENTENCE, untrained=untrained)")]),
    Mutant(name="can_widget_shows_the_next_head", removes="the head choice: the view shows head h + 1 when head h is chosen",
           target=CHECK, message=WRONG_VIEW, skip=SKIP,
           patches=[Patch(before=CHECK, code="""
from utils.widgets.attention_map import ALL_HEADS as _ALL, AttentionWidget as _Widget, query_row as _row


def _next_head(self):
    maps = self.maps[self.variant]
    head = self.head if self.head == _ALL else (self.head + 1) % maps.n_heads
    return _row(maps, self.layer, head, self.query if self.query >= 0 else len(maps.tokens) - 1)


_Widget.shown_row = _next_head
""")]),
    Mutant(name="can_widget_model_untrained", removes="training: the model shown gets the untrained model's weights",
           target=CHECK, message=r"every head's trained view should be far from its untrained view", skip=SKIP,
           patches=[Patch(before=CAN_WIDGET, code="model.load_state_dict(untrained.state_dict())")]),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_mutant_is_valid(mutant: Mutant) -> None:
    steps = plan(NOTEBOOK, mutant)  # ValueError: a missing cell, or an `old` that does not occur exactly once
    assert steps[-1].cell_id == CHECK and steps[-1].is_target
    assert not set(SKIP) & {step.cell_id for step in steps}


@pytest.mark.parametrize(
    "mutant", [pytest.param(m, id=m.name, marks=[pytest.mark.slow] if i else []) for i, m in enumerate(MUTANTS)])
def test_can_widget_mutant_is_killed(mutant: Mutant) -> None:
    outcome = run_mutant(NOTEBOOK, mutant)
    assert outcome.killed, f"mutant {mutant.name!r} (removes {mutant.removes}): {outcome.reason}"
