"""Compact Snout! positions for the ruling tests (style.md habit 9).

Cards are letters, one per position: ``s`` Simple Sider, ``d`` Spotty Body (the
dot), ``r`` Razorback, ``t`` Trotter, ``n`` Snouter, ``j`` Leaning Jowler.
``position(["ssr", "dt"], pigsty="rt")`` deals those hands with the Pigsty's top
cards in that order; every card not named goes under the Pigsty (or, with
``rest="pile"``, into the Pig Pile), so all 52 are always on the table.
"""
from __future__ import annotations

import dataclasses

from games.core import Rng
from games.core.contract import turn_limit_ms
from games.snout import pigs
from games.snout.rules import PASS_DEFAULT_MS
from games.snout.state import Phase, SnoutState

LETTERS = "sdrtnj"  # in PIGS order


def cards_of(letters: str, pool: list[int]) -> tuple[int, ...]:
    """Take one unused card of each lettered position from ``pool`` (which shrinks)."""
    taken = []
    for letter in letters:
        pig = LETTERS.index(letter)
        card = next(card for card in pool if pigs.pig_of(card) == pig)
        pool.remove(card)
        taken.append(card)
    return tuple(taken)


def letters(cards) -> str:
    """Cards back to letters, in PIGS order (a hand reads like the fixture that built it)."""
    return "".join(LETTERS[pigs.pig_of(card)] for card in sorted(cards))


def rng_tossing(sequence: str, odds: str = "kern") -> Rng:
    """A random source whose next tosses land in the lettered positions, in order."""
    for seed in range(1_000_000):
        rng = start = Rng.from_seed(seed)
        for letter in sequence:
            pig, rng = pigs.toss(rng, odds)
            if pig != LETTERS.index(letter):
                break
        else:
            return start
    raise AssertionError(f"no seed tosses {sequence}")


def position(hands: list[str], pigsty: str = "", pile: str = "", *, toss: str = "", tosser: int = 0,
             dealer: int = 0, phase: Phase = Phase.TOSS, early_snout: bool = False, toss_odds: str = "kern",
             turn_seconds: int = 0, scores: tuple[int, ...] | None = None, rest: str = "pigsty",
             now: int = 0) -> SnoutState:
    seats = len(hands)
    pool = list(range(len(pigs.DECK)))
    dealt = tuple(tuple(sorted(cards_of(hand, pool))) for hand in hands)
    top = cards_of(pigsty, pool)
    shown = cards_of(pile, pool)
    if rest == "pile":
        pigsty_cards, pile_cards = top, tuple(pool) + shown
    else:
        pigsty_cards, pile_cards = top + tuple(pool), shown
    if phase is Phase.PASS:
        deadline = now + (turn_seconds * 1000 or PASS_DEFAULT_MS)
    elif phase is Phase.TOSS:
        deadline = now + turn_limit_ms(turn_seconds)
    else:
        deadline = None
    return SnoutState(
        seats=seats, toss_odds=toss_odds, early_snout=early_snout, turn_seconds=turn_seconds,
        rng=rng_tossing(toss, toss_odds), phase=phase, round=1, dealer=dealer, tosser=tosser,
        hands=dealt, pigsty=pigsty_cards, pig_pile=pile_cards, passes=((),) * seats,
        done=(False,) * seats, deadline=deadline, scores=scores or (0,) * seats, tosses=0,
        last_toss=None, results=(), log=(), log_n=0,
    )


def hands_of(state: SnoutState) -> list[str]:
    return [letters(hand) for hand in state.hands]


def with_state(state: SnoutState, **changes) -> SnoutState:
    return dataclasses.replace(state, **changes)
