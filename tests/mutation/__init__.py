"""Mutation harness: named changes that remove the cause of a notebook's show, and the machinery that runs them.

spec.py    the format (Edit, Patch, Mutant), loading the files in tests/mutants/, and static checks
runner.py  runs one mutant in a fresh kernel, as far as its target cell, and says whether it was killed
report.py  prints the table notebook | show | mutants | killed
"""
