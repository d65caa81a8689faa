"""Bearer-token authentication for the JSON API's sockets (ASGI middleware)."""
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from pigparlor.api.tokens import bearer, token_for


class TokenAuthMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", ()))
        raw = bearer(headers.get(b"authorization", b"").decode("latin1"))
        token = await database_sync_to_async(token_for)(raw) if raw else None
        user = token.user if token is not None else AnonymousUser()
        token_id = token.pk if token is not None else None
        return await self.app({**scope, "user": user, "api_token_id": token_id}, receive, send)
