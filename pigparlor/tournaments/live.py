"""The HTML the tournament sockets push, rendered as few times as possible.

What everyone sees (the list; a tournament's board) is rendered once per
revision per process and shared by every socket here (``SharedRenders``); a
running tournament's board is also rendered again every
``PIGPARLOR_TOURNAMENT_PROGRESS_SECONDS``, since its tables move on ("round 3
of 5") without the tournament changing. Only the viewer's own panel is
rendered per socket.
"""
from __future__ import annotations

import logging
import time
from collections import OrderedDict

from django.conf import settings
from django.db.models import Count, Sum
from django.template.loader import render_to_string
from django.urls import reverse

from pigparlor.tables.broadcast import group_send
from pigparlor.tables.models import ABORTED
from pigparlor.tables.models import FINISHED as TABLE_FINISHED
from pigparlor.tables.rendering import Origin
from pigparlor.tournaments import pages
from pigparlor.tournaments.announce import player_group
from pigparlor.tournaments.models import RUNNING, Entry, Tournament, TournamentTable
from pigparlor.tournaments.standings import open_tables

log = logging.getLogger(__name__)


def progress_seconds() -> float:
    return settings.PIGPARLOR_TOURNAMENT_PROGRESS_SECONDS


class SharedRenders:
    """A small LRU of rendered HTML by key."""

    def __init__(self, size: int = 64):
        self.size = size
        self.items: OrderedDict = OrderedDict()

    def get_or_render(self, key, render):
        if key in self.items:
            self.items.move_to_end(key)
            return self.items[key]
        html = render()
        self.items[key] = html
        while len(self.items) > self.size:
            self.items.popitem(last=False)
        return html


RENDERS = SharedRenders()


def _bucket(tournament: Tournament) -> int:
    return int(time.monotonic() // progress_seconds()) if tournament.status == RUNNING else 0


def list_html() -> str:
    """The list page's live part (every viewer alike)."""
    # Revisions only grow: their sum (with the count) changes whenever any tournament does.
    marks = Tournament.objects.aggregate(count=Count("pk"), revisions=Sum("revision"))
    return RENDERS.get_or_render(("list", marks["count"], marks["revisions"]), lambda: render_to_string(
        "tournaments/_list.html", {**pages.list_context(), "oob": True}))


def board_html(tournament: Tournament) -> str:
    """A tournament's board and its screen-reader sentence (every viewer alike)."""
    key = ("board", tournament.pk, tournament.revision, _bucket(tournament))
    return RENDERS.get_or_render(key, lambda: render_to_string(
        "tournaments/_board.html", {**pages.board_context(tournament), "oob": True}))


def me_html(tournament: Tournament, user, known_table: int | None = None,
            follow_new: bool = False) -> tuple[str, int | None]:
    """The viewer's own panel, and the table it sends them to (if any). With
    ``follow_new``, a table other than ``known_table`` comes with a link the
    page follows at once."""
    context = pages.me_context(tournament, user)
    table_id = context["table_id"]
    follow = follow_new and table_id is not None and table_id != known_table
    html = render_to_string("tournaments/_me.html", {**context, "oob": True, "follow": follow, "user": user})
    return html, table_id


def load(tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


# -- "your table is ready" --------------------------------------------------------

def banner_html(user, tournament_id: int | None = None, table_id: int | None = None) -> tuple[str, int | None]:
    """The site-wide banner for ``user`` and the table it shows: the given
    tournament table, or else any table of a running tournament they are
    seated at now (an empty banner and None if none)."""
    if table_id is None:
        tournament_id, table_id = seated_now(user)
    found = None
    if table_id is not None:
        found = (TournamentTable.objects.filter(table_id=table_id, round__tournament_id=tournament_id)
                 .select_related("round__stage", "round__tournament", "table").first())
        if found is None or user.pk not in found.players or found.table.status in (TABLE_FINISHED, ABORTED):
            found = None
    html = render_to_string("tournaments/_banner.html", {"ready": found, "round_label": pages.round_label(
        found.round) if found else ""})
    return html, found.table_id if found else None


def empty_banner_html() -> str:
    return render_to_string("tournaments/_banner.html", {})


def on_table_over(sender, table_id, **kwargs) -> None:
    """Receiver of ``table_finished`` (after commit): the table's players'
    banners for it go away (``tournament.table_over`` to ``player-<id>``).
    It never raises: a banner left up is harmless, a broken signal is not."""
    try:
        players = TournamentTable.objects.filter(table_id=table_id).values_list("players", flat=True).first()
        for user_id in players or ():
            group_send(player_group(user_id), {"type": "tournament.table_over", "table_id": table_id})
    except Exception:
        log.exception("could not take down the banners of table %s", table_id)


def table_origin(sender, table, **kwargs) -> Origin | None:
    """Receiver of ``table_origin``: a tournament's table leads back to its
    tournament (where the next round seats its players), instead of offering
    "Play again" and "New table"."""
    found = (TournamentTable.objects.filter(table_id=table.pk).select_related("round__tournament")
             .only("round__tournament__name").first())
    if found is None:
        return None
    tournament = found.round.tournament
    return Origin(f"Back to {tournament.name}", reverse("tournaments:detail", args=[tournament.pk]))


def cancelled_html(tournament_id: int, reason: str) -> str:
    """The banner telling a registered player their tournament was called off."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return render_to_string("tournaments/_banner.html", {"cancelled": tournament, "reason": reason})


def seated_now(user) -> tuple[int | None, int | None]:
    for tournament in Tournament.objects.filter(status=RUNNING, entries__user=user,
                                                entries__status=Entry.IN).order_by("-started_at"):
        table_id = open_tables(tournament).get(user.pk)
        if table_id:
            return tournament.pk, table_id
    return None, None
