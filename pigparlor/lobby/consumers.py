"""Two small read-only sockets: a game's lobby listing and one table's waiting room.

Both only push HTML that htmx swaps out-of-band by id; neither accepts input.
"""
from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from pigparlor.lobby.listing import group_for_game, group_for_table, render_listing
from pigparlor.lobby.room import room_context
from pigparlor.tables.models import Table
from pigparlor.tables.registry import UnknownGame, get_game


class ReadOnlySocket(AsyncWebsocketConsumer):
    group: str = ""

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """These sockets only listen; anything sent is ignored."""


class LobbyConsumer(ReadOnlySocket):
    """``/ws/lobby/<slug>/``: the game's open and running tables, live."""

    async def connect(self):
        slug = self.scope["url_route"]["kwargs"]["slug"]
        try:
            self.game = get_game(slug)
        except UnknownGame:
            await self.close(code=4404)
            return
        self.group = group_for_game(slug)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(render_listing)(self.game))

    async def lobby_listing(self, event):
        await self.send(text_data=event["html"])


class WaitingRoomConsumer(ReadOnlySocket):
    """``/ws/lobby/tables/<id>/``: the waiting room for one viewer, re-rendered on every seat change."""

    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.invite_code = _query_value(self.scope, "invite")
        html = await self.render()
        if html is None:
            await self.close(code=4404)
            return
        self.group = group_for_table(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=html)

    async def lobby_table_changed(self, event):
        html = await self.render()
        if html is not None:
            await self.send(text_data=html)

    @database_sync_to_async
    def render(self) -> str | None:
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return None
        context = room_context(table, self.scope["user"], self.invite_code)
        if context is None:
            return None
        return render_to_string("lobby/_room.html", {**context, "oob": True, "user": self.scope["user"],
                                                      "origin": _origin(self.scope)})


def _query_value(scope, name: str) -> str | None:
    values = parse_qs(scope.get("query_string", b"").decode()).get(name)
    return values[0] if values else None


def _origin(scope) -> str:
    """The site's origin as the browser sees it, for absolute invite links."""
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin", b"").decode()
    if origin:
        return origin
    host = headers.get(b"host", b"").decode()
    return f"http://{host}" if host else ""
