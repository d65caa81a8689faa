"""S1: 100,000 seeded tosses fit Kern's single-pig counts, or the deck's 18/16/10/5/2/1.

scipy is not in the venv, so the chi-square statistic is computed here and compared
with the critical value for 5 degrees of freedom at p = 0.001.
"""
from functools import cache

import pytest

from games.core import Rng
from games.snout import pigs

TOSSES = 100_000
CRITICAL_5DF_P001 = 20.515


@cache
def tally(odds: str, seed: int) -> tuple[int, ...]:
    rng = Rng.from_seed(seed)
    observed = [0] * len(pigs.PIGS)
    for _ in range(TOSSES):
        pig, rng = pigs.toss(rng, odds)
        observed[pig] += 1
    return tuple(observed)


def chi_square(observed: tuple[int, ...], weights: tuple[int, ...]) -> float:
    total = sum(observed)
    expected = [total * weight / sum(weights) for weight in weights]
    return sum((seen - wanted) ** 2 / wanted for seen, wanted in zip(observed, expected))


@pytest.mark.parametrize("odds", ["kern", "cards"])
def test_s1_seeded_tosses_fit_their_odds(odds):
    observed = tally(odds, seed=2006)
    assert sum(observed) == TOSSES
    assert chi_square(observed, pigs.TOSS_ODDS[odds]) < CRITICAL_5DF_P001


def test_s1_the_two_odds_are_told_apart():
    """The test has power: Kern's tosses are far from the deck's proportions (the Jowler is
    0.61% of landings but 1.9% of the cards)."""
    assert chi_square(tally("kern", seed=2006), pigs.TOSS_ODDS["cards"]) > 10 * CRITICAL_5DF_P001


def test_s1_kern_counts_are_the_published_ones():
    assert sum(pigs.TOSS_ODDS["kern"]) == 11_954
    assert [round(count / 11_954, 4) for count in pigs.TOSS_ODDS["kern"]] == [
        0.3497, 0.3017, 0.2237, 0.0884, 0.0304, 0.0061]
