"""Quick play: "Play now" over the lobby socket. Players of close rating are
seated together; a player alone gets bots of a close rating after the wait
they chose; leaving the page leaves the pool. The pool is in the database."""
import json

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pigparlor.lobby import matching, pool
from pigparlor.lobby.matching import Waiter
from pigparlor.lobby.models import PoolEntry
from pigparlor.lobby.routing import websocket_urlpatterns
from pigparlor.tables import timing
from pigparlor.tables.models import RUNNING, Table
from tests.support.sockets import WAIT_SECONDS, until

APP = URLRouter(websocket_urlpatterns)


# -- matching (pure) -----------------------------------------------------------

def test_close_ratings_sit_together_at_once_and_far_ones_wait():
    waiters = [Waiter("a", 1500, 0, 30), Waiter("b", 1550, 0, 30), Waiter("c", 1900, 0, 30), Waiter("d", 1480, 0, 30)]
    formed = matching.groups(waiters, 3, now_ms=0)
    assert [sorted(w.key for w in group.waiters) for group in formed] == [["a", "b", "d"]]
    assert formed[0].bots == 0


def test_the_window_widens_with_waiting_until_far_players_match():
    far = [Waiter("a", 1500, 0, None), Waiter("b", 1800, 0, None)]
    assert matching.groups(far, 2, now_ms=10_000) == []
    assert len(matching.groups(far, 2, now_ms=20_000)) == 1  # 100 + 10/s: ±300 after 20 s
    assert Waiter("x", 0, 0, None).window(10**9) == matching.WINDOW_MAX


def test_out_of_patience_fills_with_bots_but_never_seats_a_people_only_player_with_bots():
    waiters = [Waiter("a", 1500, 0, 10), Waiter("b", 1510, 0, None)]
    assert matching.groups(waiters, 4, now_ms=9_999) == []
    formed = matching.groups(waiters, 4, now_ms=10_000)
    assert [(tuple(w.key for w in g.waiters), g.bots) for g in formed] == [(("a",), 3)]
    assert matching.groups([Waiter("b", 1510, 0, None)], 4, now_ms=10**9) == []


def test_the_bot_nearest_the_tables_rating_fills_it():
    assert matching.closest_bot({"random": 1300, "sensible": 1620, "hard": 1800}, 1650) == "sensible"
    assert matching.closest_bot({"random": 1300, "sensible": 1620, "hard": 1800}, 1350) == "random"


# -- the lobby socket ------------------------------------------------------------

async def open_lobby(user, game="snout"):
    socket = WebsocketCommunicator(APP, f"/ws/lobby/{game}/")
    socket.scope["user"] = user
    connected, _ = await socket.connect(timeout=WAIT_SECONDS)
    assert connected
    await socket.receive_from(timeout=WAIT_SECONDS)  # the listing
    return socket


def seated(frames):
    return any("Table found" in frame for frame in frames)


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"quick{n}", password="x") for n in range(5)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_four_players_pressing_play_now_are_seated_together(players):
    sockets = [await open_lobby(user) for user in players[:4]]
    for socket in sockets:
        await socket.send_to(text_data=json.dumps({"pool": "join", "pool_seats": "4", "pool_wait": "30",
                                                   "HEADERS": {}}))
    heard = [await until(socket, seated) for socket in sockets]
    table = await sync_to_async(lambda: Table.objects.get(title=pool.TITLE))()
    assert table.status == RUNNING and table.rated
    sitting = await sync_to_async(lambda: sorted(table.seat_set.values_list("user__username", flat=True)))()
    assert sitting == [f"quick{n}" for n in range(4)]
    assert all(f"/lobby/tables/{table.pk}/seated/" in "".join(frames) for frames in heard)
    assert await sync_to_async(PoolEntry.objects.count)() == 0
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_player_alone_gets_bots_of_a_close_rating_after_the_wait(players):
    ana = players[0]
    socket = await open_lobby(ana)
    await socket.send_to(text_data=json.dumps({"pool": "join", "pool_seats": "3", "pool_wait": "10"}))
    waiting = await until(socket, lambda frames: any("Bots fill the table in" in f for f in frames))
    assert "near your 1500" in waiting[-1]
    timing.skip_ahead(10_000)
    await until(socket, seated)
    table = await sync_to_async(lambda: Table.objects.get(title=pool.TITLE))()
    kinds = await sync_to_async(lambda: list(table.seat_set.values_list("bot_kind", flat=True)))()
    assert table.status == RUNNING and kinds == ["", "sensible", "sensible"]
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_leaving_the_page_leaves_the_pool_and_bad_choices_are_refused(players):
    socket = await open_lobby(players[0])
    await socket.send_to(text_data=json.dumps({"pool": "join", "pool_seats": "9", "pool_wait": "30"}))
    assert "Snout! is for" in await socket.receive_from(timeout=WAIT_SECONDS)
    await socket.send_to(text_data=json.dumps({"pool": "join", "pool_seats": "4", "pool_wait": "7"}))
    assert "how long to wait" in await socket.receive_from(timeout=WAIT_SECONDS)
    await socket.send_to(text_data=json.dumps({"pool": "join", "pool_seats": "4", "pool_wait": "humans"}))
    assert "People only" in await socket.receive_from(timeout=WAIT_SECONDS)
    assert await sync_to_async(PoolEntry.objects.count)() == 1
    await socket.disconnect()
    assert await sync_to_async(PoolEntry.objects.count)() == 0


@pytest.mark.django_db
def test_a_stale_entry_whose_socket_died_is_dropped(players):
    from games.core.registry import get_game

    game = get_game("snout")
    pool.join_pool(players[0], game, pool.Request(4, 30), "dead-channel")
    timing.skip_ahead(pool.STALE_MS + 1)
    assert pool.tick(game) == 0 and not PoolEntry.objects.exists()
