"""Per-socket limits: message size, a token-bucket rate limit, and the round-trip
estimate real-time engines receive as ``rtt_ms``."""
from __future__ import annotations

import time
from collections import deque

from django.conf import settings

from pigparlor.tables import strict_json
from pigparlor.tables.errors import BAD_REQUEST, TableError


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
