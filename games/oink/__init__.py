"""Oink!: the real-time slap game (rulings O1–O10 in shared/rules/oink.md)."""
