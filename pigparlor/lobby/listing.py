"""The lobby's live list of tables for one game, rendered once per change.

Every watcher of a game's lobby sees the same HTML (nothing in it depends on
who looks), so a change renders it once and the channel layer carries the HTML
to every socket in the game's group.
"""
from __future__ import annotations

import logging
import threading

from channels.db import database_sync_to_async
from django.conf import settings
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
    tables = Table.objects.filter(game=slug, status=status, private=False)
    if status == OPEN:
        tables = tables.filter(rematch_of__isnull=True)  # "Play again" tables wait for their own players
    # Not the engine state (kilobytes of JSON per table, never shown here) nor the outcome.
    tables = (tables.defer("state", "outcome").annotate(taken=taken)
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
    from games.core.registry import UnknownGame, get_game
    from pigparlor.tables.broadcast import group_send

    try:
        game = get_game(table.game)
    except UnknownGame:
        return
    from pigparlor.tables.broadcast import caller_loop

    group_send(group_for_table(table.pk), {"type": "lobby.table_changed"})
    loop = caller_loop()
    if loop is None or not settings.PIGPARLOR_LOBBY_REFRESH_MS:
        # An HTTP view, a command (or no coalescing asked for, as in most tests: a render
        # left running after a test ended would hold the database its teardown flushes):
        # render now, as the page after it expects.
        group_send(group_for_game(game.slug), {"type": "lobby.listing", "html": render_listing(game)})
    else:
        _schedule(loop, game)


# Games whose listing render is scheduled and not yet started (one per game at a time).
_SCHEDULED: set[str] = set()
_SCHEDULED_LOCK = threading.Lock()


def _schedule(loop, game) -> None:
    """Render ``game``'s listing once, a moment from now, for every change until then.

    Under a socket, the clock or a tournament the change runs on the one thread
    the ORM calls share: rendering 50 tables there for every table a tournament
    seats held every live table's move behind it."""
    from pigparlor.tables.broadcast import start_on

    with _SCHEDULED_LOCK:
        if game.slug in _SCHEDULED:
            return
        _SCHEDULED.add(game.slug)
    if not start_on(loop, settings.PIGPARLOR_LOBBY_REFRESH_MS / 1000, _render_and_send, game):
        with _SCHEDULED_LOCK:  # that loop has closed: the next change renders
            _SCHEDULED.discard(game.slug)


async def _render_and_send(game) -> None:
    from pigparlor.tables.broadcast import deliver

    with _SCHEDULED_LOCK:
        _SCHEDULED.discard(game.slug)  # a change from here on schedules the next render
    try:
        # On the ORM's thread, like every other call: a pool thread's own connection met
        # "database table is locked" on the tests' shared-cache SQLite. Once per game per
        # PIGPARLOR_LOBBY_REFRESH_MS, the moves waiting behind it wait for one render.
        html = await database_sync_to_async(render_listing)(game)
    except Exception:
        log.exception("lobby refresh failed for %s", game.slug)
        return
    await deliver([(group_for_game(game.slug), {"type": "lobby.listing", "html": html})])
