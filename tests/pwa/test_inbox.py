"""The notifications menu in the header: rematch offers, invitations, tournament tables and
tables waiting on you, sent by the player socket when it connects and again as they change."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pigparlor.pwa import inbox
from pigparlor.pwa.invites import invite_player
from pigparlor.pwa.models import Mute
from pigparlor.tables import services
from pigparlor.tournaments.routing import websocket_urlpatterns
from tests.pwa.test_turns import play
from tests.support.sockets import frame_with
from tests.support.tables import make_user
from tests.support.tables import played_table as finished_table

pytestmark = pytest.mark.django_db(transaction=True)
APP = URLRouter(websocket_urlpatterns)
db = sync_to_async


def kinds(user) -> list[str]:
    return [item["kind"] for item in inbox.items_for(user)]


def test_the_menu_lists_a_rematch_offer_until_it_is_answered(count_game):
    ana, bea = make_user("ana"), make_user("bea")
    old = finished_table(ana, others=[bea], seats=2, bots=0)
    assert kinds(bea) == []
    rematch, _ = services.rematch_table(old, ana)
    [offer] = inbox.items_for(bea)
    assert offer["kind"] == "rematch" and offer["from"] == "ana" and offer["table"].pk == rematch.pk
    assert kinds(ana) == []  # the one who offered has nothing to answer
    html = inbox.inbox_html(bea)
    assert f'action="/lobby/tables/{rematch.pk}/join/"' in html and "No thanks" in html
    assert '<b><bdi>ana</bdi></b> offers a rematch' in html and 'hx-swap-oob="true"' in html
    services.decline_rematch(rematch, bea)
    assert kinds(bea) == []


def test_the_menu_lists_invitations_but_not_from_a_muted_player_nor_to_a_table_you_sit_at(count_game):
    ana, bea, cy = make_user("ana"), make_user("bea"), make_user("cy")
    table = services.create_table(host=ana, game="countgame", seats=3, private=True, title="Friday pigs")
    invite_player(table.pk, ana, "bea")
    [item] = inbox.items_for(bea)
    assert item["kind"] == "invite" and item["from"] == "ana"
    assert f"?invite={table.invite_code}" in inbox.inbox_html(bea)
    Mute.objects.create(user=bea, muted=ana)
    assert kinds(bea) == []
    invite_player(table.pk, ana, "cy")
    services.join_table(table, cy, invite_code=table.invite_code)
    assert kinds(cy) == []


def test_the_menu_lists_the_tables_waiting_on_your_move(count_game):
    ana, bea = make_user("ana"), make_user("bea")
    table = services.create_table(host=ana, game="countgame", seats=2, options={"turn_seconds": 30})
    services.join_table(table, bea)
    waiting = [item for item in inbox.items_for(ana) if item["kind"] == "turn"]
    assert [item["table"].pk for item in waiting] == [table.pk]
    assert f'href="/tables/{table.pk}/"' in inbox.inbox_html(ana) and "is waiting on your move" in inbox.inbox_html(ana)
    assert kinds(bea) == []


async def connect(user):
    socket = WebsocketCommunicator(APP, "/ws/player/")
    socket.scope["user"] = user
    connected, _ = await socket.connect(timeout=10)
    assert connected
    return socket


@pytest.mark.asyncio
async def test_the_player_socket_brings_the_offer_as_it_is_made_and_takes_it_away_once_answered(count_game):
    ana, bea = await db(make_user)("ana"), await db(make_user)("bea")
    old = await db(finished_table)(ana, others=[bea], seats=2, bots=0)
    socket = await connect(bea)
    first = await socket.receive_from(timeout=10)
    assert "Nothing is waiting for you." in first and '<span id="inbox-count"' in first
    rematch, _ = await db(services.rematch_table)(old, ana)
    offered = await frame_with(socket, "offers a rematch")
    assert '>1<span class="visually-hidden"> waiting</span>' in offered
    await db(services.join_table)(rematch, bea)
    assert "Nothing is waiting for you." in await frame_with(socket, "inbox-items")
    await socket.disconnect()


@pytest.mark.asyncio
async def test_the_movers_menu_is_rendered_again_after_their_move(count_game):
    ana, bea = await db(make_user)("ana"), await db(make_user)("bea")
    table = await db(services.create_table)(host=ana, game="countgame", seats=2, options={"turn_seconds": 30})
    await db(services.join_table)(table, bea)
    socket = await connect(ana)
    assert "is waiting on your move" in await socket.receive_from(timeout=10)
    await db(play)(table.pk, ana, 0)
    assert "Nothing is waiting for you." in await frame_with(socket, "inbox-items")
    await socket.disconnect()
