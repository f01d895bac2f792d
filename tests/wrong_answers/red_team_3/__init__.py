"""Answers written by the third exercise red team from the released notebooks 01-04 alone (2026-12-06): NN_exK_V.py as in red_team_1 (wN wrong, ok right); filed by red_team_1.adopt(..., team=3)."""
