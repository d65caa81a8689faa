"""End to end through a real ``serve``: a player away from their table gets "your turn" on their phone.

The server's own sender thread signs and encrypts the push; the local push
service checks the VAPID signature and decrypts it with the phone's keys.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import requests

from tests.conftest import start_site, stop_site
from tests.pwa.push_service import PushService

PASSWORD = "snouts-and-trotters-42"


@pytest.fixture(scope="module")
def push_site():
    with tempfile.TemporaryDirectory(prefix="pigparlor-push-") as directory:
        # The key is fetched from the site once it runs; the service checks against it.
        service = PushService(site_public_key="")
        site = start_site(Path(directory), {"PIGPARLOR_PUSH_TEST_ORIGINS": service.origin,
                                            "PIGPARLOR_PUSH_TURN_DELAY_MS": "0"})
        try:
            service.site_public_key = requests.get(f"{site}/push/key/", timeout=30).json()["public_key"]
            yield site, service
        finally:
            stop_site(site)
            service.close()


def signed_up(site, username) -> requests.Session:
    browser = requests.Session()
    browser.get(f"{site}/accounts/signup/", timeout=30)
    answer = browser.post(f"{site}/accounts/signup/", timeout=30, headers={"Referer": f"{site}/accounts/signup/"},
                          data={"csrfmiddlewaretoken": browser.cookies["csrftoken"], "username": username,
                                "password1": PASSWORD, "password2": PASSWORD})
    assert answer.url == f"{site}/", answer.text[-500:]
    return browser


def test_your_turn_reaches_the_phone_of_a_player_away_from_the_table(push_site):
    site, service = push_site
    browser = signed_up(site, "farmer_joan")
    phone = service.device("joan-phone")
    answer = browser.post(f"{site}/push/subscriptions/", json={**phone.info, "device": "Chrome on Android"},
                          headers={"X-CSRFToken": browser.cookies["csrftoken"], "Referer": f"{site}/profile/"},
                          timeout=30)
    assert answer.status_code == 201, answer.text
    token = site.manage("api_token", "farmer_joan")
    created = requests.post(f"{site}/api/tables/", json={"game": "pigpile", "seats": 3, "bots": 2,
                                                             # Dealt face-up cards: play, and turns, begin
                                                             # at once instead of after the choosing timer.
                                                             "options": {"greased_pig_start": True}},
                            headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    delivery = service.next(timeout=60)
    assert delivery.device == "joan-phone"
    assert delivery.message == {"kind": "turn", "title": "Your turn — Pig Pile",
                                "body": f"Table {table_id} is waiting on you.", "url": f"/tables/{table_id}/",
                                "tag": f"turn-{table_id}", "badge": 1}
    assert delivery.headers["urgency"] == "high"
    assert not service.refused, service.refused
