"""Fixtures for the push tests: the local push service, devices subscribed through the site's door."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from pigparlor.pwa import sender, turns, vapid
from tests.pwa.push_service import PushService


@pytest.fixture(autouse=True)
def empty_queue():
    while not sender.JOBS.empty():
        sender.JOBS.get_nowait()
    turns.forget_checks()
    yield
    while not sender.JOBS.empty():
        sender.JOBS.get_nowait()
    turns.forget_checks()


@pytest.fixture
def push_service(settings):
    service = PushService(vapid.public_key())
    settings.PIGPARLOR_PUSH_TEST_ORIGINS = [service.origin]
    settings.PIGPARLOR_PUSH_TURN_DELAY_MS = 0
    yield service
    service.close()
    assert not service.refused, service.refused


def make_user(name: str):
    return get_user_model().objects.create_user(username=name, password="a-long-test-password")


def subscribe(client, browser, **extra):
    """POST the browser's subscription, as push.js does."""
    return client.post("/push/subscriptions/", json.dumps({**browser.info, **extra}), content_type="application/json")


@pytest.fixture
def ana(client):
    return make_user("ana")


@pytest.fixture
def bea():
    return make_user("bea")
