"""The decks Piggy Piggy is played with, as data.

The printed deck's card counts are not documented (rulings, "Components"), so
the rules never assume a deck: everything they need — the foods (one pig
each), the food amount printed on each card, how many of each, and the number
of goats — is read from a ``Deck``. A card is an int id into ``Deck.cards``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from games.core import Option
from games.core.cards import build_deck


@dataclass(frozen=True)
class Food:
    """One food type and its pig. ``counts`` pairs a printed food amount with how many cards show it."""

    key: str
    name: str
    colour: str
    counts: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Card:
    """One entry of the deck table: a food card (``food`` indexes ``Deck.foods``) or a goat (``food`` None)."""

    food: int | None
    amount: int

    @property
    def is_goat(self) -> bool:
        return self.food is None


GOAT = Card(None, 0)


@dataclass(frozen=True)
class Deck:
    key: str
    title: str
    foods: tuple[Food, ...]
    goats: int
    stand_in: bool = False

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """The deck table: food cards food by food, amount by amount, then the goats."""
        kinds = [(Card(index, amount), count) for index, food in enumerate(self.foods) for amount, count in food.counts]
        return build_deck([*kinds, (GOAT, self.goats)])

    @cached_property
    def amounts(self) -> tuple[int, ...]:
        """The food amount of each card id (0 for goats): stack sizes are summed a lot."""
        return tuple(card.amount for card in self.cards)

    @cached_property
    def food_of(self) -> tuple[int | None, ...]:
        return tuple(card.food for card in self.cards)

    def food_index(self, key: str) -> int | None:
        return next((index for index, food in enumerate(self.foods) if food.key == key), None)


STAND_IN = Deck(
    key="stand-in",
    title="Stand-in deck (5 foods, 68 cards)",
    foods=tuple(
        Food(key, name, colour, ((1, 6), (2, 4), (3, 2)))
        for key, name, colour in (
            ("ice-cream", "ice cream", "pink"),
            ("tacos", "tacos", "yellow"),
            ("donuts", "donuts", "blue"),
            ("fries", "fries", "red"),
            ("cookies", "cookies", "black"),
        )
    ),
    goats=8,
    stand_in=True,
)

PICNIC = Deck(
    key="picnic",
    title="Picnic deck (3 foods, 45 cards, bigger portions)",
    foods=tuple(
        Food(key, name, colour, ((1, 5), (2, 4), (3, 2), (4, 2)))
        for key, name, colour in (
            ("tacos", "tacos", "yellow"),
            ("donuts", "donuts", "blue"),
            ("ice-cream", "ice cream", "pink"),
        )
    ),
    goats=6,
)

DECKS: dict[str, Deck] = {deck.key: deck for deck in (STAND_IN, PICNIC)}

DECK_OPTION = Option(
    "deck", "choice", STAND_IN.key, "Deck", choices=tuple(DECKS),
    choice_labels=("Five foods (68 cards)", "Picnic: three foods (45 cards)"),
    help="Five foods with five pigs, or the picnic: three foods and three pigs, with bigger portions.",
)
