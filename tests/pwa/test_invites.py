"""Inviting a player by name to a private table: a push with the invite link, refusals that change nothing."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from pigparlor.accounts.models import Profile
from pigparlor.pwa import sender
from pigparlor.pwa.invites import MAX_FROM_ONE_PER_HOUR, MAX_PER_TABLE, MAX_TO_ONE_PER_HOUR
from pigparlor.pwa.models import Invitation, Mute
from pigparlor.tables import services
from tests.pwa.conftest import subscribe
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def private_table(count_game, ana):
    return services.create_table(host=ana, game="countgame", seats=3, private=True, title="Friday pigs")


def invite(client, table, username):
    return client.post(f"/lobby/tables/{table.pk}/invite/", {"username": username}, follow=True)


def test_the_invitee_gets_a_push_that_opens_the_invite(client, ana, bea, private_table, push_service):
    client.force_login(bea)
    subscribe(client, push_service.device("bea-phone"))
    client.force_login(ana)
    room = client.get(f"/lobby/tables/{private_table.pk}/").content.decode()
    assert "Invite a player by name" in room and 'data-share=' in room
    response = invite(client, private_table, "BEA")
    assert "Invited bea" in response.content.decode()
    sender.drain()
    delivery = push_service.next()
    assert delivery.device == "bea-phone"
    assert delivery.message["kind"] == "invite"
    assert delivery.message["title"] == "ana invites you to a Count to Ten table"
    assert delivery.message["body"] == "The table is called “Friday pigs”. Tap to take a seat."
    assert delivery.message["url"] == f"/invite/{private_table.invite_code}/"
    client.force_login(bea)
    landing = client.get(delivery.message["url"], follow=True).content.decode()
    assert "Take a seat" in landing, "the link in the push lets her in"


def test_the_room_form_posted_by_htmx_goes_back_to_the_room(client, ana, bea, private_table):
    client.force_login(ana)
    response = client.post(f"/lobby/tables/{private_table.pk}/invite/", {"username": "bea"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"] == f"/lobby/tables/{private_table.pk}/"


@pytest.mark.parametrize("who, name, words", [
    ("ana", "", "say whom to invite"),
    ("ana", "   ", "say whom to invite"),
    ("ana", "nobody-here", "no player is called"),
    ("ana", "bot:sensible", "no player is called"),
    ("ana", "ana", "already has a seat"),
])
def test_bad_invitations_are_refused(client, ana, bea, private_table, who, name, words):
    from pigparlor.ratings.accounts import bot_account

    bot_account("sensible")
    client.force_login(ana)
    response = invite(client, private_table, name)
    assert words in response.content.decode()
    assert not Invitation.objects.exists()
    assert sender.JOBS.empty()


def test_only_seated_players_invite_and_only_to_a_private_open_table(client, count_game, ana, bea, private_table):
    cid = make_user("cid")
    client.force_login(cid)
    assert client.post(f"/lobby/tables/{private_table.pk}/invite/", {"username": "bea"}).status_code == 302
    assert "no such table" in invite(client, private_table, "bea").content.decode(), "a private table stays hidden"
    public = services.create_table(host=ana, game="countgame", seats=2)
    client.force_login(ana)
    assert "invitations are for private tables" in invite(client, public, "bea").content.decode()
    services.join_table(private_table, bea, invite_code=private_table.invite_code)
    services.start_table(private_table, ana)
    assert "already started" in invite(client, private_table, "cid").content.decode()
    assert not Invitation.objects.exists()


def test_each_player_is_invited_once_per_table(client, ana, bea, private_table):
    client.force_login(ana)
    invite(client, private_table, "bea")
    assert "already invited bea" in invite(client, private_table, "bea").content.decode()
    assert Invitation.objects.count() == 1


def test_a_table_sends_at_most_so_many_invitations(client, ana, private_table):
    client.force_login(ana)
    for number in range(MAX_PER_TABLE):
        make_user(f"guest{number}")
        invite(client, private_table, f"guest{number}")
    make_user("onemore")
    assert f"sent {MAX_PER_TABLE} invitations already" in invite(client, private_table, "onemore").content.decode()
    assert Invitation.objects.count() == MAX_PER_TABLE


def pushes_received(push_service) -> list[dict]:
    sender.drain()
    received = []
    while not push_service.nothing_received():
        received.append(push_service.next().message)
    return received


def new_private_table(host):
    return services.create_table(host=host, game="countgame", seats=3, private=True)


def test_one_player_sends_another_so_many_invitations_an_hour(client, count_game, ana, bea, push_service):
    """Harassment: a new private table per invitation no longer reaches the phone without end."""
    client.force_login(bea)
    subscribe(client, push_service.device("bea-phone"))
    client.force_login(ana)
    for _ in range(MAX_FROM_ONE_PER_HOUR):
        assert "Invited bea" in invite(client, new_private_table(ana), "bea").content.decode()
    refusal = invite(client, new_private_table(ana), "bea").content.decode()
    assert f"you have invited bea {MAX_FROM_ONE_PER_HOUR} times in the last hour" in refusal
    assert Invitation.objects.count() == MAX_FROM_ONE_PER_HOUR
    assert len(pushes_received(push_service)) == MAX_FROM_ONE_PER_HOUR
    Invitation.objects.update(created_at=timezone.now() - timedelta(minutes=61))
    assert "Invited bea" in invite(client, new_private_table(ana), "bea").content.decode(), "an hour later"
    assert len(pushes_received(push_service)) == 1


def test_a_player_gets_so_many_invitation_pushes_an_hour_from_everyone(client, count_game, bea, push_service):
    client.force_login(bea)
    subscribe(client, push_service.device("bea-phone"))
    for number in range(MAX_TO_ONE_PER_HOUR + 1):
        host = make_user(f"host{number}")
        client.force_login(host)
        answer = invite(client, new_private_table(host), "bea").content.decode()
    assert f"bea has had {MAX_TO_ONE_PER_HOUR} invitations in the last hour" in answer
    assert Invitation.objects.count() == MAX_TO_ONE_PER_HOUR
    assert len(pushes_received(push_service)) == MAX_TO_ONE_PER_HOUR


def test_a_muted_players_invitations_are_not_pushed(client, count_game, ana, bea, push_service):
    client.force_login(bea)
    subscribe(client, push_service.device("bea-phone"))
    client.force_login(ana)
    invite(client, new_private_table(ana), "bea")
    assert len(pushes_received(push_service)) == 1
    client.force_login(bea)
    profile = client.get("/profile/").content.decode()
    assert "Invitations you got" in profile and f'action="/push/mutes/{ana.pk}/"' in profile
    muted = client.post(f"/push/mutes/{ana.pk}/", follow=True).content.decode()
    assert "Muted ana" in muted and "Muted players" in muted and f'action="/push/mutes/{ana.pk}/remove/"' in muted
    client.force_login(ana)
    assert "Invited bea" in invite(client, new_private_table(ana), "bea").content.decode(), "she is not told"
    assert pushes_received(push_service) == []
    assert Invitation.objects.filter(pushed=False).count() == 1
    client.force_login(bea)
    client.post(f"/push/mutes/{ana.pk}/remove/")
    assert not Mute.objects.exists()
    client.force_login(ana)
    invite(client, new_private_table(ana), "bea")
    assert len(pushes_received(push_service)) == 1, "unmuted: pushed again"


def test_mute_refuses_yourself_and_nobody(client, ana):
    client.force_login(ana)
    assert "cannot mute yourself" in client.post(f"/push/mutes/{ana.pk}/", follow=True).content.decode()
    assert "no such player" in client.post("/push/mutes/99999/", follow=True).content.decode()
    assert "had not muted" in client.post(f"/push/mutes/{ana.pk}/remove/", follow=True).content.decode()
    assert not Mute.objects.exists()


def test_the_title_holds_no_words_the_inviter_chose(client, count_game, ana, bea, push_service):
    """The probe's push read "A private table: Security notice: verify your account.": the
    title is the server's words; the table's name comes only in the body, quoted and cut."""
    Profile.objects.update_or_create(user=ana, defaults={"display_name": "Security notice"})
    table = services.create_table(host=ana, game="countgame", seats=3, private=True,
                                  title="Security notice: verify your account at once")
    client.force_login(bea)
    subscribe(client, push_service.device("bea-phone"))
    client.force_login(ana)
    invite(client, table, "bea")
    [message] = pushes_received(push_service)
    assert message["title"] == "ana invites you to a Count to Ten table"
    assert message["body"] == "The table is called “Security notice: verify your account at…”. Tap to take a seat."
