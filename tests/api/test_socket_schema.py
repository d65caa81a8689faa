"""Every frame of the JSON table socket against its published JSON Schema
(/api/schema/socket/): a seeded game of each registered game, played to its final
state over the socket by two players and watched by a spectator, with every kind
of message a client sends (act, snapshot, pong, salt, chat, mute, unmute, report)
and every kind the server sends (state, error of each code, ping, salted, chat,
a removed chat line, chat_status, mutes, report). Every message sent is checked
against ``#/$defs/ClientMessage`` first, every frame received against
``#/$defs/ServerMessage``; messages the server refuses are refused by the schema too.

The clock is skipped ahead instead of waited for (as in tests/tables/test_leaks.py).
"""
import json
import random

import pytest

from games.core.registry import all_games, get_game
from pigparlor.moderation import services as moderation
from pigparlor.tables import services
from pigparlor.tables.models import FINISHED
from tests.moderation.helpers import make_moderator
from tests.support.schemas import _socket_validator, check_frame
from tests.support.sockets import answered, db, frame_version, open_socket, opened, until
from tests.support.tables import make_user, next_step, table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GAMES = sorted(game.slug for game in all_games())
SEED = 20261203


class Table:
    """The sockets at one table, every frame each received, and every message sent."""

    def __init__(self):
        self.sockets: dict = {}
        self.frames: dict = {}
        self.sent: list[dict] = []
        self.pinged: set = set()

    async def open(self, viewer, user, table_id):
        self.sockets[viewer] = await open_socket(user, table_id, api=True)
        self.frames[viewer] = list(await opened(self.sockets[viewer]))

    async def send(self, viewer, message: dict, *, valid: bool = True):
        """Send ``message``; the schema must accept it (``valid``) or refuse it."""
        if valid:
            check_frame(message, "ClientMessage")
        else:
            assert not _socket_validator("ClientMessage").is_valid(message), f"the schema accepts {message!r}"
        self.sent.append(message)
        await self.sockets[viewer].send_to(text_data=json.dumps(message))

    async def exchange(self, viewer, message: dict, *, valid: bool = True) -> list[dict]:
        """Send ``message`` and return the frames it brought this socket."""
        await self.send(viewer, message, valid=valid)
        got = [json.loads(frame) for frame in await answered(self.sockets[viewer], api=True)]
        self.frames[viewer] += [json.dumps(frame) for frame in got]
        await self.pong(viewer, got)
        return got

    async def pong(self, viewer, got: list[dict]):
        for frame in got:
            if frame["type"] == "ping" and (viewer, frame["id"]) not in self.pinged:
                self.pinged.add((viewer, frame["id"]))
                await self.send(viewer, {"type": "pong", "id": frame["id"]})

    async def collect(self, viewer, frames: list[str]):
        self.frames[viewer] += frames
        await self.pong(viewer, [json.loads(frame) for frame in frames])


def kinds(frames) -> set[str]:
    return {frame["type"] + (f":{frame['code']}" if frame["type"] == "error" else "") for frame in frames}


@pytest.mark.parametrize("slug", GAMES)
async def test_every_frame_of_a_played_game_matches_the_socket_schema(slug, settings):
    settings.PIGPARLOR_WS_BURST, settings.PIGPARLOR_WS_RATE = 10_000, 10_000.0  # a test acts faster than people
    engine = get_game(slug).engine
    seats = min(max(engine.min_seats, 3), engine.max_seats)
    ana, ben, carl = [await db(make_user)(name) for name in ("ana", "ben", "carl")]
    moderator = await db(make_moderator)()
    created = await db(services.create_table)(host=ana, game=slug, seats=seats, bots=seats - 2, seed=SEED)
    at = Table()
    await at.open(0, ana, created.pk)
    await at.open(None, carl, created.pk)

    # Before the start: salt, an act too early, a snapshot, chat and its moderation.
    assert "salted" in kinds(await at.exchange(0, {"type": "salt", "salt": "0123456789abcdef"}))
    assert "error:illegal" in kinds(await at.exchange(0, {"type": "act", "version": 1, "action": {"type": "go"}}))
    assert "state" in kinds(await at.exchange(0, {"type": "snapshot"}))
    line = [frame for frame in await at.exchange(0, {"type": "chat", "text": "good luck"}) if frame["type"] == "chat"]
    assert "mutes" in kinds(await at.exchange(None, {"type": "mute", "username": "ana"}))
    assert "mutes" in kinds(await at.exchange(None, {"type": "unmute", "username": "ana"}))
    report = {"type": "report", "username": "ana", "reason": "abuse", "comment": "rude", "line": line[0]["id"]}
    assert "report" in kinds(await at.exchange(None, report))
    assert "error:rate_limited" in kinds(await at.exchange(None, report))
    await db(moderation.remove_chat_line)(moderator, line[0]["id"], "abuse")
    await at.collect(None, await until(at.sockets[None], lambda got: any('"removed":true' in f for f in got)))
    await db(moderation.time_out)(moderator, carl.pk, 10, "shouting")
    await at.collect(None, await until(at.sockets[None], lambda got: any('"chat_status"' in f for f in got)))
    assert "error:forbidden" in kinds(await at.exchange(None, {"type": "chat", "text": "hey"}))
    # Refused by the server and by the schema alike.
    for refused in ({"type": "chat", "text": ""}, {"type": "chat", "text": "hi", "colour": "red"},
                    {"type": "act", "version": 1}, {"type": "dance"}, {"type": "mute"},
                    {"type": "report", "username": "ana", "reason": "boredom"}):
        assert "error:bad_request" in kinds(await at.exchange(0, refused, valid=False)), refused

    # The start, then the whole game; a spectator's act and a stale one on the way.
    await db(services.join_table)(created, ben)
    await at.open(1, ben, created.pk)
    assert "error:forbidden" in kinds(await at.exchange(None, {"type": "act", "version": 2, "action": {"type": "go"}}))
    rng, stale_sent = random.Random(SEED), False
    for _ in range(5000):
        step = await db(next_step)(created.pk, rng)
        if step is None:
            break
        if step == "clock":
            continue
        seat, version, action = step
        if not stale_sent and version > 2:
            stale_sent = True
            got = await at.exchange(seat, {"type": "act", "version": version - 1, "action": action})
            assert kinds(got) & {"error:stale", "error:illegal"} or engine.realtime, got
        await at.send(seat, {"type": "act", "version": version, "action": action})
        await at.collect(seat, await until(at.sockets[seat], lambda got, version=version: any(
            (frame_version(frame) or 0) > version or '"type": "error"' in frame for frame in got)))
    assert (await db(table)(created.pk)).status == FINISHED
    for viewer in at.sockets:
        await at.collect(viewer, await answered(at.sockets[viewer], api=True))
        await at.sockets[viewer].disconnect()

    received = {viewer: [check_frame(frame) for frame in texts] for viewer, texts in at.frames.items()}
    for viewer, frames in received.items():
        states = [frame for frame in frames if frame["type"] == "state"]
        assert "outcome" in states[-1] and len({frame["version"] for frame in states}) > 3, (viewer, len(states))
    every = set().union(*(kinds(frames) for frames in received.values()))
    assert {"state", "salted", "chat", "mutes", "report", "chat_status", "error:bad_request", "error:illegal",
            "error:forbidden", "error:rate_limited"} <= every, every
    if engine.realtime:
        assert "ping" in every and any(message["type"] == "pong" for message in at.sent)
    assert any(frame.get("removed") for frame in received[None] if frame["type"] == "chat")


async def test_a_table_a_moderator_closes_ends_with_a_final_state_that_matches(settings):
    ana, ben = [await db(make_user)(name) for name in ("ana", "ben")]
    moderator = await db(make_moderator)()
    created = await db(services.create_table)(host=ana, game="snout", seats=2, bots=1, seed=SEED)
    socket = await open_socket(ben, created.pk, api=True)
    frames = list(await opened(socket))
    await db(moderation.close_table)(moderator, created.pk, "cheating")
    frames += await until(socket, lambda got: any('"reason"' in frame for frame in got))
    final = [check_frame(frame) for frame in frames][-1]
    assert final["status"] == "aborted" and final["legal"] == [] and final["reason"].endswith("cheating")
    await socket.disconnect()
