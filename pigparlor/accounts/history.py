"""A player's record, read from the finished tables they sat at."""
from __future__ import annotations

from dataclasses import dataclass

from pigparlor.tables.models import FINISHED, Seat
from pigparlor.tables.registry import UnknownGame, get_game

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


def _finished_seats(user):
    return (Seat.objects.filter(user=user, table__status=FINISHED)
            .select_related("table").order_by("-table__finished_at", "-table__pk"))


def _result(seat) -> tuple[int | None, object]:
    outcome = seat.table.outcome or {}
    ranks, scores = outcome.get("ranks") or [], outcome.get("scores") or []
    rank = ranks[seat.index] if seat.index < len(ranks) else None
    score = scores[seat.index] if seat.index < len(scores) else None
    return rank, score


def tallies(user) -> list[GameTally]:
    """Games played and won, per game, most played first."""
    counts: dict[str, list[int]] = {}
    for seat in _finished_seats(user):
        rank, _ = _result(seat)
        played_won = counts.setdefault(seat.table.game, [0, 0])
        played_won[0] += 1
        played_won[1] += rank == 1
    rows = [GameTally(slug, _game_title(slug), played, won) for slug, (played, won) in counts.items()]
    return sorted(rows, key=lambda row: (-row.played, row.title))


def finished_tables(user, limit: int = HISTORY_LENGTH) -> list[FinishedTable]:
    """The most recent finished tables, newest first, with this player's place."""
    rows = []
    for seat in _finished_seats(user)[:limit]:
        rank, score = _result(seat)
        rows.append(FinishedTable(seat.table, _game_title(seat.table.game), seat.index, rank, score, seat.table.seats))
    return rows
