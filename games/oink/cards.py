"""The Oink! deck and the correct-cry function (O3).

Card ids: the six animals hold ids ``animal * 14 + value * 2 + copy`` (values
0–6, two copies each); the six pigs are ids 84–89, value 7. A cry is an int
id (labels may be translated): cry ``i`` is animal ``i``'s cry, and cry 6,
the pig's, is "Oink!".
"""
from __future__ import annotations

ANIMALS = ("dog", "cat", "cow", "donkey", "sheep", "chick", "pig")
CRIES = ("Woof-woof", "Miaow", "Moo", "Hee-haw", "Baa", "Co-co-co", "Oink!")
PIG = 6
OINK = 6
NO_CRY = None

DECK = tuple((animal, value) for animal in range(6) for value in range(7) for _ in range(2)) + ((PIG, 7),) * 6
DECK_SIZE = len(DECK)  # 90


def animal(card: int) -> int:
    return DECK[card][0]


def value(card: int) -> int:
    return DECK[card][1]


def correct_cry(top: int, under: int | None) -> int | None:
    """The cry the top two cards call for (O3), or None when nothing is slappable.

    Same animal wins over the sum rule (rulebook note: "make the cry of the
    animal"); a pig on top, or two values summing to 7, call for Oink!. With a
    single card on the pile only a pig is slappable.
    """
    if under is None:
        return OINK if animal(top) == PIG else None
    if animal(top) == animal(under):
        return animal(top)
    if animal(top) == PIG or value(top) + value(under) == 7:
        return OINK
    return None


def card_json(card: int) -> dict:
    """A shown card as the views carry it (contract: its id under "card")."""
    kind, number = DECK[card]
    return {"card": card, "animal": ANIMALS[kind], "value": number}


def card_name(card: int) -> str:
    kind, number = DECK[card]
    return "a pig" if kind == PIG else f"a {ANIMALS[kind]} {number}"


def cry_name(cry: int | None) -> str:
    return "nothing" if cry is None else CRIES[cry]
