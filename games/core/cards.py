"""Card and seat helpers shared by the games.

A card is a small int id into a game's static deck table (style.md habit 2);
piles and hands are tuples of ids.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from games.core.contract import IllegalAction


def build_deck(counts: Iterable[tuple[object, int]]) -> tuple:
    """The deck table: each kind repeated ``count`` times, in order. Card id = index."""
    return tuple(kind for kind, count in counts for _ in range(count))


def deal(pile: tuple, n: int) -> tuple[tuple, tuple]:
    """Take ``n`` cards off the top (front) of ``pile``: ``(taken, rest)``."""
    return pile[:n], pile[n:]


def remove_cards(hand: tuple, cards: Iterable) -> tuple:
    """``hand`` without ``cards`` (each once); IllegalAction if a card is not there."""
    wanted = Counter(cards)
    have = Counter(hand)
    if any(have[card] < count for card, count in wanted.items()):
        raise IllegalAction("you do not hold those cards")
    kept = []
    for card in hand:
        if wanted[card]:
            wanted[card] -= 1
        else:
            kept.append(card)
    return tuple(kept)


def next_seat(seat: int, seats: int, direction: int = 1) -> int:
    """The seat after ``seat`` going clockwise (direction 1) or anticlockwise (-1)."""
    return (seat + direction) % seats


def count_words(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}.get(n, str(n))


def plural(count: int, word: str, words: str | None = None) -> str:
    """"1 card", "2 cards", "0 points": a number with its noun agreeing (``words`` for odd plurals)."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def with_article(word: str) -> str:
    """"a Snout!", "an Oink!": a word after the indefinite article its first letter asks for."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def movers(players: list[dict], seat: int | None) -> dict[int, str]:
    """Who makes each seat's moves, as the viewer at ``seat`` reads it: the platform's
    ``label`` for each player ("You", "Ana", or while a bot stands in, "Bot for you"),
    else "You" for the viewer's own seat and the name for the others."""
    return {player["index"]: player.get("label") or ("You" if player["index"] == seat else player["name"])
            for player in players}


def word_list(words: list[str]) -> str:
    """"Ana", "Ana and Bo", "Ana, Bo and Cy": words joined as a sentence lists them."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def seat_ref(seat: int) -> str:
    """How a log line names a seat inside its text (the line's own ``seat`` is named before it):
    the platform shows that seat's player there, for every game (docs/platform.md §1)."""
    return f"{{seat:{seat:d}}}"
