"""Sockets for tests, and waits on what they receive (a version, a frame), never on time.

A test reads a socket until a fact holds: ``until(socket, done)`` (``done(frames)`` true),
``frames_until(socket, version=N)`` (a frame showing version N or later), or
``answered(socket)``: everything the server sent before it answered a message sent now.
A consumer handles one message at a time, in order, so once that answer is in, every
frame caused by an earlier message is too: "nothing else came" is a fact, not a pause.
"""
from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

db = database_sync_to_async
WAIT_SECONDS = 30.0  # generous: a loaded 2-core machine can take seconds; a fact that never comes still fails
HTML_VERSION = re.compile(r'id="table-version"[^>]*data-version="(\d+)"')


async def open_socket(user, table_id: int, *, api: bool = False, invite: str | None = None, scope=None):
    """A socket straight onto a table consumer, as ``user`` (auth and routing are tested
    separately in tests/security); ``scope`` adds to the socket's scope (a ``session``, an
    ``api_token_id``)."""
    from pigparlor.api.consumers import ApiTableConsumer
    from pigparlor.tables.consumers import TableConsumer

    consumer = (ApiTableConsumer if api else TableConsumer).as_asgi()
    path = f"/ws/{'api/' if api else ''}tables/{table_id}/" + (f"?invite={invite}" if invite else "")
    communicator = WebsocketCommunicator(consumer, path)
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"args": (), "kwargs": {"table_id": table_id}}
    communicator.scope.update(scope or {})
    connected, _ = await communicator.connect(timeout=WAIT_SECONDS)
    assert connected
    return communicator


async def connect(path: str, user=None, *, headers=None, application=None):
    """``(socket, connected)``: a socket through routing to ``path``. With ``headers`` it goes
    through the whole site (origin check, session middleware: ``user`` is ignored then);
    otherwise through the URL routes alone, as ``user`` (anonymous by default)."""
    from channels.routing import URLRouter
    from django.contrib.auth.models import AnonymousUser

    if application is None:
        from pigparlor import asgi

        application = asgi.application if headers is not None else URLRouter(asgi.browser_sockets)
    communicator = WebsocketCommunicator(application, path, headers=headers or [])
    if headers is None:
        communicator.scope["user"] = user or AnonymousUser()
    connected, _ = await communicator.connect(timeout=WAIT_SECONDS)
    return communicator, connected


def frame_version(frame: str) -> int | None:
    """The table version a state frame shows: HTML's ``#table-version`` or JSON's ``"version"``."""
    found = HTML_VERSION.search(frame)
    if found:
        return int(found.group(1))
    if frame.startswith("{"):
        data = json.loads(frame)
        if data.get("type") == "state":
            return data.get("version")
    return None


def json_frames(frames: list[str]) -> list[dict]:
    return [json.loads(frame) for frame in frames]


async def receive(socket, timeout: float = WAIT_SECONDS) -> dict:
    """The socket's next output (a send or a close), waiting up to ``timeout`` s for it.
    (``receive_output``'s own timeout would cancel the consumer: poll with receive_nothing.)"""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while await socket.receive_nothing(timeout=min(0.1, max(0.001, deadline - loop.time()))):
        if loop.time() >= deadline:
            raise TimeoutError
    return await socket.receive_output(timeout=5)


async def until(socket, done, timeout: float = WAIT_SECONDS, *, closes: bool = False) -> list[str]:
    """Frames until ``done(frames)`` holds; fails with what came if it never does (or the
    socket closes first, unless ``closes``: then the close ends the wait too)."""
    frames: list[str] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done(frames):
        try:
            message = await receive(socket, max(0.0, deadline - loop.time()))
        except TimeoutError:
            raise AssertionError(f"waited {timeout:.0f} s for a frame that never came; got {frames!r}") from None
        if message["type"] == "websocket.send":
            frames.append(message.get("text") or message.get("bytes", b"").decode())
        elif message["type"] == "websocket.close":
            if closes:
                return frames
            raise AssertionError(f"the socket closed ({message.get('code')}) first; got {frames!r}")
    return frames


async def frames_until(socket, *, version: int, timeout: float = WAIT_SECONDS) -> list[str]:
    """Frames until one shows the table at ``version`` or later."""
    def reached(frames):
        return bool(frames) and (frame_version(frames[-1]) or -1) >= version

    return await until(socket, reached, timeout)


async def frame_with(socket, needle: str, timeout: float = WAIT_SECONDS) -> str:
    """The first frame containing ``needle`` (earlier ones are skipped)."""
    frames = await until(socket, lambda got: bool(got) and needle in got[-1], timeout)
    return frames[-1]


_probes = iter(range(10 ** 12, 10 ** 13))


async def answered(socket, *, api: bool, timeout: float = WAIT_SECONDS) -> list[str]:
    """Every frame the server sent before it answered a probe sent now (the answer left out):
    whatever an earlier message caused has all arrived. The probe changes nothing: a message
    of an unknown type, which both sockets refuse naming it (``api``: which socket it is).
    A socket whose rate limit is spent refuses the probe for that instead: not for those."""
    marker = f"probe-{next(_probes)}"
    await socket.send_to(text_data=json.dumps({"type": marker}))
    answer = f"unknown message type &#x27;{marker}&#x27;" if not api else f"unknown message type '{marker}'"
    frames = await until(socket, lambda frames: bool(frames) and answer in frames[-1], timeout)
    return frames[:-1]


async def up_to(socket, version: int, got: Sequence[str] = (), timeout: float = WAIT_SECONDS) -> list[str]:
    """More frames until the socket has shown ``version``: none if ``got`` (what it sent
    so far) already shows it."""
    if max((frame_version(frame) or 0 for frame in got), default=0) >= version:
        return []
    return await frames_until(socket, version=version, timeout=timeout)


async def opened(socket, timeout: float = WAIT_SECONDS) -> list[str]:
    """The frames a socket gets on connecting, up to and with the table as it is (its first
    state frame)."""
    return await until(socket, lambda frames: any(frame_version(frame) is not None for frame in frames), timeout)
