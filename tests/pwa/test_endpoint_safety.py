"""Push endpoints cannot point the server into its own network: every spelling of a
private address is refused when a browser subscribes and again before every send,
and the send connects to the address it checked (DNS rebinding cannot move it).

No test here leaves the machine: the ``network`` fixture answers names and
refuses any connection that is not to loopback; ``trap`` is a port on
127.0.0.1 that counts who connected.
"""
from __future__ import annotations

import logging
import socket
import threading

import pytest
import requests

from pigparlor.pwa import kinds, sender
from pigparlor.pwa.models import PushSubscription
from pigparlor.pwa.push import notify
from tests.pwa.conftest import PUBLIC_ADDRESS, PUSH_SERVICES
from tests.pwa.test_subscriptions import post_json, refused, valid_keys

pytestmark = pytest.mark.django_db(transaction=True)

# Each endpoint (PORT: the trap's), what the test's resolver answers for its name, and the refusal's words.
PRIVATE = [
    ("https://127.1:PORT/push/x", None, "not an address"),
    ("https://0177.0.0.1:PORT/push/x", None, "not an address"),
    ("https://0x7f.0.0.1:PORT/push/x", None, "not an address"),
    ("https://127.000.000.001:PORT/push/x", None, "not an address"),
    ("https://127.0.0.1.:PORT/push/x", None, "not an address"),
    ("https://2130706433:PORT/push/x", None, "not an address"),
    ("https://10.1:PORT/push/x", None, "not an address"),
    ("https://169.254.43518:PORT/push/x", None, "not an address"),
    ("https://[::1]:PORT/push/x", None, "not an address"),
    ("https://[::ffff:127.0.0.1]:PORT/push/x", None, "not an address"),
    ("https://localtest.me:PORT/push/x", ("localtest.me", "127.0.0.1"), "resolves to 127.0.0.1"),
    ("https://metadata.google.internal:PORT/push/x", ("metadata.google.internal", "169.254.169.254"),
     "resolves to 169.254.169.254"),
    ("https://push.corp.example:PORT/push/x", ("push.corp.example", "10.0.0.7"), "resolves to 10.0.0.7"),
    ("https://push.v6.example:PORT/push/x", ("push.v6.example", "::1"), "resolves to ::1"),
    ("https://multicast.example:PORT/push/x", ("multicast.example", "224.0.0.1"), "resolves to 224.0.0.1"),
    ("https://nowhere.example:PORT/push/x", ("nowhere.example", "0.0.0.0"), "resolves to 0.0.0.0"),
    ("http://127.0.0.1:PORT/push/x", None, "must be an https URL"),
    ("http://fcm.googleapis.com:PORT/fcm/send/x", None, "must be an https URL"),
]


@pytest.fixture(autouse=True)
def no_test_origins(settings):
    """Production's setting: no local push service (the trap would be one)."""
    settings.PIGPARLOR_PUSH_TEST_ORIGINS = []
    settings.PIGPARLOR_PUSH_TIMEOUT_S = 1


def aimed(endpoint, answer, network, trap):
    if answer is not None:
        network.answer(*answer)
    return endpoint.replace("PORT", str(trap.port))


def nobody_connected(network, trap):
    assert network.to_port(trap.port) == [] and network.refused == [], network.connections
    assert trap.connections() == 0
    network.refused.clear()


@pytest.mark.parametrize("endpoint, answer, words", PRIVATE)
def test_subscribing_to_a_private_address_is_refused(client, ana, network, trap, endpoint, answer, words):
    client.force_login(ana)
    endpoint = aimed(endpoint, answer, network, trap)
    refused(post_json(client, "/push/subscriptions/", {"endpoint": endpoint, "keys": valid_keys()}),
            400, "bad_request", words)
    assert not PushSubscription.objects.exists()
    nobody_connected(network, trap)


@pytest.mark.parametrize("endpoint, answer, words", PRIVATE)
def test_a_stored_private_endpoint_is_not_contacted(ana, network, trap, caplog, endpoint, answer, words):
    """A subscription stored before these rules (written to the table directly) gets no push, and is dropped."""
    endpoint = aimed(endpoint, answer, network, trap)
    PushSubscription.objects.create(user=ana, endpoint=endpoint, **valid_keys())
    with caplog.at_level(logging.WARNING, logger="pigparlor.pwa.push"):
        notify(ana, kinds.INVITE, "/invite/x/", "Invite", "Hello")
        assert sender.drain() == 1
    nobody_connected(network, trap)
    assert words in caplog.text and "dropped subscription" in caplog.text
    assert not PushSubscription.objects.exists()


def test_a_name_that_turns_private_after_subscribing_is_not_contacted(client, ana, network, trap, caplog):
    """DNS rebinding: public when the browser subscribed, loopback when the push goes."""
    network.answer("push.rebind.example", PUBLIC_ADDRESS, "127.0.0.1")
    client.force_login(ana)
    endpoint = f"https://push.rebind.example:{trap.port}/push/x"
    assert post_json(client, "/push/subscriptions/", {"endpoint": endpoint, "keys": valid_keys()}).status_code == 201
    assert network.lookups == ["push.rebind.example"], "the name is resolved and checked when subscribing"
    with caplog.at_level(logging.WARNING, logger="pigparlor.pwa.push"):
        notify(ana, kinds.INVITE, "/invite/x/", "Invite", "Hello")
        sender.drain()
    nobody_connected(network, trap)
    assert "resolves to 127.0.0.1" in caplog.text


def test_the_send_connects_to_the_address_it_checked(client, ana, network, trap, caplog):
    """The name is looked up once per send, checked, and the connection made to that
    address: a second answer (loopback) is never asked for."""
    network.answer("fcm.googleapis.com", PUBLIC_ADDRESS, PUBLIC_ADDRESS, "127.0.0.1")
    client.force_login(ana)
    endpoint = f"https://fcm.googleapis.com:{trap.port}/fcm/send/x"
    assert post_json(client, "/push/subscriptions/", {"endpoint": endpoint, "keys": valid_keys()}).status_code == 201
    assert network.lookups == ["fcm.googleapis.com"]
    with caplog.at_level(logging.WARNING, logger="pigparlor.pwa.push"):
        notify(ana, kinds.INVITE, "/invite/x/", "Invite", "Hello")
        sender.drain()
    assert network.lookups == ["fcm.googleapis.com"] * 2, "one lookup at send: the check's"
    assert network.refused == [(PUBLIC_ADDRESS, trap.port)], "the connection went to the checked address"
    network.refused.clear()
    assert trap.connections() == 0
    assert f"push to fcm.googleapis.com:{trap.port} failed (ConnectionError)" in caplog.text
    assert PushSubscription.objects.filter(user=ana).count() == 1, "kept: the service may come back"


def test_an_unresolvable_name_is_refused_and_kept_at_send(ana, network, caplog):
    PushSubscription.objects.create(user=ana, endpoint="https://gone.example/push/x", **valid_keys())
    with caplog.at_level(logging.WARNING, logger="pigparlor.pwa.push"):
        notify(ana, kinds.INVITE, "/invite/x/", "Invite", "Hello")
        sender.drain()
    assert "cannot be resolved" in caplog.text and network.connections == []
    assert PushSubscription.objects.filter(user=ana).count() == 1, "a lookup may fail for a while"


@pytest.mark.parametrize("host", PUSH_SERVICES)
def test_the_push_services_public_hosts_are_taken_once_resolved(client, ana, network, host):
    client.force_login(ana)
    answer = post_json(client, "/push/subscriptions/", {"endpoint": f"https://{host}/push/abc", "keys": valid_keys()})
    assert answer.status_code == 201, answer.content
    assert network.lookups == [host], "its addresses were checked"


class FirstBytes:
    """One connection on 127.0.0.1: what the client sent first (its request, or its TLS
    ClientHello, where the name it asks for travels in clear), then closed without answer."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.received = b""
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        accepted, _ = self.sock.accept()
        with accepted:
            self.received = accepted.recv(65536)
        self.sock.close()


@pytest.mark.parametrize("scheme, words", [("http", b"Host: push.pinned.example:"),
                                           ("https", b"push.pinned.example")])
def test_a_pinned_connection_still_speaks_to_the_name(network, scheme, words):
    """The connection goes to the checked address; the Host header (http) and TLS's
    server name (https) are still the endpoint's name, never resolved again."""
    from pigparlor.pwa import endpoints

    server = FirstBytes()
    pinned = endpoints.Destination(scheme, "push.pinned.example", server.port, "127.0.0.1")
    with endpoints.session(pinned) as session, pytest.raises(requests.RequestException):
        session.post(f"{scheme}://push.pinned.example:{server.port}/push/x", data=b"{}", timeout=5)
    server.thread.join()
    assert words in server.received
    assert network.lookups == [] and network.to_port(server.port) == [("127.0.0.1", server.port)]
