"""The tournaments' browser sockets; they only listen (anything sent is ignored).

- ``/ws/tournaments/``: the list page. Group ``tournaments``.
- ``/ws/tournaments/<id>/``: one tournament's page. Group ``tournament-<id>``;
  while the tournament runs it also re-renders its board every
  ``PIGPARLOR_TOURNAMENT_PROGRESS_SECONDS`` (the tables' progress), sending
  only what changed. When the viewer gets a new table, their panel carries a
  link the page follows at once (``a[data-follow]``, static/js/site.js).
- ``/ws/player/``: every page of a signed-in player (base.html). Group
  ``player-<user_id>``: "your table is ready" shows a banner with the link, and
  the notifications menu in the header (pigparlor/pwa/inbox.py) is rendered on
  connect and again on ``inbox.changed`` (and when a tournament table is ready
  or over), sent only when it changed.
  It keeps no presence row, so it never counts against the per-user cap on
  table sockets (``PIGPARLOR_MAX_SOCKETS_PER_USER``, tables/presence.py).
  A cancelled tournament (``tournament.cancelled``) shows its reason there too.

A burst of changes is coalesced: while one render runs, later messages only
ask for one more render after it.
"""
from __future__ import annotations

import asyncio
import logging

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from pigparlor.pwa.inbox import inbox_html
from pigparlor.tournaments import live
from pigparlor.tournaments.announce import LIST_GROUP, player_group, tournament_group
from pigparlor.tournaments.models import RUNNING

log = logging.getLogger(__name__)


class ListeningSocket(AsyncWebsocketConsumer):
    """Joins one group, renders on connect and on every change, sends what differs."""

    group = ""
    shown = ""
    busy: asyncio.Task | None = None
    again = False

    async def join(self, group: str) -> None:
        self.group = group
        await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code):
        if self.busy is not None:
            self.busy.cancel()
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """These sockets only listen."""

    async def dispatch(self, message):
        """A message type this socket has no use for (the player group may carry
        more kinds later) is ignored rather than closing the socket."""
        if getattr(self, get_handler_name(message), None) is None:
            log.debug("tournament socket %s ignores %s", self.group, message.get("type"))
            return
        await super().dispatch(message)

    async def render(self) -> str | None:
        raise NotImplementedError

    async def refresh(self) -> None:
        """Render and send now, or once more after the render under way."""
        if self.busy is not None and not self.busy.done():
            self.again = True
            return
        self.busy = asyncio.ensure_future(self._refresh_until_quiet())

    async def _refresh_until_quiet(self) -> None:
        while True:
            self.again = False
            try:
                html = await self.render()
            except Exception:
                log.exception("tournament socket %s: render failed", self.group)
                html = None
            if html and html != self.shown:
                self.shown = html
                await self.send(text_data=html)
            if not self.again:
                return

    async def tournament_changed(self, event):
        await self.refresh()


class TournamentListConsumer(ListeningSocket):
    async def connect(self):
        await self.join(LIST_GROUP)
        await self.accept()
        await self.refresh()

    @database_sync_to_async
    def render(self) -> str:
        return live.list_html()


class TournamentConsumer(ListeningSocket):
    """Sends the board and the viewer's panel each only when it changed; the
    progress tick re-renders the board alone (the panel moves only with the
    tournament), so a focused button is not swapped away every few seconds."""

    tournament_id: int
    table_id: int | None = None
    ticker: asyncio.Task | None = None
    board = ""
    mine = ""
    mine_stale = True

    async def connect(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.user = self.scope.get("user")
        # Join before the first render, so no change can fall between the two.
        await self.join(tournament_group(self.tournament_id))
        first = await self.render(first=True)
        if first is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = ""
            await self.close(code=4404)
            return
        await self.accept()
        self.shown = first
        await self.send(text_data=first)

    async def disconnect(self, code):
        if self.ticker is not None:
            self.ticker.cancel()
        await super().disconnect(code)

    async def tournament_changed(self, event):
        self.mine_stale = True
        await self.refresh()

    async def render(self, first: bool = False) -> str | None:
        """The parts that changed since the last send ("" if none); None if the tournament is gone."""
        rendered = await self._render(first)
        if rendered is None:
            return None
        board, mine, running = rendered
        self._keep_ticking(running)
        changed = ""
        if board != self.board:
            self.board = changed = board
        if mine is not None and mine != self.mine:
            self.mine = mine
            changed += mine
        return changed

    @database_sync_to_async
    def _render(self, first: bool) -> tuple[str, str | None, bool] | None:
        tournament = live.load(self.tournament_id)
        if tournament is None:
            return None
        mine = None
        if self.mine_stale or first:
            self.mine_stale = False
            mine, self.table_id = live.me_html(tournament, self.user, self.table_id, follow_new=not first)
        return live.board_html(tournament), mine, tournament.status == RUNNING

    def _keep_ticking(self, running: bool) -> None:
        if running and (self.ticker is None or self.ticker.done()):
            self.ticker = asyncio.ensure_future(self._tick())
        elif not running and self.ticker is not None:
            self.ticker.cancel()
            self.ticker = None

    async def _tick(self):
        while True:
            await asyncio.sleep(live.progress_seconds())
            await self.refresh()


class PlayerConsumer(ListeningSocket):
    """A signed-in player's "your table is ready" banner, on every page; it
    goes away when that table finishes (``tournament.table_over``). And the
    notifications menu, kept fresh (``render``)."""

    banner_table: int | None = None

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.user = user
        await self.join(player_group(user.pk))
        await self.accept()
        html, self.banner_table = await database_sync_to_async(live.banner_html)(user)
        if self.banner_table is not None:
            await self.send(text_data=html)
        await self.refresh()

    @database_sync_to_async
    def render(self) -> str:
        return inbox_html(self.user)

    async def inbox_changed(self, event):
        await self.refresh()

    async def tournament_table_ready(self, event):
        html, self.banner_table = await database_sync_to_async(live.banner_html)(
            self.user, event["tournament_id"], event["table_id"])
        await self.send(text_data=html)
        await self.refresh()

    async def tournament_table_over(self, event):
        if event["table_id"] == self.banner_table:
            self.banner_table = None
            await self.send(text_data=await database_sync_to_async(live.empty_banner_html)())
        await self.refresh()

    async def tournament_cancelled(self, event):
        html = await database_sync_to_async(live.cancelled_html)(event["tournament_id"], event["reason"])
        self.banner_table = None
        await self.send(text_data=html)
