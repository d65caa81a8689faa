"""Recurring tournaments: each series' coming editions, created ahead of time
by the clock's sweep and by ``manage.py tournaments --create-due``."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import IntegrityError, transaction

from pigparlor.tournaments import services, spec
from pigparlor.tournaments.models import WEEKLY, Series, Tournament


def next_starts(series: Series, now: datetime, until: datetime) -> list[datetime]:
    """Every start of ``series`` after ``now`` up to ``until`` (UTC)."""
    day = now.astimezone(UTC).date()
    starts = []
    while True:
        moment = datetime.combine(day, series.time, tzinfo=UTC)
        if moment > until:
            return starts
        if moment > now and (series.cadence != WEEKLY or moment.weekday() == (series.weekday or 0)):
            starts.append(moment)
        day += timedelta(days=1)


def create_due_editions(now: datetime) -> list[Tournament]:
    """Create each active series' editions starting within its ``ahead_hours``;
    one edition per series and start, however many processes try at once."""
    made = []
    for series in Series.objects.filter(active=True):
        parsed = spec.tournament(series.template)
        for starts_at in next_starts(series, now, now + timedelta(hours=series.ahead_hours)):
            if Tournament.objects.filter(series=series, starts_at=starts_at).exists():
                continue
            try:
                with transaction.atomic():
                    made.append(services.create_tournament(name=series.name, starts_at=starts_at,
                                                           tournament_spec=parsed, series=series))
            except IntegrityError:  # another process made it first
                continue
    return made
