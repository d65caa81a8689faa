"""The embedded channel layer (pigparlor/layers.py): Channels' in-memory layer that
cleans expired messages at most once a second instead of on every receive — and
still cleans them."""
import asyncio
import threading
import time

from pigparlor.layers import InMemoryChannelLayer


def run(coroutine_function):
    """Each test on a loop of its own in a thread of its own: whatever event loop
    another test left running on this worker's main thread, the layer is tested alone."""
    def test():
        failures = []
        thread = threading.Thread(target=lambda: failures.extend(_run(coroutine_function)))
        thread.start()
        thread.join(30)
        assert not thread.is_alive(), "the layer test hung"
        if failures:
            raise failures[0]
    test.__name__ = coroutine_function.__name__
    return test


def _run(coroutine_function) -> list[BaseException]:
    try:
        asyncio.run(coroutine_function())
    except BaseException as failure:  # handed to the test's own thread
        return [failure]
    return []


@run
async def test_messages_and_groups_work_as_before():
    layer = InMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("pigs", channel)
    await layer.group_send("pigs", {"type": "oink", "n": 1})
    await layer.send(channel, {"type": "oink", "n": 2})
    assert [(await layer.receive(channel))["n"] for _ in range(2)] == [1, 2]


@run
async def test_expired_messages_still_go_and_take_their_channel_out_of_its_groups():
    layer = InMemoryChannelLayer(expiry=0.05)
    layer.CLEAN_EVERY_SECONDS = 0.2
    stuck, listener = await layer.new_channel(), await layer.new_channel()
    for channel in (stuck, listener):
        await layer.group_add("pigs", channel)
    await layer.group_send("pigs", {"type": "oink"})
    assert await layer.receive(listener) == {"type": "oink"}  # cleans now: nothing has expired yet
    await asyncio.sleep(0.1)  # the stuck channel's message has expired, but the last clean was just now
    await layer.send(listener, {"type": "oink"})
    await layer.receive(listener)
    assert stuck in layer.groups["pigs"]
    time.sleep(0.2)
    await layer.send(listener, {"type": "oink"})
    await layer.receive(listener)
    assert stuck not in layer.groups["pigs"] and stuck not in layer.channels
