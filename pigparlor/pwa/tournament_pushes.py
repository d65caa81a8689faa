"""Tournament pushes: check-in opening (noticed on the clock's tick) and "your table is ready".

Check-in opens ``PIGPARLOR_TOURNAMENT_CHECKIN_MINUTES`` before a tournament
starts, a moment no request marks: every clock pass (at most every
``EVERY_MS``) looks for upcoming tournaments whose check-in is open and
tells their registered players, once (``SentOnce``), whichever process
notices first.
"""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from pigparlor.pwa.kinds import TOURNAMENT_CHECKIN, TOURNAMENT_TABLE
from pigparlor.pwa.models import SentOnce
from pigparlor.pwa.push import notify

EVERY_MS = 5000
_last_ms = 0


def on_clock_tick(sender, now_ms: int, **kwargs) -> None:
    """The clock's ``clock_tick`` listener (a small bounded step; no wake-up of its own)."""
    global _last_ms
    if now_ms - _last_ms < EVERY_MS:
        return None
    _last_ms = now_ms
    announce_checkins()
    return None


def announce_checkins(now=None) -> int:
    """Tell the registered players of every tournament whose check-in just opened; returns how many."""
    from pigparlor.tournaments.models import UPCOMING, Entry, Tournament
    from pigparlor.tournaments.services import checkin_window

    now = now or timezone.now()
    opening = Tournament.objects.filter(status=UPCOMING, starts_at__gt=now, starts_at__lte=now + checkin_window())
    done = set(SentOnce.objects.filter(key__in=[f"checkin-{pk}" for pk in opening.values_list("pk", flat=True)])
               .values_list("key", flat=True))
    told = 0
    for tournament in opening:
        if f"checkin-{tournament.pk}" in done:
            continue
        try:
            with transaction.atomic():
                SentOnce.objects.create(key=f"checkin-{tournament.pk}")
                minutes = max(1, round((tournament.starts_at - now).total_seconds() / 60))
                for user_id in tournament.entries.filter(status=Entry.REGISTERED).values_list("user_id", flat=True):
                    notify(user_id, TOURNAMENT_CHECKIN, reverse("tournaments:detail", args=[tournament.pk]),
                           f"Check in: {tournament.name}",
                           f"Check-in is open: the tournament starts in {minutes} minute{'s' if minutes != 1 else ''}.",
                           tag=f"tournament-{tournament.pk}")
                    told += 1
        except IntegrityError:
            continue  # another process got there first
    return told


def table_ready(table, user_ids) -> None:
    """Inside the transaction that seated them: "your tournament table is ready" (tagged
    like the table's "your turn", so one replaces the other on the phone)."""
    for user_id in user_ids:
        notify(user_id, TOURNAMENT_TABLE, reverse("table", args=[table.pk]), "Your tournament table is ready",
               f"{table.display_title}: your seat is waiting.", tag=f"turn-{table.pk}")
