"""Reading ratings: a player's ratings and place, leaderboards, a table's
changes, a rating's history. Nothing here writes."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, FloatField, Q, QuerySet
from django.db.models.expressions import ExpressionWrapper

from pigparlor.ratings.accounts import seat_username
from pigparlor.ratings.models import Rating, RatingEvent
from pigparlor.ratings.scale import PROVISIONAL_SIGMA, START, Skill

LEADERBOARD_SIZE = 100
CONSERVATIVE = ExpressionWrapper(F("mu") - 3 * F("sigma"), output_field=FloatField())


def established(game: str) -> QuerySet:
    """The game's established ratings, best first (conservative mu - 3 sigma, then oldest account).
    Never a guest's: guests sit only at casual tables, and a leaderboard is for accounts."""
    return (Rating.objects.filter(game=game, sigma__lte=PROVISIONAL_SIGMA, user__guest__isnull=True)
            .annotate(conservative=CONSERVATIVE)
            .order_by("-conservative", "user_id"))


def place(row: Rating) -> int | None:
    """The leaderboard place of an established rating; None while provisional."""
    if row.skill.provisional:
        return None
    mine = row.skill.conservative
    ahead = established(row.game).filter(Q(conservative__gt=mine) | Q(conservative=mine, user_id__lt=row.user_id))
    return ahead.count() + 1


@dataclass(frozen=True)
class Placed:
    rank: int
    row: Rating

    @property
    def username(self) -> str:
        return self.row.user.get_username()


def leaderboard(game: str, size: int | None = None) -> list[Placed]:
    rows = established(game).select_related("user__profile")[:size or LEADERBOARD_SIZE]
    return [Placed(rank, row) for rank, row in enumerate(rows, start=1)]


def ratings_of(user) -> dict[str, Rating]:
    return {row.game: row for row in Rating.objects.filter(user=user, games__gt=0).order_by("game")}


def rating_json(row: Rating) -> dict:
    return {**row.skill.as_json(), "games": row.games, "rank": place(row)}


def skills_of(user_ids, game: str) -> dict[int, Skill]:
    """Current skills of these players in ``game`` (the start for newcomers)."""
    found = {row.user_id: row.skill for row in Rating.objects.filter(game=game, user_id__in=list(user_ids))}
    return {user_id: found.get(user_id, START) for user_id in user_ids}


def rating_changes(table, seats) -> list[dict]:
    """Each seat's move at a rated table: ``{"seat", "username", "before", "after"}``
    with Skills, in seat order; empty until the table is rated."""
    by_name = {event.user.get_username(): event for event in
               RatingEvent.objects.filter(table=table, reason=RatingEvent.TABLE).select_related("user")}
    changes = []
    for seat in seats:
        event = by_name.get(seat_username(seat))
        if event is not None:
            changes.append({"seat": seat.index, "username": seat_username(seat),
                            "before": event.before, "after": event.after})
    return changes


def history(user, game: str) -> list[RatingEvent]:
    """Every change to the player's rating in ``game``, oldest first."""
    return list(RatingEvent.objects.filter(user=user, game=game).order_by("pk"))
