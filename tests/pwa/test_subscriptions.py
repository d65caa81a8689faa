"""Turning notifications on and off per device, choosing kinds, and every bad input refused with nothing stored."""
from __future__ import annotations

import json
import os
import stat

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from pigparlor.pwa import vapid
from pigparlor.pwa.models import PushPreference, PushSubscription
from pigparlor.pwa.subscriptions import kinds_of
from tests.pwa.conftest import subscribe
from tests.pwa.push_service import b64url
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db


def post_json(client, url, body):
    return client.post(url, body if isinstance(body, (str, bytes)) else json.dumps(body),
                       content_type="application/json")


def refused(response, status, code, words):
    assert response.status_code == status, response.content
    answer = response.json()
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert words in answer["message"], answer["message"]


def test_subscribe_then_unsubscribe(client, ana, push_service):
    client.force_login(ana)
    phone = push_service.device("phone")
    response = subscribe(client, phone, device="Firefox on Android", expirationTime=None)
    assert response.status_code == 201
    assert response.json() == {"id": PushSubscription.objects.get().pk, "kinds": [
        "turn", "invite", "tournament_checkin", "tournament_table", "rematch"]}
    again = subscribe(client, phone)
    assert again.status_code == 200, "the same device again updates it"
    assert PushSubscription.objects.get().device == "Firefox on Android"
    assert post_json(client, "/push/subscriptions/remove/", {"endpoint": phone.endpoint}).json() == {"removed": True}
    assert post_json(client, "/push/subscriptions/remove/", {"endpoint": phone.endpoint}).json() == {"removed": False}
    assert not PushSubscription.objects.exists()


def test_a_device_that_signs_in_as_someone_else_moves_to_them(client, ana, bea, push_service):
    shared = push_service.device("family-tablet")
    client.force_login(ana)
    subscribe(client, shared)
    client.force_login(bea)
    assert subscribe(client, shared).status_code == 201
    assert PushSubscription.objects.get().user == bea


def test_the_profile_lists_devices_and_turns_one_off(client, ana, bea, push_service):
    client.force_login(bea)
    subscribe(client, push_service.device("bea-phone"))
    client.force_login(ana)
    subscribe(client, push_service.device("ana-phone"), device="Chrome on Android")
    html = client.get("/profile/").content.decode()
    assert "Turn on for this device" in html and "Chrome on Android" in html and "js/push." in html
    mine = PushSubscription.objects.get(user=ana)
    hers = PushSubscription.objects.get(user=bea)
    assert client.post(f"/push/devices/{hers.pk}/remove/").status_code == 302
    assert PushSubscription.objects.filter(pk=hers.pk).exists(), "not Ana's to turn off"
    client.post(f"/push/devices/{mine.pk}/remove/")
    assert not PushSubscription.objects.filter(pk=mine.pk).exists()


def test_kinds_from_the_profile_form_and_as_json(client, ana):
    client.force_login(ana)
    assert kinds_of(ana.pk) == ["turn", "invite", "tournament_checkin", "tournament_table", "rematch"]
    response = client.post("/push/kinds/", {"kinds": ["rematch", "turn"]})
    assert response.status_code == 302
    assert kinds_of(ana.pk) == ["turn", "rematch"]
    html = client.get("/profile/").content.decode()
    assert 'value="turn" checked' in html and 'value="invite">' in html
    assert post_json(client, "/push/kinds/", {"kinds": []}).json() == {"kinds": []}
    assert kinds_of(ana.pk) == []


def test_unknown_kinds_are_refused_and_nothing_changes(client, ana):
    client.force_login(ana)
    client.post("/push/kinds/", {"kinds": ["turn"]})
    refused(post_json(client, "/push/kinds/", {"kinds": ["turn", "spam"]}), 400, "bad_request", "unknown kind 'spam'")
    refused(post_json(client, "/push/kinds/", {"kinds": "turn"}), 400, "bad_request", "list of kind names")
    refused(post_json(client, "/push/kinds/", {"kinds": [1]}), 400, "bad_request", "list of kind names")
    client.post("/push/kinds/", {"kinds": ["invite", "nonsense"]})
    assert PushPreference.objects.get(user=ana).kinds == ["turn"]


def valid_keys():
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_numbers()
    raw = b"\x04" + point.x.to_bytes(32, "big") + point.y.to_bytes(32, "big")
    return {"p256dh": b64url(raw), "auth": b64url(os.urandom(16))}


HTTPS = "https://fcm.googleapis.com/fcm/send/abc123"


@pytest.mark.parametrize("body, words", [
    ('{"endpoint": ', "not JSON"),
    ("[]", "JSON object"),
    ({"endpoint": HTTPS}, "send the browser's subscription"),
    ({"keys": valid_keys()}, "send the browser's subscription"),
    ({"endpoint": HTTPS, "keys": valid_keys(), "extra": 1}, "unknown field 'extra'"),
    ({"endpoint": 7, "keys": valid_keys()}, "endpoint must be the push service's URL"),
    ({"endpoint": "", "keys": valid_keys()}, "endpoint must be the push service's URL"),
    ({"endpoint": "https://" + "a" * 1000 + ".example/", "keys": valid_keys()}, "longer than 1000"),
    ({"endpoint": "http://fcm.googleapis.com/fcm/send/x", "keys": valid_keys()}, "must be an https URL"),
    ({"endpoint": "ftp://fcm.googleapis.com/x", "keys": valid_keys()}, "must be an https URL"),
    ({"endpoint": "javascript:alert(1)", "keys": valid_keys()}, "must be an https URL"),
    ({"endpoint": "https://127.0.0.1/push", "keys": valid_keys()}, "not an address"),
    ({"endpoint": "https://[::1]/push", "keys": valid_keys()}, "not an address"),
    ({"endpoint": "https://10.0.0.7/push", "keys": valid_keys()}, "not an address"),
    ({"endpoint": "https://localhost/push", "keys": valid_keys()}, "push service's host name"),
    ({"endpoint": "https://push.localhost/x", "keys": valid_keys()}, "push service's host name"),
    ({"endpoint": "https://user:pw@fcm.googleapis.com/x", "keys": valid_keys()}, "push service's host name"),
    ({"endpoint": "https://fcm.googleapis.com:99999/x", "keys": valid_keys()}, "not a URL"),
    ({"endpoint": HTTPS, "keys": "abc"}, 'keys must be an object'),
    ({"endpoint": HTTPS, "keys": {**valid_keys(), "x": "y"}}, 'keys must be an object'),
    ({"endpoint": HTTPS, "keys": {"p256dh": valid_keys()["p256dh"]}}, "base64url strings"),
    ({"endpoint": HTTPS, "keys": {**valid_keys(), "p256dh": "not base64 !"}}, "base64url"),
    ({"endpoint": HTTPS, "keys": {**valid_keys(), "p256dh": b64url(b"\x04" + b"\x01" * 64)}}, "not a point on the P-256"),
    ({"endpoint": HTTPS, "keys": {**valid_keys(), "p256dh": b64url(b"\x02" + b"\x01" * 32)}}, "65 bytes"),
    ({"endpoint": HTTPS, "keys": {**valid_keys(), "auth": b64url(b"short")}}, "16 bytes"),
    ({"endpoint": HTTPS, "keys": valid_keys(), "device": "\u202eevil"}, "invisible character"),
])
def test_a_bad_subscription_is_refused_and_nothing_stored(client, ana, body, words):
    client.force_login(ana)
    refused(post_json(client, "/push/subscriptions/", body), 400, "bad_request", words)
    assert not PushSubscription.objects.exists()


def test_an_https_push_service_is_taken(client, ana):
    client.force_login(ana)
    assert post_json(client, "/push/subscriptions/", {"endpoint": HTTPS, "keys": valid_keys()}).status_code == 201


def test_a_local_endpoint_needs_the_test_setting(client, ana, settings, push_service):
    """Production (no test origins) refuses the test's own local push service; only 127.0.0.1 origins count."""
    client.force_login(ana)
    settings.PIGPARLOR_PUSH_TEST_ORIGINS = []
    refused(subscribe(client, push_service.device("phone")), 400, "bad_request", "https")
    settings.PIGPARLOR_PUSH_TEST_ORIGINS = ["http://10.1.2.3:80", "http://localhost:8000", "https://127.0.0.1:443"]
    for endpoint in ("http://10.1.2.3:80/push/x", "http://localhost:8000/push/x"):
        refused(post_json(client, "/push/subscriptions/", {"endpoint": endpoint, "keys": valid_keys()}),
                400, "bad_request", "https")
    settings.PIGPARLOR_PUSH_TEST_ORIGINS = [push_service.origin]
    other_port = push_service.origin.rsplit(":", 1)[0] + ":1/push/x"
    refused(post_json(client, "/push/subscriptions/", {"endpoint": other_port, "keys": valid_keys()}),
            400, "bad_request", "https")
    assert not PushSubscription.objects.exists()
    assert subscribe(client, push_service.device("phone")).status_code == 201


def test_production_defaults_take_no_local_endpoint():
    from django.conf import settings as defaults

    assert defaults.PIGPARLOR_PUSH_TEST_ORIGINS == []


def test_too_many_devices(client, ana, settings, push_service):
    settings.PIGPARLOR_PUSH_MAX_SUBSCRIPTIONS = 2
    client.force_login(ana)
    first = push_service.device("one")
    assert subscribe(client, first).status_code == 201
    assert subscribe(client, push_service.device("two")).status_code == 201
    refused(subscribe(client, push_service.device("three")), 429, "rate_limited", "2 devices already")
    assert PushSubscription.objects.filter(user=ana).count() == 2
    assert subscribe(client, first).status_code == 200, "a device already on may renew its keys"
    bea = make_user("bea")
    client.force_login(bea)
    assert subscribe(client, push_service.device("bea")).status_code == 201, "the limit is per player"


def test_signed_out_and_wrong_methods(client, push_service):
    refused(subscribe(client, push_service.device("phone")), 401, "unauthorized", "log in")
    assert client.get("/push/subscriptions/").status_code == 405
    refused(post_json(client, "/push/kinds/", {"kinds": []}), 401, "unauthorized", "log in")
    assert client.post("/push/devices/1/remove/").status_code == 302  # to the login page
    assert not PushSubscription.objects.exists()


def test_subscribing_needs_the_csrf_token(ana, push_service):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ana)
    assert subscribe(browser, push_service.device("phone")).status_code == 403
    assert not PushSubscription.objects.exists()


def test_the_public_key_is_the_one_pushes_are_signed_with(client):
    key = client.get("/push/key/").json()["public_key"]
    assert key == vapid.public_key()
    point = vapid.b64url_decode(key)
    assert len(point) == 65 and point[0] == 4
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)


def test_the_vapid_key_is_made_once_and_kept_private(tmp_path, settings):
    settings.DATA_DIR = tmp_path
    settings.PIGPARLOR_VAPID_PRIVATE_KEY = ""
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()
    try:
        first = vapid.private_key()
        path = tmp_path / "vapid_private_key"
        assert path.read_text() == first
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        vapid.private_key.cache_clear()
        assert vapid.private_key() == first, "read back, not made again"
        settings.PIGPARLOR_VAPID_PRIVATE_KEY = vapid.new_private_key()
        vapid.private_key.cache_clear()
        assert vapid.private_key() == settings.PIGPARLOR_VAPID_PRIVATE_KEY, "the setting wins"
    finally:
        vapid.private_key.cache_clear()
        vapid.public_key.cache_clear()
