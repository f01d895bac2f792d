"""Notebook 11 has no graded exercises: nothing to get wrong, nothing to delegate (the suite checks it stays so)."""

NOTEBOOK = "11_the_journey.ipynb"
WRONG: dict = {}
DELEGATIONS: dict = {}
