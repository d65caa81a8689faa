"""Two small sockets: a game's lobby (its listing, and quick play's pool) and
one table's waiting room.

Both push HTML that htmx swaps out-of-band by id; only the lobby's accepts
input, the "Play now" form's join and leave.
"""
from __future__ import annotations

import asyncio
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from games.core.registry import UnknownGame, get_game
from pigparlor.accounts.guests import QUICK_PLAY_REFUSAL, is_guest
from pigparlor.lobby import pool
from pigparlor.lobby.listing import group_for_game, group_for_table, render_listing
from pigparlor.lobby.room import room_context
from pigparlor.moderation.chat import lobby_room
from pigparlor.moderation.sockets import CHAT_TYPES, HtmlChat
from pigparlor.tables.errors import BAD_REQUEST, TableError
from pigparlor.tables.guard import GuardedSocket, RateLimit, read_message
from pigparlor.tables.models import Table


class ReadOnlySocket(GuardedSocket):
    kind = "lobby"

    async def disconnect(self, code):
        await self.end()

    async def receive(self, text_data=None, bytes_data=None):
        """These sockets only listen; anything sent is ignored."""


class LobbyConsumer(HtmlChat, ReadOnlySocket):
    """``/ws/lobby/<slug>/``: the game's open and running tables, live, and
    quick play: ``{"pool": "join", "seats", "wait"}`` from the "Play now" form
    puts a signed-in player in the game's pool, ``{"pool": "leave"}`` (or
    closing the socket) takes them out. While in the pool the socket ticks the
    pool about once a second and shows how the wait goes. The lobby's chat
    (``{"type": "chat", "text"}`` and the other chat types) goes through the
    same strict input and size and rate checks as a table socket's."""

    ticker: asyncio.Task | None = None
    shown: str = ""

    async def connect(self):
        slug = self.scope["url_route"]["kwargs"]["slug"]
        try:
            self.game = get_game(slug)
        except UnknownGame:
            await self.close(code=4404)
            return
        # The user's group (joined by ``admit``) carries a chat timeout or mute too.
        if not await self.admit():
            return
        self.room = lobby_room(slug)
        self.limit = RateLimit()
        await self.join_groups([group_for_game(slug)])
        await self.accept()
        # The "Play now" panel too: after a reconnect the old socket's wait is gone with it.
        self.shown = self.pool_html()
        listing = await database_sync_to_async(render_listing)(self.game)
        await self.send(text_data=listing + self.shown + await self.opening_html())

    async def disconnect(self, code):
        self.stop_ticking()
        await database_sync_to_async(pool.leave_pool)(self.channel_name)
        await super().disconnect(code)

    async def refuse(self, refusal: TableError):
        await self.chat_refused(refusal)

    async def lobby_listing(self, event):
        await self.send(text_data=event["html"])

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = read_message(self.limit, text_data, bytes_data)
            if not isinstance(message, dict):
                raise TableError(BAD_REQUEST, "messages are JSON objects")
        except TableError as refusal:
            await self.chat_refused(refusal)
            return
        if message.get("type") in CHAT_TYPES:
            await self.handle_chat(message)
            return
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return
        if message.get("pool") == "join":
            try:
                request = pool.parse_request(self.game, message.get("pool_seats"), message.get("pool_wait"))
            except pool.PoolRefusal as refusal:
                await self.show_pool(error=str(refusal))
                return
            if await database_sync_to_async(is_guest)(user):  # quick play's tables are rated
                await self.show_pool(error=QUICK_PLAY_REFUSAL)
                return
            await database_sync_to_async(pool.join_pool)(user, self.game, request, self.channel_name)
            self.start_ticking()
            await self.update_pool()
        elif message.get("pool") == "leave":
            self.stop_ticking()
            await database_sync_to_async(pool.leave_pool)(self.channel_name)
            await self.show_pool()

    def start_ticking(self):
        if self.ticker is None or self.ticker.done():
            self.ticker = asyncio.ensure_future(self.tick_forever())

    def stop_ticking(self):
        if self.ticker is not None:
            self.ticker.cancel()
            self.ticker = None

    async def tick_forever(self):
        while True:
            await asyncio.sleep(pool.TICK_SECONDS)
            await database_sync_to_async(pool.heartbeat)(self.channel_name)
            await database_sync_to_async(pool.tick)(self.game)
            if not await self.update_pool():
                return

    async def pool_seated(self, event):
        await self.update_pool()

    async def update_pool(self) -> bool:
        """Show this socket's wait, or take the player to their table; False once out of the pool."""
        table_id = await database_sync_to_async(pool.seat_taken)(self.channel_name)
        if table_id is not None:
            self.stop_ticking()
            await self.show_pool(table_id=table_id)
            return False
        entry, waiting = await database_sync_to_async(self.pool_state)()
        if entry is None:
            await self.show_pool()
            return False
        await self.show_pool(entry=entry, waiting=waiting)
        return True

    def pool_state(self):
        entry = pool.entry_of(self.channel_name)
        return entry, (pool.waiting_count(entry) if entry is not None else 0)

    def pool_html(self, **context) -> str:
        return render_to_string("lobby/_pool_status.html", {"game": self.game, "oob": True,
                                                            **pool.pool_context(self.game, **context)})

    async def show_pool(self, **context):
        html = self.pool_html(**context)
        if html != self.shown:
            self.shown = html
            await self.send(text_data=html)


class WaitingRoomConsumer(ReadOnlySocket):
    """``/ws/lobby/tables/<id>/``: the waiting room for one viewer, re-rendered on every seat change."""

    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.invite_code = _query_value(self.scope, "invite")
        html = await self.render()
        if html is None:
            await self.close(code=4404)
            return
        if not await self.admit():
            return
        await self.join_groups([group_for_table(self.table_id)])
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
