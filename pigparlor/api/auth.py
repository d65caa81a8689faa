"""Bearer-token authentication for the JSON API's sockets (ASGI middleware)."""
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from pigparlor.api.tokens import bearer, user_for_token


class TokenAuthMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", ()))
        raw = bearer(headers.get(b"authorization", b"").decode("latin1"))
        user = await database_sync_to_async(user_for_token)(raw) if raw else None
        return await self.app({**scope, "user": user or AnonymousUser()}, receive, send)
