"""Refusals are quiet: a client's mistake is a ``forbidden`` or ``bad_request``
answer, never an ERROR line or a traceback in the log; and a broadcast that
races a socket's close (Daphne: "Attempt to send on a closed protocol") is
dropped, not an error. (The moderators' refused URLs: tests/moderation.)"""
import asyncio
import logging

import pytest
from autobahn.exception import Disconnected
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from pigparlor.api.consumers import ApiTableConsumer
from pigparlor.lobby.routing import websocket_urlpatterns as lobby_sockets
from pigparlor.tables import services
from pigparlor.tables.broadcast import user_group
from tests.support.sockets import db, json_frames, open_socket, until
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def no_errors(caplog) -> None:
    noisy = [record for record in caplog.records if record.levelno >= logging.ERROR or record.exc_info]
    assert not noisy, [record.getMessage() for record in noisy]


@pytest.mark.asyncio
async def test_an_anonymous_watchers_salt_is_forbidden_without_a_traceback(caplog):
    ana = await db(make_user)("ana")
    table = await db(services.create_table)(host=ana, game="pigpile", seats=3)
    watcher = await open_socket(AnonymousUser(), table.pk)
    await until(watcher, lambda got: got)  # its first frame
    with caplog.at_level(logging.INFO):
        await watcher.send_json_to({"type": "salt", "salt": "watcher-salt-1"})
        frames = await until(watcher, lambda got: any("data-code=" in frame for frame in got))
    assert 'data-code="forbidden"' in frames[-1] and "watchers have no seat" in frames[-1]
    assert await db(lambda: type(table).objects.get(pk=table.pk).salts)() == table.salts
    no_errors(caplog)
    await watcher.disconnect()


@pytest.mark.asyncio
async def test_a_broadcast_that_races_the_close_is_dropped_quietly(caplog):
    """Daphne raises ``Disconnected`` for a send once the peer's close has begun;
    the socket takes it as closed, sends nothing more, and ends cleanly."""
    ana, ben = await db(make_user)("ana"), await db(make_user)("ben")
    table = await db(services.create_table)(host=ana, game="pigpile", seats=3, bots=1, options={"turn_seconds": 30})
    closing, refused = asyncio.Event(), asyncio.Event()
    application = ApiTableConsumer.as_asgi()

    async def daphne_like(scope, receive, send):
        async def send_or_refuse(message):
            if closing.is_set() and message["type"] == "websocket.send":
                refused.set()
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)
        return await application(scope, receive, send_or_refuse)

    socket = WebsocketCommunicator(daphne_like, f"/ws/api/tables/{table.pk}/")
    socket.scope.update({"user": ana, "url_route": {"args": (), "kwargs": {"table_id": table.pk}}})
    assert (await socket.connect(timeout=10))[0]
    assert json_frames(await until(socket, lambda got: got))[0]["type"] == "state"
    with caplog.at_level(logging.INFO):
        closing.set()
        await db(services.join_table)(table, ben)  # the table starts: every socket at it is told
        await asyncio.wait_for(refused.wait(), timeout=10)
        await socket.disconnect()  # raises if the consumer crashed
    no_errors(caplog)


@pytest.mark.asyncio
async def test_a_waiting_room_ignores_the_chat_events_its_users_group_carries(caplog):
    """A chat timeout or mute goes to every socket of the player (their user group),
    the waiting room's too, which has no chat: it ignores them and goes on."""
    ana, ben = await db(make_user)("ana"), await db(make_user)("ben")
    table = await db(services.create_table)(host=ana, game="pigpile", seats=3)
    room = WebsocketCommunicator(URLRouter(lobby_sockets), f"/ws/lobby/tables/{table.pk}/")
    room.scope["user"] = ana
    assert (await room.connect(timeout=10))[0]
    await room.receive_from(timeout=10)
    with caplog.at_level(logging.INFO):
        for event in ("chat.status", "chat.mutes"):
            await get_channel_layer().group_send(user_group(ana.pk), {"type": event})
        await db(services.join_table)(table, ben)  # after them on the same channel: the room still renders
        assert "ben" in await room.receive_from(timeout=10)
    no_errors(caplog)
    await room.disconnect()
