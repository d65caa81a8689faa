"""O3: the correct cry on the top two cards, checked over every ordered pair."""
from collections import Counter

import pytest

from games.oink.cards import ANIMALS, CRIES, DECK, DECK_SIZE, OINK, correct_cry

from .helpers import Cards

DOG, CAT, COW, DONKEY, SHEEP, CHICK = range(6)


def rulebook_cry(top, under):
    """The rulebook's three conditions, read literally, with its note on overlaps."""
    (top_animal, top_value), (under_animal, under_value) = DECK[top], DECK[under]
    identical = top_animal == under_animal
    seven = top_value + under_value == 7
    pig = ANIMALS[top_animal] == "pig"
    if identical and seven:          # note: both conditions → the animal's cry
        return top_animal
    if identical:
        return OINK if pig else top_animal
    if pig or seven:
        return OINK
    return None


def test_o3_deck_is_ninety_cards_fourteen_of_each_animal_and_six_pigs():
    assert DECK_SIZE == 90
    assert Counter(animal for animal, _ in DECK) == {**{a: 14 for a in range(6)}, 6: 6}
    assert all(Counter(v for a, v in DECK if a == animal) == {v: 2 for v in range(7)} for animal in range(6))


def test_o3_correct_cry_over_every_ordered_pair_of_distinct_cards():
    pairs = [(top, under) for top in range(DECK_SIZE) for under in range(DECK_SIZE) if top != under]
    assert len(pairs) == 90 * 89
    for top, under in pairs:
        assert correct_cry(top, under) == rulebook_cry(top, under), (DECK[top], DECK[under])


def test_o3_pair_counts_per_cry():
    counts = Counter(correct_cry(t, u) for t in range(DECK_SIZE) for u in range(DECK_SIZE) if t != u)
    # Same animal: 14 cards, 14*13 ordered pairs per animal.
    assert all(counts[animal] == 14 * 13 for animal in range(6))
    # Oink!: a pig on anything (6 × 89); an animal 0 on one of the 6 pigs (12 tops);
    # an animal 1–6 on one of the 10 cards of the other five animals with value 7 − v (72 tops).
    assert counts[OINK] == 6 * 89 + 12 * 6 + 72 * 10
    assert counts[None] == 90 * 89 - sum(v for k, v in counts.items() if k is not None)


@pytest.mark.parametrize("top,under,cry", [
    ("pig", "pig", OINK),                 # pig on pig
    ("cow3", "cow4", COW),                # same animal summing to 7: the animal's cry
    ("cow0", "pig", OINK),                # a 0 on a pig: Oink! by the sum rule
    ("dog1", "pig", None),                # any other card on a pig: nothing
    ("pig", "sheep2", OINK),              # a pig on anything
    ("cat2", "chick5", OINK),             # 2 + 5
    ("donkey6", "donkey6", DONKEY),       # the two identical cards
    ("chick3", "dog3", None),
])
def test_o3_examples(top, under, cry):
    cards = Cards()
    t, u = cards.one(top), cards.one(under)
    assert correct_cry(t, u) == cry


def test_o3_first_card_of_a_round_is_slappable_only_as_a_pig():
    cards = Cards()
    assert correct_cry(cards.one("pig"), None) == OINK
    assert all(correct_cry(card, None) is None for card in range(84))
    assert CRIES[OINK] == "Oink!"
