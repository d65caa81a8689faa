"""The protocol fuzz test (issue 9): random and mutated frames on both table
sockets, for every game, through the real ASGI app (session cookie and origin
for the browser socket, a bearer token for the JSON API's).

Each game gets a started table with the fuzzer in seat 0 and bots in the
others. Hypothesis sends frames: real legal actions of the fuzzer's seat with
their keys, values and types mutated (and now and then sent as they are, so
the game moves on), control messages, random JSON, random text and bytes,
deep nesting and oversized frames. After every frame:

- no exception escaped the consumer, nothing closed the socket, nothing was
  logged at ERROR (0 server errors);
- a refused frame left the table's version, state and action log as they were;
- after every example the socket still answers a snapshot request (0 crashed sockets).

Each frame is followed by a sentinel message whose refusal names it, so every
reply is read without waiting for the socket to go quiet. The clock does not
run on its own here: bots move only when the test steps it.
"""
from __future__ import annotations

import asyncio
import json
import logging

import pytest
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games.core import legal_match
from games.core.registry import all_games, get_game
from pigparlor.api.tokens import create_token
from pigparlor.asgi import application
from pigparlor.tables import services
from pigparlor.tables.models import RUNNING, ActionLog
from tests.security.test_table_sockets import session_cookie
from tests.support.sockets import WAIT_SECONDS, db
from tests.support.tables import make_user, step_clock, table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GAMES = [game.slug for game in all_games()]
EXAMPLES = 90  # per game and transport, 1-4 frames each: about 2,000 frames in all
SEAT = 0
REPLY_SECONDS = 20  # only a limit for a stuck socket; nothing waits this long normally


# -- frames --------------------------------------------------------------------
scalars = (st.none() | st.booleans() | st.integers() | st.integers(-10 ** 40, 10 ** 40)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
           | st.sampled_from(["play", "act", "snapshot", "pong", "clock", "hand", "slap", "", "0", "1e3"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
junk_keys = st.sampled_from(["type", "version", "action", "card", "rank", "count", "cards", "pigs", "pile", "cry",
                             "seat", "id", "control", "HEADERS", "rtt_ms", "reaction_ms", "from", "food"]) | st.text(max_size=6)


def dumps(value) -> str:
    return json.dumps(value, allow_nan=True)


def odd_numbers(value: int, junk) -> list:
    """Values that Python may call equal to ``value`` but JSON does not (the first
    three: near misses), or wild ones."""
    return [float(value), value == 1 if value in (0, 1) else str(value), str(value), [value], {"n": value}, None,
            -value, value + 1, 10 ** 30, 2 ** 63, 0.5, junk]


# A change to a dict: (how, which key, a key to add, a value to put, which odd value).
changes = st.tuples(st.sampled_from(["replace", "replace", "drop", "add"]), st.integers(0, 99), junk_keys, json_values,
                    st.integers(0, 11))
# What to do to a legal action: drawn without looking at the table, so every
# example draws the same way whatever the game's state (Hypothesis needs that).
plans = st.fixed_dictionaries({
    "pick": st.integers(0, 999), "mutate": st.integers(0, 9), "near": st.integers(0, 99),
    "action": st.lists(changes, min_size=1, max_size=3), "envelope": st.lists(changes, min_size=1, max_size=2),
    "cut": st.tuples(st.integers(0, 10 ** 4), st.integers(0, 8), st.text(max_size=4)),
})


def changed(original: dict, edits) -> dict:
    result = dict(original)
    for how, pick, key, junk, odd in edits:
        if how == "add" or not result:
            result[key] = junk
            continue
        chosen = sorted(result)[pick % len(result)]
        if how == "drop":
            del result[chosen]
        elif isinstance(result[chosen], int) and not isinstance(result[chosen], bool):
            result[chosen] = odd_numbers(result[chosen], junk)[odd]
        else:
            result[chosen] = [junk, [result[chosen]], {"v": result[chosen]}][odd % 3]
    return result


def near_miss(action: dict, pick: int) -> dict:
    """One whole number of the action (its list items too) sent as a float, a bool or a string."""
    numbers = [(key, None) for key, value in action.items() if type(value) is int]
    numbers += [(key, index) for key, value in action.items() if isinstance(value, list)
                for index, item in enumerate(value) if type(item) is int]
    if not numbers:
        return {**action, "type": [action["type"]]}
    key, index = numbers[pick % len(numbers)]
    value = action[key] if index is None else action[key][index]
    odd = odd_numbers(value, None)[pick // len(numbers) % 3]
    if index is None:
        return {**action, key: odd}
    return {**action, key: [*action[key][:index], odd, *action[key][index + 1:]]}


def legal_frame(plan: dict, legal: list[dict], version: int, api: bool) -> str:
    """A real legal action of the seat in its envelope, mutated as ``plan`` says (or, now and then, not)."""
    action = legal[plan["pick"] % len(legal)] if legal else {"type": "play"}
    mutate = plan["mutate"]
    # 0 as it is, 1-3 one near miss, 4-5 the action changed, 6-7 the envelope, 8 the other form, 9 a splice
    if 1 <= mutate <= 3:
        action = near_miss(action, plan["near"])
    elif 4 <= mutate <= 7:
        action = changed(action, plan["action"][:1] if mutate >= 6 else plan["action"])
    envelope = ({"type": "act", "version": version, "action": action} if api else
                {"version": str(version), "action": dumps(action), "HEADERS": {"HX-Request": "true"}})
    if mutate in (6, 7):
        envelope = changed(envelope, plan["envelope"])
    elif mutate == 8:  # the action in the other transport's form: a JSON string on the API, an object in a form
        envelope["action"] = dumps(action) if api else action
    text = dumps(envelope)
    if mutate == 9:  # a character-level cut and splice of the real frame
        start, length, insert = plan["cut"]
        start %= len(text) + 1
        text = text[:start] + insert + text[start + length:]
    return text


controls = st.sampled_from([
    '{"type": "snapshot"}', '{"type": "pong", "id": 1}', '{"type": "pong", "id": 1e308}', '{"type": "pong"}',
    '{"type": "pong", "id": [1]}', '{"control": "reclaim"}', '{"control": "reclaim", "HEADERS": {}}',
    '{"type": "act"}', '{"type": "act", "version": null, "action": null}', '{"type": "ping", "id": 2}',
    '"snapshot"', "[]", "{}", "null", "0", '""', "",
]).map(lambda text: ("text", text))
random_json = json_values.map(lambda value: ("text", dumps(value)))
random_objects = st.dictionaries(junk_keys, json_values, max_size=5).map(lambda value: ("text", dumps(value)))
random_text = st.text(max_size=120).map(lambda text: ("text", text))
random_bytes = st.binary(max_size=120).map(lambda data: ("bytes", data))
deep = st.builds(lambda opener, depth: ("text", opener * depth),
                 st.sampled_from(["[", '{"a":', '[{"type":', '{"action":[']), st.integers(1, 3000))
oversized = st.integers(4000, 12000).map(lambda size: ("text", dumps({"type": "snapshot", "pad": "x" * size})))


planned = plans.map(lambda plan: ("plan", plan))
frames = st.one_of(planned, planned, planned, planned, planned, planned, controls, random_json, random_objects,
                   random_objects, random_text, random_bytes, deep, oversized)


# -- the table and its socket ----------------------------------------------------
class ServerErrors(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


class Fuzzed:
    """One seat at a started table of ``slug``, on one transport; a new table when a game ends."""

    def __init__(self, slug: str, api: bool):
        self.slug, self.api = slug, api
        self.engine = get_game(slug).engine
        self.sentinels = 0
        self.counts = {"accepted": 0, "refused": 0}
        self.socket: WebsocketCommunicator | None = None

    async def open_table(self):
        if self.socket is not None:
            await self.socket.disconnect()
        user = self.user
        seats = max(self.engine.min_seats, 3) if self.engine.max_seats >= 3 else self.engine.min_seats
        created = await db(services.create_table)(host=user, game=self.slug, seats=seats, bots=seats - 1)
        self.table_id = created.pk
        if self.api:
            headers = [(b"authorization", f"Bearer {self.token}".encode())]
            path = f"/ws/api/tables/{self.table_id}/"
        else:
            headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", self.cookie)]
            path = f"/ws/tables/{self.table_id}/"
        self.socket = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await self.socket.connect(timeout=WAIT_SECONDS)
        assert connected
        await self.replies()
        await self.until_seat_may_act()

    async def start(self, name: str):
        self.user = await db(make_user)(name)
        self.token = await db(create_token)(self.user)
        self.cookie = await db(session_cookie)(self.user)
        await self.open_table()

    def record(self):
        current = table(self.table_id)
        return (current.version, current.status, current.state,
                list(ActionLog.objects.filter(table=current).order_by("version").values_list("version", "action")))

    def legal(self):
        current = table(self.table_id)
        if current.status != RUNNING:
            return current, []
        return current, self.engine.legal_actions(self.engine.load(current.state), SEAT)

    async def until_seat_may_act(self):
        """Let the bots and timers play until the fuzzer's seat has a legal action (a new table when it ends)."""
        for _ in range(400):
            current, legal = await db(self.legal)()
            if current.status != RUNNING:
                await self.open_table()
                return
            if legal:
                self.version, self.actions = current.version, legal
                return
            await db(step_clock)(self.table_id)
        raise AssertionError(f"{self.slug}: seat {SEAT} never got a move")

    async def send(self, kind: str, payload) -> None:
        # send_input, not send_to: that refuses empty frames, which a real client can send.
        await self.socket.send_input({"type": "websocket.receive", kind: payload})

    async def replies(self) -> list:
        """Every frame up to the reply to a fresh sentinel, which the socket answers after
        whatever came before it: an unknown type (API), a stale version no table has (browser)."""
        self.sentinels += 1
        marker = 10 ** 12 + self.sentinels
        if self.api:
            await self.socket.send_to(text_data=json.dumps({"type": f"sentinel-{marker}"}))
            endings = (f"unknown message type 'sentinel-{marker}'",)
        else:
            await self.socket.send_to(text_data=json.dumps({"version": str(marker), "action": '{"type": "x"}'}))
            # Only the frame just before can have ended the game: then this one's answer.
            endings = (f"not {marker}", "The game is over.")  # the page's sentence for GAME_OVER
        got = []
        while True:
            message = await self.socket.receive_output(timeout=REPLY_SECONDS)
            assert message["type"] == "websocket.send", f"the socket closed: {message!r}"
            text = message["text"]
            if any(ending in text for ending in endings):
                return got
            got.append(text)

    def refusals(self, frames: list[str]) -> list[str]:
        if self.api:
            return [frame for frame in frames if frame.startswith('{"type": "error"')]
        return [frame for frame in frames if 'id="table-error"' in frame and 'data-code="' in frame]

    def is_state(self, frame: str) -> bool:
        return frame.startswith('{"type":"state"') if self.api else 'data-base=""' in frame

    async def exchange(self, kind: str, payload) -> None:
        before = await db(self.record)()
        await self.send(kind, payload)
        frames = await self.replies()
        after = await db(self.record)()
        refused = self.refusals(frames)
        if refused:
            assert after == before, f"refused yet changed: {payload!r} -> {refused}"
            self.counts["refused"] += 1
        elif after != before:
            await db(self.check_accepted)(before)
            self.counts["accepted"] += 1
        if after != before:
            await self.until_seat_may_act()

    def check_accepted(self, before) -> None:
        """An accepted frame moved the table exactly one version, by a legal action of this seat."""
        version, _, _, log = self.record()
        assert version == before[0] + 1 and len(log) == len(before[3]) + 1
        entry = ActionLog.objects.get(table_id=self.table_id, version=version)
        assert entry.seat == SEAT
        if not self.engine.realtime:  # Oink!'s slaps may add reaction_ms; its engine checks those itself
            assert legal_match(entry.action, self.actions) is not None, entry.action
        self.engine.load(table(self.table_id).state)

    async def answers_snapshot(self) -> None:
        await self.socket.send_to(text_data='{"type": "snapshot"}')
        frames = await self.replies()
        assert any(self.is_state(frame) for frame in frames), frames


# No shrinking: the table moves on between examples, so a failure is reported as found.
fuzzing = hypothesis_settings(
    max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


@pytest.mark.parametrize("api", [True, False], ids=["api", "browser"])
@pytest.mark.parametrize("slug", GAMES)
async def test_no_frame_crashes_a_socket_or_changes_a_table_it_was_refused_at(slug, api, settings):
    settings.PIGPARLOR_WS_BURST = settings.PIGPARLOR_WS_RATE = 10 ** 6  # the rate limit is tested elsewhere
    errors = ServerErrors()
    logging.getLogger().addHandler(errors)
    loop = asyncio.get_running_loop()
    fuzzed = Fuzzed(slug, api)
    try:
        await fuzzed.start(f"fuzzer-{slug}")

        def run(coroutine):
            return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=120)

        @fuzzing
        @given(data=st.data())
        def fuzz(data):
            try:
                for _ in range(data.draw(st.integers(1, 4))):
                    kind, payload = data.draw(frames)
                    if kind == "plan":
                        kind, payload = "text", legal_frame(payload, fuzzed.actions, fuzzed.version, api)
                    run(fuzzed.exchange(kind, payload))
                    assert not errors.records, (payload, [record.getMessage() for record in errors.records])
                run(fuzzed.answers_snapshot())
            except Exception as failure:
                failures.append(failure)
                raise

        failures = []
        try:
            await asyncio.to_thread(fuzz)
        except Exception:
            if failures:  # the failure as found, not Hypothesis's replay of it at a table that has moved on
                raise failures[0] from None
            raise
        assert not fuzzed.socket.future.done(), "the consumer ended"
    finally:
        logging.getLogger().removeHandler(errors)
        if fuzzed.socket is not None:
            await fuzzed.socket.disconnect()
    assert not errors.records
    # Not vacuous: junk was refused, and mutated legal actions reached the rules (some went through).
    assert fuzzed.counts["refused"] >= EXAMPLES and fuzzed.counts["accepted"] > 0, fuzzed.counts

