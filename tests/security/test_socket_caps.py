"""One cap for every socket: table sockets per visitor address and per table's
watchers, and every kind of socket (table, lobby, tournament, player) per
account, all through ``presence.reserve``; a refused socket hears why, is closed
with 4429 and leaves no row. (Across two processes: tests/scaleout/test_socket_caps.py.)"""
import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from pigparlor.api.routing import websocket_urlpatterns as api_sockets
from pigparlor.lobby.routing import websocket_urlpatterns as lobby_sockets
from pigparlor.tables import presence, services, timing
from pigparlor.tables.models import Presence, ServerProcess
from pigparlor.tables.routing import websocket_urlpatterns as table_sockets
from pigparlor.tournaments.routing import websocket_urlpatterns as tournament_sockets
from tests.support.sockets import db, json_frames, until
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db(transaction=True)
APP = URLRouter([*api_sockets, *table_sockets, *lobby_sockets, *tournament_sockets])
CLOSED = {"type": "websocket.close", "code": 4429}


async def connect(path, user=None, address="203.0.113.7"):
    """A socket through the site's routes, as ``user`` (None: a visitor) from ``address``."""
    communicator = WebsocketCommunicator(APP, path)
    communicator.scope["user"] = user or AnonymousUser()
    communicator.scope["client"] = [address, 50000]
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


async def refused(socket) -> list[str]:
    """The frames a refused socket got before its close with 4429."""
    frames = []
    while True:
        message = await socket.receive_output(timeout=10)
        if message["type"] == "websocket.close":
            assert message == CLOSED
            return frames
        frames.append(message["text"])


async def rows(**match) -> int:
    return await db(Presence.objects.filter(**match).count)()


async def public_table(host, **options):
    return await db(services.create_table)(host=host, game="pigpile", seats=3, bots=1, options={"turn_seconds": 30},
                                           **options)


@pytest.mark.asyncio
async def test_a_visitor_address_may_hold_only_so_many_table_sockets(settings):
    settings.PIGPARLOR_MAX_SOCKETS_PER_ADDRESS = 2
    table = await public_table(await db(make_user)("ana"))
    path = f"/ws/tables/{table.pk}/"
    first, second = await connect(path), await connect(path)
    third = await connect(path)
    frames = await refused(third)
    assert 'data-code="rate_limited"' in frames[0] and "your address has 2 table connections" in frames[0]
    assert await rows(kind="table", user=None) == 2
    elsewhere = await connect(path, address="198.51.100.9")  # another address has its own count
    assert await rows(kind="table", user=None, address="198.51.100.9") == 1
    await first.disconnect()
    again = await connect(path)
    await until(again, lambda got: any("table-version" in frame for frame in got))
    for socket in (second, elsewhere, again):
        await socket.disconnect()
    assert await rows() == 0


@pytest.mark.asyncio
async def test_a_table_takes_only_so_many_watchers_but_its_players_always_get_in(settings):
    settings.PIGPARLOR_MAX_WATCHERS_PER_TABLE = 2
    ana, ben, cleo = [await db(make_user)(name) for name in ("ana", "ben", "cleo")]
    table = await public_table(ana)
    path = f"/ws/tables/{table.pk}/"
    watchers = [await connect(path, address="198.51.100.1"), await connect(path, ben)]
    frames = await refused(await connect(path, cleo))
    assert "this table has 2 watchers already" in frames[0]
    assert "this table has 2 watchers already" in (await refused(await connect(path, address="198.51.100.2")))[0]
    host = await connect(path, ana)  # the host's seat
    await until(host, lambda got: any("table-version" in frame for frame in got))
    assert await rows(table_id=table.pk) == 3 and await db(lambda: type(table).objects.get(pk=table.pk).watchers)() == 2
    for socket in (*watchers, host):
        await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/ws/lobby/pigpile/", "/ws/player/", "/ws/tournaments/"])
async def test_one_account_may_hold_only_so_many_sockets_of_each_kind(settings, path):
    settings.PIGPARLOR_MAX_SOCKETS_PER_USER = 2
    ana = await db(make_user)("ana")
    kept = [await connect(path, ana), await connect(path, ana)]
    frames = await refused(await connect(path, ana))
    kind = {"/ws/lobby/pigpile/": "lobby", "/ws/player/": "player", "/ws/tournaments/": "tournament"}[path]
    assert await rows(user=ana, kind=kind) == 2
    if kind == "lobby":  # the lobby page shows it in its chat panel
        assert "you have 2 lobby connections open already" in frames[0]
    table = await public_table(ana)  # another kind still gets in
    at_table = await connect(f"/ws/tables/{table.pk}/", ana)
    assert await rows(user=ana, kind="table") == 1
    await kept[0].disconnect()
    kept[0] = await connect(path, ana)
    assert await rows(user=ana, kind=kind) == 2
    for socket in (*kept, at_table):
        await socket.disconnect()
    assert await rows() == 0


@pytest.mark.asyncio
async def test_visitors_lobby_and_tournament_sockets_are_counted_per_address(settings):
    settings.PIGPARLOR_MAX_SOCKETS_PER_ADDRESS = 1
    for path in ("/ws/lobby/pigpile/", "/ws/tournaments/", "/ws/lobby/tables/1/"):
        if path.endswith("/1/"):
            path = f"/ws/lobby/tables/{(await public_table(await db(make_user)('ana'))).pk}/"
        kept = await connect(path)
        await refused(await connect(path))
        await kept.disconnect()
    assert await rows() == 0


def test_a_dead_processes_page_sockets_are_swept_and_a_stalled_process_puts_its_own_back():
    ana = make_user("ana")
    ServerProcess.objects.create(pk="killed", started_ms=0, beat_ms=timing.epoch_ms() - 3_600_000)
    Presence.objects.create(kind="player", user=ana, process="killed", channel="killed-1", opened_ms=0)
    presence.beat()
    assert presence.sweep() == 1 and not Presence.objects.exists()
    presence.reserve("lobby", ana, "", "still-open")
    try:
        ServerProcess.objects.all().delete()  # another process swept this one after a long stall
        Presence.objects.all().delete()
        presence.beat()
        assert list(Presence.objects.values_list("kind", "user_id", "table_id")) == [("lobby", ana.pk, None)]
    finally:
        presence.close_socket(None, "still-open")
    assert not Presence.objects.exists()


@pytest.mark.asyncio
async def test_an_api_socket_past_the_cap_hears_rate_limited_and_closes_with_4429(settings):
    settings.PIGPARLOR_MAX_SOCKETS_PER_USER = 1
    ana = await db(make_user)("ana")
    table = await public_table(ana)
    kept = await connect(f"/ws/api/tables/{table.pk}/", ana)
    frames = json_frames(await refused(await connect(f"/ws/api/tables/{table.pk}/", ana)))
    assert frames == [{"type": "error", "code": "rate_limited",
                       "message": "you have 1 table connection open already: close some tabs or programs first"}]
    await kept.disconnect()
