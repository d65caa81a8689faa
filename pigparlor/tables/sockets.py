"""What the browser socket and the JSON API socket share (style.md habit 8).

Each socket joins its table's group, hears "table.changed" with a version, and
sends what its own viewer may see at that version (rendered once per viewer per
version, see ``rendering``). Incoming messages pass a size and rate check, are
read as strict JSON, parsed by the subclass, and go to one service call; chat
messages go to the table's chat room (``pigparlor.moderation.sockets``, mixed
into each transport's consumer).
Anything refused gets an error for this socket only and changes nothing; no
frame can crash the socket (a message that fails in our own code is logged and
answered like a refusal).
"""
from __future__ import annotations

import asyncio
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from pigparlor.moderation.chat import table_room
from pigparlor.tables import presence, rendering
from pigparlor.tables.broadcast import call_then_send, group_name
from pigparlor.tables.credentials import credential_groups
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, TableError
from pigparlor.tables.guard import (
    CLOSED_CREDENTIALS,
    GuardedSocket,
    RateLimit,
    RoundTrip,
    client_address,
    read_message,
    signed_in,
)
from pigparlor.tables.services import act, set_salt
from pigparlor.tables.timing import epoch_ms

log = logging.getLogger(__name__)

PING_SECONDS = 2.0
# A new socket of a real-time table pings this many times quickly, so its first
# actions already carry a round-trip estimate.
QUICK_PINGS = 4
QUICK_PING_SECONDS = 0.2


class TableSocket(GuardedSocket):
    kind = "table"
    table_id: int
    invite: str | None = None
    viewer: int | None = None
    sent_key: tuple[int, int] | None = None
    pinger: asyncio.Future | None = None
    # Whether a visitor without an account may connect, to watch a public table.
    anonymous_watchers = False

    async def dispatch(self, message):
        # Channels would hop to a worker thread before every message to close
        # stale DB connections; every ORM call here already goes through
        # database_sync_to_async, which does that itself.
        handler = getattr(self, message["type"].replace(".", "_"), None)
        if handler is None:
            raise ValueError(f"no handler for {message['type']}")
        await handler(message)

    # -- lifecycle -----------------------------------------------------------
    async def connect(self):
        user = signed_in(self.scope)
        if user is None and not self.anonymous_watchers:
            await self.close(code=CLOSED_CREDENTIALS)
            return
        self.user = user
        self.table_id = self.place_table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.limit = RateLimit()
        self.round_trip = RoundTrip()
        self.invite = parse_qs(self.scope.get("query_string", b"").decode()).get("invite", [None])[0]

        def opening():
            return rendering.load_snapshot(self.table_id), credential_groups(self.scope)

        try:
            snapshot, self.credentials = await database_sync_to_async(opening)()
            rendering.viewer_for(snapshot, user, self.invite)
            self.placed = True  # from here on, however the consumer ends, its place goes
            await call_then_send(presence.open_socket, self.table_id, user, self.channel_name,
                                 client_address(self.scope))
        except TableError as refusal:
            self.placed = False
            await self.turn_away(refusal)
            return
        self.count_open()
        self.room = table_room(self.table_id)
        # A visitor without an account watches: nothing addressed to them.
        await self.join_groups([group_name(self.table_id), *self.credentials])
        await self.accept()
        await self.resend()
        await self.join_chat()
        if snapshot.game.engine.realtime:
            self.pinger = asyncio.ensure_future(self.ping_forever())

    async def disconnect(self, code):
        await self.end()

    async def end(self):
        """Stop pinging and forget this socket's presence (once)."""
        if self.pinger is not None:
            self.pinger.cancel()
        await super().end()

    async def refuse(self, refusal: TableError):
        await self.send_error(refusal)

    async def ping_forever(self):
        pings = 0
        while True:
            await self.send_ping(self.round_trip.ping())
            pings += 1
            await asyncio.sleep(QUICK_PING_SECONDS if pings < QUICK_PINGS else PING_SECONDS)

    # -- outgoing --------------------------------------------------------------
    async def table_changed(self, event):
        key = (event["version"], event["seats_rev"])
        if self.sent_key is not None and key <= self.sent_key:
            return
        snapshot = rendering.cached_snapshot((self.table_id, *key))
        if snapshot is None:
            snapshot = await database_sync_to_async(rendering.load_snapshot)(self.table_id)
        await self.send_snapshot(snapshot, full=False)

    async def table_resync(self, event):
        """The channel layer's subscription came back (pigparlor/layers.py): what was
        announced while it was down never came, so send the table as it is now."""
        await self.resend()

    async def send_snapshot(self, snapshot, full: bool):
        """Send this version as the socket's user may see it now: the viewer is
        worked out again at every send, so a socket follows its user into and
        out of a seat and never sees the hand of whoever sits there next."""
        key = (snapshot.table.version, snapshot.table.seats_rev)
        if not full and self.sent_key is not None and key <= self.sent_key:
            return
        try:
            viewer = rendering.viewer_for(snapshot, self.user, self.invite)
        except TableError as refusal:  # a private table this user no longer sits at
            await self.send_error(refusal)
            await self.close(code=4403)
            await self.end()
            return
        if viewer != self.viewer:
            self.viewer, full = viewer, True
        await self.send_state(snapshot, full)
        self.sent_key = key

    async def resend(self):
        snapshot = await database_sync_to_async(rendering.load_snapshot)(self.table_id)
        await self.send_snapshot(snapshot, full=True)

    # -- incoming --------------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        self.received_at_ms = epoch_ms()
        try:
            await self.handle(read_message(self.limit, text_data, bytes_data))
        except TableError as refusal:
            await self.send_error(refusal)
        except Exception:
            log.exception("table %s: a socket message failed", self.table_id)
            await self.send_error(TableError(BAD_REQUEST, "that message could not be handled"))

    async def handle(self, message):
        """Parse one message (the subclass's format) and call one service."""
        raise NotImplementedError

    @staticmethod
    def unknown(kind) -> TableError:
        """The refusal of a message of no known type: it names what was sent only when that
        is short text (never echo a 4 KB value back)."""
        named = f" {kind!r}" if isinstance(kind, str) and len(kind) <= 40 else ""
        return TableError(BAD_REQUEST, f"unknown message type{named}")

    async def salt(self, message):
        """The seat's client adds its random salt to the deal, before the start (docs/api.md)."""
        await call_then_send(set_salt, self.table_id, self.user, message.get("salt"))

    async def submit(self, version, action):
        if self.viewer is None:
            raise TableError(FORBIDDEN, "spectators cannot act")
        await call_then_send(
            act, self.table_id, self.viewer, action, version, user=self.user, rtt_ms=self.round_trip.estimate_ms(),
            received_at_ms=self.received_at_ms)

    async def send_state(self, snapshot, full: bool):
        raise NotImplementedError

    async def send_error(self, refusal: TableError):
        raise NotImplementedError

    async def send_ping(self, ping_id: int):
        raise NotImplementedError
