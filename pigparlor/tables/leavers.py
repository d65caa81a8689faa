"""Who left a finished game, as its result records it (docs/ratings.md, "Leaving").

A seat's moves are in the action log: the ones its player made carry their
user, the ones a stand-in bot made for it because the player was gone
(``Seat.replaced``, pigparlor.tables.botdriver.STAND_IN) carry none. The clock's
moves (a turn timer running out) are logged without a seat (``timed_out`` names
the seats whose missed turn they played): they count for nobody, neither as the
player's play nor as a stand-in's, so missed turns never count as leaving
(docs/rules/timeouts.md). At the end of a game:

- a human seat **left** if a bot was playing it at the end, or if a bot made
  most of its moves (leaving at the start and coming back for the last moves
  is leaving);
- it **left early** if it left having made fewer than ``MIN_PLAYED_SHARE`` of its
  own moves. Its player is rated last, but nobody is rated for beating it: a
  second account that leaves at once feeds nobody's rating.
"""
from __future__ import annotations

from django.db.models import Count, Q

from pigparlor.tables.models import ActionLog

MIN_PLAYED_SHARE = 0.5


def played_moves(table_id: int) -> dict[int, tuple[int, int]]:
    """Per seat index, (moves its player made, moves a bot made for it)."""
    rows = (ActionLog.objects.filter(table_id=table_id, seat__isnull=False).values("seat")
            .annotate(human=Count("pk", filter=Q(user__isnull=False)), bot=Count("pk", filter=Q(user__isnull=True))))
    return {row["seat"]: (row["human"], row["bot"]) for row in rows}


def leavers(table_id: int, seats) -> dict[str, list[int]]:
    """The result's ``"left"`` and ``"left_early"`` seat lists for a game that just ended."""
    moves = played_moves(table_id)
    left, early = [], []
    for seat in seats:
        if seat.user_id is None or seat.bot_kind:
            continue
        human, bot = moves.get(seat.index, (0, 0))
        share = human / (human + bot) if human + bot else 0.0
        if seat.replaced or bot > human:
            left.append(seat.index)
            if share < MIN_PLAYED_SHARE:
                early.append(seat.index)
    return {"left": left, "left_early": early}
