"""The embedded default's channel layer: Channels' in-memory layer, cleaned less often.

Channels' ``InMemoryChannelLayer`` walks every channel and every group
membership on *each* receive, looking for expired messages (60 s old) and
memberships (a day old). With hundreds of sockets that walk was the largest
single cost of a live table's update (a third of the server's samples at 20
busy tables, docs/benchmarks.md). Expiry is measured in seconds and minutes, so
cleaning at most once per ``CLEAN_EVERY_SECONDS`` changes nothing a client can
see. Scaled out, the Redis layer is used instead (settings.py).
"""
from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryLayer


class InMemoryChannelLayer(ChannelsInMemoryLayer):
    CLEAN_EVERY_SECONDS = 1.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._cleaned_at = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._cleaned_at < self.CLEAN_EVERY_SECONDS:
            return
        self._cleaned_at = now
        super()._clean_expired()
