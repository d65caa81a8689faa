"""Helpers for the table tests: users, sockets straight onto the consumers, and
a driver that fast-forwards the clock instead of sleeping."""
from __future__ import annotations

import asyncio
import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games.core.playout import play
from pigparlor.accounts.models import Profile
from pigparlor.api.consumers import ApiTableConsumer
from pigparlor.tables import clock, replay, timing
from pigparlor.tables.consumers import TableConsumer
from pigparlor.tables.models import RUNNING, Seat, Table
from pigparlor.tables.registry import get_game
from pigparlor.tables.rendering import Snapshot

db = database_sync_to_async


def make_user(name: str):
    return get_user_model().objects.create_user(username=name, password="a-long-test-password")


async def open_socket(user, table_id: int, *, api: bool = False, invite: str | None = None, scope=None):
    """A socket straight onto a table consumer, as ``user`` (auth and routing are
    tested separately in test_security); ``scope`` adds to the socket's scope
    (a ``session``, an ``api_token_id``)."""
    consumer = (ApiTableConsumer if api else TableConsumer).as_asgi()
    path = f"/ws/{'api/' if api else ''}tables/{table_id}/" + (f"?invite={invite}" if invite else "")
    communicator = WebsocketCommunicator(consumer, path)
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"args": (), "kwargs": {"table_id": table_id}}
    communicator.scope.update(scope or {})
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def frame_with(socket, needle: str, limit: int = 20) -> str:
    """The first frame containing ``needle`` (earlier ones are skipped)."""
    for _ in range(limit):
        frame = await socket.receive_from(timeout=10)
        if needle in frame:
            return frame
    raise AssertionError(f"no frame with {needle!r}")


async def drain(communicator, settle: float = 0.05) -> list[str]:
    """Every frame the socket has received until it stays quiet for ``settle`` s."""
    frames = []
    # receive_output's own timeout would cancel the consumer: wait with receive_nothing.
    while not await communicator.receive_nothing(timeout=settle):
        message = await communicator.receive_output(timeout=5)
        if message["type"] == "websocket.send":
            frames.append(message["text"])
    return frames


def json_frames(frames: list[str]) -> list[dict]:
    return [json.loads(frame) for frame in frames]


def table(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def step_clock(table_id: int) -> bool:
    """Run what the clock has due; if nothing is due yet, skip time ahead to the
    table's next wake-up first. False once the table has nothing left to wake for."""
    current = table(table_id)
    if current.status != RUNNING or current.wake_at_ms is None:
        return False
    gap = current.wake_at_ms - timing.epoch_ms()
    if gap > 0:
        timing.skip_ahead(gap)
    clock.run_due()
    return True


def state_at(table_id: int, version: int):
    """The engine state a table had at ``version``, replayed from its seed and log."""
    return replay.rebuild(table(table_id), cached=False).state(version)


async def receive_until(communicator, done, timeout: float = 10.0) -> list[str]:
    """Frames until ``done(frames)`` holds (the server works in other threads:
    under load a fixed pause is not enough)."""
    frames: list[str] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while not done(frames):
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"gave up waiting; got {frames!r}"
        if await communicator.receive_nothing(timeout=min(left, 0.05)):
            continue
        message = await communicator.receive_output(timeout=5)
        if message["type"] == "websocket.send":
            frames.append(message["text"])
    return frames


def bot_game_snapshots(slug: str, seed: int, name: str = "Player {}") -> list:
    """``rendering.Snapshot``s of every state of a 4-seat bot game (sensible bots),
    with no database: an unsaved table, and seats whose players carry their profile
    as ``seats_of`` loads them (display names from ``name``). For the render tests
    and ``bench/render.py``."""
    game = get_game(slug)
    table = Table(pk=1, game=slug, seats=4, status=RUNNING, seed=seed, rated=True,
                  options=game.engine.clean_options(None), started_at_ms=0, changed_at_ms=0)
    users = [get_user_model()(pk=index + 1, username=f"player{index + 1}") for index in range(4)]
    for user in users:
        user.profile = Profile(user=user, display_name=name.format(user.pk))
    seats = tuple(Seat(table=table, index=index, user=user, connections=1) for index, user in enumerate(users))
    states = []
    play(game.engine, [game.bots["sensible"]] * 4, seed, table.options, on_step=lambda state, *_: states.append(state))
    snapshots = []
    for version, state in enumerate(states, start=1):
        at = Table(**{field.attname: getattr(table, field.attname) for field in Table._meta.concrete_fields})
        at.version = version
        snapshots.append(Snapshot(at, seats, state))
    return snapshots
