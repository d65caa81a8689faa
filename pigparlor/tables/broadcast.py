"""What happens after a table change commits: its sockets hear the new version,
the lobby hears about seat/status changes, and the clock learns the next wake-up.

Only the version travels over the channel layer; every socket renders (from its
per-viewer cache or the database) what its own viewer may see.

Sockets, the clock and the heartbeat run their database work through
``call_then_send``: the group messages that work's commits queue are sent from
the event loop once the call returns, instead of each commit hook blocking the
one ORM thread on a hop back into the loop (``async_to_sync``) while every
other table's ``act`` waits behind it. Elsewhere (HTTP views, commands, tests)
a commit sends at once, as before.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import time
from contextvars import Context, ContextVar

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from pigparlor.tables.signals import table_listing_changed

log = logging.getLogger(__name__)
slow_log = logging.getLogger("pigparlor.slow")


TABLE_GROUP_PREFIX = "table-"  # every table's group (pigparlor.layers resyncs them after a Redis outage)


def group_name(table_id: int) -> str:
    return f"{TABLE_GROUP_PREFIX}{table_id}"


def session_group(login: str) -> str:
    """The sockets opened in one browser log-in (``credentials.login_group``; hashed:
    group names travel through Redis)."""
    return "session-" + hashlib.sha256(login.encode()).hexdigest()[:40]


def token_group(token_id: int) -> str:
    """The sockets opened with one API token."""
    return f"token-{token_id}"


def user_group(user_id: int) -> str:
    """Every socket one user holds open, of every kind (``guard.GuardedSocket``):
    a ban, a deactivation or a password change closes them, a chat timeout or mute reaches them."""
    return f"user-{user_id}"


def revoke_sockets(group: str, reason: str) -> None:
    """Close every socket in ``group`` (its log-in ended, its token was revoked,
    its user was banned), in every process, once the current transaction commits."""
    transaction.on_commit(lambda: group_send(group, {"type": "socket.revoked", "reason": reason}))


class _Outbox:
    """Group messages queued on the ORM's thread for the event loop to send.
    Once closed (the caller went on: it returned, or was cancelled while the
    thread still ran), later messages are sent at once instead: none is lost."""

    def __init__(self, loop=None):
        self.messages: list[tuple[str, dict]] = []
        self.closed = False
        self.lock = threading.Lock()
        self.loop = loop  # the event loop of the caller, for messages after close

    def add(self, group: str, message: dict) -> bool:
        with self.lock:
            if not self.closed:
                self.messages.append((group, message))
            return not self.closed

    def close(self) -> list[tuple[str, dict]]:
        with self.lock:
            self.closed = True
            return self.messages


# The outbox of the ``call_then_send`` running on this thread; None outside one.
_OUTBOX: ContextVar[_Outbox | None] = ContextVar("pigparlor_outbox", default=None)


def group_send(group: str, message: dict) -> None:
    """Send after a commit: into the running ``call_then_send``'s outbox, else at
    once. The change is already safe in the database: if the channel layer fails
    (Redis down), say so and go on — sockets catch up from the database when they
    reconnect or ask for a snapshot."""
    outbox = _OUTBOX.get()
    if outbox is not None and outbox.add(group, message):
        return
    layer = get_channel_layer()
    if layer is None:
        return
    if outbox is not None and outbox.loop is not None:
        # The caller went on while this ORM thread still ran: hand the message to
        # its loop rather than block this thread on it (async_to_sync here waits
        # forever if that loop has finished, as a cancelled test's loop has).
        if not start_on(outbox.loop, 0, deliver, [(group, message)]):
            log.warning("could not send %s to %s: its event loop has closed", message.get("type"), group)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.warning("could not send %s to %s", message.get("type"), group, exc_info=True)


def caller_loop():
    """The event loop of the ``call_then_send`` running on this thread, or None
    (an HTTP view, a command, a test): work that may wait a moment goes there."""
    outbox = _OUTBOX.get()
    return outbox.loop if outbox is not None else None


def start_on(loop, delay_s: float, coroutine_function, *args) -> bool:
    """From any thread: start ``coroutine_function(*args)`` as a task on ``loop``,
    ``delay_s`` from now, in a fresh context (this ORM thread's own — asgiref's
    executor marks, the outbox — must not follow it). False if the loop has closed."""
    def start():
        if not loop.is_closed():
            loop.create_task(coroutine_function(*args))

    try:
        loop.call_soon_threadsafe(loop.call_later, delay_s, start, context=Context())
    except RuntimeError:  # closed: a test's loop, or a server shutting down
        return False
    return True


async def call_then_send(func, *args, **kwargs):
    """``func(*args, **kwargs)`` on the ORM's thread (``database_sync_to_async``);
    then, on the event loop, the group messages its commits queued — even when it
    raised after one of them committed."""
    outbox = _Outbox(asyncio.get_running_loop())
    times = [time.perf_counter()]  # asked, started on the ORM thread, returned

    def run():
        times.append(time.perf_counter())
        token = _OUTBOX.set(outbox)
        try:
            return func(*args, **kwargs)
        finally:
            _OUTBOX.reset(token)
            times.append(time.perf_counter())

    try:
        return await database_sync_to_async(run)()
    finally:
        messages = outbox.close()
        await deliver(messages)
        _log_if_slow(func, times, time.perf_counter(), len(messages))


def _log_if_slow(func, times: list[float], sent: float, messages: int) -> None:
    """Issue 14: a call slower than ``PIGPARLOR_SLOW_MS`` says where its time went —
    waiting for the one ORM thread (other tables' calls ahead of it), running there,
    or sending its group messages."""
    limit_ms = settings.PIGPARLOR_SLOW_MS
    total_ms = (sent - times[0]) * 1000
    if not limit_ms or total_ms < limit_ms or len(times) < 3:
        return
    if sent < _slow_lines["quiet_until"]:
        _slow_lines["held"] += 1
        return
    held, _slow_lines["held"], _slow_lines["quiet_until"] = _slow_lines["held"], 0, sent + SLOW_LOG_EVERY_S
    waited, ran, sending = ((b - a) * 1000 for a, b in zip(times, [*times[1:], sent]))
    slow_log.info("slow %s: %.0f ms (waited for the ORM thread %.0f ms, ran %.0f ms, sent %d messages in %.0f ms)%s",
                  getattr(func, "__name__", func), total_ms, waited, ran, messages, sending,
                  f"; {held} more slow calls since the last line" if held else "")


# At most one slow-call line a second (the event loop's own state, no lock): an
# overloaded server logging every call made itself slower (issue 14: 4 % of its CPU
# flat out); the next line counts the calls it held back.
SLOW_LOG_EVERY_S = 1.0
_slow_lines = {"quiet_until": 0.0, "held": 0}


async def deliver(messages: list[tuple[str, dict]]) -> None:
    """Send ``(group, message)`` pairs from the event loop; a failure is logged, never raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:
            log.warning("could not send %s to %s", message.get("type"), group, exc_info=True)


def announce_after_commit(table, *, listing: bool = False, snapshot=None) -> None:
    """Queue the broadcast of ``table``'s current version for when the transaction commits.

    ``snapshot`` (a ``rendering.Snapshot`` of what was just committed) primes this
    process's cache, so its sockets render the new version without a query.
    """
    table_id, version, seats_rev, wake_at_ms = table.pk, table.version, table.seats_rev, table.wake_at_ms

    def send():
        from pigparlor.tables.clock import CLOCK
        from pigparlor.tables.rendering import SNAPSHOTS

        if snapshot is not None:
            SNAPSHOTS.put(snapshot.key, snapshot)
        group_send(group_name(table_id), {"type": "table.changed", "version": version, "seats_rev": seats_rev})
        if listing:
            table_listing_changed.send(sender=type(table), table=table)
        CLOCK.wake(wake_at_ms)

    transaction.on_commit(send)
