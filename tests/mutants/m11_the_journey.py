"""Mutants of notebook 11: each removes the cause of one show."""

from tests.mutation.spec import Mutant, Patch

NOTEBOOK = "11_the_journey.ipynb"

LOAD, TABLE, RANKING = "load_zoo11", "f5ed87b9", "04fd6fd4"

MUTANTS = [
    Mutant(name="neural_untrained", removes="the training of the neural families (one step each)", target=RANKING,
           message=r"every neural family should beat the count (bigram|unigram)",
           patches=[Patch(before=LOAD, code="""
import dataclasses
import utils.zoo as _zoo
_recipe = _zoo.zoo_recipe
_zoo.zoo_recipe = lambda family, fast=None: dataclasses.replace(_recipe(family, fast), steps=1) if family != "ngram" else _recipe(family, fast)
""")], skip=["d546469e"]),
    Mutant(name="transformer_starved", removes="the equal budget (the Transformer gets a tenth of the steps)",
           target=RANKING, message=r"same number of tokens|should beat the fixed 8-token window",
           patches=[Patch(before=LOAD, code="""
import dataclasses
import utils.zoo as _zoo
_recipe = _zoo.zoo_recipe
_zoo.zoo_recipe = lambda family, fast=None: (dataclasses.replace(_recipe(family, fast), steps=_recipe(family, fast).steps // 10)
                                             if family == "transformer" else _recipe(family, fast))
""")], skip=["d546469e"]),
]
