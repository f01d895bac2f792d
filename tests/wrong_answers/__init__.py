"""Wrong answers and delegations for the course's exercises, one file per notebook (see spec.py and harness.py)."""
