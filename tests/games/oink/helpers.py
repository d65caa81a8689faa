"""Compact Oink! positions for the ruling tests: cards written as short words.

``"dog3 pig cow4"`` names a dog 3, a pig and a cow 4 (each word takes the next
unused copy of that card). Piles are written bottom first, decks top first.
"""
from __future__ import annotations

from games.core import Rng
from games.oink.cards import ANIMALS, DECK, PIG
from games.oink.engine import ENGINE
from games.oink.state import OinkState, Phase


class Cards:
    """Hands out card ids for words, never the same id twice within one position."""

    def __init__(self):
        self.used: set[int] = set()

    def __call__(self, text: str) -> tuple[int, ...]:
        return tuple(self.one(word) for word in text.split())

    def one(self, word: str) -> int:
        if word == "pig":
            wanted = (PIG, 7)
        else:
            wanted = (ANIMALS.index(word[:-1]), int(word[-1]))
        for card, kind in enumerate(DECK):
            if kind == wanted and card not in self.used:
                self.used.add(card)
                return card
        raise ValueError(f"no {word} left")


def position(decks: list[str], pile: str = "", won: list[str] | None = None, *, flipper: int | None = 0,
             phase: Phase = Phase.FLIP, now: int = 0, penalty_card: bool = False, gap: int = 1000,
             turn_ms: int = 5000) -> OinkState:
    """A state at time ``now`` with the given decks, pile and winning piles.

    With a pile, its top card counts as revealed at ``now`` and open to slaps;
    the pile state id is the number of cards on it.
    """
    cards = Cards()
    seats = len(decks)
    won = won or [""] * seats
    deadline = now + (turn_ms if phase is Phase.FLIP else gap)
    pile_cards = cards(pile)
    return OinkState(
        seats=seats, penalty_card=penalty_card, reveal_gap_ms=gap, turn_ms=turn_ms, rng=Rng.from_seed(0),
        decks=tuple(cards(deck) for deck in decks), won=tuple(cards(pile) for pile in won), removed=(),
        pile=pile_cards, under=0, pile_id=len(pile_cards), revealed_at=now, pile_open=bool(pile_cards), slaps=(), judged=0,
        phase=phase, deadline_at=deadline, phase_since=now, flipper=flipper, round=1, monkeys=(0,) * seats,
        verdict=None, log=(), events=0,
    )


def slap(state: OinkState, seat: int, cry: int, now: int, **reported) -> OinkState:
    return ENGINE.apply(state, seat, {"type": "slap", "cry": cry, "pile": state.pile_id, **reported}, now)


def clock(state: OinkState, now: int | None = None) -> OinkState:
    return ENGINE.apply(state, None, {"type": "clock"}, state.deadline_at if now is None else now)


def flip(state: OinkState, now: int) -> OinkState:
    return ENGINE.apply(state, state.flipper, {"type": "flip"}, now)


def ready_to_flip(state: OinkState) -> OinkState:
    """Let the reveal gap pass (the clock opens flipping)."""
    assert state.phase is Phase.WAIT
    return clock(state)


def near_the_end(keep: int = 3):
    """A change for ``LiveSite.edit_state``: each seat keeps its top ``keep`` deck cards and
    the rest go to its own winnings (no card is lost), so the game ends (O8: once a deck is
    empty) after a few more flips instead of about ninety."""
    def change(state: dict) -> None:
        for seat, deck in enumerate(state["decks"]):
            state["won"][seat].extend(deck[keep:])
            del deck[keep:]
    return change
