"""Per-user limits on creating tables and holding seats (issue 9 item 8; docs/api.md "Limits").

One API token once made 300 tables in 13 s and filled the lobby. A user may
host at most ``PIGPARLOR_MAX_UNFINISHED_TABLES`` tables that are not over yet
(open or running) and create at most ``PIGPARLOR_TABLES_PER_MINUTE`` tables in
any sliding minute. Both counts come from the database, never from process
memory, so they hold across server processes; ``check_create`` runs inside
``create_table``'s transaction with the host's user row locked, so two
processes creating for the same user at once are counted one after the other.

A user may also hold at most ``PIGPARLOR_MAX_OPEN_SEATS`` seats at tables that
have not started (``check_open_seats``, when a seat is taken that leaves its
table waiting): one account cannot sit in every open table of the lobby.
"""
from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from pigparlor.tables.errors import RATE_LIMITED, TableError
from pigparlor.tables.models import OPEN, RUNNING, Seat, Table

WINDOW = timedelta(minutes=1)


def _lock_user(user) -> None:
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))


def check_open_seats(user) -> None:
    """Refuse with ``rate_limited`` if ``user`` may not take another seat at a table that waits to start."""
    _lock_user(user)
    most = settings.PIGPARLOR_MAX_OPEN_SEATS
    if Seat.objects.filter(user=user, table__status=OPEN).count() >= most:
        tables = "1 table that has" if most == 1 else f"{most} tables that have"
        raise TableError(RATE_LIMITED, f"you already sit at {tables} not started: "
                                       "leave one before you take another seat")


def check_create(host) -> None:
    """Refuse with ``rate_limited`` if ``host`` may not create another table now."""
    _lock_user(host)
    hosted = Table.objects.filter(host=host)
    most = settings.PIGPARLOR_MAX_UNFINISHED_TABLES
    if hosted.filter(status__in=[OPEN, RUNNING]).count() >= most:
        raise TableError(RATE_LIMITED, f"you already host {most} tables that are not over: "
                                       "finish or leave one before you create another")
    per_minute = settings.PIGPARLOR_TABLES_PER_MINUTE
    now = timezone.now()
    recent = list(hosted.filter(created_at__gt=now - WINDOW).order_by("-created_at")
                  .values_list("created_at", flat=True)[:per_minute])
    if len(recent) >= per_minute:
        oldest = recent[-1] if recent else now  # a limit of 0 allows nothing
        wait = max(1, math.ceil((oldest + WINDOW - now).total_seconds()))
        raise TableError(RATE_LIMITED, f"you created {per_minute} tables in the last minute: "
                                       f"try again in {wait} s", retry_after_s=wait)
