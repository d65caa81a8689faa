"""Piggy Piggy: play food, steal pigs, draw back to five, score what matches your pigs."""
