"""Inviting a player by name to a private table: a push to them with the invite link.

Anyone seated at a private table that has not started may invite; each
player once per table, at most ``MAX_PER_TABLE`` invitations per table. The
invitation is only a message: the link it carries is what lets them in.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from pigparlor.accounts.models import display_name
from pigparlor.pwa.kinds import INVITE
from pigparlor.pwa.models import Invitation
from pigparlor.pwa.push import notify
from pigparlor.ratings.accounts import is_bot_username
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, ILLEGAL, NOT_FOUND, RATE_LIMITED, TableError
from pigparlor.tables.models import OPEN, Table
from pigparlor.tables.registry import get_game

MAX_PER_TABLE = 30


@transaction.atomic
def invite_player(table_id: int, inviter, username) -> Invitation:
    """``inviter`` (seated) invites the player called ``username`` (case does not matter)."""
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
    invitation = Invitation.objects.create(table=table, inviter=inviter, invitee=invitee)
    game = get_game(table.game)
    notify(invitee, INVITE, reverse("lobby:invite", args=[table.invite_code]),
           f"{display_name(inviter)} invites you to {game.title}",
           f"A private table: {table.display_title}. Tap to take a seat.", tag=f"invite-{table.pk}")
    return invitation
