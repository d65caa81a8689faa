"""Finished tables built straight in the database, for the rating tests: the
rating service reads only a table's seats and outcome, so these are what a
game's last move would leave behind."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from pigparlor.ratings import service
from pigparlor.ratings.models import Rating
from pigparlor.ratings.scale import NEWCOMER, Standing
from pigparlor.tables.models import FINISHED, Seat, Table


def finished_table(players: list, ranks: list[int], *, game: str = "snout", left=(), left_early=(),
                   rated: bool = True, finished_at=None) -> Table:
    """``players[seat]`` is a user or a bot kind (a str)."""
    table = Table.objects.create(
        game=game, seats=len(players), status=FINISHED, rated=rated, seed=1, version=2,
        finished_at=finished_at or timezone.now(),
        outcome={"ranks": list(ranks), "scores": [0] * len(players), "left": list(left),
                 "left_early": list(left_early)})
    Seat.objects.bulk_create(
        Seat(table=table, index=index, user=None if isinstance(who, str) else who,
             bot_kind=who if isinstance(who, str) else "", replaced=index in left)
        for index, who in enumerate(players))
    return table


def decided_in_turn(players: list, hours: list[float], ranks=None) -> list[Table]:
    """Finished tables of ``players``, each ``hours[i]`` from now, decided by the
    rating service in that order (each refreshed after its decision)."""
    now = timezone.now()
    tables = []
    for hour in hours:
        table = finished_table(players, ranks or list(range(1, len(players) + 1)),
                               finished_at=now + timedelta(hours=hour))
        service.rate_table(table.pk)
        table.refresh_from_db()
        tables.append(table)
    return tables


def standing(user, game: str = "snout") -> Standing:
    """The player's stored rating (a newcomer's if none)."""
    row = Rating.objects.filter(user=user, game=game).first()
    return row.standing if row else NEWCOMER
