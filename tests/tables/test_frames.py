"""Frames that once crashed a table socket (issue 9, item 4): each now gets a
refusal on the socket it came from, changes nothing, and the socket answers the
next message as before."""
import json
import logging

import pytest

from pigparlor.tables import rendering, services
from tests.support.sockets import answered, db, json_frames, open_socket, opened, until
from tests.support.tables import make_user
from tests.tables.test_consumers import api_error, first_legal, form_message, log_and_state, page_error

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def seated(count_game, api: bool):
    ana = await db(make_user)("ana")
    created = await db(services.create_table)(host=ana, game="countgame", seats=2, bots=1)
    socket = await open_socket(ana, created.pk, api=api)
    await opened(socket)
    return socket, created.pk, ana


async def refusals(socket, api: bool) -> list[tuple[str, str]]:
    """The (code, message) of every refusal the socket sent before it answered a probe."""
    frames = await until(socket, api_error if api else page_error) + await answered(socket, api=api)
    if api:
        return [(frame["code"], frame["message"]) for frame in json_frames(frames) if frame["type"] == "error"]
    return [(frame.split('data-code="')[1].split('"')[0], frame.split('">')[1].split("</div>")[0])
            for frame in frames if 'data-code="' in frame]


async def still_answers(socket, api: bool) -> None:
    await socket.send_to(text_data='{"type": "snapshot"}')
    if api:
        frames = await until(socket, lambda got: any(json.loads(f)["type"] == "state" for f in got))
    else:
        frames = await until(socket, lambda got: any('data-base=""' in f for f in got))
    assert frames


async def refused_without_change(socket, table_id, api, frame, *, text=True):
    before = await db(log_and_state)(table_id)
    await (socket.send_to(text_data=frame) if text else socket.send_to(bytes_data=frame))
    got = await refusals(socket, api)
    assert await db(log_and_state)(table_id) == before
    await still_answers(socket, api)
    return got


DEEP = ["[" * 3000, '{"a":' * 800, "[" * 11 + "]" * 11]


@pytest.mark.parametrize("api", [True, False], ids=["api", "browser"])
@pytest.mark.parametrize("frame", DEEP, ids=["3000-lists", "800-objects", "one-too-deep"])
async def test_deeply_nested_json_is_refused_not_a_crash(count_game, api, frame):
    socket, table_id, _ = await seated(count_game, api)
    assert await refused_without_change(socket, table_id, api, frame) == [
        ("bad_request", "the message is nested too deeply")]
    await socket.disconnect()


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
async def test_nan_and_infinity_are_not_json(count_game, number):
    api_socket, table_id, ana = await seated(count_game, api=True)
    frame = f'{{"type": "act", "version": {number}, "action": {{"type": "play", "card": 0}}}}'
    assert await refused_without_change(api_socket, table_id, True, frame) == [
        ("bad_request", "the message is not JSON")]
    browser = await open_socket(ana, table_id)
    await opened(browser)
    frame = f'{{"version": {number}, "action": "{{}}", "HEADERS": {{}}}}'  # Infinity once raised OverflowError
    assert [code for code, _ in await refused_without_change(browser, table_id, False, frame)] == ["bad_request"]
    await api_socket.disconnect(), await browser.disconnect()


@pytest.mark.parametrize("api", [True, False], ids=["api", "browser"])
async def test_binary_frames_are_refused(count_game, api):
    socket, table_id, _ = await seated(count_game, api)
    for frame in (b'{"type": "snapshot"}', b"\xff\xfe\x00garbage"):
        assert await refused_without_change(socket, table_id, api, frame, text=False) == [
            ("bad_request", "messages are JSON in text frames")]
    await socket.disconnect()


async def test_a_long_unknown_type_is_not_echoed_back(count_game):
    socket, table_id, _ = await seated(count_game, api=True)
    assert await refused_without_change(socket, table_id, True, json.dumps({"type": "x" * 41})) == [
        ("bad_request", "unknown message type")]
    assert await refused_without_change(socket, table_id, True, json.dumps({"type": "shout"})) == [
        ("bad_request", "unknown message type 'shout'")]
    await socket.disconnect()


@pytest.mark.parametrize("api", [True, False], ids=["api", "browser"])
async def test_an_action_the_engine_trips_on_is_refused_and_logged(count_game, api, caplog):
    """The test game compares actions with ``in legal`` and then indexes its deck
    with the sent card: ``1.0`` passes the check and raises TypeError. The door
    answers bad_request, the table stays as it was, and the engine's bug is logged."""
    socket, table_id, _ = await seated(count_game, api)
    action, version = await db(first_legal)(count_game, table_id, 0)
    odd = {**action, "card": float(action["card"])}
    frame = (json.dumps({"type": "act", "version": version, "action": odd}) if api
             else form_message(version, odd))
    with caplog.at_level(logging.ERROR):
        got = await refused_without_change(socket, table_id, api, frame)
    assert got == [("bad_request", "the game could not read that action")]
    assert [record.name for record in caplog.records if record.levelno >= logging.ERROR] == [
        "pigparlor.tables.services"]
    await socket.disconnect()


@pytest.mark.parametrize("api", [True, False], ids=["api", "browser"])
async def test_a_failure_of_our_own_is_answered_and_the_socket_lives_on(count_game, api, caplog, monkeypatch):
    socket, table_id, _ = await seated(count_game, api)
    real = rendering.load_snapshot

    def broken(table_id):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(rendering, "load_snapshot", broken)
    with caplog.at_level(logging.ERROR):
        await socket.send_to(text_data='{"type": "snapshot"}')
        assert await refusals(socket, api) == [("bad_request", "that message could not be handled")]
    assert any(record.name == "pigparlor.tables.sockets" for record in caplog.records)
    monkeypatch.setattr(rendering, "load_snapshot", real)
    await still_answers(socket, api)
    await socket.disconnect()
