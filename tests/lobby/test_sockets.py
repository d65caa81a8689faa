"""The lobby's live sockets: a game's listing and a table's waiting room follow every seat change."""
import pytest
from asgiref.sync import sync_to_async

from pigparlor.tables import services
from tests.support.sockets import WAIT_SECONDS, connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(name, password="x") for name in ("ana", "bea")]


@pytest.mark.asyncio
async def test_listing_socket_sends_the_listing_then_every_change(count_game, users):
    ana, bea = users
    socket, connected = await connect("/ws/lobby/countgame/")
    assert connected
    first = await socket.receive_from(timeout=WAIT_SECONDS)
    assert 'id="lobby-listing"' in first and 'hx-swap-oob="true"' in first and "No open tables" in first

    table = await sync_to_async(services.create_table)(host=ana, game="countgame", seats=3, title="Trough")
    created = await socket.receive_from(timeout=WAIT_SECONDS)
    assert "Trough" in created and "1 of 3 seated" in created

    await sync_to_async(services.join_table)(table, bea)
    joined = await socket.receive_from(timeout=WAIT_SECONDS)
    assert "2 of 3 seated" in joined
    await socket.disconnect()


@pytest.mark.asyncio
async def test_listing_socket_for_an_unknown_game_is_closed():
    _, connected = await connect("/ws/lobby/nope/")
    assert not connected


@pytest.mark.asyncio
async def test_private_tables_never_reach_the_listing(count_game, users):
    ana, _ = users
    socket, _ = await connect("/ws/lobby/countgame/")
    await socket.receive_from(timeout=WAIT_SECONDS)
    await sync_to_async(services.create_table)(host=ana, game="countgame", seats=3, title="Hush", private=True)
    update = await socket.receive_from(timeout=WAIT_SECONDS)
    assert "Hush" not in update
    await socket.disconnect()


@pytest.mark.asyncio
async def test_waiting_room_follows_joins_and_the_start(count_game, users):
    ana, bea = users
    table = await sync_to_async(services.create_table)(host=ana, game="countgame", seats=3)
    room, connected = await connect(f"/ws/lobby/tables/{table.pk}/", ana)
    assert connected
    first = await room.receive_from(timeout=WAIT_SECONDS)
    assert 'id="waiting-room"' in first and "Start now with 2 bots" in first

    await sync_to_async(services.join_table)(table, bea)
    joined = await room.receive_from(timeout=WAIT_SECONDS)
    assert "bea" in joined and "Start now with 1 bot" in joined

    await sync_to_async(services.start_table)(table, ana)
    started = await room.receive_from(timeout=WAIT_SECONDS)
    assert "The cards are dealt" in started
    await room.disconnect()


@pytest.mark.asyncio
async def test_waiting_room_of_a_private_table_needs_the_invite(count_game, users):
    ana, bea = users
    table = await sync_to_async(services.create_table)(host=ana, game="countgame", seats=3, private=True)
    _, connected = await connect(f"/ws/lobby/tables/{table.pk}/", bea)
    assert not connected
    room, connected = await connect(f"/ws/lobby/tables/{table.pk}/?invite={table.invite_code}", bea)
    assert connected
    assert "Take a seat" in await room.receive_from(timeout=WAIT_SECONDS)
    await room.disconnect()


@pytest.mark.asyncio
async def test_sockets_ignore_what_clients_send(count_game, users):
    socket, _ = await connect("/ws/lobby/countgame/")
    await socket.receive_from(timeout=WAIT_SECONDS)
    await socket.send_to(text_data='{"type": "act"}')
    # The next frame is the listing's next change, not an answer to what was sent.
    await sync_to_async(services.create_table)(host=users[0], game="countgame", seats=3, title="Next")
    frame = await socket.receive_from(timeout=WAIT_SECONDS)
    assert 'id="lobby-listing"' in frame and "Next" in frame
    await socket.disconnect()


def test_a_failing_lobby_refresh_never_breaks_the_tables_broadcast(count_game, users, monkeypatch):
    from pigparlor.lobby import listing

    def broken(game):
        raise RuntimeError("template trouble")

    monkeypatch.setattr(listing, "render_listing", broken)
    table = services.create_table(host=users[0], game="countgame", seats=2, bots=1)
    table.refresh_from_db()
    assert table.status == "running" and table.version == 1


@pytest.mark.asyncio
async def test_frames_carry_a_short_announcement_for_screen_readers(count_game, users):
    ana, bea = users
    socket, _ = await connect("/ws/lobby/countgame/")
    assert "0 open tables, 0 playing now." in await socket.receive_from(timeout=WAIT_SECONDS)
    table = await sync_to_async(services.create_table)(host=ana, game="countgame", seats=3)
    assert "1 open table, 0 playing now." in await socket.receive_from(timeout=WAIT_SECONDS)
    room, _ = await connect(f"/ws/lobby/tables/{table.pk}/", ana)
    assert 'id="room-announce"' in await room.receive_from(timeout=WAIT_SECONDS)
    await sync_to_async(services.join_table)(table, bea)
    assert "2 of 3 seats taken." in await room.receive_from(timeout=WAIT_SECONDS)
    await socket.disconnect()
    await room.disconnect()


@pytest.mark.asyncio
async def test_many_changes_under_a_socket_or_the_clock_render_the_listing_once(count_game, users, settings,
                                                                               monkeypatch):
    """Issue 12: a tournament seating a round (here: five tables made in one
    ``call_then_send``, as the clock does) renders the game's listing once, after
    the changes, not once per table on the thread every table's move waits for."""
    from pigparlor.lobby import listing
    from pigparlor.tables.broadcast import call_then_send

    settings.PIGPARLOR_LOBBY_REFRESH_MS = 100
    renders = []
    real = listing.render_listing
    monkeypatch.setattr(listing, "render_listing", lambda game: renders.append(game.slug) or real(game))
    ana, ben = users
    socket, _ = await connect("/ws/lobby/countgame/")
    await socket.receive_from(timeout=WAIT_SECONDS)
    renders.clear()

    def seat_a_round():
        return [services.create_table(host=ana, game="countgame", seats=2, bots=1, title=f"Round table {n}")
                for n in range(5)]

    await call_then_send(seat_a_round)
    assert renders == []  # nothing rendered on the ORM's thread while the round was seated
    frame = await socket.receive_from(timeout=WAIT_SECONDS)
    assert renders == ["countgame"] and all(f"Round table {n}" in frame for n in range(5))
    # One frame for the five changes: the next frame is the next change's (a table made
    # after it), and the listing was rendered once more for it, not again for the round.
    await call_then_send(lambda: services.create_table(host=ben, game="countgame", seats=2, bots=1,
                                                       title="After the round"))
    assert "After the round" in await socket.receive_from(timeout=WAIT_SECONDS)
    assert renders == ["countgame", "countgame"]
    await socket.disconnect()
