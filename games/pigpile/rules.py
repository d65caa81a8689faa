"""What the rules allow: the pile's value, runs, and every seat's legal actions.

Actions (all small JSON dicts):
- ``{"type": "faceup", "ranks": [r, r, r]}`` — PP1, the three face-up cards, by
  rank (hand order, Hog Wild = 0 last); identical cards are one choice.
- ``{"type": "play", "from": "hand" | "faceup", "rank": r, "count": k}`` — PP6:
  ``k`` cards of one number, or ``k`` Hog Wilds (rank 0).
- ``{"type": "pickup"}`` — PP5: only when nothing in the hand is playable.
- ``{"type": "pickup_faceup", "rank": r, "count": k}`` — PP15: the pile plus
  one face-up card, or all face-up cards of that number.
- ``{"type": "slop", "index": i}`` — PP16: flip Slop card ``i`` blind.
"""
from __future__ import annotations

from itertools import combinations

from games.pigpile.cards import HOG_WASH, RANK, WILD, rank_counts
from games.pigpile.state import Phase, PigPileState

PICKUP = {"type": "pickup"}


def pile_value(pile: tuple) -> int:
    """PP7/PP8: the number a play must reach; 0 (anything goes) on an empty pile or a Hog Wild."""
    return RANK[pile[-1]] if pile else 0


def top_run(pile: tuple) -> tuple[int | None, int]:
    """PP9: the rank on top and how many cards of it lie on top in a row, whoever played them."""
    if not pile:
        return None, 0
    rank = RANK[pile[-1]]
    count = 0
    for card in reversed(pile):
        if RANK[card] != rank:
            break
        count += 1
    return rank, count


def is_wash(rank: int, pile_after: tuple) -> bool:
    """PP10: an 8 washes the pile; so does a run of three or more of one rank (PP9)."""
    return rank == HOG_WASH or top_run(pile_after)[1] >= 3


def playable(rank: int, value: int) -> bool:
    """PP7: a Hog Wild always; a number (8 included) when it is at least the pile's value."""
    return rank == WILD or rank >= value


def source(state: PigPileState, seat: int) -> str | None:
    """Where ``seat`` plays from now: the hand, then (draw pile empty) face-up (PP15), then Slop (PP16)."""
    if state.hands[seat]:
        return "hand"
    if state.draw:
        return None
    if state.face_up[seat]:
        return "faceup"
    if state.slop[seat]:
        return "slop"
    return None


def choose_actions(hand: tuple) -> list[dict]:
    """PP1: the distinct rank-multisets of three hand cards."""
    ranks = [RANK[card] for card in hand]
    return [{"type": "faceup", "ranks": list(choice)} for choice in sorted(set(combinations(ranks, 3)), key=_hand_order)]


def _hand_order(ranks: tuple) -> tuple:
    return tuple(13 if rank == WILD else rank for rank in ranks)


def play_actions(state: PigPileState, seat: int) -> list[dict]:
    """The seat-to-move's options in the PLAY phase (PP5, PP6, PP15, PP16)."""
    where = source(state, seat)
    if where == "slop":
        return [{"type": "slop", "index": index} for index in range(len(state.slop[seat]))]
    if where is None:
        return []
    cards = state.hands[seat] if where == "hand" else state.face_up[seat]
    value = pile_value(state.pile)
    counts = rank_counts(cards)
    plays = [{"type": "play", "from": where, "rank": rank, "count": count}
             for rank, have in counts.items() if playable(rank, value)
             for count in range(1, have + 1)]
    if plays:
        return plays
    if where == "hand":
        return [dict(PICKUP)]
    return [{"type": "pickup_faceup", "rank": rank, "count": count}
            for rank, have in counts.items() for count in sorted({1, have})]


def legal_actions(state: PigPileState, seat) -> list[dict]:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
        return []
    if state.phase is Phase.CHOOSE:
        return [] if state.face_up[seat] else choose_actions(state.hands[seat])
    if state.phase is Phase.PLAY and seat == state.turn:
        return play_actions(state, seat)
    return []


def strength(rank: int) -> int:
    """How good a card is to keep for later: Hog Wild, then the Hog Wash 8, then high numbers."""
    return 14 if rank == WILD else 13 if rank == HOG_WASH else rank


def strongest_choice(hand: tuple) -> dict:
    """The face-up choice the clock makes for a slow player (our decision): the three strongest cards."""
    return strongest(choose_actions(hand))


def strongest(choices: list[dict]) -> dict:
    """Of some face-up choices, the one of the three strongest cards (also offered as one tap)."""
    return max(choices, key=lambda action: sorted(map(strength, action["ranks"])))


def safe_action(state: PigPileState, seat: int) -> dict:
    """PP21: the play made for a player whose timer ran out.

    The lowest legal number, one card; else one Hog Wild; else the leftmost
    Slop card; else pick up (with the lowest face-up card when on the table).
    """
    legal = play_actions(state, seat)
    plays = [action for action in legal if action["type"] == "play"]
    if plays:
        return min(plays, key=lambda action: (action["rank"] or 99, action["count"]))
    return min(legal, key=lambda action: (action.get("index", 0), action.get("rank", 0), action.get("count", 0)))
