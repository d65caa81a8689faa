"""Guests: visitors who play before signing up (docs/platform.md, "Guests").

A guest is a real user with a ``Guest`` row beside it, made on a visitor's first
"Play" tap and logged in through the session, so every door that takes a user
(seats, sockets, ``act``, the waiting room) works for them unchanged. Its name
is "Guest 4821"; it has no password and no email.

What a guest may not do is refused where it is done, each with a clear reason:
a rated table or a table of people only (``refuse_seat``, the tables'
``seat_wanted`` signal), more than ``PIGPARLOR_GUEST_MAX_TABLES`` tables at a
time, quick play (it is rated), tournaments, API tokens, push notifications,
invitations by name, chat lines and reports. Ratings never see a guest (they
sit only at casual tables) and the leaderboards leave guests out besides.

Guests are cheap to make, so one address makes at most
``PIGPARLOR_GUESTS_PER_ADDRESS`` of them an hour (an IPv6 address counts as its
/64 network), and a guest nobody has played as for
``PIGPARLOR_GUEST_EXPIRY_DAYS`` days is deleted (``expire_guests``: the clock
runs it hourly; ``manage.py expire_guests`` too).

Signing up from a guest turns the same user into a full account (the account
adapter hands allauth the guest's user to fill in), so its finished games, its
seat at a running table and everything else it owns stay with it.
"""
from __future__ import annotations

import ipaddress
import logging
import math
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac

from pigparlor.accounts.models import Guest
from pigparlor.tables.errors import FORBIDDEN, RATE_LIMITED, TableError

log = logging.getLogger(__name__)

NAME_PREFIX = "Guest "
CREATION_WINDOW = timedelta(hours=1)
SIGN_UP = "sign up (it is free, and your games as a guest come with you)"
RATED_REFUSAL = f"rated tables are for signed-up players: {SIGN_UP} to play rated games"
PEOPLE_ONLY_REFUSAL = (f"guests play at tables with at least one bot; tables of people only are for "
                       f"signed-up players: {SIGN_UP} to join them")
QUICK_PLAY_REFUSAL = f"quick play seats you at a rated table with people: {SIGN_UP} to use it"
TOURNAMENT_REFUSAL = f"tournaments are for signed-up players: {SIGN_UP} to enter"
TOKEN_REFUSAL = "API tokens are for signed-up players: sign up first"
PUSH_REFUSAL = "notifications are for signed-up players: sign up first"
INVITE_REFUSAL = "inviting players by name is for signed-up players: sign up first, or share the invite link"
CHAT_REFUSAL = "guests can read the chat; sign up to write in it"
REPORT_REFUSAL = "reports are for signed-up players: sign up first"
BACKEND = "django.contrib.auth.backends.ModelBackend"
SWEEP_MS = 3_600_000
SWEEP_BATCH = 500
_last_sweep_ms = 0


def is_guest(user) -> bool:
    """Whether ``user`` is a signed-in guest (False for visitors and full accounts). A guest
    never has a usable password (sign-up gives it one as it stops being a guest), so a
    player with one is answered without a query."""
    if user is None or not user.is_authenticated or user.has_usable_password():
        return False
    return Guest.objects.filter(user_id=user.pk).exists()


def refuse_guest(user, reason: str) -> None:
    """Raise ``forbidden`` with ``reason`` if ``user`` is a guest."""
    if is_guest(user):
        raise TableError(FORBIDDEN, reason)


# -- making a guest -------------------------------------------------------------------

def network(address: str | None) -> str:
    """The address a limit counts: an IPv4 address, or an IPv6 address's /64."""
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return "unknown"
    if parsed.version == 6 and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def address_key(address: str | None) -> str:
    """What a ``Guest`` row keeps of the address: a hash keyed with the site's secret."""
    return salted_hmac("pigparlor.accounts.guests", network(address), algorithm="sha256").hexdigest()


def check_address(key: str) -> None:
    """Refuse with ``rate_limited`` once this address made its guests for the hour."""
    most = settings.PIGPARLOR_GUESTS_PER_ADDRESS
    now = timezone.now()
    recent = list(Guest.objects.filter(address=key, created_at__gt=now - CREATION_WINDOW)
                  .order_by("-created_at").values_list("created_at", flat=True)[:most])
    if len(recent) >= most:
        oldest = recent[-1] if recent else now  # a limit of 0 allows nothing
        wait = max(1, math.ceil((oldest + CREATION_WINDOW - now).total_seconds()))
        raise TableError(RATE_LIMITED, f"too many guests were made from your network in the last hour: sign up "
                                       f"or log in to play now, or try again in {math.ceil(wait / 60)} min",
                         retry_after_s=wait)


def _guest_user():
    """A new user named "Guest" and four digits (more digits once four are crowded)."""
    User = get_user_model()
    for attempt in range(40):
        digits = 4 + attempt // 10
        name = f"{NAME_PREFIX}{10 ** (digits - 1) + secrets.randbelow(9 * 10 ** (digits - 1))}"
        if User.objects.filter(username=name).exists():
            continue
        try:
            with transaction.atomic():
                user = User(username=name)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:  # taken in the same instant
            continue
    raise TableError(RATE_LIMITED, "no guest name is free just now: try again")


@transaction.atomic
def create_guest(address: str | None):
    """A new guest user, made from ``address`` (refused past the address's limit)."""
    key = address_key(address)
    check_address(key)
    user = _guest_user()
    Guest.objects.create(user=user, address=key)
    return user


def start_guest(request):
    """Make the visitor behind ``request`` a guest and log them in; returns the user."""
    user = create_guest(request.META.get("REMOTE_ADDR"))
    login(request, user, backend=BACKEND)
    return user


# -- what a guest may sit at ----------------------------------------------------------

def refuse_seat(sender, table, user, **kwargs) -> None:
    """Receiver of the tables' ``seat_wanted``: a guest sits only at casual tables with a
    bot, and at no more than ``PIGPARLOR_GUEST_MAX_TABLES`` tables that are not over."""
    from pigparlor.tables.models import OPEN, RUNNING, Seat

    if not is_guest(user):
        return
    if table.rated:
        raise TableError(FORBIDDEN, RATED_REFUSAL)
    if not table.seat_set.exclude(bot_kind="").exists():
        raise TableError(FORBIDDEN, PEOPLE_ONLY_REFUSAL)
    most = settings.PIGPARLOR_GUEST_MAX_TABLES
    playing = (Seat.objects.filter(user=user, table__status__in=[OPEN, RUNNING]).exclude(table=table)
               .values("table").distinct().count())
    if playing >= most:
        raise TableError(RATE_LIMITED, f"a guest plays at most {most} tables at a time: finish one first "
                                       f"(they are under “Your tables”), or {SIGN_UP}")


# -- signing up -----------------------------------------------------------------------

def guest_user(request):
    """The guest signed in on ``request`` (a fresh instance, to fill in at sign-up), or None."""
    if not is_guest(request.user):
        return None
    return get_user_model().objects.filter(pk=request.user.pk).first()


def still_a_guest(user) -> bool:
    """Whether ``user`` is still a guest, its ``Guest`` row locked until the transaction ends
    (two sign-ups of one guest at once: the second makes a new account)."""
    return user.pk is not None and Guest.objects.select_for_update().filter(user_id=user.pk).exists()


def become_full_account(user) -> None:
    """Sign-up done: ``user`` is no longer a guest."""
    Guest.objects.filter(user_id=user.pk).delete()


# -- expiry ---------------------------------------------------------------------------

def stale_guests(now=None):
    """Guests nobody has played as for ``PIGPARLOR_GUEST_EXPIRY_DAYS`` days: made before
    then, at no table since then and at none that is not over. A guest a moderator acted
    on, or someone reported, is kept (the moderation log and the report name them)."""
    from pigparlor.moderation.models import ModAction, Report
    from pigparlor.tables.models import OPEN, RUNNING, Seat

    cutoff = (now or timezone.now()) - timedelta(days=settings.PIGPARLOR_GUEST_EXPIRY_DAYS)
    playing = Seat.objects.filter(Q(table__created_at__gte=cutoff) | Q(table__status__in=[OPEN, RUNNING]),
                                  user__isnull=False)
    return (Guest.objects.filter(created_at__lt=cutoff)
            .exclude(user_id__in=playing.values("user_id"))
            .exclude(user_id__in=ModAction.objects.filter(target_user__isnull=False).values("target_user_id"))
            .exclude(user_id__in=Report.objects.values("target_id")))


def expire_guests(now=None, limit: int | None = None) -> int:
    """Delete stale guests (at most ``limit``); returns how many. Their seats at finished
    tables stay, with nobody in them, as a deleted account's do."""
    ids = list(stale_guests(now).order_by("created_at").values_list("user_id", flat=True)[:limit])
    if not ids:
        return 0
    with transaction.atomic():
        get_user_model().objects.filter(pk__in=ids, guest__isnull=False).delete()
    return len(ids)


def on_clock_tick(sender, now_ms: int, **kwargs) -> None:
    """The clock's ``clock_tick`` listener: about once an hour per process, one batch of expiry."""
    global _last_sweep_ms
    if now_ms - _last_sweep_ms < SWEEP_MS:
        return None
    _last_sweep_ms = now_ms
    expired = expire_guests(limit=SWEEP_BATCH)
    if expired:
        log.info("expired %d stale guests", expired)
    return None
