"""notify() end to end: queued after the commit, signed with VAPID, encrypted, and shown as the phone would."""
from __future__ import annotations

import logging

import pytest
from django.db import transaction

from pigparlor.pwa import kinds, sender
from pigparlor.pwa.models import PushSubscription
from pigparlor.pwa.push import notify
from pigparlor.pwa.subscriptions import set_kinds
from tests.pwa.conftest import subscribe

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_push_reaches_the_phone_signed_and_encrypted(client, ana, push_service, settings):
    client.force_login(ana)
    phone = push_service.device("ana-phone")
    assert subscribe(client, phone, device="Chrome on Android").status_code == 201
    with transaction.atomic():
        notify(ana, kinds.INVITE, "/invite/abc/", "Bea invites you to Pig Pile", "A private table: Friday pigs.")
        assert sender.JOBS.empty(), "nothing is queued before the commit"
    assert sender.JOBS.qsize() == 1 and push_service.nothing_received(), "queued, not sent, by notify"
    assert sender.drain() == 1
    delivery = push_service.next()
    assert delivery.device == "ana-phone"
    assert delivery.message == {"kind": "invite", "title": "Bea invites you to Pig Pile",
                                "body": "A private table: Friday pigs.", "url": "/invite/abc/",
                                "tag": "invite", "badge": 0}
    assert delivery.claims["sub"] == settings.PIGPARLOR_PUSH_CONTACT
    assert int(delivery.headers["ttl"]) == kinds.BY_NAME["invite"].ttl_s
    assert PushSubscription.objects.get(user=ana).last_sent_at is not None


def test_every_device_of_the_player_gets_it(client, ana, push_service):
    client.force_login(ana)
    for name in ("phone", "laptop"):
        subscribe(client, push_service.device(name))
    notify(ana, kinds.REMATCH, "/tables/1/", "Rematch?", "Bea offers a rematch.")
    sender.drain()
    assert {push_service.next().device, push_service.next().device} == {"phone", "laptop"}


def test_a_rolled_back_change_sends_nothing(client, ana, push_service):
    client.force_login(ana)
    subscribe(client, push_service.device("phone"))
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            notify(ana, kinds.INVITE, "/invite/x/", "Invite", "Never sent")
            raise RuntimeError("the change failed")
    assert sender.drain() == 0 and push_service.nothing_received()


def test_kinds_the_player_turned_off_are_not_sent(client, ana, push_service):
    client.force_login(ana)
    subscribe(client, push_service.device("phone"))
    set_kinds(ana, [kinds.TURN, kinds.TOURNAMENT_TABLE])
    notify(ana, kinds.INVITE, "/invite/x/", "Invite", "Turned off")
    notify(ana, kinds.TOURNAMENT_TABLE, "/tables/7/", "Your tournament table is ready", "Round 2, table 7.")
    sender.drain()
    assert push_service.next().message["kind"] == "tournament_table"
    assert push_service.nothing_received()


def test_every_kind_of_the_issue_exists():
    """Your turn, tournament check-in and table ready, invitations, rematch offers (issue 17)."""
    assert set(kinds.NAMES) == {"turn", "tournament_checkin", "tournament_table", "invite", "rematch"}


def test_notify_refuses_an_unknown_kind_or_a_foreign_url(ana):
    with pytest.raises(ValueError):
        notify(ana, "spam", "/", "t", "b")
    for url in ("https://elsewhere.example/", "//elsewhere.example/", "javascript:alert(1)", "tables/1/"):
        with pytest.raises(ValueError):
            notify(ana, kinds.INVITE, url, "t", "b")
    assert sender.JOBS.empty()


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_is_dropped(client, ana, push_service, status, caplog):
    client.force_login(ana)
    subscribe(client, push_service.device("old-phone"))
    subscribe(client, push_service.device("new-phone"))
    push_service.answers["old-phone"] = status
    with caplog.at_level(logging.INFO, logger="pigparlor.pwa.push"):
        notify(ana, kinds.INVITE, "/invite/x/", "Invite", "Hello")
        sender.drain()
    assert push_service.next().device == "new-phone"
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        push_service.devices["new-phone"].endpoint]
    assert "is gone" in caplog.text


def test_a_failing_push_service_is_logged_not_retried(client, ana, push_service, caplog):
    client.force_login(ana)
    subscribe(client, push_service.device("phone"))
    push_service.answers["phone"] = 503
    with caplog.at_level(logging.WARNING, logger="pigparlor.pwa.push"):
        notify(ana, kinds.INVITE, "/invite/x/", "Invite", "Hello")
        assert sender.drain() == 1
    assert "push to 127.0.0.1" in caplog.text and "503" in caplog.text
    assert sender.JOBS.empty(), "not queued again"
    assert PushSubscription.objects.filter(user=ana).count() == 1, "kept: the service may come back"


def test_an_unreachable_push_service_is_logged(client, ana, push_service, caplog):
    client.force_login(ana)
    subscribe(client, push_service.device("phone"))
    push_service.close()
    with caplog.at_level(logging.WARNING, logger="pigparlor.pwa.push"):
        notify(ana, kinds.INVITE, "/invite/x/", "Invite", "Hello")
        sender.drain()
    assert "ConnectionError" in caplog.text
    assert sender.JOBS.empty()


def test_the_sender_thread_sends_what_is_queued(client, ana, push_service):
    client.force_login(ana)
    subscribe(client, push_service.device("phone"))
    sender.start()
    try:
        notify(ana, kinds.INVITE, "/invite/x/", "From the thread", "Hello")
        assert push_service.next(timeout=20).message["title"] == "From the thread"
    finally:
        sender.stop()
