"""A compact fixture for Pig Pile positions: cards written as ranks ("5 5 8 W").

``position(hands=["5 5 8", "3 W"], pile="6 6", draw="2 9")`` builds a PLAY-phase
state with those exact cards (ids chosen per rank); every card not placed goes
to ``washed`` so all 80 stay accounted for. The draw pile is written top first,
the pig pile bottom first, Slop left to right.
"""
from __future__ import annotations

from games.core import Rng
from games.pigpile.cards import CARD_COUNT, RANK, WILD
from games.pigpile.state import PEN, ROUNDS, Phase, PigPileState

RANK_OF = {"W": WILD, **{str(number): number for number in range(1, 13)}}


class _Cards:
    def __init__(self):
        self.free = {rank: [card for card in range(CARD_COUNT) if RANK[card] == rank] for rank in RANK_OF.values()}

    def take(self, spec: str) -> tuple[int, ...]:
        return tuple(self.free[RANK_OF[token]].pop(0) for token in spec.split())

    def rest(self) -> tuple[int, ...]:
        return tuple(sorted(card for cards in self.free.values() for card in cards))


def position(hands, face_up=None, slop=None, pile="", draw="", *, turn=0, direction=1, out=(), dealer=0,
             round=1, pigs=None, pen=PEN, phase=Phase.PLAY, turn_seconds=0, began_ms=0,
             three_player_last_gets_one=False, seed=1) -> PigPileState:
    n = len(hands)
    deck = _Cards()
    hand_cards = tuple(tuple(sorted(deck.take(spec))) for spec in hands)
    face_cards = tuple(tuple(sorted(deck.take(spec))) for spec in (face_up or [""] * n))
    slop_cards = tuple(deck.take(spec) for spec in (slop or [""] * n))
    pile_cards = deck.take(pile)
    draw_cards = deck.take(draw)
    return PigPileState(
        seats=n, greased_pig_start=False, three_player_last_gets_one=three_player_last_gets_one,
        turn_seconds=turn_seconds, rng=Rng.from_seed(seed), phase=phase, round=round, dealer=dealer,
        hands=hand_cards, face_up=face_cards, slop=slop_cards, draw=draw_cards, pile=pile_cards,
        washed=deck.rest(), direction=direction, turn=turn, out=tuple(out), pigs=tuple(pigs or (0,) * n),
        pen=pen, last_round=None, began_ms=began_ms, log=(), log_count=0,
    )


def ranks(cards) -> str:
    """Cards back to the fixture's notation, e.g. "5 5 W"."""
    return " ".join("W" if RANK[card] == WILD else str(RANK[card]) for card in cards)


def play(rank, count=1, where="hand") -> dict:
    return {"type": "play", "from": where, "rank": rank, "count": count}


def texts(state) -> list[tuple]:
    return [(seat, text) for _, seat, text in state.log]


def last_round(draw: int | None = None):
    """A change for ``LiveSite.edit_state`` at a table just dealt: the round being dealt is the
    game's last (PP18: the game ends after round 5), and with ``draw`` the draw pile keeps only
    its top ``draw`` cards — the rest go to the washed cards (no card is lost) — so the round,
    and with it the game, ends after a few turns each instead of five rounds of some forty."""
    def change(state: dict) -> None:
        state["round"] = ROUNDS
        if draw is not None:
            state["washed"].extend(state["draw"][draw:])
            del state["draw"][draw:]
    return change
