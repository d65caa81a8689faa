"""What each seat scores when a round ends (S7, S8, S10). Pure functions of the hands' points."""
from __future__ import annotations

from games.snout.state import End

OUT_BONUS = 10           # S8
JOWLER_BONUS = 15        # S7 (instead of the going-out bonus)
EARLY_SNOUT_PENALTY = 10  # S10


def round_points(hand_points: tuple[int, ...], end: End, winners: tuple[int, ...],
                 caller: int | None = None) -> tuple[int, ...]:
    """Points scored this round per seat.

    S7: the Leaning Jowler's holder scores every opponent's points plus 15.
    S8: the players who went out share the points left in the other hands
    (split evenly, rounded down) and each adds 10.
    S10: each tied-lowest hand scores (all opponents' points − its own points),
    no bonus; a caller who was not lowest loses 10.
    """
    total = sum(hand_points)
    scored = [0] * len(hand_points)
    if end is End.JOWLER:
        (winner,) = winners
        scored[winner] = total - hand_points[winner] + JOWLER_BONUS
    elif end is End.OUT:
        losers = total - sum(hand_points[seat] for seat in winners)
        for seat in winners:
            scored[seat] = losers // len(winners) + OUT_BONUS
    else:
        for seat in winners:
            scored[seat] = (total - hand_points[seat]) - hand_points[seat]
        if caller is not None and caller not in winners:
            scored[caller] -= EARLY_SNOUT_PENALTY
    return tuple(scored)


def lowest_hands(hand_points: tuple[int, ...]) -> tuple[int, ...]:
    """The seats holding the fewest points (S10's winners)."""
    lowest = min(hand_points)
    return tuple(seat for seat, points in enumerate(hand_points) if points == lowest)
