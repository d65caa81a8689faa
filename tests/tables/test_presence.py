"""Who holds a seat and who is connected, through leaves, crashes and restarts (issue 9, 1–3).

A socket's viewer follows the seat's owner at every send; presence is one row
per open socket, swept when its process dies; every start leaves each running
table with a correct wake-up.
"""
import json

import pytest
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.test import Client

from games.core.registry import get_game
from games.core.viewcheck import cards_in_html, cards_in_view
from pigparlor.api.models import ApiToken
from pigparlor.api.tokens import create_token, revoke_token
from pigparlor.tables import presence, services, timing
from pigparlor.tables.models import RUNNING, Presence, Seat, ServerProcess, Table
from tests.support.sockets import WAIT_SECONDS, db, json_frames, open_socket, opened, until, up_to
from tests.support.tables import make_user, step_clock, table

pytestmark = pytest.mark.django_db(transaction=True)

TIMED = {"turn_seconds": 30}


def seat_row(table_id, index) -> Seat:
    return Seat.objects.get(table_id=table_id, index=index)


def spectators_hidden(table_id) -> set[int]:
    current = table(table_id)
    engine = get_game(current.game).engine
    return set(engine.hidden_cards(engine.load(current.state), None))


def seat_cards(table_id, index) -> set[int]:
    """The cards only ``index`` may see now."""
    current = table(table_id)
    engine = get_game(current.game).engine
    state = engine.load(current.state)
    return set(engine.hidden_cards(state, None)) - set(engine.hidden_cards(state, index))


@pytest.mark.asyncio
async def test_a_socket_left_open_after_leaving_never_sees_the_next_occupants_hand():
    """Ben joins, opens both kinds of socket, leaves; Carl takes the same seat and
    the game starts: Ben's sockets get the spectator's view only."""
    ana, ben, carl = [await db(make_user)(name) for name in ("ana", "ben", "carl")]
    created = await db(services.create_table)(host=ana, game="pigpile", seats=3, options=TIMED)
    assert await db(services.join_table)(created, ben) == 1
    api, page = await open_socket(ben, created.pk, api=True), await open_socket(ben, created.pk)
    assert json_frames(await opened(api))[-1]["seat"] == 1
    await opened(page)
    await db(services.leave_table)(created, ben)
    assert json_frames(await until(api, lambda frames: frames))[-1]["seat"] is None
    assert await db(services.join_table)(created, carl) == 1
    await db(services.start_table)(created, ana)
    got = await until(api, lambda got: any(f["version"] >= 1 for f in json_frames(got)))
    started = (await db(table)(created.pk)).version
    frames = json_frames(got + await up_to(api, started, got))
    html = "".join(await up_to(page, started))
    carls = await db(seat_cards)(created.pk, 1)
    assert carls, "Carl holds cards only he may see"
    assert all(frame["seat"] is None and frame["legal"] == [] for frame in frames if frame["type"] == "state")
    assert not carls & set().union(*(cards_in_view(frame["view"]) for frame in frames if frame.get("view")))
    assert 'data-version="1"' in html and not carls & cards_in_html(html)
    await api.disconnect(), await page.disconnect()


@pytest.mark.asyncio
async def test_a_socket_that_sits_down_gets_its_seats_view_at_once():
    ana, ben = await db(make_user)("ana"), await db(make_user)("ben")
    created = await db(services.create_table)(host=ana, game="pigpile", seats=3, bots=1, options=TIMED)
    watcher = await open_socket(ben, created.pk, api=True)
    assert json_frames(await opened(watcher))[-1]["seat"] is None
    await db(services.join_table)(created, ben)  # fills the table: it starts
    frames = json_frames(await until(watcher, lambda got: any(json.loads(f).get("version") for f in got)))
    assert frames[-1]["seat"] == 1 and frames[-1]["legal"]
    await watcher.disconnect()


@pytest.mark.asyncio
async def test_leaving_a_private_table_closes_the_socket_of_a_player_without_the_invite():
    ana, ben = await db(make_user)("ana"), await db(make_user)("ben")
    created = await db(services.create_table)(host=ana, game="pigpile", seats=3, options=TIMED, private=True)
    await db(services.join_table)(created, ben, invite_code=created.invite_code)
    socket = await open_socket(ben, created.pk, api=True)
    await opened(socket)
    await db(services.leave_table)(created, ben)
    frames = json_frames(await until(socket, lambda got: any('"error"' in frame for frame in got)))
    assert frames[-1] == {"type": "error", "code": "forbidden", "message": "this table is private"}
    assert (await socket.receive_output(timeout=WAIT_SECONDS)) == {"type": "websocket.close", "code": 4403}
    assert not await db(Presence.objects.filter(user=ben).exists)()
    await socket.disconnect()  # the consumer's own end, before the database is flushed (below)


@pytest.mark.asyncio
async def test_a_revoked_token_closes_its_sockets():
    ana = await db(make_user)("ana")
    raw = await db(create_token)(ana, "bot")
    token = await db(ApiToken.objects.get)(user=ana)
    created = await db(services.create_table)(host=ana, game="pigpile", seats=3, bots=2, options=TIMED)
    socket = await open_socket(ana, created.pk, api=True, scope={"api_token_id": token.pk})
    await opened(socket)
    assert raw and await db(revoke_token)(ana, token.pk)
    frames = json_frames(await until(socket, lambda got: any('"error"' in frame for frame in got)))
    assert frames[-1]["code"] == "forbidden" and "revoked" in frames[-1]["message"]
    assert (await socket.receive_output(timeout=WAIT_SECONDS)) == {"type": "websocket.close", "code": 4401}
    assert await db(lambda: seat_row(created.pk, 0).connections)() == 0
    # The consumer still leaves its groups after the close: let it end before the test's
    # database is flushed (a full run found auth_user locked at this test's flush, and
    # the worker's next test saw this one's user).
    await socket.disconnect()


@pytest.mark.asyncio
async def test_logging_out_closes_that_sessions_table_sockets():
    ana = await db(make_user)("ana")
    created = await db(services.create_table)(host=ana, game="pigpile", seats=3, bots=2, options=TIMED)
    browser = Client()
    await db(browser.force_login)(ana)
    session = await db(lambda: browser.session)()
    socket = await open_socket(ana, created.pk, scope={"session": session})
    await opened(socket)
    response = await db(browser.post)("/accounts/logout/")
    assert response.status_code == 302
    frames = await until(socket, lambda got: any('data-code="forbidden"' in frame for frame in got))
    assert "logged out" in frames[-1]
    assert (await socket.receive_output(timeout=WAIT_SECONDS)) == {"type": "websocket.close", "code": 4401}
    # The consumer forgets its presence after it sent the close: let it end (the client's
    # side of the close) before the test's database is flushed (a full run once found the
    # table locked there, and the next tests of that worker saw this one's rows).
    await socket.disconnect()


@pytest.mark.asyncio
async def test_a_crashed_consumer_leaves_no_connection_behind():
    ana, ben = await db(make_user)("ana"), await db(make_user)("ben")
    created = await db(services.create_table)(host=ana, game="pigpile", seats=3, bots=1, options=TIMED)
    await db(services.join_table)(created, ben)
    socket = await open_socket(ana, created.pk, api=True)
    await opened(socket)
    assert await db(lambda: seat_row(created.pk, 0).connections)() == 1
    channel = await db(lambda: Presence.objects.get(user=ana).channel)()
    await get_channel_layer().send(channel, {"type": "no.such.handler"})  # the consumer raises
    with pytest.raises(ValueError):
        await socket.wait(timeout=2)
    seat = await db(seat_row)(created.pk, 0)
    assert seat.connections == 0 and seat.left_at_ms is not None
    assert not await db(Presence.objects.exists)()


@pytest.mark.asyncio
async def test_leave_and_rejoin_does_not_inherit_the_last_occupants_connections():
    ana, ben, carl = [await db(make_user)(name) for name in ("ana", "ben", "carl")]
    created = await db(services.create_table)(host=ana, game="pigpile", seats=3, options=TIMED)
    await db(services.join_table)(created, ben)
    socket = await open_socket(ben, created.pk, api=True)
    await opened(socket)
    assert await db(lambda: seat_row(created.pk, 1).connections)() == 1
    await db(services.leave_table)(created, ben)
    assert await db(lambda: seat_row(created.pk, 1).connections)() == 0
    await db(services.join_table)(created, carl)
    assert await db(lambda: seat_row(created.pk, 1).connections)() == 0
    await db(services.join_table)(created, ben)  # ben comes back, into the last seat, with his socket still open
    assert await db(lambda: seat_row(created.pk, 2).connections)() == 1
    await socket.disconnect()


@pytest.mark.asyncio
async def test_one_user_may_not_open_more_sockets_than_the_limit(settings):
    settings.PIGPARLOR_MAX_SOCKETS_PER_USER = 2
    ana = await db(make_user)("ana")
    created = await db(services.create_table)(host=ana, game="pigpile", seats=3, bots=2, options=TIMED)
    first, second = await open_socket(ana, created.pk, api=True), await open_socket(ana, created.pk)
    third = await open_socket(ana, created.pk, api=True)
    frames = json_frames(await until(third, lambda got: got))
    assert frames[0]["code"] == "rate_limited" and "2 table connections" in frames[0]["message"]
    assert (await third.receive_output(timeout=WAIT_SECONDS)) == {"type": "websocket.close", "code": 4429}
    assert await db(Presence.objects.filter(user=ana).count)() == 2
    await first.disconnect()
    fourth = await open_socket(ana, created.pk, api=True)
    assert json_frames(await opened(fourth))[0]["type"] == "state"
    await second.disconnect(), await fourth.disconnect()


def old_process_rows(table_id, users, process="crashed-process"):
    """Rows a killed process left: its sockets, and a heartbeat long expired."""
    ServerProcess.objects.create(pk=process, started_ms=0, beat_ms=timing.epoch_ms() - 3_600_000)
    for user in users:
        Presence.objects.create(table_id=table_id, user=user, process=process, channel=f"{process}-{user.pk}",
                                opened_ms=0)
    Seat.objects.filter(table_id=table_id, user__in=users).update(connections=1, left_at_ms=None)


def test_a_dead_processes_sockets_are_swept_and_the_seat_is_handed_to_a_bot(settings):
    """Scaled out: a process was killed with sockets open; a surviving process's
    sweep forgets them once the heartbeat has expired, and the grace period runs."""
    settings.PIGPARLOR_SEAT_GRACE_MS = 10_000
    ana, ben = make_user("ana"), make_user("ben")
    created = services.create_table(host=ana, game="pigpile", seats=3, bots=1, options=TIMED)
    services.join_table(created, ben)
    old_process_rows(created.pk, [ana, ben])
    presence.beat()
    fresh = ServerProcess.objects.create(pk="alive", started_ms=0, beat_ms=timing.epoch_ms())
    Presence.objects.create(table_id=created.pk, user=ben, process=fresh.pk, channel="alive-ben", opened_ms=0)
    assert presence.sweep() == 2
    assert not ServerProcess.objects.filter(pk="crashed-process").exists()
    ana_seat, ben_seat = seat_row(created.pk, 0), seat_row(created.pk, 1)
    assert (ana_seat.connections, ben_seat.connections) == (1 - 1, 1)  # ben's live process keeps his
    assert ana_seat.left_at_ms is not None and ben_seat.left_at_ms is None
    assert table(created.pk).wake_at_ms <= ana_seat.left_at_ms + 10_000
    timing.skip_ahead(10_001)
    for _ in range(3):
        step_clock(created.pk)
        if seat_row(created.pk, 0).replaced:
            break
    assert seat_row(created.pk, 0).replaced and not seat_row(created.pk, 1).replaced


def test_own_rows_of_sockets_no_longer_open_are_swept():
    ana = make_user("ana")
    created = services.create_table(host=ana, game="pigpile", seats=3, bots=2, options=TIMED)
    presence.beat()
    Presence.objects.create(table_id=created.pk, user=ana, process=presence.PROCESS_ID, channel="gone", opened_ms=0)
    Seat.objects.filter(table_id=created.pk, index=0).update(connections=1)
    assert presence.sweep() == 1
    assert seat_row(created.pk, 0).connections == 0


def test_a_process_given_up_for_dead_puts_its_open_sockets_back_when_it_beats_again():
    ana = make_user("ana")
    created = services.create_table(host=ana, game="pigpile", seats=3, bots=2, options=TIMED)
    presence.beat()
    presence.LIVE_CHANNELS["still-open"] = presence.Held(created.pk, ana.pk)
    try:
        Presence.objects.create(table_id=created.pk, user=ana, process=presence.PROCESS_ID, channel="still-open",
                                opened_ms=0)
        ServerProcess.objects.all().delete()  # another process swept this one after a long stall
        Presence.objects.all().delete()
        presence.beat()
        assert Presence.objects.filter(channel="still-open").exists()
        assert seat_row(created.pk, 0).connections == 1
    finally:
        presence.LIVE_CHANNELS.pop("still-open", None)


def test_every_start_leaves_every_running_table_with_a_correct_wake_up(settings):
    """Embedded mode restarts: counts left by the last run are stale, a table
    whose wake-up was lost wakes again, and absent players get a bot in time."""
    settings.PIGPARLOR_SEAT_GRACE_MS = 10_000
    ana, ben = make_user("ana"), make_user("ben")
    untimed = services.create_table(host=ana, game="pigpile", seats=3, bots=1, private=True,
                                    options={"turn_seconds": 0})
    services.join_table(untimed, ben, invite_code=untimed.invite_code)
    old_process_rows(untimed.pk, [ana, ben])
    Table.objects.filter(pk=untimed.pk).update(wake_at_ms=None)  # what the old start-up left
    presence.start_up(alone=True)
    current = table(untimed.pk)
    seats = [seat_row(untimed.pk, index) for index in range(2)]
    assert all(seat.connections == 0 and seat.left_at_ms is not None for seat in seats)
    assert current.status == RUNNING and current.wake_at_ms is not None
    assert current.wake_at_ms <= min(seat.left_at_ms for seat in seats) + 10_000
    assert not Presence.objects.exists() and list(ServerProcess.objects.values_list("pk", flat=True)) == [
        presence.PROCESS_ID]
    before = current.version
    timing.skip_ahead(10_001)
    for _ in range(20):
        step_clock(untimed.pk)
    assert table(untimed.pk).version > before, "bots stood in and the table moved on"


def test_json_api_leave(client):
    ana, ben = make_user("ana"), make_user("ben")
    headers = {"HTTP_AUTHORIZATION": f"Bearer {create_token(ben)}"}
    created = services.create_table(host=ana, game="pigpile", seats=3, options=TIMED)
    assert client.post(f"/api/tables/{created.pk}/leave/", **headers).json()["code"] == "forbidden"
    client.post(f"/api/tables/{created.pk}/join/", "{}", content_type="application/json", **headers)
    response = client.post(f"/api/tables/{created.pk}/leave/", **headers)
    assert response.status_code == 200 and response.json()["seats"][1]["user"] is None
    assert client.get(f"/api/tables/{created.pk}/leave/", **headers).status_code == 405
    assert client.post("/api/tables/999999/leave/", **headers).status_code == 404
    assert get_user_model().objects.count() == 2


def test_a_sweep_reads_only_rows_that_can_be_stale(monkeypatch):
    """Issue 14: the heartbeat's sweep read every presence row (2,000 at 500 tables)
    on the one ORM thread every beat. It reads dead processes' rows, and this
    process's own only when it holds more rows than sockets."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ana, ben = make_user("ana"), make_user("ben")
    created = services.create_table(host=ana, game="pigpile", seats=3, bots=1, options=TIMED)
    services.join_table(created, ben)
    presence.beat()
    live = {}
    for user in (ana, ben):
        channel = f"live-{user.pk}"
        Presence.objects.create(table_id=created.pk, user=user, process=presence.PROCESS_ID, channel=channel,
                                opened_ms=0)
        live[channel] = presence.Held(created.pk, user.pk)
    monkeypatch.setattr(presence, "LIVE_CHANNELS", live)
    with CaptureQueriesContext(connection) as queries:
        assert presence.sweep() == 0
    own_rows_read = [query["sql"] for query in queries.captured_queries
                     if '"tables_presence"."channel"' in query["sql"] and query["sql"].startswith("SELECT")]
    assert own_rows_read == []
    assert Presence.objects.filter(process=presence.PROCESS_ID).count() == 2
    # One of them is gone without its disconnect: the counts differ, the row is read and swept.
    del live[f"live-{ben.pk}"]
    assert presence.sweep() == 1
    assert list(Presence.objects.values_list("channel", flat=True)) == [f"live-{ana.pk}"]
