"""The origin check of browser sockets: scheme, host and port must all be this site's.

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host name
with ``ALLOWED_HOSTS``, so a page served by any other program on the same
machine (``http://127.0.0.1:9999``) could open a player's table socket on
``:8000`` with the player's cookies and act for them. This is Django's CSRF
origin check, for sockets: the Origin must be exactly the origin the browser
asked for — the connection's scheme (or the trusted proxy's, with
``SECURE_PROXY_SSL_HEADER``) and the Host header as sent, which must itself
be valid for ``ALLOWED_HOSTS`` — or one of ``CSRF_TRUSTED_ORIGINS``.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain


class SameOriginValidator:
    """ASGI middleware: refuse (close before accepting) a socket from any other origin."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if same_origin(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


def same_origin(scope) -> bool:
    origin, host = _only(scope, b"origin"), _only(scope, b"host")
    if not origin or not host:
        return False
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    origin = origin.lower()
    return origin == f"{_scheme(scope)}://{host.lower()}" or _trusted(origin)


def _only(scope, name: bytes) -> str | None:
    """The header's value if it was sent exactly once (two Origins are no origin)."""
    values = [value for key, value in scope.get("headers", []) if key.lower() == name]
    if len(values) != 1:
        return None
    try:
        return values[0].decode("ascii").strip()
    except UnicodeDecodeError:
        return None


def _scheme(scope) -> str:
    """The scheme of the page that opened the socket, as ``request.scheme`` finds it."""
    if settings.SECURE_PROXY_SSL_HEADER:
        name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        forwarded = _only(scope, name.removeprefix("HTTP_").replace("_", "-").lower().encode())
        if forwarded is not None:
            return "https" if forwarded.split(",")[0].strip() == secure_value else "http"
    return "https" if scope.get("scheme") == "wss" else "http"


def _trusted(origin: str) -> bool:
    """One of ``CSRF_TRUSTED_ORIGINS``: exact, or ``https://*.example.com`` for its subdomains."""
    parsed = urlsplit(origin)
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        trusted = trusted.lower()
        if "*" not in trusted:
            if origin == trusted:
                return True
            continue
        pattern = urlsplit(trusted)
        if parsed.scheme == pattern.scheme and is_same_domain(parsed.netloc, pattern.netloc.lstrip("*")):
            return True
    return False
