"""``broadcast.call_then_send`` (issue 14): the group messages a socket's database
call commits go out from the event loop after the call, and none is lost — not
when the call fails after a commit, not when its caller is cancelled mid-call."""
import asyncio
import threading

import pytest
from channels.layers import get_channel_layer
from django.db import transaction

from pigparlor.tables.broadcast import call_then_send, group_send

pytestmark = pytest.mark.django_db(transaction=True)


async def heard(channel: str, count: int) -> list[dict]:
    layer = get_channel_layer()
    return [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(count)]


@pytest.mark.asyncio
async def test_commit_hooks_send_after_the_call_from_the_event_loop():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("outbox-a", channel)
    loop_thread = threading.get_ident()
    sent_on = []

    def commit_twice():
        for number in (1, 2):
            with transaction.atomic():
                transaction.on_commit(lambda number=number: group_send("outbox-a", {"type": "t", "n": number}))
        # Queued, not sent yet: nothing has reached the group while the call runs
        # (the in-memory layer keeps a queue per channel).
        queue = layer.channels.get(channel)
        assert queue is None or queue.empty()
        sent_on.append(threading.get_ident())
        return "done"

    assert await call_then_send(commit_twice) == "done"
    assert sent_on and sent_on[0] != loop_thread
    assert [message["n"] for message in await heard(channel, 2)] == [1, 2]


@pytest.mark.asyncio
async def test_a_call_that_fails_after_a_commit_still_sends_what_committed():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("outbox-b", channel)

    def commit_then_fail():
        with transaction.atomic():
            transaction.on_commit(lambda: group_send("outbox-b", {"type": "t", "n": 1}))
        raise ValueError("after the commit")

    with pytest.raises(ValueError):
        await call_then_send(commit_then_fail)
    assert [message["n"] for message in await heard(channel, 1)] == [1]


@pytest.mark.asyncio
async def test_a_cancelled_caller_loses_no_message_committed_after_it_left():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("outbox-c", channel)
    started, release = threading.Event(), threading.Event()

    def slow_commit():
        started.set()
        assert release.wait(60), "the test never let the commit go on"  # a guard against a hang
        with transaction.atomic():
            transaction.on_commit(lambda: group_send("outbox-c", {"type": "t", "n": 1}))

    task = asyncio.ensure_future(call_then_send(slow_commit))
    await asyncio.to_thread(started.wait, 5)
    task.cancel()
    await asyncio.wait([task], timeout=60)  # the caller has gone on; the database call has not committed yet
    assert task.done() and not release.is_set()
    release.set()
    assert [message["n"] for message in await heard(channel, 1)] == [1]
    with pytest.raises(asyncio.CancelledError):
        await task


@pytest.mark.asyncio
async def test_a_slow_call_is_logged_with_where_its_time_went(settings, caplog, monkeypatch):
    """Issue 14: calls slower than PIGPARLOR_SLOW_MS say how long they waited for the
    ORM thread, ran there and took to send; quick ones say nothing."""
    import logging
    import time

    from pigparlor.tables import broadcast

    monkeypatch.setattr(broadcast, "_slow_lines", {"quiet_until": 0.0, "held": 0})  # no line just before
    settings.PIGPARLOR_SLOW_MS = 10
    with caplog.at_level(logging.INFO, logger="pigparlor.slow"):
        await call_then_send(lambda: None)
        assert not caplog.records

        def dawdle():
            time.sleep(0.03)

        await call_then_send(dawdle)
    [record] = caplog.records
    assert record.name == "pigparlor.slow"
    assert record.getMessage().startswith("slow dawdle: ") and "waited for the ORM thread" in record.getMessage()


@pytest.mark.asyncio
async def test_slow_calls_are_logged_at_most_once_a_second_with_a_count(settings, caplog, monkeypatch):
    """Issue 14: an overloaded server logging every slow call made itself slower; one
    line a second, the next one counting the calls held back."""
    import logging
    import time

    from pigparlor.tables import broadcast

    monkeypatch.setattr(broadcast, "_slow_lines", {"quiet_until": 0.0, "held": 0})
    settings.PIGPARLOR_SLOW_MS = 1

    def dawdle():
        time.sleep(0.005)

    with caplog.at_level(logging.INFO, logger="pigparlor.slow"):
        for _ in range(3):
            await call_then_send(dawdle)
        assert len(caplog.records) == 1 and "more slow calls" not in caplog.records[0].getMessage()
        broadcast._slow_lines["quiet_until"] = 0.0  # a second later
        await call_then_send(dawdle)
    assert len(caplog.records) == 2
    assert caplog.records[1].getMessage().endswith("; 2 more slow calls since the last line")
