"""Fixtures for the push tests: the local push service, devices subscribed through the site's door,
and a network that never leaves the machine (names answered by the test, connections only to loopback)."""
from __future__ import annotations

import ipaddress
import json
import socket

import pytest

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


# The push services' public hosts, answered with public addresses no test ever connects to.
PUBLIC_ADDRESS = "142.250.74.106"
PUSH_SERVICES = ("fcm.googleapis.com", "updates.push.services.mozilla.com", "wns2-par02p.notify.windows.com",
                 "web.push.apple.com")


class Network:
    """The resolver and the connections of the tests: a name the test answered gets its
    answers in turn (the last one again after that), an address spelling the system's own
    parsing (``AI_NUMERICHOST``: never DNS), anything else no answer; a connection to
    anything but loopback is refused before it leaves and kept in ``refused``."""

    def __init__(self, real_getaddrinfo, real_connect):
        self.real_getaddrinfo, self.real_connect = real_getaddrinfo, real_connect
        self.names: dict[str, list[str]] = {"localhost": ["127.0.0.1"]}
        self.names.update({name: [PUBLIC_ADDRESS] for name in PUSH_SERVICES})
        self.lookups: list[str] = []
        self.connections: list[tuple[str, int]] = []
        self.refused: list[tuple[str, int]] = []

    def answer(self, name: str, *addresses: str) -> None:
        self.names[name] = list(addresses)

    def getaddrinfo(self, host, port, family=0, type=0, proto=0, flags=0):
        name = host.decode() if isinstance(host, bytes) else host
        if flags & socket.AI_NUMERICHOST:
            return self.real_getaddrinfo(host, port, family, type, proto, flags)
        if isinstance(name, str) and name.lower().removesuffix(".") in self.names:
            self.lookups.append(name.lower().removesuffix("."))
            answers = self.names[name.lower().removesuffix(".")]
            address = answers.pop(0) if len(answers) > 1 else answers[0]
            number = int(port or 0)
            if ":" in address:
                return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, number, 0, 0))]
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, number))]
        if isinstance(name, str):
            name = name.removesuffix(".")
        return self.real_getaddrinfo(name, port, family, type, proto, flags | socket.AI_NUMERICHOST)

    def connect(self, sock, address):
        if isinstance(address, tuple):
            self.connections.append((address[0], address[1]))
            if not ipaddress.ip_address(address[0].split("%", 1)[0]).is_loopback:
                self.refused.append((address[0], address[1]))
                raise ConnectionRefusedError(f"the tests connect to loopback only, not {address[0]}")
        return self.real_connect(sock, address)

    def to_port(self, port: int) -> list[tuple[str, int]]:
        return [address for address in self.connections if address[1] == port]


@pytest.fixture(autouse=True)
def network(monkeypatch):
    fake = Network(socket.getaddrinfo, socket.socket.connect)
    monkeypatch.setattr(socket, "getaddrinfo", fake.getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", lambda sock, address: fake.connect(sock, address))
    yield fake
    assert not fake.refused, f"a test tried to connect out: {fake.refused}"


class Trap:
    """A port on 127.0.0.1 that accepts no request: ``connections()`` counts who connected
    (the kernel completes a connection's handshake before anyone accepts it)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]

    def connections(self) -> int:
        count = 0
        while True:
            try:
                accepted, _ = self.sock.accept()
            except BlockingIOError:
                return count
            accepted.close()
            count += 1


@pytest.fixture
def trap():
    port = Trap()
    yield port
    port.sock.close()


@pytest.fixture
def push_service(settings):
    service = PushService(vapid.public_key())
    settings.PIGPARLOR_PUSH_TEST_ORIGINS = [service.origin]
    settings.PIGPARLOR_PUSH_TURN_DELAY_MS = 0
    yield service
    service.close()
    assert not service.refused, service.refused


def subscribe(client, browser, **extra):
    """POST the browser's subscription, as push.js does."""
    return client.post("/push/subscriptions/", json.dumps({**browser.info, **extra}), content_type="application/json")


