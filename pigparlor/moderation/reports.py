"""A player's report of another: the evidence is taken when the report is made.

``file_report`` keeps the room, the table and its version at that moment, and
the chat lines around the reported line (or the room's latest lines). One open
report per reporter and target: another one is refused until a moderator
resolves the first. A reporter files at most ``REPORTS_PER_DAY`` reports in
any 24 hours, so one account cannot flood the queue by reporting every player.
"""
from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from pigparlor.accounts.guests import REPORT_REFUSAL, refuse_guest
from pigparlor.moderation.chat import Room, _other_user, line_json
from pigparlor.moderation.models import ChatLine, Report
from pigparlor.tables import inputs
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, NOT_FOUND, RATE_LIMITED, TableError
from pigparlor.tables.models import Table

AROUND = 5
REASONS = [value for value, _ in Report.REASONS]
REPORTS_PER_DAY = 10


def _evidence(room: Room, line: ChatLine | None) -> list[dict]:
    lines = ChatLine.objects.filter(room=room.key).select_related("author", "author__profile")
    if line is None:
        chosen = list(reversed(lines.order_by("-id")[:2 * AROUND]))
    else:
        before = list(reversed(lines.filter(id__lt=line.pk).order_by("-id")[:AROUND]))
        chosen = [*before, line, *lines.filter(id__gt=line.pk).order_by("id")[:AROUND]]
    # The words as written, even of a line a moderator has since removed.
    return [{**line_json(each), "text": each.text} for each in chosen]


def file_report(reporter, room: Room, username, reason, comment="", line_id=None) -> Report:
    if reporter is None or not reporter.is_authenticated:
        raise TableError(FORBIDDEN, "log in to report a player")
    refuse_guest(reporter, REPORT_REFUSAL)
    target = _other_user(reporter, username)
    if reason not in REASONS:
        raise TableError(BAD_REQUEST, f"reason must be one of {', '.join(REASONS)}")
    comment = inputs.visible_text(comment, "comment", Report._meta.get_field("comment").max_length).strip()
    if Report.objects.filter(reporter=reporter, created_at__gte=timezone.now() - timedelta(days=1)).count() \
            >= REPORTS_PER_DAY:
        raise TableError(RATE_LIMITED, f"you have filed {REPORTS_PER_DAY} reports in the last 24 hours: "
                                       "a moderator will look at them first")
    line = None
    if line_id is not None:
        line_id = inputs.whole_number(line_id, "line")
        line = ChatLine.objects.select_related("author").filter(pk=line_id, room=room.key).first()
        if line is None:
            raise TableError(NOT_FOUND, "no such chat line in this room")
    table = Table.objects.filter(pk=room.table_id).only("version").first() if room.table_id is not None else None
    try:
        with transaction.atomic():
            return Report.objects.create(
                reporter=reporter, target=target, reason=reason, comment=comment, room=room.key, table=table,
                table_version=table.version if table is not None else None, line=line,
                evidence=_evidence(room, line))
    except IntegrityError:
        raise TableError(RATE_LIMITED, f"you already reported {target.get_username()}: "
                                       "a moderator will look at it") from None
