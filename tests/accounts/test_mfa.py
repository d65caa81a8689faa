"""Two-factor sign-in: enrolment from the profile, sign-in with a code or a recovery code,
staff and moderators kept out of the admin until they enrol, and the throttle on codes."""
from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import SECRET_SESSION_KEY
from axes.models import AccessAttempt
from django.core.cache import cache
from django.urls import reverse

from tests.moderation.helpers import make_moderator
from tests.support.mfa import enrol, totp_code
from tests.support.tables import PASSWORD, make_user

pytestmark = pytest.mark.django_db
ADDRESS = "198.51.100.7"


@pytest.fixture(autouse=True)
def _fresh_cache():
    """allauth keeps used codes and its request limits in the cache, which outlives a test."""
    cache.clear()
    yield
    cache.clear()


def log_in(client, name="ana"):
    return client.post(reverse("account_login"), {"login": name, "password": PASSWORD}, REMOTE_ADDR=ADDRESS)


def send_code(client, code):
    return client.post(reverse("mfa_authenticate"), {"code": code}, REMOTE_ADDR=ADDRESS)


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_profile_links_to_two_factor_sign_in(client):
    client.force_login(make_user("ana"))
    body = client.get(reverse("accounts:profile")).content.decode()
    assert f'href="{reverse("mfa_index")}"' in body and "Two-factor sign-in" in body


def test_enrolment_with_an_authenticator_app_then_sign_in_asks_for_and_takes_a_code(client):
    ana = make_user("ana")
    assert log_in(client).status_code == 302
    # Setting it up asks for the password again (allauth's reauthentication), then shows the code.
    again = client.get(reverse("mfa_activate_totp"))
    assert again.status_code == 302 and again["Location"].startswith(reverse("account_reauthenticate"))
    assert client.post(again["Location"], {"password": PASSWORD}, REMOTE_ADDR=ADDRESS)["Location"] == reverse("mfa_activate_totp")
    page = client.get(reverse("mfa_activate_totp"))
    assert page.status_code == 200
    body = page.content.decode()
    # The QR code is part of the page (the Content Security Policy refuses data: images).
    assert "<svg" in body and "data:image" not in body and "<?xml" not in body
    secret = client.session[SECRET_SESSION_KEY]
    assert secret in body
    refused = client.post(reverse("mfa_activate_totp"), {"code": "000000" if totp_code(secret) != "000000" else "111111"})
    assert refused.status_code == 200 and not Authenticator.objects.filter(user=ana).exists()
    done = client.post(reverse("mfa_activate_totp"), {"code": totp_code(secret)})
    assert done.status_code == 302 and done["Location"] == reverse("mfa_view_recovery_codes")
    assert set(Authenticator.objects.filter(user=ana).values_list("type", flat=True)) == {
        Authenticator.Type.TOTP, Authenticator.Type.RECOVERY_CODES}

    client.post(reverse("account_logout"))
    assert not signed_in(client)
    response = log_in(client)
    assert response.status_code == 302 and response["Location"] == reverse("mfa_authenticate")
    assert not signed_in(client), "the password alone does not sign in"
    assert send_code(client, totp_code(secret, 1)).status_code == 302
    assert signed_in(client)


def test_a_recovery_code_works_once(client):
    ana = make_user("ana")
    enrol(ana)
    from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes

    codes = RecoveryCodes.activate(ana).get_unused_codes()
    log_in(client)
    assert send_code(client, codes[0]).status_code == 302 and signed_in(client)

    client.post(reverse("account_logout"))
    log_in(client)
    again = send_code(client, codes[0])
    assert again.status_code == 200 and not signed_in(client)
    assert "Incorrect code" in again.content.decode()
    assert send_code(client, codes[1]).status_code == 302 and signed_in(client)


def test_a_moderator_is_sent_to_set_up_two_factor_until_they_have(client):
    moderator = make_moderator(two_factor=False)
    client.force_login(moderator)
    for path in (reverse("admin:index"), reverse("admin:moderation_report_changelist")):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"] == reverse("mfa_activate_totp"), path
    page = client.get(reverse("mfa_activate_totp"), follow=True)
    assert "Staff and moderators set up two-factor sign-in" in page.content.decode()
    enrol(moderator)
    assert client.get(reverse("admin:moderation_report_changelist")).status_code == 200


def test_staff_are_held_to_it_too_and_the_admin_door_is_the_sites(client, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password=PASSWORD)
    # Signed out, the admin's log-in page is the site's, which asks for the second factor.
    response = client.get(reverse("admin:login"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    client.force_login(boss)
    assert client.get(reverse("admin:index"))["Location"] == reverse("mfa_activate_totp")
    # Logging out of the admin still works.
    assert client.post(reverse("admin:logout")).status_code == 200
    # Players never notice.
    client.force_login(make_user("ana"))
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_wrong_codes_are_throttled_like_wrong_passwords(client):
    ana = make_user("ana")
    secret = enrol(ana)
    assert log_in(client)["Location"] == reverse("mfa_authenticate")
    right = totp_code(secret, 1)
    wrong = "123456" if right != "123456" else "654321"
    statuses = [send_code(client, wrong).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    assert AccessAttempt.objects.get(username="ana").failures_since_start == 5
    locked = send_code(client, right)
    assert locked.status_code == 429 and "Too many failed log-ins" in locked.content.decode()
    assert not signed_in(client)
    assert AccessAttempt.objects.get(username="ana").failures_since_start == 5, "tries while locked are not counted"
    assert wrong not in AccessAttempt.objects.get(username="ana").post_data, "codes are not kept"


def test_a_moderator_without_two_factor_holds_no_moderator_power(count_game):
    from django.core.exceptions import PermissionDenied

    from pigparlor.moderation import services as moderation
    from pigparlor.moderation.permissions import is_moderator
    from tests.moderation.helpers import two_player_table

    _, _, table_id = two_player_table()
    moderator = make_moderator(two_factor=False)
    assert not is_moderator(moderator)
    with pytest.raises(PermissionDenied):
        moderation.close_table(moderator, table_id, "spam")
    enrol(moderator)
    assert is_moderator(moderator, "close_table")
    moderation.close_table(moderator, table_id, "spam")
