"""The seeded random source kept inside a game's state.

A ``Rng`` is an immutable 64-bit SplitMix64 state: every draw returns the value
and the next ``Rng``, so states stay frozen, JSON-able (one int) and replayable,
independent of Python's ``random`` module. It is never sent to clients.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
MASK = (1 << 64) - 1


@dataclass(frozen=True)
class Rng:
    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls((seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK)

    def next64(self) -> tuple[int, Rng]:
        state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31), Rng(state)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform int in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            value, rng = rng.next64()
            if value < limit:
                return value % n, rng

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher–Yates shuffle of ``items``."""
        cards = list(items)
        rng = self
        for i in range(len(cards) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return tuple(cards), rng

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        index, rng = self.below(len(items))
        return items[index], rng

    def weighted(self, weights: Sequence[int]) -> tuple[int, Rng]:
        """An index drawn with probability proportional to the integer ``weights``."""
        total = sum(weights)
        roll, rng = self.below(total)
        for index, weight in enumerate(weights):
            if roll < weight:
                return index, rng
            roll -= weight
        raise AssertionError("unreachable")
