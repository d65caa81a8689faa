"""Where a push may go: the endpoint rules, checked when a browser subscribes and
again before every send, and the send's connection pinned to the checked address.

A subscription's endpoint is a URL the browser hands us and this server then
POSTs to, so it is the subscriber's choice: left unchecked, it makes the server
open connections into its own network (server-side request forgery). The rules
(docs/operations.md "Push safety"):

- https only; the one exception is a test's local push service, an exact
  ``http://127.0.0.1:PORT`` origin listed in ``PIGPARLOR_PUSH_TEST_ORIGINS``
  (empty in production);
- a host name (letters, digits, hyphens, dots), never an address in any
  spelling the system's resolver takes (``127.1``, ``0177.0.0.1``,
  ``0x7f.0.0.1``, ``2130706433``, ``[::1]``, a trailing dot…);
- every address the name resolves to is public (``is_global``, and not
  multicast, loopback, private, link-local, reserved or unspecified);
- at send the name is resolved and checked again, and the connection goes to
  the checked address (TLS's SNI, the certificate check and the Host header
  keep the name), so a name whose answer changes after the check (DNS
  rebinding) cannot move the connection; no redirects are followed and no
  proxy from the environment is used.
"""
from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError
from urllib3.util import connection

HOST_NAME = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


class Refused(ValueError):
    """An endpoint this server will not contact. ``lasting``: the endpoint itself breaks
    a rule (a resolver's failure is not lasting: the name may resolve later)."""

    def __init__(self, message: str, lasting: bool = True):
        super().__init__(message)
        self.message = message
        self.lasting = lasting


@dataclass(frozen=True)
class Destination:
    """A checked endpoint: the name to speak to and the address to connect to."""
    scheme: str
    host: str
    port: int
    address: str


def test_origins() -> set[str]:
    """The test setting's origins, only those on 127.0.0.1 over plain http."""
    allowed = set()
    for origin in settings.PIGPARLOR_PUSH_TEST_ORIGINS:
        parts = urlsplit(origin)
        if parts.scheme == "http" and parts.hostname == "127.0.0.1" and parts.port and not parts.path:
            allowed.add(f"http://127.0.0.1:{parts.port}")
    return allowed


def numeric_address(host: str) -> str | None:
    """The address ``host`` spells, in any form the resolver takes as an address (inet_aton's
    legacy forms too), without asking DNS; None for a name."""
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
    except (socket.gaierror, UnicodeError, ValueError):
        return None
    return found[0][4][0]


def resolve(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """Every address the name resolves to (the system's resolver)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError) as failure:
        raise Refused(f"endpoint's host {host} cannot be resolved ({failure})", lasting=False) from None
    addresses = [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in found]
    if not addresses:
        raise Refused(f"endpoint's host {host} cannot be resolved", lasting=False)
    return addresses


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not (address.is_multicast or address.is_loopback or address.is_private
                                      or address.is_link_local or address.is_reserved or address.is_unspecified)


def check(endpoint: str) -> Destination:
    """The endpoint's destination if every rule holds (resolving its name now), else ``Refused``."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise Refused("endpoint is not a URL") from None
    if parts.scheme == "http" and f"http://{parts.hostname}:{port}" in test_origins():
        return Destination("http", "127.0.0.1", port, "127.0.0.1")
    if parts.scheme != "https":
        raise Refused("endpoint must be an https URL (a browser's push service)")
    if parts.username is not None or parts.password is not None:
        raise Refused("endpoint must be on a push service's host name, without a user or password")
    host = (parts.hostname or "").removesuffix(".")
    if numeric_address(host) is not None:
        raise Refused("endpoint must be on a push service's host name, not an address")
    if not HOST_NAME.match(host) or host.endswith((".localhost", ".local")):
        raise Refused("endpoint must be on a push service's host name")
    port = port or 443
    addresses = resolve(host, port)
    for address in addresses:
        if not is_public(address):
            raise Refused(f"endpoint's host {host} resolves to {address}, not a public address")
    return Destination("https", host, port, str(addresses[0]))


def _pinned_pool(pool_class, address: str):
    """``pool_class`` whose connections connect to ``address`` whatever their host name says
    (the name still goes in SNI, the certificate check and the Host header)."""

    class PinnedConnection(pool_class.ConnectionCls):
        def _new_conn(self) -> socket.socket:
            try:
                sock = connection.create_connection((address, self.port), self.timeout,
                                                    source_address=self.source_address,
                                                    socket_options=self.socket_options)
            except TimeoutError as failure:
                raise ConnectTimeoutError(self, f"Connection to {self.host} ({address}) timed out") from failure
            except OSError as failure:
                raise NewConnectionError(self, f"Failed to connect to {self.host} ({address}): {failure}") from failure
            return sock

    return type(f"Pinned{pool_class.__name__}", (pool_class,), {"ConnectionCls": PinnedConnection})


class PinnedAdapter(HTTPAdapter):
    def __init__(self, address: str):
        self.address = address
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _pinned_pool(HTTPConnectionPool, self.address),
                                                   "https": _pinned_pool(HTTPSConnectionPool, self.address)}



def session(destination: Destination) -> requests.Session:
    """A requests session for one send to ``destination``: to its checked address only,
    no redirects, no proxies from the environment."""
    pinned = requests.Session()
    pinned.trust_env = False
    pinned.max_redirects = 0
    adapter = PinnedAdapter(destination.address)
    pinned.mount("https://", adapter)
    pinned.mount("http://", adapter)
    return pinned
