"""The clock service: fires turn timers, bot moves and seat hand-overs through ``act``.

It sleeps until the earliest ``Table.wake_at_ms`` among running tables (and open
rematches, which start when their wait is over) (at most
``MAX_SLEEP_MS``, so it also notices changes made by other processes), or until
a commit in this process wakes it earlier. Every ``serve`` process (every
worker of ``serve --workers N``) runs one, and that is safe: each write names
what it saw — ``act`` the version, a hand-over the version under the row lock,
a moved wake-up the version and ``seats_rev`` — so the loser of a race between
clocks, or between a clock and a player, changes nothing. Each due table is
fired in its own call, and its broadcasts go out from the event loop before the
next (``broadcast.call_then_send``): a busy pass never holds the ORM's thread.
"""
from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.db import transaction
from django.db.models import Min

from games.core.registry import get_game
from pigparlor.ops import metrics
from pigparlor.tables import presence
from pigparlor.tables.botdriver import pending_bot_moves
from pigparlor.tables.broadcast import announce_after_commit, call_then_send
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import OPEN, RUNNING, Table
from pigparlor.tables.rendering import seats_at
from pigparlor.tables.services import act, start_rematch_if_due
from pigparlor.tables.signals import clock_tick
from pigparlor.tables.timing import epoch_ms, to_epoch_ms

log = logging.getLogger(__name__)

MAX_SLEEP_MS = 1000
# A table whose wake-up failed is retried after this long rather than in a tight loop.
RETRY_MS = 5000


def fire(table_id: int, now: int) -> None:
    """Do what is due at one table: the engine's deadline first, then absent
    humans' seats, then the soonest due bot move. An open table with a wake-up
    is a rematch whose wait is over: it starts."""
    if Table.objects.filter(pk=table_id, status=OPEN).exists():
        start_rematch_if_due(table_id, now)
        return
    table = Table.objects.filter(pk=table_id, status=RUNNING).first()
    if table is None or table.wake_at_ms is None or table.wake_at_ms > now:
        return
    metrics.CLOCK_LAG.observe(max(0, epoch_ms() - table.wake_at_ms) / 1000)
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
    # Nothing due after all (the seats changed since): move the wake-up on, unless
    # the table or its seats changed meanwhile (then their writer set the wake-up).
    Table.objects.filter(pk=table_id, version=table.version, seats_rev=table.seats_rev).update(
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


def due_tables(now: int) -> list[int]:
    # Open tables wake too: a "Play again" table seats bots once its wait is over.
    return list(Table.objects.filter(status__in=(RUNNING, OPEN), wake_at_ms__lte=now).values_list("pk", flat=True))


def fire_or_retry(table_id: int, now: int) -> None:
    """``fire``; if it fails, try again in ``RETRY_MS`` rather than in a tight loop
    (unless something else has moved the wake-up meanwhile)."""
    try:
        fire(table_id, now)
    except Exception:
        log.exception("clock failed at table %s", table_id)
        Table.objects.filter(pk=table_id, wake_at_ms__lte=now).update(wake_at_ms=now + RETRY_MS)


def next_wake_ms() -> int | None:
    return Table.objects.filter(status__in=(RUNNING, OPEN)).aggregate(at=Min("wake_at_ms"))["at"]


def run_due() -> int | None:
    """Fire every table that is due; return the next wake-up (epoch ms) or None."""
    now = epoch_ms()
    for table_id in due_tables(now):
        fire_or_retry(table_id, now)
    return next_wake_ms()


async def run_due_async() -> int | None:
    """``run_due`` from the event loop: one ORM call per due table, each one's
    broadcasts sent before the next, other sockets' calls in between."""
    now = epoch_ms()
    for table_id in await database_sync_to_async(due_tables)(now):
        await call_then_send(fire_or_retry, table_id, now)
    return await database_sync_to_async(next_wake_ms)()


def tick_apps() -> int | None:
    """One step of the other apps' scheduled work (``signals.clock_tick``);
    the earliest next wake-up they ask for."""
    now = epoch_ms()
    wakes = []
    for receiver, answer in clock_tick.send_robust(sender=Clock, now_ms=now):
        if isinstance(answer, Exception):
            log.error("clock tick of %s failed", receiver, exc_info=answer)
            continue
        if answer is not None:
            wakes.append(answer)
    return min(wakes) if wakes else None


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
        assert self._event is not None  # made with the loop
        self._loop.call_soon_threadsafe(self._event.set)

    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()
        try:
            while True:
                self._event.clear()
                self._next_ms = None  # any commit during the pass wakes the next one
                next_ms = await run_due_async()
                # A separate hop: live tables' work queued meanwhile goes first.
                app_ms = await call_then_send(tick_apps)
                if app_ms is not None:
                    next_ms = app_ms if next_ms is None else min(next_ms, app_ms)
                now = epoch_ms()
                sleep_ms = MAX_SLEEP_MS if next_ms is None else min(MAX_SLEEP_MS, next_ms - now)
                self._next_ms = now + sleep_ms
                if self._event.is_set() or sleep_ms <= 0:
                    continue
                try:
                    await asyncio.wait_for(self._event.wait(), sleep_ms / 1000)
                except TimeoutError:
                    pass
        finally:
            self._loop = None


CLOCK = Clock()
