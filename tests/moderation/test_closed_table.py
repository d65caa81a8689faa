"""A table a moderator closed turns read-only at once, for every viewer: its sockets
re-render (the close bumps ``seats_rev``) with the game greyed and inert, the game's
prompt saying play stopped, no cry or flip to press; the page fetched afterwards says
the same; a tap that was already on its way answers "The game is over."."""
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from pigparlor.moderation import services
from pigparlor.tables import services as tables
from pigparlor.tables.models import RUNNING
from tests.moderation.helpers import make_moderator
from tests.support.sockets import answered, db, open_socket, until
from tests.support.tables import make_user, table

pytestmark = [pytest.mark.django_db(transaction=True)]

GAME_FORM = re.compile(r'<form[^>]*ws-send[^>]*class="(?!chat)')


def oink_table():
    ana, ben = make_user("ana"), make_user("ben")
    created = tables.create_table(host=ana, game="oink", seats=2)
    tables.join_table(created, ben)
    assert table(created.pk).status == RUNNING
    return ana, ben, created.pk


def read_only(html: str) -> None:
    assert "Play has stopped: this table is closed." in html
    assert "in a moment" not in html and "Flip your card" not in html
    assert not GAME_FORM.search(html), GAME_FORM.search(html)
    assert re.search(r"<[a-z]+ (hx-swap-oob=\"true\" )?inert id=\"ok-", html)


@pytest.mark.asyncio
async def test_a_closed_tables_page_turns_read_only_at_once_for_every_viewer():
    ana, ben, table_id = await db(oink_table)()
    watcher = await db(make_user)("cy")
    sockets = [await open_socket(user, table_id) for user in (ana, ben, watcher)]
    before = [await answered(socket, api=False) for socket in sockets]
    assert any('id="ok-cries"' in "".join(frames) and "ws-send" in "".join(frames) for frames in before)
    await db(services.close_table)(await db(make_moderator)(), table_id, "abusive chat")
    for socket in sockets:
        frames = await until(socket, lambda got: any("Play has stopped" in frame for frame in got))
        update = frames[-1]
        read_only(update)
        assert "closed by a moderator: abusive chat" in update
        assert '<form id="ok-cries"' not in update
    # A tap already on its way when the close came: a sentence, not a lower-case fragment.
    current = await db(table)(table_id)
    await sockets[1].send_to(text_data=json.dumps({"version": str(current.version), "action": '{"type": "flip"}',
                                                   "HEADERS": {"HX-Request": "true"}}))
    refusal = (await until(sockets[1], lambda got: any('id="table-error"' in frame for frame in got)))[-1]
    assert 'data-code="illegal"' in refusal and ">The game is over.</div>" in refusal
    for socket in sockets:
        await socket.disconnect()
    # The page fetched afterwards, by a player and by a spectator, is read-only too.
    for user in (ana, watcher):
        client = Client()
        await db(client.force_login)(user)
        page = (await db(client.get)(reverse("table", args=[table_id]))).content.decode()
        read_only(page)
        assert "This table was <bdi>closed by a moderator: abusive chat</bdi>" in page
