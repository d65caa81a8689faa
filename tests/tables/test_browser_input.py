"""The browser socket takes a version as htmx sends it — a string of digits —
or as a JSON integer, and nothing else (issue 9 item 7): ``1.9`` or ``true`` is
refused, not rounded into a valid version that plays the move."""
import json

import pytest

from tests.support.sockets import answered, db, frames_until, open_socket, opened, until
from tests.tables.test_consumers import first_legal, log_and_state, page_error, two_player_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def coded(frames, code):
    return [frame for frame in frames if f'data-code="{code}"' in frame]


@pytest.mark.parametrize("version", [1.9, 1.0, True, "1.9", "1.0", " 1", "+1", "1_0", "\u0661", "1e0", None, [1],
                                     {"v": 1}, "9" * 5000])
async def test_a_version_that_is_not_an_integer_is_refused_and_plays_nothing(count_game, version):
    ana, _, table_id = await two_player_table(count_game)
    socket = await open_socket(ana, table_id)
    await opened(socket)
    action, current = await db(first_legal)(count_game, table_id, 0)
    assert current == 1
    before = await db(log_and_state)(table_id)
    await socket.send_to(text_data=json.dumps({"version": version, "action": json.dumps(action)}))
    frames = await until(socket, page_error) + await answered(socket, api=False)
    assert len(coded(frames, "bad_request")) == 1
    assert await db(log_and_state)(table_id) == before
    await socket.disconnect()


@pytest.mark.parametrize("version", ["1", 1])
async def test_a_digit_string_or_an_integer_version_plays(count_game, version):
    ana, _, table_id = await two_player_table(count_game)
    socket = await open_socket(ana, table_id)
    await opened(socket)
    action, current = await db(first_legal)(count_game, table_id, 0)
    await socket.send_to(text_data=json.dumps({"version": version, "action": json.dumps(action)}))
    await frames_until(socket, version=current + 1)
    assert (await db(log_and_state)(table_id))[0] == current + 1
    await socket.disconnect()


@pytest.mark.parametrize("action", ["[" * 3000, '{"type": "play", "card": NaN}', '{"type": "play", "card": Infinity}'])
async def test_an_action_text_nested_too_deep_or_with_nan_is_refused(count_game, action):
    ana, _, table_id = await two_player_table(count_game)
    socket = await open_socket(ana, table_id)
    await opened(socket)
    before = await db(log_and_state)(table_id)
    await socket.send_to(text_data=json.dumps({"version": "1", "action": action}))
    frames = await until(socket, page_error) + await answered(socket, api=False)
    assert len(coded(frames, "bad_request")) == 1
    assert await db(log_and_state)(table_id) == before
    await socket.disconnect()
