"""The rating tests' own helpers: tables decided in turn, a player's standing (finished
tables themselves come from tests.support.tables.finished_table)."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from pigparlor.ratings import service
from pigparlor.ratings.models import Rating
from pigparlor.ratings.scale import NEWCOMER, Standing
from pigparlor.tables.models import Table
from tests.support.tables import finished_table


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
