"""The clock service: fires turn timers, bot moves and seat hand-overs through ``act``.

It sleeps until the earliest ``Table.wake_at_ms`` among running tables (at most
``MAX_SLEEP_MS``, so it also notices changes made by other processes), or until
a commit in this process wakes it earlier. It acts with the version it saw, so
when several clocks run (scaled out) the loser of a race changes nothing.
"""
from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.db import transaction
from django.db.models import Min

from pigparlor.tables import presence
from pigparlor.tables.botdriver import pending_bot_moves
from pigparlor.tables.broadcast import announce_after_commit
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import RUNNING, Table
from pigparlor.tables.registry import get_game
from pigparlor.tables.rendering import seats_at
from pigparlor.tables.services import act
from pigparlor.tables.timing import epoch_ms, to_epoch_ms

log = logging.getLogger(__name__)

MAX_SLEEP_MS = 1000
# A table whose wake-up failed is retried after this long rather than in a tight loop.
RETRY_MS = 5000


def fire(table_id: int, now: int) -> None:
    """Do what is due at one table: the engine's deadline first, then absent
    humans' seats, then the soonest due bot move."""
    table = Table.objects.filter(pk=table_id, status=RUNNING).first()
    if table is None or table.wake_at_ms is None or table.wake_at_ms > now:
        return
    game = get_game(table.game)
    state = game.engine.load(table.state)
    deadline = to_epoch_ms(table, game.engine.next_deadline(state))
    if deadline is not None and deadline <= now:
        _act_quietly(table_id, None, {"type": "clock"}, table.version)
        return
    seats = seats_at(table)
    if any((until := presence.absent_until(seat)) is not None and until <= now for seat in seats):
        _hand_over(table_id, table.version, now)
        return
    due = [move for move in pending_bot_moves(game, table, state, seats) if move.due_ms <= now]
    if due:
        _act_quietly(table_id, due[0].seat, due[0].action, table.version)
        return
    # Nothing due after all (the seats changed since): move the wake-up on.
    Table.objects.filter(pk=table_id, version=table.version).update(
        wake_at_ms=presence.next_wake(game, table, state, seats))


def _act_quietly(table_id, seat, action, version) -> None:
    try:
        act(table_id, seat, action, version)
    except TableError as refusal:
        # Another clock or a player got there first: that version is gone.
        log.debug("clock lost a race at table %s: %s", table_id, refusal)


def _hand_over(table_id: int, version: int, now: int) -> None:
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id, status=RUNNING, version=version).first()
        if table is None:
            return
        seats = seats_at(table)
        if presence.replace_absent(table, seats, now):
            table.seats_rev += 1
        presence.refresh_wake(table, seats)
        table.save()
        announce_after_commit(table, listing=True)


def run_due() -> int | None:
    """Fire every table that is due; return the next wake-up (epoch ms) or None."""
    now = epoch_ms()
    due = Table.objects.filter(status=RUNNING, wake_at_ms__lte=now).values_list("pk", flat=True)
    for table_id in list(due):
        try:
            fire(table_id, now)
        except Exception:
            log.exception("clock failed at table %s", table_id)
            Table.objects.filter(pk=table_id).update(wake_at_ms=now + RETRY_MS)
    return Table.objects.filter(status=RUNNING).aggregate(at=Min("wake_at_ms"))["at"]


class Clock:
    """One per process. ``run()`` is the task; ``wake(at_ms)`` is thread-safe."""

    def __init__(self):
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._next_ms: int | None = None

    def wake(self, at_ms: int | None) -> None:
        if at_ms is None or self._loop is None or self._loop.is_closed():
            return
        if self._next_ms is not None and at_ms >= self._next_ms:
            return
        self._next_ms = at_ms
        self._loop.call_soon_threadsafe(self._event.set)

    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()
        try:
            while True:
                self._event.clear()
                self._next_ms = None  # any commit during the pass wakes the next one
                next_ms = await database_sync_to_async(run_due)()
                now = epoch_ms()
                sleep_ms = MAX_SLEEP_MS if next_ms is None else min(MAX_SLEEP_MS, next_ms - now)
                self._next_ms = now + sleep_ms
                if self._event.is_set() or sleep_ms <= 0:
                    continue
                try:
                    await asyncio.wait_for(self._event.wait(), sleep_ms / 1000)
                except asyncio.TimeoutError:
                    pass
        finally:
            self._loop = None


CLOCK = Clock()
