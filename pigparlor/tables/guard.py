"""Every socket's guard: the door every consumer of the site passes
(``GuardedSocket``: the socket caps, the end of its credentials, no send once
closing), and the per-socket limits: message size, a token-bucket rate limit,
and the round-trip estimate real-time engines receive as ``rtt_ms``."""
from __future__ import annotations

import logging
import time
from collections import deque

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from pigparlor.ops import metrics
from pigparlor.tables import presence, strict_json
from pigparlor.tables.broadcast import call_then_send
from pigparlor.tables.credentials import credential_groups, revocation_applies
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, TableError

log = logging.getLogger(__name__)

# Close codes: the socket's credentials ended (logout, password change, ban, revoked
# token); a cap refused it (too many sockets, chat too fast is an error frame instead).
CLOSED_CREDENTIALS, CLOSED_CAP = 4401, 4429


def signed_in(scope):
    """The socket's user, or None for a visitor without an account."""
    user = scope.get("user")
    return user if user is not None and user.is_authenticated else None


def client_address(scope) -> str:
    """The client's address (Daphne takes it from X-Forwarded-For behind a proxy)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


class GuardedSocket(AsyncWebsocketConsumer):
    """What every socket of the site does at its door and at its end:

    - ``admit``: it takes a place under the socket caps of its ``kind``
      (``presence.reserve``: per account, per visitor address, counted across
      processes); past one it is accepted, told why (``refuse``) and closed
      with 4429;
    - it joins the groups that hear when its credentials end (``credentials``);
      ``socket.revoked`` closes it with 4401;
    - however it ends (closed, crashed, cancelled) its place goes (``end``);
    - once closing it sends nothing more: a broadcast that races a close (the
      peer's or its own) is dropped quietly, never an error; a message it has
      no handler for is ignored.
    """

    kind = ""
    api = False  # the JSON API's socket (a token, not a browser session)
    placed = False
    counted = False  # in the open sockets metric (pigparlor/ops/metrics.py)
    closing = False
    place_table_id: int | None = None
    groups_joined: list[str] = []
    credentials: list[str] = []

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.end()

    async def dispatch(self, message):
        """A message this kind of socket has no use for is ignored, not a crash: the
        user's group carries every kind's (a chat timeout reaches the player socket
        too), and the player group may carry more kinds later."""
        if getattr(self, get_handler_name(message), None) is None:
            log.debug("%s socket ignores %s", self.kind, message.get("type"))
            return
        await super().dispatch(message)

    async def admit(self) -> bool:
        """Take this socket's place and join its credentials' groups; False (and
        closed) past a cap."""
        def reserve():
            presence.reserve(self.kind, signed_in(self.scope), client_address(self.scope), self.channel_name)
            return credential_groups(self.scope)

        try:
            self.placed = True  # from here on, however the consumer ends, its place goes
            groups = await call_then_send(reserve)
        except TableError as refusal:
            self.placed = False
            await self.turn_away(refusal)
            return False
        self.credentials = groups
        self.count_open()
        await self.join_groups(groups)
        return True

    def count_open(self) -> None:
        """In the open sockets metric from now until ``end`` (once its place is taken)."""
        if not self.counted:
            self.counted = True
            metrics.OPEN_SOCKETS.labels(self.kind).inc()

    async def turn_away(self, refusal: TableError) -> None:
        await self.accept()
        await self.refuse(refusal)
        await self.close(code=CLOSED_CAP if refusal.code == "rate_limited" else 4403)

    async def join_groups(self, groups: list[str]) -> None:
        """Join ``groups``; ``end`` leaves them."""
        self.groups_joined = [*self.groups_joined, *groups]
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def refuse(self, refusal: TableError) -> None:
        """Tell the client why its message or its socket was refused (each kind its own way)."""

    async def socket_revoked(self, event):
        """The credentials this socket opened with ended: refuse and close now."""
        if not revocation_applies(event, self.credentials, self.api):
            return
        await self.refuse(TableError(FORBIDDEN, event["reason"]))
        await self.close(code=CLOSED_CREDENTIALS)
        await self.end()

    async def end(self) -> None:
        """Forget this socket's place and leave its groups (once)."""
        if self.counted:
            self.counted = False
            metrics.OPEN_SOCKETS.labels(self.kind).dec()
        if not self.placed:
            return
        self.placed = False
        # The database first: the channel layer may be what just failed (Redis down).
        await call_then_send(presence.close_socket, self.place_table_id, self.channel_name)
        for group in self.groups_joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # membership expires with the layer's group_expiry anyway
                log.warning("could not leave %s for %s", group, self.channel_name, exc_info=True)

    async def websocket_disconnect(self, message):
        self.closing = True
        await super().websocket_disconnect(message)

    async def send(self, text_data=None, bytes_data=None, close=False):
        if self.closing:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:  # Daphne: the peer is closing ("Attempt to send on a closed protocol")
            self.closing = True

    async def close(self, code=None, reason=None):
        if self.closing:
            return
        self.closing = True
        try:
            await super().close(code=code, reason=reason)
        except Disconnected:
            pass


class RateLimit:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, burst: int | None = None, rate: float | None = None):
        self.burst = burst if burst is not None else settings.PIGPARLOR_WS_BURST
        self.rate = rate if rate is not None else settings.PIGPARLOR_WS_RATE
        self.tokens = float(self.burst)
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def too_big(text: str | None, data: bytes | None) -> bool:
    size = len(text.encode(errors="surrogatepass")) if text is not None else len(data or b"")
    return size > settings.PIGPARLOR_WS_MAX_BYTES


def read_message(limit: RateLimit, text: str | None, data: bytes | None):
    """An incoming socket message past the size and rate checks, read as strict JSON;
    a ``TableError`` (bad request) says what is wrong. Every socket reads through this."""
    if too_big(text, data):
        raise TableError(BAD_REQUEST, "message too large")
    if not limit.allow():
        raise TableError(BAD_REQUEST, "too many messages: slow down")
    if text is None:
        raise TableError(BAD_REQUEST, "messages are JSON in text frames")
    return strict_json.loads(text)


class RoundTrip:
    """Recent ping→pong samples of one socket; the estimate is a low percentile
    (the 10th) so it follows the path's floor: one slow sample, or a pong held
    back now and then, does not hand the player extra reaction time
    (docs/fairness.md)."""

    def __init__(self, keep: int = 20):
        self.samples: deque[float] = deque(maxlen=keep)
        self.pending: dict[int, float] = {}
        self.counter = 0

    def ping(self) -> int:
        self.counter += 1
        self.pending[self.counter] = time.monotonic()
        while len(self.pending) > 5:
            self.pending.pop(next(iter(self.pending)))
        return self.counter

    def pong(self, ping_id) -> None:
        sent = self.pending.pop(ping_id, None) if isinstance(ping_id, int) else None
        if sent is not None:
            self.samples.append((time.monotonic() - sent) * 1000)

    def estimate_ms(self) -> int | None:
        if not self.samples:
            return None
        ordered = sorted(self.samples)
        return int(ordered[len(ordered) // 10])
