"""The Pig Pile deck: 80 cards, each an int id into a static table.

Ids 0–71 are the numbers 1–12, six of each (id // 6 + 1); ids 72–79 are the
eight Hog Wilds, whose rank is ``WILD`` (0). Sorting ids therefore sorts a hand
by number, Hog Wilds last.
"""
from __future__ import annotations

from games.core.cards import build_deck, count_words

WILD = 0
HOG_TIED = 4
HOG_WASH = 8
EWE_TURN = 11

DECK = build_deck([*((number, 6) for number in range(1, 13)), (WILD, 8)])
RANK = DECK
CARD_COUNT = len(DECK)

SPECIAL = {HOG_TIED: "tied", HOG_WASH: "wash", EWE_TURN: "turn", WILD: "wild"}
SPECIAL_NAME = {HOG_TIED: "Hog Tied", HOG_WASH: "Hog Wash", EWE_TURN: "Ewe-Turn", WILD: "Hog Wild"}
ART = {HOG_TIED: "pp-hog-tied", HOG_WASH: "pp-hog-wash", EWE_TURN: "pp-ewe-turn", WILD: "pp-hog-wild"}


def _card_view(card: int) -> dict:
    rank = RANK[card]
    return {"card": card, "rank": rank, "label": "W" if rank == WILD else str(rank),
            "special": SPECIAL.get(rank), "name": SPECIAL_NAME.get(rank), "art": ART.get(rank)}


CARD_VIEWS = tuple(_card_view(card) for card in range(CARD_COUNT))


def cards_view(cards) -> list[dict]:
    """Cards as views show them: the id under ``"card"`` plus what the page draws (fresh dicts)."""
    return [CARD_VIEWS[card].copy() for card in cards]


def rank_words(rank: int, count: int) -> str:
    """"a 5", "two 5s", "an 8", "three Hog Wilds" — for the log."""
    if rank == WILD:
        return "a Hog Wild" if count == 1 else f"{count_words(count)} Hog Wilds"
    if count == 1:
        return f"an {rank}" if rank in (8, 11) else f"a {rank}"
    return f"{count_words(count)} {rank}s"


def rank_counts(cards) -> dict[int, int]:
    """How many cards of each rank, ranks in ascending id order (numbers up, Hog Wild last)."""
    counts: dict[int, int] = {}
    for card in cards:
        rank = RANK[card]
        counts[rank] = counts.get(rank, 0) + 1
    return counts


def take_rank(cards: tuple, rank: int, count: int) -> tuple[tuple, tuple]:
    """``(taken, rest)``: the ``count`` lowest-id cards of ``rank`` out of ``cards``."""
    taken: list[int] = []
    rest = []
    for card in cards:
        if len(taken) < count and RANK[card] == rank:
            taken.append(card)
        else:
            rest.append(card)
    return tuple(taken), tuple(rest)
