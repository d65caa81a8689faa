"""Pig Pile: race to shed your cards; wash the pig pile with an 8 or three in a row."""
