"""Every end of a session closes its sockets, of every kind (table, lobby,
tournament, player, the API's): a password change closes the other logins'
browser sockets and leaves the changing one's open; a deactivation closes
every socket, API tokens' too; a logout closes that login's player socket
(pigparlor/tables/credentials.py). Across processes the message goes through
the channel layer like every other (tests/scaleout/test_socket_caps.py)."""
import json

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from pigparlor.api.models import ApiToken
from pigparlor.api.routing import websocket_urlpatterns as api_sockets
from pigparlor.api.tokens import create_token
from pigparlor.lobby.routing import websocket_urlpatterns as lobby_sockets
from pigparlor.tables import services
from pigparlor.tables.models import Presence
from pigparlor.tables.routing import websocket_urlpatterns as table_sockets
from pigparlor.tournaments.routing import websocket_urlpatterns as tournament_sockets
from tests.support.sockets import db, json_frames, until
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db(transaction=True)
APP = URLRouter([*api_sockets, *table_sockets, *lobby_sockets, *tournament_sockets])
PASSWORD = "a-long-test-password"


async def connect(path, user, **scope):
    communicator = WebsocketCommunicator(APP, path)
    communicator.scope.update({"user": user, **scope})
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


async def logged_in(user) -> Client:
    browser = Client()
    await db(browser.force_login)(user)
    return browser


async def every_kind(user, table_id, browser=None, token_id=None) -> dict:
    """One socket of each kind, opened with ``browser``'s session or the API token."""
    if token_id is not None:
        return {"api": await connect(f"/ws/api/tables/{table_id}/", user, api_token_id=token_id)}
    session = await db(lambda: browser.session)()
    paths = {"table": f"/ws/tables/{table_id}/", "lobby": "/ws/lobby/pigpile/", "tournament": "/ws/tournaments/",
             "player": "/ws/player/"}
    return {kind: await connect(path, user, session=session) for kind, path in paths.items()}


async def closed_with_4401(socket) -> list[str]:
    """The frames a socket got until its close, which must be 4401."""
    frames = []
    while True:
        message = await socket.receive_output(timeout=10)
        if message["type"] == "websocket.close":
            assert message["code"] == 4401
            return frames
        frames.append(message["text"])


async def still_open(socket, words: str) -> None:
    """A table socket is open: a chat line it sends comes back to it (the table's room)."""
    await socket.send_to(text_data=json.dumps({"type": "chat", "text": words}))
    await until(socket, lambda got: any(words in frame for frame in got))


async def table_for(user):
    return await db(services.create_table)(host=user, game="pigpile", seats=3, bots=2, options={"turn_seconds": 30})


@pytest.mark.asyncio
async def test_a_password_change_closes_the_other_logins_sockets_of_every_kind_and_keeps_its_own():
    ana = await db(make_user)("ana")
    table = await table_for(ana)
    here, elsewhere = await logged_in(ana), await logged_in(ana)
    await db(create_token)(ana, "bot")
    token = await db(ApiToken.objects.get)(user=ana)
    mine, theirs = await every_kind(ana, table.pk, here), await every_kind(ana, table.pk, elsewhere)
    program = await every_kind(ana, table.pk, token_id=token.pk)
    assert await db(Presence.objects.filter(user=ana).count)() == 9

    response = await db(here.post)(reverse("account_change_password"), {
        "oldpassword": PASSWORD, "password1": "a-new-pig-pass-9", "password2": "a-new-pig-pass-9"})
    assert response.status_code == 302

    for kind, socket in theirs.items():
        frames = await closed_with_4401(socket)
        if kind in ("table", "lobby"):  # the pages that have a place to say it
            assert any("the password was changed: log in again" in frame for frame in frames), kind
    # The changing login's sockets and the API token's (a credential of its own) stay open.
    await still_open(mine["table"], "still here")
    await still_open(program["api"], "my program too")
    assert await db(Presence.objects.filter(user=ana).count)() == 5
    for socket in (*mine.values(), *theirs.values(), *program.values()):
        await socket.disconnect()


@pytest.mark.asyncio
async def test_a_deactivated_account_loses_every_socket_api_tokens_too():
    ana = await db(make_user)("ana")
    table = await table_for(ana)
    await db(create_token)(ana, "bot")
    token = await db(ApiToken.objects.get)(user=ana)
    browser = await logged_in(ana)
    sockets = {**await every_kind(ana, table.pk, browser), **await every_kind(ana, table.pk, token_id=token.pk)}

    def deactivate():  # as the admin's user form saves it
        ana.is_active = False
        ana.save()

    await db(deactivate)()
    for kind, socket in sockets.items():
        frames = await closed_with_4401(socket)
        if kind == "api":
            assert json_frames(frames)[-1] == {"type": "error", "code": "forbidden",
                                               "message": "this account was deactivated"}
    assert await db(Presence.objects.filter(user=ana).count)() == 0
    for socket in sockets.values():
        await socket.disconnect()


@pytest.mark.asyncio
async def test_logging_out_closes_that_logins_player_and_tournament_sockets():
    ana = await db(make_user)("ana")
    table = await table_for(ana)
    browser, other = await logged_in(ana), await logged_in(ana)
    sockets, others = await every_kind(ana, table.pk, browser), await every_kind(ana, table.pk, other)
    assert (await db(browser.post)("/accounts/logout/")).status_code == 302
    for socket in sockets.values():
        await closed_with_4401(socket)
    await still_open(others["table"], "still here")  # another login of the same player stays
    for socket in (*sockets.values(), *others.values()):
        await socket.disconnect()
