"""A rematch offer waits for the others to answer: the last game's page and the waiting
room say who is still deciding, and "No thanks" gives the kept seat up (the rematch
starts at once when nobody is left deciding)."""
import pytest
from django.test import Client
from django.urls import reverse

from pigparlor.lobby.room import room_context
from pigparlor.tables import rendering, services
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import OPEN, RUNNING, Table
from tests.support.tables import make_user, step_clock
from tests.support.tables import played_table as finished_table
from tests.tables.test_play_feel import state_of

pytestmark = pytest.mark.django_db


def shell_html(table_id, seat):
    return "".join(rendering.html_parts(rendering.load_snapshot(table_id), seat).values())


def test_the_last_games_page_says_who_is_still_deciding(count_game):
    ana, ben, cat = make_user("ana"), make_user("ben"), make_user("cat")
    old = finished_table(ana, others=[ben, cat], bots=0)
    services.rematch_table(old, ana)
    mine, bens = shell_html(old.pk, 0), shell_html(old.pk, 1)
    assert "Waiting for the others (1 of 3)" in mine
    assert 'Still deciding: <bdi>ben</bdi>, <bdi>cat</bdi>' in mine
    assert '<bdi>ana</bdi> offers a rematch: your seat is kept for you.' in bens
    assert "No thanks" in bens and 'Still deciding: <bdi>cat</bdi>' in bens  # not "you"
    services.rematch_table(old, ben)
    assert 'Still deciding: <bdi>cat</bdi>' in shell_html(old.pk, 0)


def test_no_thanks_gives_the_seat_up_and_the_rematch_starts_once_nobody_is_deciding(count_game):
    ana, ben, cat = make_user("ana"), make_user("ben"), make_user("cat")
    old = finished_table(ana, others=[ben, cat], bots=0)
    rematch, _ = services.rematch_table(old, ana)
    services.decline_rematch(rematch, ben)
    rematch.refresh_from_db()
    assert rematch.status == OPEN  # cat has not answered
    assert "Still deciding: <bdi>cat</bdi>" in shell_html(old.pk, 0)
    services.decline_rematch(rematch, cat)
    rematch.refresh_from_db()
    assert rematch.status == RUNNING
    seats = list(rematch.seat_set.order_by("index"))
    assert seats[0].user_id == ana.pk and all(seat.bot_kind and seat.user_id is None for seat in seats[1:])
    assert "The next game started without you" in shell_html(old.pk, 1)


def test_no_thanks_without_an_offer_is_refused_and_changes_nothing(count_game):
    ana, ben, cat = make_user("ana"), make_user("ben"), make_user("cat")
    old = finished_table(ana, others=[ben])
    rematch, _ = services.rematch_table(old, ana)
    for table, user in ((rematch, ana), (rematch, cat), (old, ben)):  # the host; a stranger; not a rematch
        before = state_of(table.pk)
        with pytest.raises(TableError) as caught:
            services.decline_rematch(table, user)
        assert caught.value.code == "illegal"
        assert state_of(table.pk) == before
    services.rematch_table(old, ben)  # every seat taken: it runs
    with pytest.raises(TableError):
        services.decline_rematch(rematch, ben)


def test_the_no_thanks_button_stays_on_the_page_from_htmx_and_goes_to_the_lobby_otherwise(count_game):
    ana, ben, cat = make_user("ana"), make_user("ben"), make_user("cat")
    old = finished_table(ana, others=[ben, cat], bots=0)
    rematch, _ = services.rematch_table(old, ana)
    client = Client()
    client.force_login(ben)
    url = reverse("lobby:decline", args=[rematch.pk])
    answer = client.post(url, {"stay": "1"}, headers={"HX-Request": "true"})
    assert answer.status_code == 204
    client.force_login(cat)
    assert client.post(url).headers["Location"] == "/games/countgame/"
    assert Table.objects.get(pk=rematch.pk).status == RUNNING
    again = client.post(url)  # nothing left to decline: said, nothing changes
    assert again.status_code == 302


def test_the_waiting_room_shows_a_kept_seat_of_a_private_rematch_to_its_player(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table = services.create_table(host=ana, game="countgame", seats=2, private=True, options={"turn_seconds": 5})
    services.join_table(table, ben, invite_code=table.invite_code)
    while step_clock(table.pk):
        pass
    rematch, _ = services.rematch_table(Table.objects.get(pk=table.pk), ana)
    context = room_context(rematch, ben, None)
    assert context is not None and context["kept_for_you"] and context["can_join"]
    assert room_context(rematch, make_user("cat"), None) is None  # still hidden from others
    client = Client()
    client.force_login(ben)
    page = client.get(reverse("lobby:table", args=[rematch.pk])).content.decode()
    assert "No thanks" in page and "Take a seat" in page
