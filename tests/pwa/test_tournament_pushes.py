"""Tournament pushes: check-in opening (once, to registered players) and "your tournament table is ready"."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from pigparlor.pwa import sender
from pigparlor.pwa.tournament_pushes import announce_checkins, on_clock_tick
from pigparlor.tournaments import services
from pigparlor.tournaments.models import Tournament
from tests.pwa.conftest import subscribe
from tests.tournaments.helpers import check_everyone_in, make_tournament, start_now

pytestmark = pytest.mark.django_db(transaction=True)

ONE_PIG_PILE_ROUND = [{"game": "pigpile", "format": "elimination", "table_size": 4, "advance": 1,
                       "options": {"turn_seconds": 30}}]


def phones(client, push_service, users):
    for user in users:
        client.force_login(user)
        subscribe(client, push_service.device(user.username))


def test_check_in_opening_is_pushed_once_to_registered_players(client, push_service):
    tournament, users = make_tournament(ONE_PIG_PILE_ROUND, players=3, starts_in=timedelta(minutes=30),
                                        name="Sunday sty")
    phones(client, push_service, users)
    services.withdraw(tournament.pk, users[2])
    assert announce_checkins() == 0, "check-in is not open yet"
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() + timedelta(minutes=9, seconds=50))
    assert announce_checkins() == 2
    assert announce_checkins() == 0, "once"
    sender.drain()
    received = {push_service.next().device: None for _ in range(2)}
    assert set(received) == {users[0].username, users[1].username}
    assert push_service.nothing_received(), "the player who withdrew is not told"


def test_the_check_in_push_reads_as_a_phone_shows_it(client, push_service):
    tournament, users = make_tournament(ONE_PIG_PILE_ROUND, players=1, starts_in=timedelta(minutes=5),
                                        name="Sunday sty")
    phones(client, push_service, users)
    on_clock_tick(None, now_ms=10**13)
    sender.drain()
    assert push_service.next().message == {
        "kind": "tournament_checkin", "title": "Check in: Sunday sty",
        "body": "Check-in is open: the tournament starts in 5 minutes.",
        "url": f"/tournaments/{tournament.pk}/", "tag": f"tournament-{tournament.pk}", "badge": 0}


def test_your_tournament_table_is_ready(client, push_service):
    tournament, users = make_tournament(ONE_PIG_PILE_ROUND, players=4, name="Sunday sty")
    phones(client, push_service, users)
    check_everyone_in(tournament, users)
    sender.JOBS.queue.clear()
    start_now(tournament)
    sender.drain()
    ready = []
    while not push_service.nothing_received():
        delivery = push_service.next()
        if delivery.message["kind"] == "tournament_table":
            ready.append(delivery)
    assert {delivery.device for delivery in ready} == {user.username for user in users}
    message = ready[0].message
    assert message["title"] == "Your tournament table is ready"
    assert message["url"].startswith("/tables/") and message["body"].startswith("Sunday sty")
    assert message["tag"] == "turn-" + message["url"].split("/")[2], "one notification per table on the phone"


def test_a_rematch_offer_reaches_the_other_players(client, count_game, push_service):
    """"Play again" by one player: the others get a push that opens the rematch's waiting room."""
    from pigparlor.tables import services as tables
    from tests.support.tables import make_user, played_table

    ana, ben = make_user("ana"), make_user("ben")
    phones(client, push_service, [ana, ben])
    old = played_table(ana, others=[ben])
    sender.drain()
    while not push_service.nothing_received():
        push_service.next()  # the game's own "your turn" pushes
    rematch, created = tables.rematch_table(old, ben)
    assert created
    sender.drain()
    delivery = push_service.next()
    assert delivery.device == "ana"
    assert delivery.message["kind"] == "rematch" and delivery.message["title"] == "ben offers a rematch"
    assert delivery.message["url"] == f"/lobby/tables/{rematch.pk}/"
    assert push_service.nothing_received(), "not to the player who offered it"
