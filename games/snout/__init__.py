"""Snout! — the Pass the Pigs card game: toss the pig, shed the matching cards, first to 100."""
