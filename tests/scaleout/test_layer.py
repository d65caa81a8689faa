"""The Redis channel layer (pigparlor/layers.py): group messages over Redis's
publish/subscribe, and when a process's subscription is cut (Redis restarting)
and answers again, every table socket of that process is told to resync — what
was published meanwhile never reached it. Other sockets are told nothing."""
import asyncio
import secrets

import pytest
import redis

from pigparlor.layers import RedisPubSubChannelLayer
from pigparlor.tables.broadcast import group_name, user_group

pytestmark = pytest.mark.scaleout


async def received(layer, channel, timeout_s=10.0):
    return await asyncio.wait_for(layer.receive(channel), timeout_s)


def cut_subscription(url: str, layer) -> None:
    """Close this layer's subscribing connection from Redis's side, as a restart does."""
    connection = layer._get_layer()._shards[0]._pubsub.connection
    host, port = connection._writer.get_extra_info("sockname")[:2]
    assert redis.Redis.from_url(url).client_kill_filter(_type="pubsub", addr=f"{host}:{port}") == 1


def test_a_cut_subscription_resyncs_the_table_sockets_once_it_answers_again(scaleout_services):
    _, url = scaleout_services

    async def scenario():
        layer = RedisPubSubChannelLayer(hosts=[{"address": url}], prefix=f"layer-test-{secrets.token_hex(4)}")
        seat = await layer.new_channel()
        lobby = await layer.new_channel()
        await layer.group_add(group_name(7), seat)
        await layer.group_add(user_group(3), lobby)
        await layer.group_send(group_name(7), {"type": "table.changed", "version": 2, "seats_rev": 1})
        assert await received(layer, seat) == {"type": "table.changed", "version": 2, "seats_rev": 1}

        cut_subscription(url, layer)
        assert await received(layer, seat) == {"type": "table.resync"}  # within the retry's second or two
        # Subscribed again: group messages flow as before; the other socket was told nothing.
        await layer.group_send(group_name(7), {"type": "table.changed", "version": 3, "seats_rev": 1})
        assert (await received(layer, seat))["version"] == 3
        await layer.group_send(user_group(3), {"type": "chat.status", "text": "hi"})
        assert await received(layer, lobby) == {"type": "chat.status", "text": "hi"}
        await layer.flush()

    asyncio.run(scenario())
