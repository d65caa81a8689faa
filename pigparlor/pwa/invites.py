"""Inviting a player by name to a private table: a push to them with the invite link.

Anyone seated at a private table that has not started may invite; each
player once per table, at most ``MAX_PER_TABLE`` invitations per table. The
invitation is only a message: the link it carries is what lets them in.

A push lands on someone's phone, so nobody may use it to pester (docs/operations.md
"Push safety"): one player sends another at most ``MAX_FROM_ONE_PER_HOUR``
invitations an hour, a player gets at most ``MAX_TO_ONE_PER_HOUR`` pushed
invitations an hour from everyone together (both refused to the inviter, with
a clear message), a player who muted the inviter gets the invitation without
a push (the inviter is not told), and the push's title is the server's own
words: the inviter's username and the game. The table's name, which the
inviter chose, appears only in the body, in quotes, cut to ``TABLE_NAME_MAX``.
"""
from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.core.cards import with_article
from games.core.registry import get_game
from pigparlor.accounts.guests import INVITE_REFUSAL, refuse_guest
from pigparlor.pwa.kinds import INVITE
from pigparlor.pwa.models import Invitation, Mute
from pigparlor.pwa.push import notify
from pigparlor.ratings.accounts import is_bot_username
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, ILLEGAL, NOT_FOUND, RATE_LIMITED, TableError
from pigparlor.tables.models import OPEN, Table

MAX_PER_TABLE = 30
MAX_FROM_ONE_PER_HOUR = 3
MAX_TO_ONE_PER_HOUR = 10
TABLE_NAME_MAX = 40


def quoted_name(name: str) -> str:
    return f"“{name if len(name) <= TABLE_NAME_MAX else name[:TABLE_NAME_MAX - 1] + '…'}”"


@transaction.atomic
def invite_player(table_id: int, inviter, username) -> Invitation:
    """``inviter`` (seated) invites the player called ``username`` (case does not matter).
    A guest may not (their invitations would be pushes from a throwaway account)."""
    refuse_guest(inviter, INVITE_REFUSAL)
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    seated = set(table.seat_set.exclude(user=None).values_list("user_id", flat=True)) if table else set()
    if table is None or (table.private and inviter.pk not in seated):
        raise TableError(NOT_FOUND, "no such table")
    if inviter.pk not in seated:
        raise TableError(FORBIDDEN, "only the table's players can invite")
    if not table.private:
        raise TableError(ILLEGAL, "a public table is open to everyone in the lobby: invitations are for private tables")
    if table.status != OPEN:
        raise TableError(ILLEGAL, "this table has already started")
    if not isinstance(username, str) or not username.strip():
        raise TableError(BAD_REQUEST, "say whom to invite: a player's username")
    username = username.strip()
    invitee = get_user_model().objects.filter(username__iexact=username).first()
    if invitee is None or is_bot_username(invitee.get_username()) or not invitee.is_active:
        raise TableError(NOT_FOUND, f"no player is called {username!r}")
    if invitee.pk in seated:
        raise TableError(ILLEGAL, f"{invitee.get_username()} already has a seat at this table")
    if Invitation.objects.filter(table=table, invitee=invitee).exists():
        raise TableError(ILLEGAL, f"you have already invited {invitee.get_username()} to this table")
    if Invitation.objects.filter(table=table).count() >= MAX_PER_TABLE:
        raise TableError(RATE_LIMITED, f"this table has sent {MAX_PER_TABLE} invitations already")
    # One invitee's invitations are counted under a lock on their row: two tables inviting
    # them at once cannot both pass the limits.
    get_user_model().objects.select_for_update().filter(pk=invitee.pk).first()
    hour_ago = timezone.now() - timedelta(hours=1)
    recent = Invitation.objects.filter(invitee=invitee, created_at__gte=hour_ago)
    if recent.filter(inviter=inviter).count() >= MAX_FROM_ONE_PER_HOUR:
        raise TableError(RATE_LIMITED, f"you have invited {invitee.get_username()} {MAX_FROM_ONE_PER_HOUR} times "
                                       "in the last hour: try again later")
    muted = Mute.objects.filter(user=invitee, muted=inviter).exists()
    if not muted and recent.filter(pushed=True).count() >= MAX_TO_ONE_PER_HOUR:
        raise TableError(RATE_LIMITED, f"{invitee.get_username()} has had {MAX_TO_ONE_PER_HOUR} invitations "
                                       "in the last hour: try again later")
    invitation = Invitation.objects.create(table=table, inviter=inviter, invitee=invitee, pushed=not muted)
    if not muted:
        game = get_game(table.game)
        notify(invitee, INVITE, reverse("lobby:invite", args=[table.invite_code]),
               f"{inviter.get_username()} invites you to {with_article(game.title)} table",
               f"The table is called {quoted_name(table.display_title)}. Tap to take a seat.", tag=f"invite-{table.pk}")
    return invitation


def mute(user, muted_id: int) -> Mute:
    """``user`` wants no more invitation pushes from the player ``muted_id``."""
    muted = get_user_model().objects.filter(pk=muted_id).first()
    if muted is None:
        raise TableError(NOT_FOUND, "no such player")
    if muted.pk == user.pk:
        raise TableError(BAD_REQUEST, "you cannot mute yourself")
    return Mute.objects.get_or_create(user=user, muted=muted)[0]


def unmute(user, muted_id: int) -> bool:
    deleted, _ = Mute.objects.filter(user=user, muted_id=muted_id).delete()
    return bool(deleted)
