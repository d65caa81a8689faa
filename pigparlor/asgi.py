"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Browser sockets (cookie sessions) pass the exact origin check (scheme, host
and port: ``pigparlor/origin.py``) and session auth; the JSON API's sockets
authenticate with a bearer token instead, which a page on another origin
cannot send, so they need no origin check.
"""
import os
from importlib.util import find_spec

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pigparlor.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from pigparlor.api.auth import TokenAuthMiddleware  # noqa: E402
from pigparlor.api.routing import websocket_urlpatterns as api_sockets  # noqa: E402
from pigparlor.origin import SameOriginValidator  # noqa: E402
from pigparlor.tables.routing import websocket_urlpatterns as table_sockets  # noqa: E402
from pigparlor.tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402

browser_sockets = list(table_sockets) + list(tournament_sockets)
# The lobby's live listing socket, when that app provides one.
if find_spec("pigparlor.lobby.routing") is not None:
    from pigparlor.lobby.routing import websocket_urlpatterns as lobby_sockets  # noqa: E402
    browser_sockets += lobby_sockets


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other WebSocket path: refused at the handshake, quietly (no traceback)."""

    async def connect(self):
        await self.close(code=4404)


def for_browsers(route):
    return path(str(route.pattern), SameOriginValidator(AuthMiddlewareStack(route.callback)))


def for_programs(route):
    return path(str(route.pattern), TokenAuthMiddleware(route.callback))


application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": URLRouter([*map(for_programs, api_sockets), *map(for_browsers, browser_sockets),
                            re_path(r"", NoSuchSocket.as_asgi())]),
})
