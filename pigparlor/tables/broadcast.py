"""What happens after a table change commits: its sockets hear the new version,
the lobby hears about seat/status changes, and the clock learns the next wake-up.

Only the version travels over the channel layer; every socket renders (from its
per-viewer cache or the database) what its own viewer may see.
"""
from __future__ import annotations

import hashlib
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from pigparlor.tables.signals import table_listing_changed

log = logging.getLogger(__name__)


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


def session_group(session_key: str) -> str:
    """The table sockets opened with one browser session (hashed: group names travel through Redis)."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def token_group(token_id: int) -> str:
    """The table sockets opened with one API token."""
    return f"token-{token_id}"


def revoke_sockets(group: str, reason: str) -> None:
    """Close every table socket in ``group`` (its session logged out, its token
    was revoked), in every process, once the current transaction commits."""
    transaction.on_commit(lambda: group_send(group, {"type": "socket.revoked", "reason": reason}))


def group_send(group: str, message: dict) -> None:
    """Send after a commit. The change is already safe in the database: if the
    channel layer fails (Redis down), say so and go on — sockets catch up from
    the database when they reconnect or ask for a snapshot."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
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
