"""The lobby's live list of tables for one game, rendered once per change.

Every watcher of a game's lobby sees the same HTML (nothing in it depends on
who looks), so a change renders it once and the channel layer carries the HTML
to every socket in the game's group.
"""
from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db.models import Count, Q
from django.template.loader import render_to_string

from pigparlor.tables.models import OPEN, RUNNING, Table

LISTING_LIMIT = 50
log = logging.getLogger(__name__)


def group_for_game(slug: str) -> str:
    return f"lobby-{slug}"


def group_for_table(table_id: int) -> str:
    return f"lobby-table-{table_id}"


def public_tables(slug: str, status: str) -> list[Table]:
    taken = Count("seat_set", filter=Q(seat_set__user__isnull=False) | ~Q(seat_set__bot_kind=""))
    tables = (Table.objects.filter(game=slug, status=status, private=False).annotate(taken=taken)
              .select_related("host__profile").prefetch_related("seat_set").order_by("-created_at")[:LISTING_LIMIT])
    return list(tables)


def render_listing(game) -> str:
    return render_to_string("lobby/_listing.html", {
        "game": game,
        "open_tables": public_tables(game.slug, OPEN),
        "running_tables": public_tables(game.slug, RUNNING),
    })


def on_listing_changed(sender, table, **kwargs) -> None:
    """Receiver of ``table_listing_changed``: refresh the game's lobby and the table's waiting room.

    It runs inside the tables' after-commit broadcast, so it never raises: a
    lobby that misses one refresh is fixed by the next, a table that missed its
    clock wake-up would stall.
    """
    try:
        _refresh(table)
    except Exception:
        log.exception("lobby refresh failed for table %s", table.pk)


def _refresh(table) -> None:
    from pigparlor.tables.registry import UnknownGame, get_game

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        game = get_game(table.game)
    except UnknownGame:
        return
    send = async_to_sync(layer.group_send)
    send(group_for_game(game.slug), {"type": "lobby.listing", "html": render_listing(game)})
    send(group_for_table(table.pk), {"type": "lobby.table_changed"})
