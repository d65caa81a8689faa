"""Per-socket limits: message size, a token-bucket rate limit, strict JSON
reading, and the round-trip estimate real-time engines receive as ``rtt_ms``."""
from __future__ import annotations

import json
import math
import re
import time
from collections import deque

from django.conf import settings

from pigparlor.tables.errors import BAD_REQUEST, TableError

# Deeper than any message of the protocol needs (an act is three levels).
MAX_DEPTH = 10
_TOKENS = re.compile(r'[\\"\[\]{}]')


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


def too_deep(text: str) -> bool:
    """Whether the brackets of a JSON text nest deeper than ``MAX_DEPTH`` outside
    its strings, found in one pass before parsing: a frame of 3,000 ``[`` never
    reaches the recursive parser."""
    depth = 0
    in_string, escaped_at = False, -1
    for token in _TOKENS.finditer(text):
        at, char = token.start(), token.group()
        if at == escaped_at:
            continue
        if in_string:
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("numbers must be finite")
    return value


def parse_json(text) -> object:
    """Standard JSON only, or ``TableError(bad_request)``: no NaN or Infinity
    (Python's json reads them, ``1e999`` too; PostgreSQL's jsonb refuses them),
    nesting at most ``MAX_DEPTH`` deep."""
    if not isinstance(text, str):
        raise TableError(BAD_REQUEST, "messages are JSON text")
    if too_deep(text):
        raise TableError(BAD_REQUEST, f"messages nest at most {MAX_DEPTH} deep")
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    except (json.JSONDecodeError, RecursionError):
        raise TableError(BAD_REQUEST, "messages are JSON") from None
    except ValueError:
        raise TableError(BAD_REQUEST, "messages are standard JSON: no NaN, Infinity or overlong numbers") from None


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
