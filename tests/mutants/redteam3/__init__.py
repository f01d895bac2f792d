"""A red team's killed mutants of notebook 12's poem-sound shows (2026-12-06), appended to m12's MUTANTS (slow tier)."""
