"""Every moderator action: check the Moderator group's permission, change what
it changes, and write its mod-log row, in one transaction (design.md,
"Moderation"). The admin only calls these. Refusals: ``PermissionDenied``
(403) for anyone who is not a moderator holding the permission; a
``TableError`` for bad input (a missing reason, an unknown seat) or a target
that cannot be acted on (a table that is over, a seat that is a bot's).
Table changes go through the tables' own services, so every seat's socket
gets the new version; voiding uses the ratings' replay.
"""
from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from pigparlor.moderation.chat import announce_line, hide_lines_of, room_group
from pigparlor.moderation.models import Ban, ChatLine, ChatTimeout, Kick, ModAction, Report
from pigparlor.moderation.notices import tell_reporter
from pigparlor.moderation.permissions import require
from pigparlor.ratings import service as ratings
from pigparlor.ratings.models import RatingEvent, VoidedTable
from pigparlor.tables import inputs
from pigparlor.tables import services as tables
from pigparlor.tables.broadcast import group_send, revoke_sockets, user_group
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, ILLEGAL, NOT_FOUND, TableError
from pigparlor.tables.models import FINISHED, OPEN, RUNNING, Table

CLOSED_BY = "closed by a moderator: "
TIMEOUT_MINUTES = {10: "10 min", 60: "1 h", 24 * 60: "24 h"}


def clean_reason(reason) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise TableError(BAD_REQUEST, "a reason is required")
    return inputs.visible_text(reason.strip(), "the reason", ModAction._meta.get_field("reason").max_length)


def _log(moderator, action: str, target: str, reason: str, **targets) -> ModAction:
    return ModAction.objects.create(moderator=moderator, action=action, target=target[:120], reason=reason,
                                    **targets)


def _table(table_id) -> Table:
    table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) else None
    if table is None:
        raise TableError(NOT_FOUND, "no such table")
    return table


def _user(user_id):
    user = get_user_model().objects.filter(pk=user_id).first() if isinstance(user_id, int) else None
    if user is None:
        raise TableError(NOT_FOUND, "no such player")
    return user


@transaction.atomic
def close_table(moderator, table_id, reason) -> ModAction:
    """The table ends ``aborted`` and unrated; everyone at it sees the reason."""
    require(moderator, "close_table")
    reason = clean_reason(reason)
    table = tables.close_table(_table(table_id), CLOSED_BY + reason)
    return _log(moderator, ModAction.CLOSE, f"table {table.pk}", reason, target_table=table)


@transaction.atomic
def kick_seat(moderator, table_id, seat, reason) -> ModAction:
    """A bot takes the seat; its player may not sit at this table again."""
    require(moderator, "kick_seat")
    reason = clean_reason(reason)
    table = _table(table_id)
    player = tables.seat_bot(table, seat)
    Kick.objects.create(table=table, user=player, seat=seat)
    return _log(moderator, ModAction.KICK, f"{player.get_username()} (seat {seat + 1}) at table {table.pk}",
                reason, target_table=table, target_user=player)


def refuse_kicked_player(sender, table, user, **kwargs) -> None:
    """Receiver of ``seat_wanted``: a kicked player cannot take a seat again."""
    if Kick.objects.filter(table=table, user=user).exists():
        raise TableError(FORBIDDEN, "a moderator removed you from this table")


@transaction.atomic
def remove_chat_line(moderator, line_id, reason) -> ModAction:
    """The line shows "removed by a moderator" for everyone, live; its words stay stored."""
    require(moderator, "remove_chat")
    reason = clean_reason(reason)
    line = ChatLine.objects.select_for_update().filter(pk=line_id).first() if isinstance(line_id, int) else None
    if line is None:
        raise TableError(NOT_FOUND, "no such chat line")
    if line.removed_at is not None:
        raise TableError(ILLEGAL, "that line is already removed")
    line.removed_at = timezone.now()
    line.save(update_fields=["removed_at"])
    line = ChatLine.objects.select_related("author", "author__profile").get(pk=line.pk)
    announce_line(room_group(line.room), line)
    return _log(moderator, ModAction.REMOVE_LINE, f"line {line.pk} by {line.author.get_username()} in {line.room}",
                reason, target_line=line, target_user=line.author)


@transaction.atomic
def time_out(moderator, user_id, minutes, reason) -> ModAction:
    """The player's chat lines are refused, with the time left, for ``minutes`` (10, 60 or 1440)."""
    require(moderator, "timeout_player")
    reason = clean_reason(reason)
    if isinstance(minutes, bool) or minutes not in TIMEOUT_MINUTES:
        raise TableError(BAD_REQUEST, "a timeout lasts 10, 60 or 1440 minutes")
    player = _user(user_id)
    ChatTimeout.objects.create(user=player, until=timezone.now() + timedelta(minutes=minutes), reason=reason)
    player_id = player.pk
    transaction.on_commit(lambda: group_send(user_group(player_id), {"type": "chat.status"}))
    return _log(moderator, ModAction.TIMEOUT, f"{player.get_username()} for {TIMEOUT_MINUTES[minutes]}", reason,
                target_user=player)


@transaction.atomic
def ban_player(moderator, user_id, reason) -> ModAction:
    """The player can no longer log in (the account is inactive while banned),
    every socket of theirs closes, a bot takes their seat at every table that is
    not over, and every chat line of theirs, lobby and table, is marked removed
    for everyone (stored still; open chats update live). Lifting the ban does
    not bring the lines back."""
    require(moderator, "ban_player")
    reason = clean_reason(reason)
    player = _user(user_id)
    if player.pk == moderator.pk:
        raise TableError(BAD_REQUEST, "you cannot ban yourself")
    if Ban.objects.filter(user=player, lifted_at__isnull=True).exists():
        raise TableError(ILLEGAL, f"{player.get_username()} is already banned")
    Ban.objects.create(user=player, reason=reason)
    # First, so the sockets say why (the deactivation below closes them too, credentials.py).
    revoke_sockets(user_group(player.pk), f"you are banned: {reason}")
    player.is_active = False
    player.save(update_fields=["is_active"])
    for table in Table.objects.filter(status__in=[OPEN, RUNNING], seat_set__user=player).distinct():
        for index in table.seat_set.filter(user=player).values_list("index", flat=True):
            tables.seat_bot(table, index)
    hidden = hide_lines_of(player)
    target = player.get_username() + (f" ({hidden} chat line{'s' if hidden != 1 else ''} hidden)" if hidden else "")
    return _log(moderator, ModAction.BAN, target, reason, target_user=player)


@transaction.atomic
def lift_ban(moderator, user_id, reason) -> ModAction:
    require(moderator, "ban_player")
    reason = clean_reason(reason)
    player = _user(user_id)
    ban = Ban.objects.select_for_update().filter(user=player, lifted_at__isnull=True).first()
    if ban is None:
        raise TableError(ILLEGAL, f"{player.get_username()} is not banned")
    ban.lifted_at = timezone.now()
    ban.save(update_fields=["lifted_at"])
    player.is_active = True
    player.save(update_fields=["is_active"])
    return _log(moderator, ModAction.LIFT_BAN, player.get_username(), reason, target_user=player)


@transaction.atomic
def void_ratings(moderator, table_id, reason) -> ModAction:
    """Take a rated table's result out of the ratings (the ratings' replay without it)."""
    require(moderator, "void_ratings")
    reason = clean_reason(reason)
    table = _table(table_id)
    if table.status != FINISHED or not table.rating_events.filter(reason=RatingEvent.TABLE).exists():
        raise TableError(ILLEGAL, "only a finished table that was rated can be voided")
    if VoidedTable.objects.filter(table=table).exists():
        raise TableError(ILLEGAL, "this table's ratings are already void")
    ratings.void_table(table.pk, note=reason)
    return _log(moderator, ModAction.VOID, f"table {table.pk}", reason, target_table=table)


@transaction.atomic
def resolve_report(moderator, report_id, outcome, reason) -> ModAction:
    """Close a report with its outcome; the reporter sees it on their profile and in
    their notifications menu ("Your report about … was reviewed: …")."""
    require(moderator, "resolve_report")
    reason = clean_reason(reason)
    if outcome not in (Report.ACTION_TAKEN, Report.NO_ACTION):
        raise TableError(BAD_REQUEST, "the outcome is action_taken or no_action")
    report = Report.objects.select_for_update().filter(pk=report_id).first() if isinstance(report_id, int) else None
    if report is None:
        raise TableError(NOT_FOUND, "no such report")
    if report.status != Report.OPEN:
        raise TableError(ILLEGAL, "this report is already resolved")
    report.status, report.outcome, report.resolved_at = Report.RESOLVED, outcome, timezone.now()
    report.save(update_fields=["status", "outcome", "resolved_at"])
    tell_reporter(report)
    return _log(moderator, ModAction.RESOLVE, f"report {report.pk} on {report.target.get_username()}", reason,
                target_report=report, target_user=report.target)
