"""Security basics on the real ASGI app: origin check, sessions required, limits, escaping."""
import itertools
import json

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from pigparlor.api.tokens import create_token
from pigparlor.asgi import application
from pigparlor.tables import rendering, services
from tests.support.sockets import WAIT_SECONDS, answered, connect, db, json_frames, opened, receive, until
from tests.support.tables import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def table_for(count_game, name="ana", **kwargs):
    user = await db(make_user)(name)
    table = await db(services.create_table)(host=user, game="countgame", seats=2, bots=1, **kwargs)
    return user, table


async def test_a_browser_socket_from_another_origin_is_refused(count_game):
    user, table = await table_for(count_game)
    cookie = await db(session_cookie)(user)
    _, connected = await connect(f"/ws/tables/{table.pk}/", headers=[(b"origin", b"https://evil.example"), (b"cookie", cookie)])
    assert not connected


async def test_a_browser_socket_without_a_session_only_watches_a_public_table(count_game):
    _, table = await table_for(count_game)
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    socket, connected = await connect(f"/ws/tables/{table.pk}/", headers=headers)
    assert connected
    frames = "".join(await opened(socket))
    assert 'class="player is-you' not in frames  # a watcher, never a seat
    await socket.send_json_to({"version": 1, "action": {"type": "count"}})
    assert "table-error" in "".join(await until(socket, lambda got: "table-error" in "".join(got)))
    await socket.disconnect()


async def test_a_browser_socket_without_a_session_is_refused_a_private_table(count_game):
    _, table = await table_for(count_game, private=True)
    socket, _ = await connect(f"/ws/tables/{table.pk}/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    messages = [await receive(socket)]
    while messages[-1]["type"] != "websocket.close":  # the refusal, then the close
        messages.append(await receive(socket))
    refusal = "".join(message.get("text", "") for message in messages)
    assert 'data-code="forbidden"' in refusal and "private" in refusal
    assert messages[-1] == {"type": "websocket.close", "code": 4403}
    await socket.disconnect()  # let the consumer end before the database is flushed


async def test_a_logged_in_browser_from_our_origin_gets_its_seat(count_game):
    user, table = await table_for(count_game)
    cookie = await db(session_cookie)(user)
    socket, connected = await connect(f"/ws/tables/{table.pk}/", headers=[(b"origin", b"http://testserver"),
                                                                   (b"host", b"testserver"), (b"cookie", cookie)])
    assert connected
    assert 'class="player is-you' in "".join(await opened(socket))
    await socket.disconnect()


PLAYERS = itertools.count()


async def browser_socket(count_game, *headers):
    """Whether a logged-in player's table socket with these headers is accepted."""
    user, table = await table_for(count_game, name=f"origin{next(PLAYERS)}")
    cookie = await db(session_cookie)(user)
    socket, connected = await connect(f"/ws/tables/{table.pk}/", headers=[*headers, (b"cookie", cookie)])
    if connected:
        await socket.disconnect()
    return connected


async def test_the_origin_check_compares_the_port(count_game):
    """Item 13: another program's page on the same host (another port) gets no socket."""
    assert not await browser_socket(count_game, (b"origin", b"http://127.0.0.1:9999"), (b"host", b"127.0.0.1:8000"))
    assert await browser_socket(count_game, (b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"))


async def test_the_origin_check_compares_the_scheme(count_game, settings):
    host = (b"host", b"127.0.0.1:8000")
    assert not await browser_socket(count_game, (b"origin", b"https://127.0.0.1:8000"), host)
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # behind a TLS proxy
    assert await browser_socket(count_game, (b"origin", b"https://127.0.0.1:8000"), host,
                                (b"x-forwarded-proto", b"https"))
    assert not await browser_socket(count_game, (b"origin", b"http://127.0.0.1:8000"), host,
                                    (b"x-forwarded-proto", b"https"))


async def test_a_host_outside_allowed_hosts_is_refused_even_from_its_own_origin(count_game):
    """DNS rebinding: evil.example pointed at our address is still not our site."""
    assert not await browser_socket(count_game, (b"origin", b"http://evil.example"), (b"host", b"evil.example"))


async def test_no_host_or_two_origins_is_refused(count_game):
    assert not await browser_socket(count_game, (b"origin", b"http://127.0.0.1:8000"))
    assert not await browser_socket(count_game, (b"origin", b"http://127.0.0.1:8000"), (b"origin", b"http://evil.example"),
                                    (b"host", b"127.0.0.1:8000"))


async def test_csrf_trusted_origins_are_accepted_exactly(count_game, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://pigs.example", "https://*.pigs.example"]
    host = (b"host", b"127.0.0.1:8000")
    assert await browser_socket(count_game, (b"origin", b"https://pigs.example"), host)
    assert await browser_socket(count_game, (b"origin", b"https://play.pigs.example"), host)
    assert not await browser_socket(count_game, (b"origin", b"https://pigs.example:8443"), host)
    assert not await browser_socket(count_game, (b"origin", b"http://pigs.example"), host)




async def test_the_api_socket_needs_a_valid_bearer_token(count_game):
    user, table = await table_for(count_game)
    _, connected = await connect(f"/ws/api/tables/{table.pk}/", headers=[(b"authorization", b"Bearer pp_wrong")])
    assert not connected
    token = await db(create_token)(user)
    socket, connected = await connect(f"/ws/api/tables/{table.pk}/", headers=[(b"authorization", f"Bearer {token}".encode())])
    assert connected
    assert json_frames(await opened(socket))[0]["seat"] == 0
    await socket.disconnect()


async def api_socket(user, table):
    token = await db(create_token)(user)
    socket, connected = await connect(f"/ws/api/tables/{table.pk}/", headers=[(b"authorization", f"Bearer {token}".encode())])
    assert connected
    await opened(socket)
    return socket


async def test_oversized_messages_are_refused(count_game):
    user, table = await table_for(count_game)
    socket = await api_socket(user, table)
    await socket.send_to(text_data=json.dumps({"type": "pong", "id": 1, "pad": "x" * 5000}))
    assert [(frame["code"], frame["message"]) for frame in json_frames(await answered(socket, api=True))
            if frame["type"] == "error"] == [("bad_request", "message too large")]
    await socket.disconnect()


async def test_a_flood_of_messages_is_rate_limited(count_game, monkeypatch, settings):
    """The limiter's clock stands still through the flood (no token comes back while it is
    read), then moves on a minute: the refill lets a probe through, and its answer says
    every one of the 40 has been read before it."""
    from types import SimpleNamespace

    from pigparlor.tables import guard

    now = [1000.0]
    monkeypatch.setattr(guard, "time", SimpleNamespace(monotonic=lambda: now[0]))
    user, table = await table_for(count_game)
    socket = await api_socket(user, table)
    for ping_id in range(40):
        await socket.send_to(text_data=json.dumps({"type": "pong", "id": ping_id}))
    first = await until(socket, lambda got: any('"error"' in frame for frame in got))
    now[0] += 60
    frames = first + await answered(socket, api=True)
    refusals = [frame for frame in json_frames(frames) if frame["type"] == "error"]
    assert all(frame["message"] == "too many messages: slow down" for frame in refusals)
    assert len(refusals) == 40 - settings.PIGPARLOR_WS_BURST  # the burst read, every later one refused
    await socket.disconnect()


async def test_names_and_titles_are_escaped(count_game):
    user, table = await table_for(count_game, name="<script>alert(1)</script>", title="<b>bold</b>")
    snapshot = await db(rendering.load_snapshot)(table.pk)
    html = "".join((await db(rendering.html_parts)(snapshot, 0)).values())
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = await db(lambda: _page(user, table.pk))()
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    assert "<script>alert(1)</script>" not in page


def _page(user, table_id):
    client = Client()
    client.force_login(user)
    response = client.get(f"/tables/{table_id}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/tables/" + "9" * 5000 + "/", "/ws/api/tables/x/"])
async def test_an_unknown_socket_path_is_refused_quietly(path, caplog):
    communicator = WebsocketCommunicator(application, path, headers=[(b"host", b"127.0.0.1")])
    connected, code = await communicator.connect(timeout=WAIT_SECONDS)
    assert not connected and code == 4404
    assert not [record for record in caplog.records if record.levelname in ("ERROR", "CRITICAL")]
