"""The notifications menu in the header: what waits on a signed-in player, on every page.

Five kinds, newest news first: a rematch offered to you (a seat kept for you at a
rematch not yet started), an invitation to a private table not yet started (none
from a player you muted), your seat at a running tournament table, a report of
yours a moderator resolved (until you dismiss it), and tables waiting on your move. The player socket (``/ws/player/``,
pigparlor/tournaments/consumers.py) renders the menu when it connects and again
on ``inbox.changed``, sending it only when it changed. ``poke`` sends that
message; it goes out when
- a table's seats or status change (``table_listing_changed``): the players a
  rematch keeps a seat for, the players invited there, and at the end of a game
  its players (a finished table waits on nobody);
- a player moves (``table_moved`` with a user): the mover (that table no longer waits on them);
- the "your turn" check finds a table waiting on a player away from it (pigparlor/pwa/turns.py);
- an invitation is sent (the invitee), and a tournament table is ready or over;
- a moderator resolves a report, or its reporter dismisses the notice (the reporter).
"""
from __future__ import annotations

import logging

from django.template.loader import render_to_string

from pigparlor.accounts.models import display_name
from pigparlor.moderation.notices import reviewed_reports
from pigparlor.pwa.models import Invitation, Mute
from pigparlor.pwa.turns import tables_waiting_on
from pigparlor.tables.broadcast import group_send
from pigparlor.tables.models import ABORTED, FINISHED, OPEN, Seat
from pigparlor.tournaments.announce import player_group
from pigparlor.tournaments.live import seated_now
from pigparlor.tournaments.models import Tournament

log = logging.getLogger(__name__)

SHOWN_INVITATIONS = 5


def rematch_offers(user) -> list[dict]:
    seats = (Seat.objects.filter(reserved_for=user, user=None, bot_kind="", table__status=OPEN,
                                 table__rematch_of__isnull=False)
             .select_related("table__host").order_by("-table__created_at"))
    return [{"kind": "rematch", "table": seat.table,
             "from": display_name(seat.table.host) if seat.table.host_id else ""} for seat in seats]


def invitations(user) -> list[dict]:
    muted = Mute.objects.filter(user=user).values_list("muted_id", flat=True)
    found = (Invitation.objects.filter(invitee=user, table__status=OPEN).exclude(inviter_id__in=muted)
             .exclude(table__seat_set__user=user).select_related("table", "inviter")
             .order_by("-created_at")[:SHOWN_INVITATIONS])
    return [{"kind": "invite", "table": invitation.table,
             "from": display_name(invitation.inviter)} for invitation in found]


def tournament_table(user) -> list[dict]:
    tournament_id, table_id = seated_now(user)
    if table_id is None:
        return []
    return [{"kind": "tournament", "table_id": table_id,
             "tournament": Tournament.objects.filter(pk=tournament_id).values_list("name", flat=True).first()}]


def items_for(user) -> list[dict]:
    items = rematch_offers(user) + invitations(user) + tournament_table(user) + reviewed_reports(user)
    in_tournament = {item["table_id"] for item in items if item["kind"] == "tournament"}
    items += [{"kind": "turn", "table": table}
              for table in tables_waiting_on(user.pk) if table.pk not in in_tournament]
    return items


def inbox_html(user) -> str:
    """The menu's two parts as out-of-band swaps: the count on the button and the list."""
    return render_to_string("pwa/_inbox_items.html", {"items": items_for(user), "oob": True})


def poke(user_ids) -> None:
    """Ask each of these players' sockets to render their menu again (now: call it after the commit)."""
    for user_id in set(user_ids):
        if user_id is not None:
            group_send(player_group(user_id), {"type": "inbox.changed"})


def on_listing_changed(sender, table, **kwargs) -> None:
    """Receiver of ``table_listing_changed``. It runs in the tables' after-commit
    broadcast, so it never raises: a menu that misses one change is right again at
    the next page."""
    try:
        over = table.status in (FINISHED, ABORTED)
        users = []
        if table.rematch_of_id or over:  # a public table starting (the usual change) costs no query
            seats = list(Seat.objects.filter(table_id=table.pk).values_list("user_id", "reserved_for_id"))
            users += [reserved for _, reserved in seats] if table.rematch_of_id else []
            users += [user for user, _ in seats] if over else []
        if table.private:
            users += list(Invitation.objects.filter(table_id=table.pk).values_list("invitee_id", flat=True))
        poke(users)
    except Exception:
        log.exception("could not refresh the notifications of table %s's players", table.pk)


def on_table_moved(sender, table_id: int, version: int, user_id: int | None, **kwargs) -> None:
    """Receiver of ``table_moved``: the mover's menu (the table may have waited on them)."""
    if user_id is not None:
        poke([user_id])
