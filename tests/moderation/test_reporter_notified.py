"""The reporter hears back: once a moderator resolves their report, their notifications
menu (the player socket, /ws/player/) says "Your report about … was reviewed: …" at
once, until they dismiss it; nobody else sees it, and nobody else can dismiss it."""
import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from pigparlor.moderation import services
from pigparlor.moderation.chat import table_room
from pigparlor.moderation.models import Report
from pigparlor.moderation.reports import file_report
from pigparlor.pwa import inbox
from pigparlor.tournaments.routing import websocket_urlpatterns
from tests.moderation.helpers import make_moderator, two_player_table
from tests.support.sockets import WAIT_SECONDS, db, frame_with

pytestmark = [pytest.mark.django_db(transaction=True)]


async def player_socket(user):
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/player/")
    socket.scope["user"] = user
    assert (await socket.connect(timeout=WAIT_SECONDS))[0]
    return socket


@pytest.mark.asyncio
async def test_the_reporter_is_notified_live_when_their_report_is_resolved(count_game):
    ana, ben, table_id = await db(two_player_table)()
    report = await db(file_report)(ana, table_room(table_id), "ben", "abuse", "insults")
    socket = await player_socket(ana)
    assert "Your report" not in await frame_with(socket, "inbox-items")
    await db(services.resolve_report)(await db(make_moderator)(), report.pk, Report.ACTION_TAKEN, "warned")
    told = await frame_with(socket, "Your report about")
    assert "Your report about <b><bdi>ben</bdi></b> was reviewed: action was taken." in told
    assert '<li class="inbox__item" data-kind="report">' in told
    assert [item["kind"] for item in await db(inbox.items_for)(ben)] == []  # only the reporter hears
    # Someone else cannot dismiss it; the reporter can, and the menu empties at once.
    other = Client()
    await db(other.force_login)(ben)
    url = reverse("moderation:dismiss_report", args=[report.pk])
    assert (await db(other.post)(url)).status_code == 404
    client = Client()
    await db(client.force_login)(ana)
    assert (await db(client.post)(url, HTTP_HX_REQUEST="true")).status_code == 204
    menu = await frame_with(socket, "inbox-items")
    assert "Your report" not in menu and "is waiting on your move" in menu  # the table's turn stays
    await socket.disconnect()


def test_no_action_reads_as_such(count_game):
    ana, ben, table_id = two_player_table()
    report = file_report(ana, table_room(table_id), "ben", "stalling")
    assert [item["kind"] for item in inbox.items_for(ana) if item["kind"] == "report"] == []
    services.resolve_report(make_moderator(), report.pk, Report.NO_ACTION, "slow, not stalling")
    assert "Your report about <b><bdi>ben</bdi></b> was reviewed: no action was needed." in inbox.inbox_html(ana)
