"""The channel layers: Channels' in-memory layer cleaned less often (the embedded
default), and channels_redis' publish/subscribe layer that resyncs table sockets
when Redis comes back (several processes; settings.py).

Channels' ``InMemoryChannelLayer`` walks every channel and every group
membership on *each* receive, looking for expired messages (60 s old) and
memberships (a day old). With hundreds of sockets that walk was the largest
single cost of a live table's update (a third of the server's samples at 20
busy tables, docs/benchmarks.md). Expiry is measured in seconds and minutes, so
cleaning at most once per ``CLEAN_EVERY_SECONDS`` changes nothing a client can
see. Scaled out, the Redis layer is used instead (below).
"""
from __future__ import annotations

import asyncio
import logging
import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryLayer
from channels_redis import pubsub
from channels_redis.utils import _wrap_close

log = logging.getLogger(__name__)


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


# -- several processes: Redis publish/subscribe ------------------------------------
# A group message is one PUBLISH that every process subscribed to the group hears
# (channels_redis' core layer ran a script pushing onto every member's list, and each
# process popped, cleaned backup queues and expired memberships: two workers spent a
# third more CPU per action, docs/benchmarks.md, issue 14). What is published while a
# process's subscription is down (Redis restarting) never reaches it, so when its
# subscription answers again every table socket of the process is told to send its
# table afresh from the database ("table.resync", TableSocket.table_resync): no seat
# is left on an old version until the next move. Built on channels-redis 4.3.0's
# classes (pinned in pyproject.toml); tests/scaleout/test_layer.py holds it to that.


class _Shard(pubsub.RedisSingleShardConnection):
    async def _do_receiving(self):
        """channels_redis' receive loop, noting when a failed subscription answers again."""
        failed = False
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    if failed:
                        failed = False
                        self.channel_layer.resync_tables()
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except BaseException:
                if not failed:
                    log.warning("the Redis channel layer lost its subscription; table sockets resync when it is back",
                                exc_info=True)
                failed = True
                await asyncio.sleep(1)


class _LoopLayer(pubsub.RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [_Shard(shard.host, self) for shard in self._shards]

    def resync_tables(self) -> None:
        """Tell every table socket of this process to send its table afresh."""
        from pigparlor.tables.broadcast import TABLE_GROUP_PREFIX

        tables = self._get_group_channel_name(TABLE_GROUP_PREFIX)  # what every table group's name starts with
        message = self.channel_layer.serialize({"type": "table.resync"})
        told = 0
        for group_channel, members in self.groups.items():
            if group_channel.startswith(tables):
                for channel in members:
                    queue = self.channels.get(channel)
                    if queue is not None:
                        queue.put_nowait(message)
                        told += 1
        log.info("the Redis channel layer is back: %d table sockets resync", told)


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    def _get_layer(self):
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
            return layer
