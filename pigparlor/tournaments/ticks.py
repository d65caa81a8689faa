"""How tournaments move without anyone at the controls.

- ``on_table_finished`` (the tables' ``table_finished`` signal, after the
  ratings have rated the table): the table's tournament advances.
- ``on_clock_tick`` (the clock's ``clock_tick`` signal, every pass of every
  process's clock): one bounded step — seat planned tables for up to
  ``SEAT_BUDGET_MS`` (at least one), or start the
  tournaments whose time has come; every ``SWEEP_MS`` also advance every
  running tournament (catching up a finish a crash lost) and create the
  series' coming editions.
"""
from __future__ import annotations

import logging

from django.utils import timezone

from pigparlor.tables.timing import epoch_ms
from pigparlor.tournaments import services
from pigparlor.tournaments.models import RUNNING, UPCOMING, Tournament, TournamentTable

log = logging.getLogger(__name__)

SWEEP_MS = 5000
# Seating goes on within one tick while it has taken less than this (at least one table a tick).
SEAT_BUDGET_MS = 50
_last_sweep_ms = 0


def on_table_finished(sender, table_id, **kwargs) -> None:
    tournament_id = (TournamentTable.objects.filter(table_id=table_id)
                     .values_list("round__tournament_id", flat=True).first())
    if tournament_id is None:
        return
    try:
        services.advance(tournament_id)
    except Exception:
        # The player whose move ended the game must not see this; the clock's sweep retries.
        log.exception("advancing tournament %s after table %s failed", tournament_id, table_id)
        return
    from pigparlor.tables.clock import CLOCK

    CLOCK.wake(epoch_ms())  # the clock seats the next round's tables


def due_now() -> list[int]:
    return list(Tournament.objects.filter(status=UPCOMING, starts_at__lte=timezone.now()).values_list("pk", flat=True))


def on_clock_tick(sender, now_ms: int, **kwargs) -> int | None:
    """One step; returns ``now_ms`` while there is more to do at once, else the next start."""
    global _last_sweep_ms
    if services.seat_next_table():
        while epoch_ms() - now_ms < SEAT_BUDGET_MS and services.seat_next_table():
            pass
        return now_ms
    started = due_now()
    for tournament_id in started:
        services.advance(tournament_id)
    if started:
        return now_ms
    if now_ms - _last_sweep_ms >= SWEEP_MS:
        _last_sweep_ms = now_ms
        sweep()
    upcoming = Tournament.objects.filter(status=UPCOMING).order_by("starts_at").values_list("starts_at", flat=True)
    following = upcoming.first()
    return None if following is None else int(following.timestamp() * 1000)


def sweep() -> None:
    from pigparlor.tournaments.series import create_due_editions

    for tournament_id in Tournament.objects.filter(status=RUNNING).values_list("pk", flat=True):
        try:
            services.advance(tournament_id)
        except Exception:
            log.exception("advancing tournament %s failed", tournament_id)
    try:
        create_due_editions(timezone.now())
    except Exception:
        log.exception("creating the series' editions failed")
