"""The pig's six positions, the 52-card deck and the toss (S1).

A card is an int id into ``DECK``, which maps it to the index of its pig
position in ``PIGS``. Ids run through the positions in ``PIGS`` order, so a
hand kept sorted by id is grouped by position, lowest points first.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.core import Rng
from games.core.cards import build_deck, count_words


@dataclass(frozen=True)
class Pig:
    key: str
    name: str
    plural: str
    points: int
    cards: int
    kern: int  # Kern (2006): landings of a single pig in 11,954 tosses


PIGS = (
    Pig("sider", "Simple Sider", "Simple Siders", 1, 18, 4180),
    Pig("spotty", "Spotty Body", "Spotty Bodies", 1, 16, 3607),
    Pig("razorback", "Razorback", "Razorbacks", 5, 10, 2674),
    Pig("trotter", "Trotter", "Trotters", 5, 5, 1057),
    Pig("snouter", "Snouter", "Snouters", 10, 2, 363),
    Pig("jowler", "Leaning Jowler", "Leaning Jowlers", 15, 1, 73),
)
SIDER, SPOTTY, RAZORBACK, TROTTER, SNOUTER, JOWLER = range(len(PIGS))
PIG_BY_KEY = {pig.key: index for index, pig in enumerate(PIGS)}

DECK = build_deck((index, pig.cards) for index, pig in enumerate(PIGS))
JOWLER_CARD = DECK.index(JOWLER)
DECK_POINTS = sum(PIGS[pig].points for pig in DECK)

# S1: the default toss follows Kern's measured counts; "cards" follows the deck.
TOSS_ODDS = {
    "kern": tuple(pig.kern for pig in PIGS),
    "cards": tuple(pig.cards for pig in PIGS),
}


def toss(rng: Rng, odds: str) -> tuple[int, Rng]:
    """One toss of the pig: the position it lands in, and the next random source."""
    return rng.weighted(TOSS_ODDS[odds])


def pig_of(card: int) -> int:
    return DECK[card]


def points(cards: Iterable[int]) -> int:
    return sum(PIGS[DECK[card]].points for card in cards)


def counts(cards: Iterable[int]) -> tuple[int, ...]:
    """How many cards of each position, in ``PIGS`` order."""
    tally = [0] * len(PIGS)
    for card in cards:
        tally[DECK[card]] += 1
    return tuple(tally)


def card_json(card: int) -> dict:
    pig = PIGS[DECK[card]]
    return {"card": card, "pig": pig.key, "name": pig.name, "points": pig.points}


def describe(pig: int, n: int = 1) -> str:
    """"a Razorback", "two Simple Siders", "the Leaning Jowler"."""
    info = PIGS[pig]
    if pig == JOWLER:
        return "the Leaning Jowler"
    if n == 1:
        return f"a {info.name}"
    return f"{count_words(n)} {info.plural}"
