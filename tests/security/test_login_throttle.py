"""Issue 9 item 6: logins are throttled per address and per name-and-address, on both doors,
and nobody can lock someone else out."""
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db
PASSWORD = "truffle-hunting-season-7"
STRANGER, ALICE = "203.0.113.9", "198.51.100.7"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """allauth keeps its (unrelated) per-address request limits in the cache, which outlives a test."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def boss(django_user_model):
    return django_user_model.objects.create_superuser("boss", password=PASSWORD)


def admin_login(client, password, address="127.0.0.1"):
    """The admin's door: its log-in page sends to the site's (which asks staff for their second
    factor, pigparlor/accounts/mfa.py), so the log-in happens, and is throttled, there."""
    door = client.post(reverse("admin:login"), {"username": "boss", "password": password,
                                                "next": reverse("admin:index")}, REMOTE_ADDR=address)
    assert door.status_code == 302 and door["Location"].startswith(reverse("account_login")) and not logged_in(client)
    return client.post(door["Location"], {"login": "boss", "password": password}, REMOTE_ADDR=address)


def account_login(client, username, password, address):
    return client.post(reverse("account_login"), {"login": username, "password": password}, REMOTE_ADDR=address)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_twenty_wrong_admin_passwords_then_the_right_one_is_refused_while_locked(client, boss):
    # Twenty, not forty: the admin's door is the site's log-in now, where allauth's own limit on
    # log-in requests (30 a minute from one address) answers before axes would.
    for _ in range(20):
        assert admin_login(client, "guess").status_code in (200, 429)
    response = admin_login(client, PASSWORD)
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.content.decode()
    assert not logged_in(client)


def test_the_admin_lock_starts_at_the_fifth_failure(client, boss):
    statuses = [admin_login(client, "guess").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]


def test_a_stranger_failing_against_alice_does_not_stop_alice(client, alice):
    stranger = Client()
    for _ in range(12):
        account_login(stranger, "alice", "guess", STRANGER)
    response = account_login(client, "alice", PASSWORD, ALICE)
    assert response.status_code == 302 and logged_in(client)
    assert account_login(stranger, "alice", PASSWORD, STRANGER).status_code == 429, "the stranger is locked"


def test_one_address_failing_for_many_names_is_locked(client, alice):
    for index in range(19):
        assert account_login(client, f"nobody{index}", "guess", STRANGER).status_code == 200
    response = account_login(client, "nobody19", "guess", STRANGER)
    assert response.status_code == 429 and "Too many failed log-ins" in response.content.decode()
    assert account_login(client, "alice", PASSWORD, STRANGER).status_code == 429
    assert account_login(client, "alice", PASSWORD, ALICE).status_code == 302


def test_the_locked_page_says_when_to_come_back(client, alice):
    for _ in range(5):
        response = account_login(client, "alice", "guess", STRANGER)
    body = response.content.decode()
    assert response.status_code == 429
    assert "paused for 15 minutes" in body and 'class="site-header"' in body


def test_the_lock_lifts_after_the_cool_off(client, alice, settings):
    for _ in range(5):
        account_login(client, "alice", "guess", ALICE)
    assert account_login(client, "alice", PASSWORD, ALICE).status_code == 429
    # Time passes: every recorded failure is now one cool-off (and a second) old.
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= settings.AXES_COOLOFF_TIME + timedelta(seconds=1)
        attempt.save()
    response = account_login(client, "alice", PASSWORD, ALICE)
    assert response.status_code == 302 and logged_in(client)


def test_tries_while_locked_do_not_extend_the_lock(client, alice, settings):
    for _ in range(5):
        account_login(client, "alice", "guess", ALICE)
    locked_at = AccessAttempt.objects.get().attempt_time
    for _ in range(10):
        assert account_login(client, "alice", "guess", ALICE).status_code == 429
    assert AccessAttempt.objects.get().attempt_time == locked_at


def test_a_failed_password_is_not_kept_in_the_attempt_log(client, alice, boss):
    account_login(client, "alice", "my-old-secret-pass", STRANGER)
    admin_login(client, "my-old-admin-pass", STRANGER)
    kept = " ".join(attempt.post_data for attempt in AccessAttempt.objects.all())
    assert "alice" in kept and "my-old" not in kept
