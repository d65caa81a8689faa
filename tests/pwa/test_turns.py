""""Your turn": pushed after the move's commit to a player with no socket at the table, once per table until they act."""
from __future__ import annotations

import time

import pytest
from django.db import transaction

from games.core.registry import get_game
from pigparlor.pwa import sender, turns
from pigparlor.pwa.models import TurnAlert
from pigparlor.tables import services
from pigparlor.tables.models import Presence, Table
from pigparlor.tables.presence import PROCESS_ID
from tests.pwa.conftest import subscribe
from tests.support.tables import step_clock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(count_game, ana, bea, client, push_service, monkeypatch):
    """A two-seat Count to Ten table: Ana (seat 0, to move first) and Bea, both with a phone subscribed.
    A fixed deal: with a random one, four plays sometimes reached ten and the game ended early."""
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 7)
    for user in (ana, bea):
        client.force_login(user)
        subscribe(client, push_service.device(user.username))
    created = services.create_table(host=ana, game="countgame", seats=2, options={"turn_seconds": 30})
    services.join_table(created, bea)
    return Table.objects.get(pk=created.pk)


def play(table_id, user, seat):
    """The seat's first legal move, through the one door."""
    current = Table.objects.get(pk=table_id)
    engine = get_game(current.game).engine
    action = engine.legal_actions(engine.load(current.state), seat)[0]
    return services.act(table_id, seat, action, current.version, user=user)


def at_table(table, user, channel):
    return Presence.objects.create(table=table, user=user, process=PROCESS_ID, channel=channel, opened_ms=0)


def test_the_player_whose_turn_it_is_gets_one_push(table, push_service):
    sender.drain()
    delivery = push_service.next()
    assert delivery.device == "ana"
    assert delivery.message == {"kind": "turn", "title": "Your turn — Count to Ten",
                                "body": f"Table {table.pk} is waiting on you.", "url": f"/tables/{table.pk}/",
                                "tag": f"turn-{table.pk}", "badge": 1}
    assert push_service.nothing_received()


def test_a_move_only_queues_the_check(table, push_service):
    sender.drain()
    push_service.next()
    with transaction.atomic():
        play(table.pk, table.seat_set.get(index=0).user, 0)
        assert sender.JOBS.empty(), "nothing before the commit"
    assert sender.JOBS.qsize() == 1, "the check, and nothing else: a move writes nothing for the push"
    assert push_service.nothing_received(), "act itself sends nothing"
    sender.drain()
    assert push_service.next().device == "bea"


def test_debounced_one_push_per_table_until_the_player_acts(table, ana, bea, push_service):
    sender.drain()
    assert push_service.next().device == "ana"
    # Ana never moves: the clock plays for her, Bea moves, and it is Ana's turn again.
    assert step_clock(table.pk)
    sender.drain()
    assert push_service.next().device == "bea"
    play(table.pk, bea, 1)
    sender.drain()
    assert push_service.nothing_received(), "Ana had her push for this table and has not acted since"
    assert TurnAlert.objects.filter(user=ana, table=table).exists()
    # Ana acts: her debounce is forgotten, so her next turn pushes again (Bea acted since hers too).
    play(table.pk, ana, 0)
    sender.drain()
    assert push_service.next().device == "bea"
    play(table.pk, bea, 1)
    sender.drain()
    assert push_service.next().device == "ana"


def test_no_push_while_the_player_has_the_table_open(table, ana, bea, push_service):
    at_table(table, ana, "ana-tab")
    sender.drain()
    assert push_service.nothing_received(), "Ana has the table open"
    play(table.pk, ana, 0)
    at_table(table, bea, "bea-phone-tab")
    sender.drain()
    assert push_service.nothing_received(), "Bea has the table open"
    Presence.objects.filter(channel="ana-tab").delete()
    play(table.pk, bea, 1)
    sender.drain()
    assert push_service.next().device == "ana", "Ana closed her tab: now she hears of it"


def test_a_stale_check_sends_nothing(table, ana, push_service, django_assert_num_queries):
    """A check for a version the table has moved past leaves it to the newer move's check,
    after one read of two columns (issue 14: at 500 live tables the push jobs' reads and
    writes after every move were a third of the server's CPU)."""
    version = table.version
    sender.JOBS.queue.clear()
    play(table.pk, ana, 0)
    sender.JOBS.queue.clear()
    with django_assert_num_queries(1):
        assert turns.check_turn(table.pk, version) == 0
    assert push_service.nothing_received()


def test_an_alert_from_before_the_players_last_move_no_longer_holds_back_a_push(table, ana, bea, push_service):
    """The debounce ends with a move of the player's own after the push (the log says so),
    not with a move of the clock's for them."""
    sender.drain()
    assert push_service.next().device == "ana"
    first = TurnAlert.objects.get(user=ana, table=table)
    assert first.version == table.version
    play(table.pk, ana, 0)
    sender.drain()
    assert push_service.next().device == "bea"
    play(table.pk, bea, 1)
    sender.drain()
    assert push_service.next().device == "ana", "Ana moved after her push: the next one goes out"
    again = TurnAlert.objects.get(user=ana, table=table)
    assert again.pk == first.pk and again.version > first.version, "one row per player and table, moved on"


def test_bots_and_finished_tables_get_no_push(count_game, ana, client, push_service):
    client.force_login(ana)
    subscribe(client, push_service.device("ana"))
    created = services.create_table(host=ana, game="countgame", seats=2, bots=1, options={"turn_seconds": 30})
    sender.drain()
    assert push_service.next().device == "ana", "her turn first"
    while step_clock(created.pk):
        pass
    sender.drain()
    assert push_service.nothing_received()
    assert not TurnAlert.objects.filter(table_id=created.pk).exists(), "alerts go when the table ends"


def test_the_badge_counts_the_tables_waiting_on_you(table, ana, bea, client):
    client.force_login(ana)
    assert client.get("/push/badge/").json() == {"waiting": 1, "tables": [
        {"id": table.pk, "game": "countgame", "title": f"Table {table.pk}", "url": f"/tables/{table.pk}/"}]}
    client.force_login(bea)
    assert client.get("/push/badge/").json() == {"waiting": 0, "tables": []}
    client.logout()
    assert client.get("/push/badge/").json() == {"waiting": 0, "tables": []}


def test_moves_while_a_check_waits_leave_one_check_for_the_latest_move(table, ana, bea, push_service):
    """A table that moves again before its check is due keeps one check on the queue, and it
    looks at the latest move (issue 14: a check per move was a query per move)."""
    sender.drain()
    assert push_service.next().device == "ana"
    play(table.pk, ana, 0)
    play(table.pk, bea, 1)
    play(table.pk, ana, 0)
    assert sender.JOBS.qsize() == 1, "one check for the table, however many moves"
    sender.drain()
    assert push_service.next().device == "bea", "the latest move's turn"
    assert push_service.nothing_received()


def test_a_check_that_is_not_due_waits_again_for_the_latest_move(table, ana, push_service, settings):
    settings.PIGPARLOR_PUSH_TURN_DELAY_MS = 60_000
    sender.drain()
    push_service.next()
    play(table.pk, ana, 0)
    _, _, check = sender.JOBS.get_nowait()
    assert check() == 0 and push_service.nothing_received(), "not due for a minute: nothing checked"
    due, _, again = sender.JOBS.get_nowait()
    assert repr(again) == repr(check) and due > time.monotonic() + 50
