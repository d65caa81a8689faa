"""A player's record, read from the finished tables they sat at.

Private tables are visible only to their players (issue 9 item 9): every
reader passes the ``viewer``, and someone who did not sit at a private table
never sees its title, result or count.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from games.core.registry import UnknownGame, get_game
from pigparlor.tables.models import FINISHED, Seat

HISTORY_LENGTH = 50


@dataclass(frozen=True)
class GameTally:
    slug: str
    title: str
    played: int
    won: int


@dataclass(frozen=True)
class FinishedTable:
    table: object
    game_title: str
    seat: int
    rank: int | None
    score: object
    players: int

    @property
    def won(self) -> bool:
        return self.rank == 1


def _game_title(slug: str) -> str:
    try:
        return get_game(slug).title
    except UnknownGame:
        return slug


def _finished_seats(user, viewer):
    """``user``'s seats at finished tables that ``viewer`` may see: a private
    table only if the viewer is ``user`` or sat at it too; None (or an
    anonymous visitor) sees public tables only."""
    seats = Seat.objects.filter(user=user, table__status=FINISHED)
    signed_in = viewer is not None and viewer.is_authenticated
    if not signed_in:
        seats = seats.filter(table__private=False)
    elif viewer.pk != user.pk:
        shared = Seat.objects.filter(user=viewer).values("table_id")
        seats = seats.filter(Q(table__private=False) | Q(table_id__in=shared))
    return seats.select_related("table").order_by("-table__finished_at", "-table__pk")


def _result(seat) -> tuple[int | None, object]:
    outcome = seat.table.outcome or {}
    ranks, scores = outcome.get("ranks") or [], outcome.get("scores") or []
    rank = ranks[seat.index] if seat.index < len(ranks) else None
    score = scores[seat.index] if seat.index < len(scores) else None
    return rank, score


def tallies(user, viewer=None) -> list[GameTally]:
    """Games played and won, per game, most played first, counting the tables ``viewer`` may see."""
    counts: dict[str, list[int]] = {}
    for seat in _finished_seats(user, viewer):
        rank, _ = _result(seat)
        played_won = counts.setdefault(seat.table.game, [0, 0])
        played_won[0] += 1
        played_won[1] += rank == 1
    rows = [GameTally(slug, _game_title(slug), played, won) for slug, (played, won) in counts.items()]
    return sorted(rows, key=lambda row: (-row.played, row.title))


def finished_tables(user, viewer=None, limit: int = HISTORY_LENGTH) -> list[FinishedTable]:
    """The most recent finished tables ``viewer`` may see, newest first, with this player's place."""
    rows = []
    for seat in _finished_seats(user, viewer)[:limit]:
        rank, score = _result(seat)
        rows.append(FinishedTable(seat.table, _game_title(seat.table.game), seat.index, rank, score, seat.table.seats))
    return rows
