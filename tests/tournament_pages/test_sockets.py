"""The tournaments' live sockets (issue 12 item 5): a tournament's page and the
list follow every change without a reload, a seated player's page sends them to
their table, and every signed-in page hears "your table is ready"."""
import random

import pytest
from asgiref.sync import sync_to_async

from games.core import Progress
from games.core.registry import get_game
from pigparlor.tables import services as tables
from pigparlor.tables.models import Table
from pigparlor.tournaments import live, progress, services
from pigparlor.tournaments.standings import open_tables
from tests.support.sockets import WAIT_SECONDS, connect, frame_with, open_socket
from tests.support.tables import make_user
from tests.tournament_pages.helpers import make_tournament, start_now
from tests.tournaments import helpers as core

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
COUNT_CUP = [{"game": "countgame", "format": "elimination", "table_size": 2, "advance": 1}]
db = sync_to_async


@pytest.fixture(autouse=True)
def _fresh_renders():
    live.RENDERS.items.clear()




async def test_the_page_socket_sends_the_board_then_every_change(count_game):
    tournament, _ = await db(make_tournament)(COUNT_CUP, name="Wallow cup")
    socket, connected = await connect(f"/ws/tournaments/{tournament.pk}/")
    assert connected
    first = await socket.receive_from(timeout=WAIT_SECONDS)
    assert '<div id="t-board" class="t-board" hx-swap-oob="true">' in first
    assert 'id="t-me"' in first and "Log in to register" in first
    assert "0 registered, 0 checked in." in first

    bea = await db(make_user)("bea")
    await db(services.register)(tournament.pk, bea)
    changed = await frame_with(socket, "1 registered, 0 checked in.")
    assert ">bea</bdi>" in changed and 'hx-swap-oob="innerHTML">1 registered' in changed
    await socket.disconnect()


async def test_an_unknown_tournament_socket_is_closed():
    _, connected = await connect("/ws/tournaments/999999/")
    assert not connected


async def test_a_seated_player_is_sent_to_their_table_and_a_watcher_is_not(count_game):
    tournament, users = await db(make_tournament)(COUNT_CUP, players=2)
    ana = users[0]
    mine, _ = await connect(f"/ws/tournaments/{tournament.pk}/", ana)
    watcher, _ = await connect(f"/ws/tournaments/{tournament.pk}/")
    first = await mine.receive_from(timeout=WAIT_SECONDS)
    assert "data-follow" not in first and 'id="t-withdraw"' in first
    await watcher.receive_from(timeout=WAIT_SECONDS)

    await db(start_now)(tournament, users)
    table_id = (await db(open_tables)(tournament))[ana.pk]
    sent = await frame_with(mine, "data-follow")
    assert f'<a class="button" id="t-my-table" href="/tables/{table_id}/" data-follow>' in sent
    watched = await frame_with(watcher, f'href="/tables/{table_id}/"')
    assert "data-follow" not in watched and "Watch table 1 of final table" in watched  # two players: one table, the final
    for socket in (mine, watcher):
        await socket.disconnect()


async def test_the_list_socket_follows_new_and_starting_tournaments(count_game):
    socket, connected = await connect("/ws/tournaments/")
    assert connected
    assert "No tournament is scheduled right now." in await socket.receive_from(timeout=WAIT_SECONDS)
    tournament, users = await db(make_tournament)(COUNT_CUP, players=2, name="Puddle cup")
    upcoming = await frame_with(socket, "Puddle cup")
    assert upcoming.index("Puddle cup") < upcoming.index('id="t-running-heading"')
    await db(start_now)(tournament, users)
    running = await frame_with(socket, "0 upcoming, 1 playing now.")
    assert running.index('id="t-running-heading"') < running.index("Puddle cup")
    await socket.disconnect()


async def test_the_player_socket_shows_the_banner_when_the_table_is_ready(count_game):
    _, connected = await connect("/ws/player/")
    assert not connected  # only signed-in players have one

    tournament, users = await db(make_tournament)(COUNT_CUP, players=2, name="Trough cup")
    ana = users[0]
    banner, connected = await connect("/ws/player/", ana)
    assert connected
    menu = await banner.receive_from(timeout=WAIT_SECONDS)  # the notifications menu, with nothing in it
    assert 'id="inbox-count"' in menu and "Nothing is waiting for you." in menu
    await db(start_now)(tournament, users)
    table_id = (await db(open_tables)(tournament))[ana.pk]
    ready = await frame_with(banner, "Your table is ready")
    assert ready.startswith('<div id="table-ready" hx-swap-oob="innerHTML">')
    assert f'data-table-path="/tables/{table_id}/"' in ready and f'href="/tables/{table_id}/"' in ready
    assert "Trough cup" in ready and "stage 1: Count to Ten, final table" in ready
    await banner.disconnect()

    # A page opened later (or a socket that reconnects) still shows it while the table plays.
    again, _ = await connect("/ws/player/", ana)
    assert f'href="/tables/{table_id}/"' in await again.receive_from(timeout=WAIT_SECONDS)

    # Once the table is over, its banner goes away.
    await db(core.play_table)(table_id, random.Random(4))
    assert (await frame_with(again, 'id="table-ready"')).strip() == '<div id="table-ready" hx-swap-oob="innerHTML"></div>'
    await again.disconnect()


async def test_the_player_socket_never_counts_against_the_table_socket_cap(count_game, settings):
    settings.PIGPARLOR_MAX_SOCKETS_PER_USER = 1
    tournament, users = await db(make_tournament)(COUNT_CUP, players=2)
    await db(start_now)(tournament, users)
    ana = users[0]
    banner, _ = await connect("/ws/player/", ana)
    await banner.receive_from(timeout=WAIT_SECONDS)
    table_id = (await db(open_tables)(tournament))[ana.pk]
    table_socket = await open_socket(ana, table_id)
    state = await table_socket.receive_from(timeout=WAIT_SECONDS)
    assert '"code": "rate_limited"' not in state and "table-" in state
    for socket in (table_socket, banner):
        await socket.disconnect()


async def test_a_running_board_follows_its_tables_progress(count_game, settings, monkeypatch):
    """Tables move on without the tournament changing: the board is rendered
    again every PIGPARLOR_TOURNAMENT_PROGRESS_SECONDS and sent when it differs."""
    settings.PIGPARLOR_TOURNAMENT_PROGRESS_SECONDS = 0.05
    # The count game tells no progress of its own: here its total stands in for one.
    monkeypatch.setattr(type(count_game.engine), "progress", lambda self, state: Progress(turn_number=state.total))
    monkeypatch.setattr(progress, "words", lambda found: f"total {found.turn_number}")
    tournament, users = await db(make_tournament)(COUNT_CUP, players=2)
    await db(start_now)(tournament, users)
    table_id = (await db(open_tables)(tournament))[users[0].pk]
    socket, _ = await connect(f"/ws/tournaments/{tournament.pk}/")
    assert "total 0" in await socket.receive_from(timeout=WAIT_SECONDS)

    def play_one():
        table = Table.objects.get(pk=table_id)
        engine = get_game(table.game).engine
        state = engine.load(table.state)
        turn = engine.view(state, None)["turn"]
        seat = table.seat_set.get(index=turn)
        action = engine.legal_actions(state, turn)[0]
        tables.act(table_id, turn, action, table.version, user=seat.user)
        return engine.view(engine.load(Table.objects.get(pk=table_id).state), None)["total"]

    total = await db(play_one)()
    assert total > 0
    moved = await frame_with(socket, f"total {total}")
    assert 'id="t-me"' not in moved  # the viewer's panel only moves with the tournament
    await socket.disconnect()


async def test_the_player_socket_tells_a_registered_player_their_tournament_was_cancelled(count_game):
    tournament, (ana,) = await db(make_tournament)(COUNT_CUP, players=1, name="Soggy cup")
    banner, _ = await connect("/ws/player/", ana)
    await banner.send_input({"type": "player.something_new"})  # unknown kinds are ignored, the socket stays
    await db(services.cancel_tournament)(tournament.pk, "the barn flooded")
    told = await frame_with(banner, "was cancelled")
    assert "Soggy cup</bdi> was cancelled</strong>: <bdi>the barn flooded</bdi>" in told
    assert f'href="/tournaments/{tournament.pk}/"' in told
    await banner.disconnect()
