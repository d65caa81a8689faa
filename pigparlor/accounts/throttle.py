"""Login throttling (django-axes) for both doors: the account login and the admin login.

Failures are counted per player name *from one address* and per address, never
per player name alone: a stranger guessing alice's password locks out only
themselves (their address), not alice, who logs in from hers as usual. An
address that fails for many names is locked too, after more tries, so one
school or café behind one address is not shut out by a couple of typos. A
lock lifts after the cool-off, counted from the last failure before it; tries
while locked are refused and not counted, so nobody can keep a lock going.
The counts live in the database (axes' ``AccessAttempt``), so every server
process sees the same ones.
"""
from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off
from django.conf import settings
from django.db.models import Sum
from django.shortcuts import render


class LoginThrottle(AxesDatabaseHandler):
    """Axes' database handler with a limit of its own for each lockout parameter.

    Axes compares one count, the highest over ``AXES_LOCKOUT_PARAMETERS``, with
    one limit (``AXES_FAILURE_LIMIT``, here the per-name-and-address limit). The
    per-address count is scaled to that limit, so it locks at
    ``PIGPARLOR_LOGIN_FAILURES_PER_ADDRESS`` failures instead.
    """

    def get_failures(self, request, credentials=None) -> int:
        per_name_and_address, per_address = (
            attempts.aggregate(failures=Sum("failures_since_start"))["failures"] or 0
            for attempts in self.get_user_attempts(request, credentials))
        per_address_scaled = per_address * settings.AXES_FAILURE_LIMIT // settings.PIGPARLOR_LOGIN_FAILURES_PER_ADDRESS
        return max(per_name_and_address, per_address_scaled)


def locked_out(request, *args, **kwargs):
    """What a throttled login gets, on either door: the site's page, 429, and when to come back."""
    minutes = max(1, round(get_cool_off(request).total_seconds() / 60))
    return render(request, "account/locked_out.html", {"minutes": minutes}, status=429)
