"""The table sockets (browser and JSON API) with Channels' WebsocketCommunicator."""
import asyncio
import json

import pytest

from pigparlor.tables import presence, services, timing
from pigparlor.tables.clock import CLOCK
from pigparlor.tables.models import FINISHED, ActionLog, Seat, Table
from tests.support.sockets import answered, db, frames_until, json_frames, open_socket, opened, until
from tests.support.tables import make_user, step_clock, table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def two_player_table(count_game, **options):
    ana, ben = await db(make_user)("ana"), await db(make_user)("ben")
    created = await db(services.create_table)(host=ana, game="countgame", seats=2, options=options)
    await db(services.join_table)(created, ben)
    return ana, ben, created.pk


def first_legal(count_game, table_id, seat):
    current = table(table_id)
    return count_game.engine.legal_actions(count_game.engine.load(current.state), seat)[0], current.version


def log_and_state(table_id):
    current = table(table_id)
    return current.version, current.state, list(ActionLog.objects.filter(table=current).values_list("version", flat=True))


def api_error(frames):
    return any(json.loads(frame)["type"] == "error" for frame in frames)


def page_error(frames):
    return any('data-code="' in frame for frame in frames)


def errors(frames):
    return [frame["code"] for frame in json_frames(frames) if frame["type"] == "error"]


def form_message(version, action):
    return json.dumps({"version": str(version), "action": json.dumps(action), "HEADERS": {"HX-Request": "true"}})


async def test_two_sockets_sending_the_same_action_at_once_apply_it_exactly_once(count_game):
    ana, _, table_id = await two_player_table(count_game)
    first, second = await open_socket(ana, table_id), await open_socket(ana, table_id, api=True)
    await opened(first), await opened(second)
    action, version = await db(first_legal)(count_game, table_id, 0)
    await asyncio.gather(first.send_to(text_data=form_message(version, action)),
                         second.send_json_to({"type": "act", "version": version, "action": action}))
    # Both sockets see the new version; each has answered its own act before answering a probe.
    browser = await frames_until(first, version=version + 1) + await answered(first, api=False)
    api = json_frames(await frames_until(second, version=version + 1) + await answered(second, api=True))
    refusals = [frame for frame in api if frame["type"] == "error"] + [f for f in browser if 'data-code="stale"' in f]
    assert (await db(table)(table_id)).version == version + 1
    assert await db(ActionLog.objects.filter(table_id=table_id).count)() == 1
    assert len(refusals) == 1
    await first.disconnect(), await second.disconnect()


async def test_a_stale_version_is_refused_and_changes_nothing(count_game):
    ana, _, table_id = await two_player_table(count_game)
    socket = await open_socket(ana, table_id, api=True)
    await opened(socket)
    action, version = await db(first_legal)(count_game, table_id, 0)
    before = await db(log_and_state)(table_id)
    await socket.send_json_to({"type": "act", "version": version - 1, "action": action})
    frames = await until(socket, api_error) + await answered(socket, api=True)
    assert [frame for frame in json_frames(frames) if frame["type"] == "error"] == [
        {"type": "error", "code": "stale", "message": f"the table is at version {version}, not {version - 1}"}]
    assert await db(log_and_state)(table_id) == before
    await socket.disconnect()


@pytest.mark.parametrize("message,code", [
    ("not json", "bad_request"),
    ('["a list"]', "bad_request"),
    ('{"type": "shout"}', "bad_request"),
    ('{"type": "act", "action": {"type": "play", "card": 0}}', "bad_request"),
    ('{"type": "act", "version": 1}', "bad_request"),
    ('{"type": "act", "version": 1, "action": "play"}', "bad_request"),
    ('{"type": "act", "version": 1, "action": {"card": 0}}', "bad_request"),
    ('{"type": "act", "version": 0, "action": {"type": "play", "card": 0}}', "stale"),
    ('{"type": "act", "version": 1, "action": {"type": "play", "card": 99}}', "illegal"),
])
async def test_every_bad_api_message_gets_its_code_and_changes_nothing(count_game, message, code):
    ana, _, table_id = await two_player_table(count_game)
    socket = await open_socket(ana, table_id, api=True)
    await opened(socket)
    before = await db(log_and_state)(table_id)
    await socket.send_to(text_data=message)
    frames = json_frames(await until(socket, api_error) + await answered(socket, api=True))
    assert [frame["code"] for frame in frames if frame["type"] == "error"] == [code]
    assert await db(log_and_state)(table_id) == before
    await socket.disconnect()


@pytest.mark.parametrize("message,code", [
    ("{nope", "bad_request"),
    ('{"version": "1"}', "bad_request"),
    ('{"version": "x", "action": "{}"}', "bad_request"),
    ('{"version": "1", "action": "{not json"}', "bad_request"),
    ('{"version": "0", "action": "{\\"type\\": \\"play\\", \\"card\\": 0}"}', "stale"),
    ('{"version": "1", "action": "{\\"type\\": \\"play\\", \\"card\\": 99}"}', "illegal"),
])
async def test_every_bad_browser_message_gets_its_code_and_changes_nothing(count_game, message, code):
    ana, _, table_id = await two_player_table(count_game)
    socket = await open_socket(ana, table_id)
    await opened(socket)
    before = await db(log_and_state)(table_id)
    await socket.send_to(text_data=message)
    errors = [frame for frame in await until(socket, page_error) + await answered(socket, api=False)
              if 'data-code="' in frame]  # the error part; the page's empty one has no code
    assert len(errors) == 1 and 'id="table-error"' in errors[0] and f'data-code="{code}"' in errors[0]
    assert await db(log_and_state)(table_id) == before
    await socket.disconnect()


async def test_acting_for_another_seat_or_as_a_spectator_is_forbidden(count_game):
    ana, ben, table_id = await two_player_table(count_game)
    carl = await db(make_user)("carl")
    watcher = await open_socket(carl, table_id, api=True)
    seat_one = await open_socket(ben, table_id, api=True)
    await opened(watcher), await opened(seat_one)
    action, version = await db(first_legal)(count_game, table_id, 0)
    before = await db(log_and_state)(table_id)
    for socket in (watcher, seat_one):
        await socket.send_json_to({"type": "act", "version": version, "action": action})
    assert errors(await until(watcher, api_error) + await answered(watcher, api=True)) == ["forbidden"]
    assert errors(await until(seat_one, api_error) + await answered(seat_one, api=True)) == ["illegal"]  # seat 1's own move, not its turn
    assert await db(log_and_state)(table_id) == before
    await watcher.disconnect(), await seat_one.disconnect()


async def test_an_unknown_table_is_not_found(count_game):
    ana = await db(make_user)("ana")
    socket = await open_socket(ana, 424242, api=True)
    assert errors(await until(socket, api_error)) == ["not_found"]
    await socket.disconnect()


async def test_a_private_table_is_watched_only_with_its_invite_code(count_game):
    ana, carl = await db(make_user)("ana"), await db(make_user)("carl")
    created = await db(services.create_table)(host=ana, game="countgame", seats=2, bots=1, private=True)
    refused = await open_socket(carl, created.pk, api=True)
    assert errors(await until(refused, api_error)) == ["forbidden"]
    watcher = await open_socket(carl, created.pk, api=True, invite=created.invite_code)
    frames = json_frames(await opened(watcher))
    assert frames[0]["type"] == "state" and frames[0]["seat"] is None and frames[0]["view"]["hand"] == []
    await refused.disconnect(), await watcher.disconnect()


async def test_a_reconnecting_socket_gets_a_full_snapshot(count_game):
    ana, _, table_id = await two_player_table(count_game)
    socket = await open_socket(ana, table_id)
    full = await until(socket, lambda frames: 'data-base=""' in "".join(frames))
    first = "".join(full)  # the snapshot already shows ana here
    action, version = await db(first_legal)(count_game, table_id, 0)
    await socket.send_to(text_data=form_message(version, action))
    update = "".join(await until(socket, lambda frames: f'data-version="{version + 1}"' in "".join(frames)))
    assert 'id="count-board"' in update and f'data-base="{version}"' in update
    assert 'id="table-status"' not in update and 'id="table-error"' not in update  # unchanged: not resent
    await socket.disconnect()
    again = await open_socket(ana, table_id)
    snapshot = "".join(await opened(again))
    for part in ("table-players", "table-turn", "table-log", "count-board", "count-hand"):
        assert f'id="{part}"' in snapshot and f'id="{part}"' in first
    assert f'data-version="{version + 1}" data-base=""' in snapshot
    await again.send_to(text_data='{"type": "snapshot"}')
    assert 'id="count-hand"' in "".join(await until(again, lambda frames: 'data-base=""' in "".join(frames)))
    await again.disconnect()


async def test_the_clock_task_fires_turn_timers_and_bot_moves(count_game):
    ana = await db(make_user)("ana")
    created = await db(services.create_table)(
        host=ana, game="countgame", seats=3, bots=2, options={"turn_seconds": 60})
    socket = await open_socket(ana, created.pk, api=True)
    await opened(socket)
    task = asyncio.ensure_future(CLOCK.run())
    frames: list[dict] = []
    try:
        while not (frames and "outcome" in frames[-1]):
            current = await db(table)(created.pk)
            if current.wake_at_ms is not None and current.wake_at_ms > timing.epoch_ms():
                timing.skip_ahead(current.wake_at_ms - timing.epoch_ms())  # ana's turn timer runs out
                CLOCK.wake(timing.epoch_ms())
            frames += json_frames(await until(socket, bool))  # the clock moved the table on
    finally:
        task.cancel()
    assert (await db(table)(created.pk)).status == FINISHED
    log = await db(lambda: list(ActionLog.objects.filter(table=created).values_list("seat", flat=True)))()
    assert None in log and {1, 2} & set(log)  # timer moves for ana, bot moves for seats 1 and 2
    assert frames[-1]["type"] == "state" and "outcome" in frames[-1]
    await socket.disconnect()


async def test_a_player_who_stays_away_gets_a_bot_and_gets_the_seat_back_on_return(count_game, settings):
    settings.PIGPARLOR_SEAT_GRACE_MS = 30_000
    ana, ben, table_id = await two_player_table(count_game, turn_seconds=600)  # the grace runs out first
    socket, bens = await open_socket(ana, table_id), await open_socket(ben, table_id)
    await opened(socket)
    await socket.disconnect()
    seat = await db(Seat.objects.get)(table_id=table_id, index=0)
    assert seat.connections == 0 and seat.left_at_ms is not None and not seat.replaced
    await db(step_clock)(table_id)  # the grace period runs out
    assert (await db(Seat.objects.get)(table_id=table_id, index=0)).replaced
    await db(step_clock)(table_id)  # the stand-in plays ana's turn
    assert (await db(ActionLog.objects.get)(table_id=table_id)).seat == 0
    back = await open_socket(ana, table_id)
    await opened(back)
    seat = await db(Seat.objects.get)(table_id=table_id, index=0)
    assert not seat.replaced and seat.connections == 1
    await back.disconnect(), await bens.disconnect()


async def test_take_my_seat_back_button(count_game):
    ana, _, table_id = await two_player_table(count_game)
    socket = await open_socket(ana, table_id)
    await opened(socket)
    await db(Seat.objects.filter(table_id=table_id, index=0).update)(replaced=True)
    await db(presence.reclaim_seat)(table_id, await db(make_user)("nobody"))  # not seated: nothing happens
    await db(lambda: Table.objects.filter(pk=table_id).update(seats_rev=99))()
    await socket.send_to(text_data='{"type": "snapshot"}')
    assert "I’m here — take my seat back" in "".join(await until(socket, lambda frames: 'data-base=""' in "".join(frames)))
    await socket.send_to(text_data=json.dumps({"control": "reclaim", "HEADERS": {}}))
    await answered(socket, api=False)  # the reclaim was handled before the probe
    assert not (await db(Seat.objects.get)(table_id=table_id, index=0)).replaced
    await socket.disconnect()
